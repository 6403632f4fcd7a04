"""Statements from the twenty-sixth stop's work, each a table row.

Written from criteria.md's definitions, not copied from any labelled report.
"""

from __future__ import annotations

import pytest

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.keyword_lists import is_keyword_list
from grader.report.model import Report
from tests.test_statements import experiments_in, grade, grade_text

FIELDS = """\
Workload: decoder-only LLM, 4096-token prompt, 128 out, bf16, batch 1
Hardware: L4
Top CUDA time: matmul 38.4 ms, flash attention 31.7 ms, copy_ + to 35 ms
Top CPU / orchestration cost: tokenizer.encode 22 ms on the CPU
Next experiment: {next}
"""


@pytest.mark.parametrize(
    ("next_experiment", "flagged"),
    [
        # a bare list of tools: there is content, but is it substantive? a person decides
        ("profiler, NVTX, torch.compile, FlashAttention, dtype, with_stack", True),
        ("NVTX record_function with_stack CUDA graphs flash attention compile", True),
        # one experiment, said in a sentence: no doubt
        ("profile with with_stack=True to find which line calls to() and copy_", False),
    ],
)
def test_next_experiment_as_a_list_of_terms_is_flagged(next_experiment: str, flagged: bool) -> None:
    text = FIELDS.format(next=next_experiment)
    result = grade_report(Report.parse(text), resolve_exercise("partA"))
    five = {r.id: r for r in result.criteria}["five-fields"]
    assert five.passed  # the field has content either way
    assert five.review is flagged


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # an arrow sets the thing off as a colon does, and the reason follows
        ("not yet → custom attention kernel. b/c already flash + copies unexplained.", True),
        (
            "Not yet -> the tokenizer. One call, a fixed cost; the 35 ms of copies come first.",
            True,
        ),
        ("Not yet => slice: 436 calls, only 1.4 ms on the GPU.", True),
        # the arrow does not make a reason of a bare name
        ("not yet → custom attention kernel.", False),
    ],
)
def test_not_yet_after_an_arrow(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


CONTRAST = """\
Workload: batch 1, prompt 32, decode 128, tiny hidden size
Hardware: L4
Top CUDA time: aten::matmul, 6.1 ms over 240 calls, about 25 us per call.
Top CPU / orchestration cost: the Python decode loop, 38 ms of CPU time; the GPU waits.
Next experiment: capture the decode step in a CUDA graph and compare the time per token.

A vs B:
- {a}
- {b}
- No attention op in B's table; the GPU waits on launches, so a fused kernel cannot help.
- A was movement-bound, B is launch overhead.
"""


@pytest.mark.parametrize(
    ("a_line", "b_line", "passed"),
    [
        # terse notes name the part by its bare letter before "matmul (on) top ="
        (
            "A matmul on top = heavy real prefill math",
            "B matmul on top = tiny calls, GPU idle",
            True,
        ),
        ("A matmul top = real prefill math", "B matmul top = small launches, GPU idle", True),
        # B's half alone is half the answer
        (
            "matmul on top = heavy real prefill math",
            "B matmul top = small launches, GPU idle",
            False,
        ),
    ],
)
def test_top_cuda_meaning_in_terse_notes(a_line: str, b_line: str, passed: bool) -> None:
    got = grade_text(CONTRAST.format(a=a_line, b=b_line), "partB")
    assert got["top-cuda-meaning"] is passed


@pytest.mark.parametrize(
    ("attention_2", "proposes"),
    [
        # the proposal word itself negated: a refusal, not a proposal
        ("Fused attention doesn't apply: no attention op shows up, and the GPU waits.", False),
        ("FlashAttention is not worth trying here: the GPU waits on Python.", False),
        # the same words, not negated
        ("Apply fused attention to the decode loop as well.", True),
    ],
)
def test_a_negated_proposal_word_proposes_nothing(attention_2: str, proposes: bool) -> None:
    got = grade("partB", attention_2=attention_2)
    assert got["no-premature-attention-kernel"] is not proposes


TOKENIZER = """\
Workload: decoder-only LLM, 4096-token prompt, 128 out, bf16, batch 1
Hardware: L4
Top CUDA time: matmul 38.4 ms, flash attention 31.7 ms, copy_ + to 35 ms
Top CPU / orchestration cost: {cpu}
Next experiment: profile with with_stack=True to find which line calls to()
"""


@pytest.mark.parametrize(
    ("cpu", "passed"),
    [
        # a word processor's non-breaking hyphens, soft hyphens and thin spaces read as the
        # plain characters
        (
            "tokenizer.encode, 22\u2009ms on the CPU, 0 on the GPU, but still part of "
            "time\u2011to\u2011first\u2011token.",
            True,
        ),
        ("tokeni\u00adzer.encode runs on the CPU (22 ms) and delays the first token.", True),
        # the same with only the CPU half
        ("tokenizer.encode, 22\u2009ms on the CPU, 0 on the GPU.", False),
    ],
)
def test_typeset_hyphens_and_spaces(cpu: str, passed: bool) -> None:
    got = grade_text(TOKENIZER.format(cpu=cpu), "partA")
    assert got["tokenizer-outside-gpu"] is passed


def test_fused_attention_quotes_the_line_that_speaks_of_attention() -> None:
    text = CONTRAST.format(
        a="In A, matmul on top was real prefill math.",
        b="In B, matmul on top means little: each call is tiny.",
    ).replace(
        "A vs B:",
        "Diagnosis: overhead-bound; the GPU waits for Python to launch each kernel.\n\nA vs B:",
    )
    result = grade_report(Report.parse(text), resolve_exercise("partB"))
    got = {r.id: r for r in result.criteria}["fused-attention-wrong-here"]
    assert got.passed
    # the reason said of attention, not the earlier line that only names a kernel
    assert got.evidence.text.startswith("No attention op in B's table")


STUFFED_B = """\
Workload: decode, tiny model, L4, batch, tokens, overhead-bound
Hardware: L4, tensor cores, SMs, launch-bound
Top CUDA time: matmul, add, relu, kernels, launches, CUDA
Top CPU / orchestration cost: Python, orchestration, CPU, loop, host
Next experiment: capture the decode step in a CUDA graph

Contrast:
- {first}
- matmul on top, CUDA name
- fused attention, kernels
- evidence over glamour
"""


def test_bullets_of_a_stuffed_report_are_flagged() -> None:
    result = grade_report(
        Report.parse(STUFFED_B.format(first="profiler versus glamour")), resolve_exercise("partB")
    )
    bullets = {r.id: r for r in result.criteria}["contrast-four-bullets"]
    assert bullets.passed  # four list items: the form is there
    assert bullets.review  # but do they contrast anything? a person looks


def test_bullets_of_an_ordinary_report_are_not_flagged() -> None:
    result = grade_report(
        Report.parse(
            CONTRAST.format(a="In A, matmul on top was real math.", b="In B, it is tiny.")
        ),
        resolve_exercise("partB"),
    )
    bullets = {r.id: r for r in result.criteria}["contrast-four-bullets"]
    assert bullets.passed and not bullets.review


@pytest.mark.parametrize(
    ("mark", "first_test", "passed"),
    [
        # each hypothesis an item, its test a nested item that opens with an action
        ("", "check the dtype of the mask at each layer; fp32 confirms it", True),
        ("🔬 ", "check the dtype of the mask at each layer; fp32 confirms it", True),
        ("-> ", "log the mask's dtype with a pre-hook", True),
        # a nested item that only restates the evidence tests nothing
        ("", "54 calls = 3 per layer x 18 layers fits this", False),
    ],
)
def test_a_test_nested_under_its_hypothesis(mark: str, first_test: str, passed: bool) -> None:
    hypotheses = (
        "Hypotheses:\n\n"
        "- **H1:** the attention mask is built in fp32 and cast to bf16 in every layer.\n"
        f"  - {mark}{first_test}\n"
        "- **H2:** the inputs are created on the CPU and copied to the GPU every step.\n"
        f"  - {mark}search the trace for Memcpy HtoD rows; none rejects it\n"
    )
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"] is passed


@pytest.mark.parametrize(
    ("hypotheses", "passed"),
    [
        # the test as the subject of its verdict, after the claim
        (
            "Hypotheses. (1) The mask is fp32 and is cast per layer; a dtype log at layer "
            "entry would confirm or reject this. (2) The cache is staged on the CPU and copied "
            "in; checking cache.device and looking for HtoD memcpys in the trace would settle it.",
            True,
        ),
        # an experiment written as a science class lays one out
        (
            "Hypotheses:\n"
            "1. H1: fp32 activations are cast to bf16.\n"
            "   - Independent variable: the dtype the cache is allocated in. Dependent "
            "variable: aten::to time.\n"
            "2. H2: the logits are copied to the host every step.\n"
            "   - Expected observation if H2 holds: Memcpy DtoH rows vanish when sampling "
            "stays on the device.\n",
            True,
        ),
        # a verdict with nothing done to reach it tests nothing
        (
            "Hypotheses. (1) The mask is fp32 and is cast per layer; the numbers would "
            "confirm this. (2) The cache is staged on the CPU; the table would confirm it.",
            False,
        ),
    ],
)
def test_a_test_said_after_its_claim(hypotheses: str, passed: bool) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"] is passed


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # the thing and its reason as two items under a lead
        (
            "Not yet\n\n* I would not write a custom attention kernel now\n"
            "  * it's already the flash path and not the part I can't explain",
            True,
        ),
        # a topic that opens with "As for" is not a reason with no thing
        (
            "As for what I would not optimize yet, the attention kernel is the one to leave "
            "alone. It is already a flash kernel, and the copies come first.",
            True,
        ),
        # reasons said as worth and as place
        ("Not yet: aten::slice, 436 calls for 1.4 ms, so not worth it.", True),
        ("Not yet: the tokenizer — it's CPU, the GPU doesn't care.", True),
        # a measure said in words
        (
            "not yet: aten dot slice, four hundred thirty six calls but one point four ms so "
            "not worth it",
            True,
        ),
        # a number said in words that measures nothing is no reason
        ("Would not optimize yet the boring evidence. One experiment not five.", False),
        ("Not yet\n\n* I would not write a custom attention kernel now", False),
    ],
)
def test_not_yet_reasons_in_more_layouts(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


OUTLINE = """\
* Workload
   * LLM, decoder only, 4096 prompt, 128 gen, bf16, bs=1
* Hardware
   * L4
* Top CUDA time
   * matmul 38.4ms
   * flash attn 31.7ms
   * copy_ + to = 34.7ms
      * {judged}
* Top CPU / orchestration cost
   * tokenizer.encode 22ms on CPU, adds to TTFT even though the GPU is idle for it
* Next experiment
   * profile with with_stack=True to find who calls to()
"""


@pytest.mark.parametrize(
    ("judged", "passed"),
    [
        # one op an item: the math, then the movement set apart as suspect
        ("these are copies, not compute; way too much for batch 1, explain them first", True),
        # the same items with the copies called normal
        ("normal KV-cache bookkeeping, nothing to worry about", False),
    ],
)
def test_separation_with_one_op_an_item(judged: str, passed: bool) -> None:
    got = grade_text(OUTLINE.format(judged=judged), "partA")
    assert got["separates-math-from-movement"] is passed


PART_C = """\
Workload: 7B decoder, decode, batch 1
Hardware: H100
Top CUDA time: {cuda}
Top CPU / orchestration cost: the sampling loop's .item() sync
Next experiment: log the dtype and device of every tensor fed to copy_
"""


@pytest.mark.parametrize(
    ("cuda", "passed"),
    [
        # a share said as a fraction: three fifths is 60%, about 61%
        ("aten::copy_, eating just over three-fifths of the CUDA time", True),
        # two thirds is 67%: not the run's share
        ("aten::copy_, about two thirds of the CUDA time", False),
    ],
)
def test_a_share_said_as_a_fraction(cuda: str, passed: bool) -> None:
    assert grade_text(PART_C.format(cuda=cuda), "partC")["copy-share-stated"] is passed


@pytest.mark.parametrize(
    ("dash", "passed"),
    [
        # answers numbered A1, A2 and set off by a dash, one a line of one paragraph
        (" –", True),
        (" -", True),
    ],
)
def test_answers_numbered_a1_a2(dash: str, passed: bool) -> None:
    hypotheses = (
        "**Q: Why would copy_ and to be there?**\n\n"
        f"A1{dash} a dtype mismatch: the KV cache is fp32 and every layer casts it to bf16.\n"
        f"A2{dash} a device hop: the mask is built on the CPU and moved to cuda each layer.\n\n"
        "**Q: How would you tell?**\n\n"
        f"A1{dash} print cache.dtype; if it is fp32, confirmed.\n"
        f"A2{dash} look for Memcpy HtoD rows in the trace; none means rejected.\n"
    )
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"] is passed
    assert got["experiment-per-hypothesis"] is passed


@pytest.mark.parametrize(
    ("cpu", "passed"),
    [
        # the latency half said as time added to the request, or as the wait before the GPU
        (
            "tokenizer.encode, 22 ms on the CPU, 0 on the GPU, but it adds 22 ms to the request.",
            True,
        ),
        ("tokenizer.encode runs on the CPU (22 ms) before the GPU can even start.", True),
        # time added to nothing, or said to add nothing
        (
            "tokenizer.encode, 22 ms on the CPU, 0 on the GPU; it adds nothing to the request.",
            False,
        ),
        ("tokenizer.encode, 22 ms on the CPU, 0 on the GPU; it adds up to the CPU column.", False),
    ],
)
def test_tokenizer_time_added_to_the_request(cpu: str, passed: bool) -> None:
    got = grade_text(TOKENIZER.format(cpu=cpu), "partA")
    assert got["tokenizer-outside-gpu"] is passed


@pytest.mark.parametrize(
    ("stretch", "passed"),
    [
        # names dictated with their punctuation spoken
        (
            "Stretch: record function ranges named quote tokenize quote and quote decode "
            "underscore step quote",
            True,
        ),
        # the word "quote" around no name
        ("Stretch: to quote the course, add ranges around the main phases, quote unquote.", False),
    ],
)
def test_range_names_dictated(stretch: str, passed: bool) -> None:
    assert grade("partA", stretch=stretch)["stretch-named-ranges"] is passed


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # both totals read off the table, and the conclusion drawn from them
        ("The CPU is 38 ms and the GPU is ~15 ms, so we're overhead-bound.", True),
        ("CPU 38 ms, GPU 15.4 ms → overhead-bound.", True),
        # the same numbers with no conclusion drawn from them, and no comparison
        ("The CPU column says 38 ms and the GPU column says 15 ms.", False),
    ],
)
def test_overhead_evidence_as_two_totals_and_a_conclusion(diagnosis: str, passed: bool) -> None:
    text = (
        "Workload: batch 1, prompt 32, decode 128, tiny hidden size\n"
        "Hardware: L4\n"
        "Top CUDA time: aten::matmul, 6.1 ms\n"
        "Top CPU / orchestration cost: the Python decode loop\n"
        "Next experiment: capture the decode step in a CUDA graph and compare ms per token\n\n"
        f"{diagnosis}\n"
    )
    assert grade_text(text, "partB")["overhead-evidence"] is passed


