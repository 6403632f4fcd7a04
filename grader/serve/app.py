"""The web application of ``grade serve``: the self-check page and the JSON API it uses.

``POST /api/grade`` answers the very text ``grade REPORT --exercise X --format json``
prints for the same report (``grader.grading.results_json``, computed in a grader process,
``grader.serve.workers``).  ``GET /api/exercises`` lists the exercises with what ``grade
show`` and ``grade template`` print, ``GET /api/template/{exercise}`` is the blank report as
a file, and ``GET /api/explain/{criterion}`` is what ``grade explain`` prints.  Every
error is JSON, ``{"error": "..."}``, with a 4xx status (5xx only when the server is busy or
broken).  Nothing from a request reaches the file system: exercise and criterion ids are
looked up in what was loaded at start, and the page's three files are read once at start.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path, PurePosixPath
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from grader.batch.pool import TIME_LIMIT
from grader.errors import GraderError
from grader.report.document import MAX_BYTES
from grader.serve.catalog import Entry, load_catalog, unknown_exercise
from grader.serve.workers import Graders, Refused

# A report of MAX_BYTES takes at most four times as many bytes as a JSON string, whatever
# its characters and however the client escapes them (control characters aside): a body
# larger than this is refused before it is read.
MAX_BODY = 4 * MAX_BYTES
BODY_SECONDS = 30.0  # to send the body; a client slower than this is cut off
FIELDS = ("exercise", "report", "name")
DEFAULT_NAME = "report.md"
PAGE_FILES = {  # address: (file in grader/serve/static, content type)
    "/": ("index.html", "text/html; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/style.css": ("style.css", "text/css; charset=utf-8"),
}
# The page loads nothing from elsewhere, runs no inline script, and is framed by no one.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _submission_name(value: object) -> str:
    """The name a report is graded under (``submission`` and warnings name it): a file's
    base name, only ever a label; ``report.md`` when none is given."""
    if value is None:
        return DEFAULT_NAME
    if not isinstance(value, str):
        raise Refused(400, '"name" must be a string, the report\'s file name')
    name = PurePosixPath(value.replace("\\", "/")).name
    name = "".join(c for c in name if c.isprintable())[:200]
    return name or DEFAULT_NAME


async def _read_body(request: Request) -> bytes:
    """The request's body, refused unread (413) when it says or turns out to be too large."""
    too_large = f"a report may be at most {MAX_BYTES:,} bytes (a request body {MAX_BODY:,})"
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise Refused(400, f"Content-Length is not a number: {length[:40]!r}")
        if int(length) > MAX_BODY:
            raise Refused(413, f"the request body is {int(length):,} bytes; {too_large}")
    chunks = []
    size = 0
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY:
                    raise Refused(413, f"the request body is over {MAX_BODY:,} bytes; {too_large}")
                chunks.append(chunk)
    except TimeoutError:
        raise Refused(408, f"the request body took over {BODY_SECONDS:g} s to arrive") from None
    return b"".join(chunks)


def _grade_request(body: bytes, catalog: dict[str, Entry]) -> tuple[str, str, str]:
    """(exercise id, report text, name) from a body ``{"exercise": ..., "report": ...}``."""
    if not body.strip():
        raise Refused(400, 'the request has no body; send {"exercise": ID, "report": TEXT}')
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise Refused(400, f"the body is not JSON ({exc}); send it as application/json") from None
    if not isinstance(data, dict):
        raise Refused(400, 'the body must be a JSON object {"exercise": ID, "report": TEXT}')
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise Refused(400, f"unknown field(s) {', '.join(unknown)[:200]}; expected {FIELDS}")
    exercise, report = data.get("exercise"), data.get("report")
    if not isinstance(exercise, str):
        raise Refused(400, f'"exercise" must be a string, one of {", ".join(catalog)}')
    if exercise not in catalog:
        raise Refused(404, unknown_exercise(exercise, catalog))
    if not isinstance(report, str):
        raise Refused(400, '"report" must be a string: the report\'s markdown text')
    name = _submission_name(data.get("name"))
    size = len(report.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:  # the message grade REPORT gives for such a file
        raise Refused(
            413, f"{name}: is {size:,} bytes; a report may be at most {MAX_BYTES:,} bytes"
        )
    return exercise, report, name


def create_app(
    directory: Path | None = None,
    graders: int | None = None,
    time_limit: float = TIME_LIMIT,
    on_ready: Callable[[], None] | None = None,
) -> Starlette:
    """The application for the exercises of ``directory`` (the shipped ones by default);
    ``graders`` processes grade (one per core by default), each report within
    ``time_limit`` seconds; ``on_ready`` is called once the graders have started."""
    from grader.checks.registry import load_all
    from grader.reporters.explain import render_explain
    from grader.rubric import criterion_titles

    catalog = load_catalog(directory)  # a bad exercise or rubric stops the server here
    load_all()
    titles = criterion_titles()
    static = files("grader.serve") / "static"
    page = {path: (static / name).read_bytes() for path, (name, _) in PAGE_FILES.items()}
    pool = Graders(directory, graders, time_limit)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pool.start()
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            await pool.close()

    async def page_file(request: Request) -> Response:
        path = request.url.path
        return Response(page[path], media_type=PAGE_FILES[path][1], headers=PAGE_HEADERS)

    async def no_icon(request: Request) -> Response:  # browsers ask; there is none
        return Response(status_code=204)

    async def exercises(request: Request) -> Response:
        return JSONResponse(
            {"exercises": [e.to_dict() for e in catalog.values()], "max_bytes": MAX_BYTES}
        )

    async def template(request: Request) -> Response:
        exercise = request.path_params["exercise"]
        if exercise not in catalog:
            return _error(404, unknown_exercise(exercise, catalog))
        return Response(
            catalog[exercise].template,
            media_type="text/markdown; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{exercise}-report.md"'},
        )

    async def explain(request: Request) -> Response:
        criterion = request.path_params["criterion"][:100]  # ids are short; a message echoes it
        try:
            text = render_explain(criterion)
        except GraderError as exc:
            return _error(404, str(exc))
        return JSONResponse({"criterion": criterion, "title": titles[criterion], "text": text})

    async def grade(request: Request) -> Response:
        try:
            exercise, report, name = _grade_request(await _read_body(request), catalog)
            answer = await pool.grade(exercise, report, name)
        except Refused as exc:
            return _error(exc.status, exc.message)
        return Response(answer, media_type="application/json")

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        where = f"{request.method} {request.url.path[:200]}"
        return _error(exc.status_code, f"{exc.detail.lower()}: {where}")

    async def server_error(request: Request, exc: Exception) -> Response:
        return _error(500, "the server failed on this request (its log has the details)")

    handlers: dict[Any, Any] = {HTTPException: http_error, Exception: server_error}
    routes = [Route(path, page_file) for path in PAGE_FILES]
    routes += [
        Route("/favicon.ico", no_icon),
        Route("/api/exercises", exercises),
        Route("/api/template/{exercise}", template),
        Route("/api/explain/{criterion}", explain),
        Route("/api/grade", grade, methods=["POST"]),
    ]
    return Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
