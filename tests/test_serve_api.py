"""grade serve's JSON API, through Starlette's test client: the same JSON as the CLI for every
shipped report, each endpoint, and every kind of bad request answered with a JSON error.

Starlette, uvicorn and httpx2 (the test client's) come with the test extra, so these run
in CI too, and a missing one fails them rather than skipping them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import yaml

from tests.cli_run import grade

pytest.importorskip(
    "starlette", reason="grade serve's extra is not installed: pip install -e '.[serve]'"
)

from starlette.testclient import TestClient  # noqa: E402

from grader.report.document import MAX_BYTES  # noqa: E402
from grader.serve.app import MAX_BODY, create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "submissions"
LABELS = yaml.safe_load((SUBMISSIONS / "labels.yaml").read_text())


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(graders=2)) as test_client:
        yield test_client


def post(client: TestClient, exercise: object, report: object, **more: object):
    return client.post("/api/grade", json={"exercise": exercise, "report": report, **more})


@pytest.mark.parametrize("name", sorted(LABELS))
def test_every_shipped_report_gets_the_text_the_cli_prints(client, name, monkeypatch):
    exercise = LABELS[name]["exercise"]
    monkeypatch.chdir(SUBMISSIONS)  # so that the CLI names the file as the API does: s-a01.md
    cli = grade(name, "--exercise", exercise, "--format", "json")
    assert cli.exit_code == 0, cli.stderr
    text = (SUBMISSIONS / name).read_bytes().decode("utf-8-sig")
    answer = post(client, exercise, text, name=name)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert answer.text == cli.stdout.rstrip("\n")


def test_a_report_with_parts_is_graded_on_the_chosen_part_as_the_cli_does(client, tmp_path):
    part_a = (SUBMISSIONS / "s-a01.md").read_text()
    both = f"## Part A\n{part_a}\n## Part B\nWorkload: other\n"
    (tmp_path / "both.md").write_text(both)
    cli = grade(str(tmp_path / "both.md"), "-e", "partA", "-f", "json")
    answer = post(client, "partA", both, name="both.md")
    expected = json.loads(cli.stdout)
    expected["submission"] = "both.md"
    assert answer.json() == expected and expected["score"] == 100.0


def test_the_exercises_are_listed_with_what_show_and_template_print(client):
    answer = client.get("/api/exercises").json()
    assert answer["max_bytes"] == MAX_BYTES
    assert [e["id"] for e in answer["exercises"]] == ["partA", "partB", "partC"]
    for entry in answer["exercises"]:
        assert entry["show"] + "\n" == grade("show", entry["id"]).stdout
        assert entry["template"] == grade("template", entry["id"]).stdout


def test_the_template_downloads_as_a_markdown_file(client):
    answer = client.get("/api/template/partB")
    assert answer.status_code == 200
    assert answer.text == grade("template", "partB").stdout
    assert answer.headers["content-type"].startswith("text/markdown")
    assert 'filename="partB-report.md"' in answer.headers["content-disposition"]
    missing = client.get("/api/template/partZ")
    assert missing.status_code == 404 and "unknown exercise 'partZ'" in missing.json()["error"]


def test_explain_answers_what_grade_explain_prints(client):
    answer = client.get("/api/explain/two-hypotheses")
    assert answer.status_code == 200
    assert answer.json()["text"] + "\n" == grade("explain", "two-hypotheses").stdout
    assert answer.json()["title"] and answer.json()["criterion"] == "two-hypotheses"
    missing = client.get("/api/explain/two-hypothesis")
    assert missing.status_code == 404
    assert "did you mean 'two-hypotheses'?" in missing.json()["error"]


def test_the_page_and_its_files_load_nothing_from_elsewhere(client):
    for path, kind in [
        ("/", "text/html"),
        ("/static/app.js", "javascript"),
        ("/static/style.css", "css"),
    ]:
        answer = client.get(path)
        assert answer.status_code == 200 and kind in answer.headers["content-type"]
        assert "default-src 'none'" in answer.headers["content-security-policy"]
        assert "://" not in answer.text, f"{path} names another site"
    assert ".innerHTML" not in client.get("/static/app.js").text  # learners' text stays text


def test_unknown_addresses_and_methods_answer_json_errors(client):
    missing = client.get("/static/../../pyproject.toml")
    assert missing.status_code == 404 and "error" in missing.json()
    wrong = client.get("/api/grade")
    assert wrong.status_code == 405 and wrong.json()["error"].startswith("method not allowed")


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        (b"", 400, "the request has no body"),
        (b"   \n", 400, "the request has no body"),
        (b"Workload: x", 400, "the body is not JSON"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", 400, "the body is not JSON"),
        (b'["partA", "report"]', 400, "must be a JSON object"),
        (b'{"exercise": "partA"}', 400, '"report" must be a string'),
        (b'{"exercise": "partA", "report": 42}', 400, '"report" must be a string'),
        (b'{"report": "x"}', 400, '"exercise" must be a string, one of partA, partB, partC'),
        (b'{"exercise": "partA", "report": "x", "reprot": "y"}', 400, "unknown field(s) reprot"),
        (b'{"exercise": "partA", "report": "x", "name": 7}', 400, '"name" must be a string'),
        (b'{"exercise": "parta", "report": "x"}', 404, "did you mean 'partA'?"),
        (b'{"exercise": "partA", "report": ""}', 422, "report.md: is empty"),
        (b'{"exercise": "partA", "report": " \\n\\n "}', 422, "report.md: is empty"),
        (b'{"exercise": "partA", "report": "Workload:\\u0000x"}', 422, "is a binary file"),
    ],
)
def test_a_bad_request_gets_a_json_error_saying_what_is_wrong(client, body, status, says):
    answer = client.post("/api/grade", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == status
    assert answer.headers["content-type"] == "application/json"
    assert says in answer.json()["error"]


def test_an_exercise_id_never_reaches_the_file_system(client):
    """grade REPORT --exercise takes a YAML path too; the API takes only the listed ids."""
    for path in (str(ROOT / "exercises" / "partA.yaml"), "../exercises/partA.yaml", "partA.yaml"):
        answer = post(client, path, "Workload: x")
        assert answer.status_code == 404 and "expected one of partA" in answer.json()["error"]


def test_the_name_is_only_a_label(client):
    answer = post(client, "partA", "Workload: x\n", name="../../etc/passwd")
    assert answer.status_code == 200 and answer.json()["submission"] == "passwd"
    assert post(client, "partA", "Workload: x\n").json()["submission"] == "report.md"


def test_a_report_over_the_limit_is_refused_as_the_cli_refuses_the_file(client, tmp_path):
    big = "Workload: x\n" + "a" * MAX_BYTES
    (tmp_path / "big.md").write_text(big)
    cli = grade(str(tmp_path / "big.md"), "-e", "partA")
    answer = post(client, "partA", big, name="big.md")
    assert answer.status_code == 413
    assert (
        answer.json()["error"]
        == cli.stderr.removeprefix("error: ").replace(str(tmp_path) + "/", "").strip()
    )
    accented = "é" * (MAX_BYTES // 2 + 1)  # fewer characters than the limit, more bytes
    assert post(client, "partA", accented).status_code == 413


def test_a_report_past_a_bound_gets_the_clis_message(client, tmp_path):
    lines = "Workload: x\n" + "x\n" * 10_000
    (tmp_path / "long.md").write_text(lines)
    cli = grade(str(tmp_path / "long.md"), "-e", "partA")
    answer = post(client, "partA", lines, name="long.md")
    assert answer.status_code == 422 and cli.exit_code == 2
    assert cli.stderr == f"error: {tmp_path}/{answer.json()['error']}\n"


def test_invalid_utf8_is_replaced_with_a_warning_as_in_a_file(client):
    body = b'{"exercise": "partA", "report": "Workload: x \\udcff\\n"}'  # a lone surrogate
    answer = client.post("/api/grade", content=body)
    assert answer.status_code == 200
    assert "not valid UTF-8" in answer.json()["warnings"][0]


def _call(app, headers: list[tuple[bytes, bytes]], chunks) -> tuple[int, dict, int]:
    """Call the application directly, counting the body chunks it reads."""
    read = 0
    sent: list[dict] = []

    async def receive():
        nonlocal read
        read += 1
        return next(chunks)

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/grade",
        "raw_path": b"/api/grade",
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(body), read


def test_a_body_too_large_is_refused_before_it_is_read():
    app = create_app(graders=1)  # no lifespan: nothing here reaches the graders

    def endless():
        while True:
            yield {"type": "http.request", "body": b"x" * 1_000_000, "more_body": True}

    length = str(MAX_BODY + 1).encode()
    status, answer, read = _call(app, [(b"content-length", length)], endless())
    assert status == 413 and read == 0
    assert f"the request body is {MAX_BODY + 1:,} bytes" in answer["error"]
    # Without a length (chunked), reading stops as soon as the limit is passed.
    status, answer, read = _call(app, [], endless())
    assert status == 413 and read == MAX_BODY // 1_000_000 + 1