@pytest.mark.parametrize(
    ("a_mark", "b_mark"),
    [
        ("\U0001f170\ufe0f", "\U0001f171\ufe0f"),  # the parts' letters drawn as emoji
        ("\u24b6", "\u24b7"),  # or circled
    ],
)
def test_part_letters_drawn_as_emoji(a_mark: str, b_mark: str) -> None:
    got = grade_text(
        CONTRAST.format(
            a=f"{a_mark} top CUDA = matmul, and it means something: the prefill is real math.",
            b=f"{b_mark} top CUDA = matmul, and it means little: tiny calls, GPU waiting.",
        ),
        "partB",
    )
    assert got["top-cuda-meaning"]


@pytest.mark.parametrize(
    ("attention_2", "proposes"),
    [
        # put forward now, in words of worth, sequence or "in parallel"
        ("It might still be worth dropping in FlashAttention-2 at the same time.", True),
        ("Fused attention could be the next step after tensor cores.", True),
        ("Fused attention could come right after the GEMM fix.", True),
        (
            "In parallel I'd also swap in FlashAttention-2 so the attention path is ready once "
            "the loop is fixed.",
            True,
        ),
        # strictly after the overhead is dealt with: not a step now
        ("Only once the loop is fixed would I look at FlashAttention-2.", False),
        ("Fused attention as the next step would be premature: there is no attention.", False),
    ],
)
def test_attention_put_forward_now(attention_2: str, proposes: bool) -> None:
    got = grade("partB", attention_2=attention_2)
    assert got["no-premature-attention-kernel"] is not proposes


