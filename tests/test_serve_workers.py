"""grade serve's grader processes: reports graded off the event loop, side by side, each
within the time limit, and a grader that overruns it replaced without harm to the next."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from grader.grading import grade_submission, results_json
from grader.serve.workers import Graders, Refused
from grader.submission import decode_submission

ROOT = Path(__file__).resolve().parent.parent
SMALL = (ROOT / "submissions" / "s-a01.md").read_text()
# Within every bound on a report, and among the slowest to grade (bench/worst_case.py's
# max-declined-attention): over half a second.
BIG = "Next experiment: " + "not flash attention " * 6_600


def cli_json(text: str, name: str) -> str:
    return results_json(grade_submission(decode_submission(text.encode(), name), "partA"))


async def _with_graders(size: int, time_limit: float, work):
    graders = Graders(size=size, time_limit=time_limit)
    await graders.start()
    try:
        return await work(graders)
    finally:
        await graders.close()


def test_a_report_over_the_time_limit_costs_only_that_request():
    async def work(graders: Graders):
        with pytest.raises(Refused) as refused:
            await graders.grade("partA", BIG, "big.md")
        graders.time_limit = 30.0
        small = await graders.grade("partA", SMALL, "s-a01.md")  # the one grader was replaced
        return refused.value, small, [g.process.pid for g in graders.graders]

    refused, small, pids = asyncio.run(_with_graders(1, 0.2, work))
    assert refused.status == 422
    assert refused.message == "big.md: took too long to grade (more than 0.2 s)"
    assert small == cli_json(SMALL, "s-a01.md") and len(pids) == 1


def test_a_long_grading_blocks_neither_the_event_loop_nor_a_short_one():
    async def work(graders: Graders):
        stalls = []

        async def ticker(stop: asyncio.Event):
            while not stop.is_set():
                before = time.perf_counter()
                await asyncio.sleep(0.005)
                stalls.append(time.perf_counter() - before)

        stop = asyncio.Event()
        ticking = asyncio.create_task(ticker(stop))
        finished: list[str] = []

        async def one(text: str, name: str) -> str:
            answer = await graders.grade("partA", text, name)
            finished.append(name)
            return answer

        big = asyncio.create_task(one(BIG, "big.md"))
        await asyncio.sleep(0.05)  # the big one is on a grader now
        small = await one(SMALL, "s-a01.md")
        await big
        stop.set()
        await ticking
        return finished, small, max(stalls)

    finished, small, worst_stall = asyncio.run(_with_graders(2, 30.0, work))
    assert finished == ["s-a01.md", "big.md"]
    assert small == cli_json(SMALL, "s-a01.md")
    assert worst_stall < 0.25, f"the event loop stalled {worst_stall:.3f} s"


def test_past_the_waiting_limit_the_server_says_it_is_busy():
    async def work(graders: Graders):
        graders.max_waiting = 1
        first = asyncio.create_task(graders.grade("partA", BIG, "big.md"))  # takes the grader
        await asyncio.sleep(0.05)
        second = asyncio.create_task(graders.grade("partA", SMALL, "a.md"))  # waits
        await asyncio.sleep(0.05)
        with pytest.raises(Refused) as busy:
            await graders.grade("partA", SMALL, "b.md")
        await first
        await second
        return busy.value

    busy = asyncio.run(_with_graders(1, 30.0, work))
    assert busy.status == 503 and "busy" in busy.message
