"""``grade serve``: check the optional extra is there, listen, and run the app under uvicorn."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

from grader.errors import GraderError

EXTRA = "pip install 'triage-grader[serve]'  (in a checkout: pip install -e '.[serve]')"


def _check_extra() -> None:
    """Starlette and uvicorn are an optional extra: say how to get them when missing."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        missing = exc.name or "starlette or uvicorn"
        raise GraderError(f"grade serve needs {missing}, which is not installed: {EXTRA}") from None


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: any free port), IPv4 or IPv6."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family, backlog=2048)
    except (OSError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise GraderError(f"cannot listen on {host} port {port}: {reason}") from None


def _address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(host: str, port: int, directory: Path | None, time_limit: float | None = None) -> int:
    """Serve the page and the API until Ctrl-C; the exit code."""
    _check_extra()
    import uvicorn

    from grader.batch.pool import TIME_LIMIT
    from grader.serve.app import create_app

    def ready() -> None:
        print(f"grade serve: the self-check page is at {_address(sock)} (Ctrl-C stops it)")
        if host in ("0.0.0.0", "::", ""):
            print("grade serve: listening on every interface of this machine")
        sys.stdout.flush()

    # The exercises load first: a bad one stops the command before it listens.
    app = create_app(directory, time_limit=time_limit or TIME_LIMIT, on_ready=ready)
    sock = _listen(host, port)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops cleanly on Ctrl-C, then raises it again
        print("grade serve: stopped", file=sys.stderr)
    finally:
        sock.close()
    return 0