@pytest.mark.parametrize(
    ("wrapped", "proposes"),
    [
        # a sentence hard-wrapped before a capitalised name goes on over the break
        (
            "No attention in B, but I'd still drop in\n   FlashAttention-2 with the compile run.",
            True,
        ),
        ("No attention in B, so I would not try\n   FlashAttention-2 here.", False),
    ],
)
def test_a_sentence_wrapped_before_a_name(wrapped: str, proposes: bool) -> None:
    text = CONTRAST.format(a="In A, matmul on top was real math.", b="In B, it is tiny.")
    text = text.replace(
        "- No attention op in B's table; the GPU waits on launches, so a fused kernel cannot help.",
        f"- {wrapped}",
    )
    assert grade_text(text, "partB")["no-premature-attention-kernel"] is not proposes


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # the movement said not to be the problem is not set apart as the thing to explain
        (
            "I would not say this is movement-bound: matmul+attention are ~66% of the GPU time. "
            "copy_ and to are there too (~35 ms) but they're the smaller part.",
            False,
        ),
        (
            "copy_ and to are 34.7 ms together, but I would not say this run is movement-bound; "
            "the prefill matmul is the main cost and the copies are normal for moving the cache.",
            False,
        ),
        # the movement set apart as the thing to explain first
        ("copy_ and to (35 ms) are movement that should not be there: explain them first.", True),
    ],
)
def test_separation_denied_by_name(diagnosis: str, passed: bool) -> None:
    diagnosis = "matmul and attention are the model math. " + diagnosis
    assert grade("partA", diagnosis=diagnosis)["separates-math-from-movement"] is passed


