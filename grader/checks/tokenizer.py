"""Part A's tokenizer: outside GPU execution, yet inside the request's latency."""

from __future__ import annotations

from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.language import concept, mentions


@check("tokenizer-outside-gpu")
def tokenizer_outside_gpu(ctx: Context) -> Verdict:
    """tokenizer.encode runs on the CPU, outside GPU execution, and still adds latency.

    Both halves are needed: that it is CPU-side work with no CUDA time (it never shows in
    GPU time), and that it still adds to request latency (TTFT, time to first token, end to
    end).  Saying only "it's CPU-only, nothing to do on the GPU" or only "it adds 22 ms to
    TTFT" is half the lesson.

    PASS (partA):
        Top CPU / orchestration cost: tokenizer.encode, 22 ms on the CPU and 0 ms CUDA;
        it is outside GPU execution but still adds to TTFT.

    FAIL (partA):
        Top CPU / orchestration cost: tokenizer.encode at 22 ms. It has 0 ms CUDA, so it
        runs purely on the CPU; nothing to do on the GPU side.

    FAIL (partA):
        Latency note: tokenization adds another 22 ms to time-to-first-token.
    """
    lines = ctx.report.text_lines
    half: tuple[int, str, str] | None = None
    for i, tl in enumerate(lines):
        if not concept("tokenizer").search(tl.text):
            continue
        text = tl.text
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        if nxt is not None and nxt.where == tl.where and tl.where != "body":
            text = f"{text} {nxt.text}"
        cpu, latency = bool(mentions("cpu_side", text)), bool(mentions("latency", text))
        if cpu and latency:
            return Verdict.yes(Evidence(tl.number, tl.text))
        if (cpu or latency) and half is None:
            half = (tl.number, tl.text, "latency (TTFT)" if cpu else "CPU-side, outside the GPU")
    if half is not None:
        return Verdict.no(Evidence(half[0], half[1]), f"half the point: never says {half[2]}")
    return Verdict.no(None, "looked for tokenizer.encode as CPU-side work adding to latency; none")
