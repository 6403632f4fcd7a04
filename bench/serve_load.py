"""Load on `grade serve`: many reports graded at once over loopback.

Usage (from the project root, with the serve extra installed):
    python bench/serve_load.py [REQUESTS] [CONCURRENCY]
Starts `grade serve --port 0` (its graders: one process per core), then sends REQUESTS
POST /api/grade requests (default 1000), CONCURRENCY at a time (default 200; the first 200
go out together), each a shipped report from submissions/, over plain HTTP/1.1 on
127.0.0.1 only.  Every answer is checked against the JSON the CLI's code gives for that
report.  Bounded: at most REQUESTS requests, and everything stops after LIMIT seconds.
Prints requests per second, the median, 95th percentile and slowest request, and the
status codes.  The client runs on the same machine's cores as the server: the figures
are for the whole machine.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from grader.grading import grade_submission, results_json  # noqa: E402
from grader.submission import decode_submission  # noqa: E402
from tests.serve_run import serving  # noqa: E402

LIMIT = 120.0  # seconds for the whole run


def reports() -> list[tuple[bytes, str]]:
    """(request body, expected answer) for each shipped report."""
    labels = yaml.safe_load((ROOT / "submissions" / "labels.yaml").read_text())
    out = []
    for name, label in sorted(labels.items()):
        text = (ROOT / "submissions" / name).read_text()
        expected = results_json(
            grade_submission(decode_submission(text.encode(), name), label["exercise"])
        )
        body = json.dumps({"exercise": label["exercise"], "report": text, "name": name})
        out.append((body.encode(), expected))
    return out


async def one(host: str, port: int, body: bytes) -> tuple[int, str, float]:
    start = time.perf_counter()
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        b"POST /api/grade HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (host.encode(), len(body), body)
    )
    await writer.drain()
    answer = await reader.read()  # the server closes after the response
    writer.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, payload.decode(), time.perf_counter() - start


async def load(address: str, requests: int, concurrency: int) -> None:
    host, port = address.removeprefix("http://").rstrip("/").rsplit(":", 1)
    cases = reports()
    gate = asyncio.Semaphore(concurrency)
    results: list[tuple[int, bool, float]] = []

    async def run(n: int) -> None:
        body, expected = cases[n % len(cases)]
        async with gate:
            status, payload, seconds = await one(host, int(port), body)
        results.append((status, payload == expected, seconds))

    start = time.perf_counter()
    tasks = [asyncio.create_task(run(n)) for n in range(requests)]
    done, pending = await asyncio.wait(tasks, timeout=LIMIT)
    wall = time.perf_counter() - start
    for task in pending:
        task.cancel()
    failed = [t.exception() for t in done if t.exception() is not None]
    times = sorted(seconds for _, _, seconds in results)
    statuses = Counter(status for status, _, _ in results)
    wrong = sum(1 for status, same, _ in results if status == 200 and not same)
    print(
        f"{len(results)} of {requests} requests, {concurrency} at a time, in {wall:.2f} s: "
        f"{len(results) / wall:.0f} requests/s"
    )
    if times:
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"latency: median {statistics.median(times) * 1000:.0f} ms, "
            f"95th percentile {p95 * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms"
        )
    print(f"status codes: {dict(statuses)}; answers unlike the CLI's: {wrong}")
    if pending or failed:
        print(f"unfinished after {LIMIT:g} s: {len(pending)}; client errors: {len(failed)}")


def main() -> None:
    requests = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    concurrency = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    with serving() as server:
        asyncio.run(load(server.address, requests, concurrency))


if __name__ == "__main__":
    main()