@pytest.mark.parametrize(
    ("value", "listed"),
    [
        # four bare terms, one of them refused: a list, not a sentence
        ("dtype device movement, not FlashAttention, discipline, boring evidence first", True),
        ("compile, CUDA graphs, batching, fusion", True),
        # four short pieces that say something, or read the run
        ("log dtypes, find the caller, fix it, re-profile", False),
        ("7B, decode, bf16, batch 1", False),
    ],
)
def test_four_bare_terms_are_a_keyword_list(value: str, listed: bool) -> None:
    assert is_keyword_list(value) is listed


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # "can't" written without its apostrophe still denies
        (
            "Not yet: attention. It's already flash attention and we cant say attention is the "
            "problem while there are 2.8 GiB of copies we cant explain.",
            True,
        ),
        # the other thing said to matter more is the reason
        ("Wouldn't optimize attention yet, copies are more important.", True),
    ],
)
def test_not_yet_round26_words(not_yet: str, passed: bool) -> None:
    got = grade("partA", not_yet=not_yet)
    assert got["not-yet-with-reason"] is passed
    assert got["diagnosis-matches"]  # "we cant say attention is the problem" claims nothing


@pytest.mark.parametrize(
    ("attention_2", "passed"),
    [
        # the time said to be lost between the kernels: a faster kernel cannot help
        (
            "Fused attention is wrong for B because there is no attention in this profile and "
            "the kernels are already short, the time is lost between them on the CPU.",
            True,
        ),
        ("There is no attention in B, and a faster kernel cant make the GPU wait less.", True),
    ],
)
def test_fused_attention_round26_words(attention_2: str, passed: bool) -> None:
    got = grade("partB", attention_1="", attention_2=attention_2)
    assert got["fused-attention-wrong-here"] is passed


