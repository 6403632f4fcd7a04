"""The ``grade serve`` command: without its extra, with bad options, and as a real server on
a free port of this machine (HTTP over loopback, stopped with Ctrl-C)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.cli_run import grade
from tests.serve_run import serving

ROOT = Path(__file__).resolve().parent.parent


def test_without_the_extra_it_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # what a missing package looks like
    result = grade("serve")
    assert result.exit_code == 2
    assert "grade serve needs uvicorn, which is not installed" in result.stderr
    assert "pip install 'triage-grader[serve]'" in result.stderr
    assert "Traceback" not in result.output


def test_grading_a_report_imports_neither_starlette_nor_the_server():
    code = (
        "import sys; sys.argv = ['grade', 'submissions/s-a01.md', '-e', 'partA'];"
        "from grader.console import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    assert e.code == 0, e.code\n"
        "serving = ('starlette', 'uvicorn', 'anyio', 'grader.serve')\n"
        "loaded = [m for m in serving if m in sys.modules]\n"
        "assert not loaded, loaded"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "five-fields" in out.stdout


def test_a_folder_without_exercises_stops_it_before_it_listens(tmp_path):
    result = grade("serve", "--exercises", str(tmp_path), "--port", "0")
    assert result.exit_code == 2
    assert f"{tmp_path}: holds no exercise (.yaml) file" in result.stderr


def test_a_port_in_use_is_one_message():
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = grade("serve", "--port", str(port))
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1 port {port}:" in result.stderr


def _post(address: str, body: bytes) -> tuple[int, str]:
    request = urllib.request.Request(
        address + "api/grade", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_the_server_answers_over_http_and_stops_on_ctrl_c(monkeypatch):
    monkeypatch.chdir(ROOT / "submissions")
    cli = grade("s-b02.md", "-e", "partB", "-f", "json").stdout.rstrip("\n")
    report = (ROOT / "submissions" / "s-b02.md").read_text()
    with serving() as server:
        assert server.address.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(server.address, timeout=30) as page:
            assert b"Self-check" in page.read()
        body = json.dumps({"exercise": "partB", "report": report, "name": "s-b02.md"}).encode()
        assert _post(server.address, body) == (200, cli)
        status, error = _post(server.address, b'{"exercise": "partB", "report": ""}')
        assert status == 422 and json.loads(error) == {
            "error": "report.md: is empty; expected a markdown report"
        }
    assert server.stopped is not None
    code, stderr = server.stopped
    assert code == 0 and "grade serve: stopped" in stderr and "Traceback" not in stderr


def _read_response(conn: socket.socket) -> str:
    """One HTTP response, headers and body (its Content-Length), however it is split."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length")
    )
    while len(body) < length:
        body += conn.recv(65536)
    return (head + b"\r\n\r\n" + body).decode()


def test_over_the_network_a_large_body_is_refused_unread():
    """Only the headers are sent: the 413 comes back without the body being waited for."""
    with serving() as server:
        host, port = server.address.removeprefix("http://").rstrip("/").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as conn:
            conn.sendall(
                b"POST /api/grade HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 50000000\r\n\r\n{"
            )
            answer = _read_response(conn)
    status_line, _, rest = answer.partition("\r\n")
    assert status_line.split()[1] == "413"
    assert "the request body is 50,000,000 bytes" in rest


@pytest.mark.parametrize("port", ["70000", "x"])
def test_a_bad_port_is_a_usage_error(port):
    result = grade("serve", "--port", port)
    assert result.exit_code == 2 and "port" in result.stderr


def test_the_autograder_wheel_ships_the_page_but_needs_no_server():
    """The page's files are package data; the serve extra is not a dependency Gradescope's
    setup must install."""
    import io
    import zipfile

    from grader.autograder import _requires, build_wheel

    _, data = build_wheel()
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        names = wheel.namelist()
        metadata = next(wheel.read(n) for n in names if n.endswith(".dist-info/METADATA"))
    for name in ("index.html", "app.js", "style.css"):
        assert f"grader/serve/static/{name}" in names
    assert not any(r.startswith(("starlette", "uvicorn")) for r in _requires())
    assert b"starlette" not in metadata and b"uvicorn" not in metadata
