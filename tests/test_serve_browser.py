"""The self-check page in a real browser: headless Chromium (Debian's package) driven by
Playwright, against ``grade serve`` on a free port.

Skipped unless both are installed (CI installs neither):
    apt-get install chromium && pip install playwright
    pytest tests/test_serve_browser.py
Playwright drives /usr/bin/chromium itself: ``playwright install`` (which downloads a
browser) is never needed.  Screenshots go to pytest's temporary folder, or to the folder
SERVE_SCREENSHOTS names.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests import chromium
from tests.cli_run import grade
from tests.serve_run import serving

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip("no Chromium installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
)

ROOT = Path(__file__).resolve().parent.parent
FLAGS = chromium.FLAGS


@pytest.fixture(scope="module")
def server():
    with serving() as running:
        yield running


@pytest.fixture
def page(tmp_path):
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"),  # a fresh --user-data-dir
            executable_path=CHROMIUM,
            args=FLAGS,
            viewport={"width": 1280, "height": 900},
        )
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        yield tab
        context.close()
        assert not errors, errors


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("SERVE_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# Waits use Playwright's expect(), not wait_for_function(): the page's Content-Security-Policy
# forbids evaluating strings, and the tests run with it on.


def cli_result(name: str, exercise: str) -> dict:
    return json.loads(grade(str(ROOT / "submissions" / name), "-e", exercise, "-f", "json").stdout)


def open_page(page, server) -> None:
    page.goto(server.address)
    page.wait_for_selector("#exercise:not([disabled])")


def test_a_pasted_report_is_graded_with_its_deciding_lines_highlighted(page, server, tmp_path):
    expected = cli_result("s-a03.md", "partA")
    open_page(page, server)
    page.select_option("#exercise", "partA")
    page.fill("#report", (ROOT / "submissions" / "s-a03.md").read_text())
    page.click("#grade")
    page.wait_for_selector(".line.hit")
    assert page.inner_text("#score") == f"Score {expected['score']:g} / 100"
    assert page.inner_text("#letter") == expected["grade"]
    diagnosis = next(c for c in expected["criteria"] if c["id"] == "diagnosis-matches")
    line = diagnosis["evidence"]["line"]
    highlighted = page.locator(f"#line-{line}")
    assert "hit" in highlighted.get_attribute("class")
    assert "failed" in highlighted.get_attribute("class")  # diagnosis-matches failed there
    assert highlighted.locator("a.mark", has_text="diagnosis-matches").count() == 1
    # The criterion links to its line, and the line back to the criterion.
    page.click(f"#crit-diagnosis-matches a[href='#line-{line}']")
    assert page.evaluate("location.hash") == f"#line-{line}"
    highlighted.locator("a.mark", has_text="diagnosis-matches").click()
    assert page.evaluate("location.hash") == "#crit-diagnosis-matches"
    assert page.locator(".criterion").count() == len(expected["criteria"])
    page.screenshot(path=str(shots(tmp_path) / "serve-page.png"), full_page=True)


def test_editing_regrades_without_a_click_or_a_reload(page, server):
    open_page(page, server)
    page.fill("#report", (ROOT / "submissions" / "s-a03.md").read_text())
    sync_api.expect(page.locator("#score")).to_contain_text("Score")
    before = page.inner_text("#score")
    page.evaluate("window.loaded = true")  # gone if the page reloads
    page.fill("#report", (ROOT / "submissions" / "s-a01.md").read_text())
    sync_api.expect(page.locator("#score")).to_have_text("Score 100 / 100")
    assert before != "Score 100 / 100" and page.evaluate("window.loaded") is True


def test_the_keyboard_grades_and_a_file_can_be_opened(page, server, tmp_path):
    open_page(page, server)
    page.select_option("#exercise", "partB")
    page.uncheck("#live")
    page.fill("#report", (ROOT / "submissions" / "s-b02.md").read_text())
    page.focus("#report")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(".line.hit")
    assert page.inner_text("#score") == f"Score {cli_result('s-b02.md', 'partB')['score']:g} / 100"
    page.set_input_files("#file", str(ROOT / "submissions" / "s-b04.md"))
    expected = f"Score {cli_result('s-b04.md', 'partB')['score']:g} / 100"
    sync_api.expect(page.locator("#score")).to_have_text(expected)


def test_what_the_learner_wrote_is_shown_as_text_never_run(page, server):
    open_page(page, server)
    hostile = 'Workload: <img src=x onerror="window.pwned=1"> <script>window.pwned=2</script>\n'
    page.fill("#report", hostile)
    page.click("#grade")
    page.wait_for_selector("#line-1")
    assert page.inner_text("#line-1 .text") == hostile.rstrip("\n")
    assert page.locator("#lines img, #lines script, #criteria img").count() == 0
    assert page.evaluate("window.pwned") is None


def test_the_template_is_one_click_away(page, server):
    open_page(page, server)
    page.select_option("#exercise", "partC")
    page.click("#use-template")
    assert page.input_value("#report") == grade("template", "partC").stdout


def test_on_a_phone_nothing_is_wider_than_the_screen(page, server, tmp_path):
    page.set_viewport_size({"width": 390, "height": 844})
    open_page(page, server)
    page.fill("#report", (ROOT / "submissions" / "s-a01.md").read_text())
    page.click("#grade")
    page.wait_for_selector(".line.hit")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(shots(tmp_path) / "serve-phone.png"))


def test_a_verdict_flagged_for_review_says_so(page, server):
    expected = cli_result("s-a05.md", "partA")
    flagged = [c["id"] for c in expected["criteria"] if c["review"]]
    assert flagged  # this report has a verdict the grader flags for a person to check
    open_page(page, server)
    page.fill("#report", (ROOT / "submissions" / "s-a05.md").read_text())
    page.click("#grade")
    page.wait_for_selector(".line.hit")
    for cid in flagged:
        assert page.locator(f"#crit-{cid} .review-flag").count() == 2  # the badge and the note
    sync_api.expect(page.locator("#flagged")).to_be_visible()
    assert page.locator(".criterion .review-flag").count() == 2 * len(flagged)