def test_the_cpu_as_the_limit_after_since_is_no_claim_of_attention() -> None:
    got = grade(
        "partB",
        diagnosis="Fused attention isn't the main fix here since the CPU is the limit.",
        attention_2="A faster kernel is not the answer.",
    )
    assert got["diagnosis-matches"]


def test_copies_that_look_wrong_are_set_apart() -> None:
    diagnosis = (
        "These are the real compute. The copies (copy_ 19.6 ms and to 15.1 ms) are data "
        "movement and are the part that looks wrong."
    )
    assert grade("partA", diagnosis=diagnosis)["separates-math-from-movement"]


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # two lettered items, each an experiment of its own: a probe and a change
        (
            "(a) re-profile with with_stack=True to find the callers of to(), and (b) convert "
            "the whole model + cache to bf16 and compare timings.",
            2,
        ),
        # the second item only measures the first
        (
            "(a) cast the KV cache to bf16 at allocation, (b) re-profile and compare copy_ time",
            1,
        ),
    ],
)
def test_lettered_items_that_are_experiments_of_their_own(value: str, n: int) -> None:
    assert experiments_in(value) == n


GROUPS = """\
Workload: decoder-only LLM, 4096-token prompt, 128 new tokens, bf16, batch 1
Hardware: L4
Top CUDA time: matmul 38.4 ms / flash attention 31.7 ms
Top CPU / orchestration cost: tokenizer.encode 22 ms on the CPU, and it delays the first token
Next experiment: rerun with with_stack=True and sort aten::to by source line

- math  : matmul, attention -> about 70 ms
- moving: copy_, to -> about 35 ms and 5.6 GiB

{judged}
"""


@pytest.mark.parametrize(
    ("judged", "passed"),
    [
        # the group named last on the line before, pointed back at
        ("The second group is suspicious. Weights are bf16 already, so why cast?", True),
        ("The last group needs explaining before anything else.", True),
        # the first group is the math: judging it says nothing of the copies
        ("The first group is suspicious.", False),
    ],
)
def test_the_second_group_points_back(judged: str, passed: bool) -> None:
    got = grade_text(GROUPS.format(judged=judged), "partA")
    assert got["diagnosis-matches"] is passed


def test_a_confirm_reject_heading_holds_the_tests() -> None:
    hypotheses = (
        "Why copy_ and to?\n-----------------\n\n"
        "1. dtype mismatch: the KV cache is float32 and converted to bf16 at each layer.\n"
        "2. device mismatch: the mask is created on the CPU and moved every forward.\n\n"
        "Confirm / reject\n----------------\n\n"
        "1. Log the dtype of the cache at the start. float32 => confirmed.\n"
        "2. Check the trace for Memcpy HtoD events. If none, rejected.\n"
    )
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"] and got["experiment-per-hypothesis"]


def test_a_contrast_bullet_that_is_also_a_not_yet_still_counts() -> None:
    text = CONTRAST.replace(
        "- No attention op in B's table; the GPU waits on launches, so a fused kernel cannot help.",
        "- Fused attention: not for now.",
    ).format(a="A: matmul at the top is real prefill work.", b="B: matmul at the top is tiny.")
    assert grade_text(text, "partB")["contrast-four-bullets"]


def test_tests_labelled_by_the_hypothesis_they_test() -> None:
    hypotheses = (
        "Hypotheses:\n"
        "- fp32 tensors somewhere (mask / rope cache) getting cast to bf16 each layer\n"
        "- something built on CPU and copied to the GPU per call\n\n"
        "Experiments:\n"
        "- dtype hypothesis: print dtypes of everything entering attention and re-profile\n"
        "- transfer hypothesis: check the trace for Memcpy HtoD rows\n"
    )
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"] and got["experiment-per-hypothesis"]
