"""Statements and layouts from the twenty-eighth stop's work, each a table row.

Written from criteria.md's definitions and the course's prompts, not copied from any
labelled report.
"""

from __future__ import annotations

import pytest

from tests.test_statements import experiments_in, grade, grade_text

_FIELDS_A = (
    "Workload: decoder-only LLM, 4096-token prompt, 128 new tokens, batch 1, bf16\n"
    "Hardware: one L4\n"
    "Top CUDA time: matmul 38 ms and attention 32 ms are the math; copy_ and to add 35 ms "
    "of movement that should not be needed and must be explained first\n"
    "Top CPU / orchestration cost: tokenizer.encode, 22 ms on the CPU with no CUDA time, "
    "still adds to time to first token\n"
    "Next experiment: re-profile with with_stack=True to find who calls aten::to\n"
)

# The course's prompts quoted as the questions, each answered below by "Answer:".
_QUOTED_PROMPTS = """\
1) "Write the five-line report."

{fields}
2) "Two hypotheses for why copy_ and to are present."

Answer: {hypotheses}

3) "One experiment per hypothesis."

Answer: {experiments}

4) "One thing you would not optimize yet, and why."

Answer: {not_yet}
"""
_HYPOTHESES = (
    "(a) the rotary tables are kept in fp32 and cast to bf16 in every layer. (b) the "
    "position ids are built on the CPU and copied to the GPU on each call."
)
_EXPERIMENTS = (
    "for (a), log the dtype of the rotary tables at each layer's entry. For (b), print the "
    "device of the position ids and look for HtoD memcpy rows."
)
_NOT_YET = "the attention kernel: it is already a flash kernel and the copies come first."


@pytest.mark.parametrize(
    ("slots", "passes"),
    [
        ({}, True),
        # the questions asked and nothing answered under them: nothing passes by the prompt
        (
            {"hypotheses": "-", "experiments": "-", "not_yet": "-"},
            False,
        ),
    ],
)
def test_quoted_prompts_answered_below(slots: dict[str, str], passes: bool) -> None:
    text = _QUOTED_PROMPTS.format(
        **{
            "fields": _FIELDS_A,
            "hypotheses": _HYPOTHESES,
            "experiments": _EXPERIMENTS,
            "not_yet": _NOT_YET,
            **slots,
        }
    )
    got = grade_text(text, "partA")
    assert got["two-hypotheses"] is passes
    assert got["experiment-per-hypothesis"] is passes
    assert got["not-yet-with-reason"] is passes


def test_fields_asked_with_q_and_answered_with_answer() -> None:
    asked = "".join(
        f'Q. "{label}"\nAnswer: {value}\n\n'
        for label, value in (
            ("Workload", "batch 1, 32 prompt tokens, 128 decoded"),
            ("Hardware", "L4"),
            ("Top CUDA time", "matmul 6.1 ms over 240 calls, about 25 us each"),
            ("Top CPU / orchestration cost", "the Python decode loop, 38 ms of CPU"),
            ("Next experiment", "capture a decode step in a CUDA graph and replay it"),
        )
    )
    got = grade_text(asked, "partB")
    assert got["five-fields"]
    assert got["one-next-experiment"]
    assert got["next-experiment-targets-bottleneck"]


# Part C: the names listed from memory, then a question, then the fields filled in.
_NAMES_THEN_FILLED = """\
**Q: The five field names?**

1. Workload
2. {hardware}
3. Top CUDA time
4. Top CPU / orchestration cost
5. Next experiment

**Q: Filled in for the run**

- **Workload:** 7B decoder, decoding 128 tokens, batch 1
- **{hardware}:** A10G
- **Top CUDA time:** aten::copy_, 61% of CUDA time
- **Top CPU / orchestration cost:** the Python generate loop
- **Next experiment:** check whether the KV cache sits on the CPU and is moved to the device
  every step, with a record_function range around the cache update
"""


@pytest.mark.parametrize(("hardware", "exact"), [("Hardware", True), ("Hardwear", False)])
def test_a_question_is_no_field_value(hardware: str, exact: bool) -> None:
    got = grade_text(_NAMES_THEN_FILLED.format(hardware=hardware), "partC")
    assert got["next-experiment-targets-bottleneck"]
    assert got["field-names-exact"] is exact


@pytest.mark.parametrize(
    ("next_experiment", "n"),
    [
        # "and also" after a probe adds a change of its own, even one that names what the
        # probe looks at ("the casts" ... "the cache")
        ("look for the fp32 tensor behind the casts and also convert the cache to bf16", 2),
        (
            "track down the dtype mismatch behind the copies and also switch attention to "
            "FlashAttention-2 for the rest of the time",
            2,
        ),
        # two looks joined by "and also" are still one probe
        ("log the dtype of every input and also log its device, in one pre-hook per layer", 1),
    ],
)
def test_also_after_a_probe_adds_a_change(next_experiment: str, n: int) -> None:
    assert experiments_in(next_experiment) == n


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # the question turned around: what to work on first, nothing held off
        (
            "What not to optimize?\n\nSpeed up the matmuls first, because they are the "
            "largest CUDA line.",
            False,
        ),
        # what comes first, then what waits: the deferral is there
        (
            "What not to optimize?\n\nFix the casts first; leave aten::slice alone, since "
            "its 436 calls cost only 1.4 ms.",
            True,
        ),
        # under a lead that already says "not", the thing named is the thing not done
        (
            "What I would not do yet: rewrite attention, because it is already a flash "
            "kernel and the copies are unexplained.",
            True,
        ),
    ],
)
def test_what_to_do_first_is_no_deferral(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


@pytest.mark.parametrize(
    ("aside", "proposes"),
    [
        # the kernel named as what comes next, outside any Next experiment field
        ("Experiments would be NVTX ranges, torch.compile and a faster attention kernel.", True),
        ("The next step is FlashAttention-3 for the attention layers.", True),
        # refused, described, or put strictly after the copies
        ("The next experiment is not FlashAttention-3; it is finding the casts.", False),
        ("My next step is finding the casts; FlashAttention is already in use.", False),
        ("Flash attention would be the next thing to look at once the copies are gone.", False),
    ],
)
def test_the_next_step_named_proposes(aside: str, proposes: bool) -> None:
    assert grade("partA", stretch=aside)["no-premature-attention-kernel"] is not proposes


def _graded(text: str, exercise: str) -> dict[str, tuple[bool, bool]]:
    from grader.engine import grade_report
    from grader.exercises import resolve_exercise
    from grader.report.model import Report

    result = grade_report(Report.parse(text), resolve_exercise(exercise))
    return {c.id: (c.passed, c.review) for c in result.criteria}


@pytest.mark.parametrize(
    ("text", "review"),
    [
        # the five answered in lower-case sentences: no labels, and a person decides
        (
            "The workload is one request at batch 1, 4096 tokens in and 128 out, and the "
            "hardware is an L4. For top CUDA time, matmul leads at 38.4 ms. The top CPU / "
            "orchestration cost is tokenizer.encode at 22 ms. My next experiment would be "
            "to find who calls to() with with_stack=True.",
            True,
        ),
        # prose that names no field is simply missing them
        ("The copies look like the problem. I would find who calls to() first.", False),
    ],
)
def test_fields_only_in_lowercase_prose_are_flagged(text: str, review: bool) -> None:
    assert _graded(text, "partA")["five-fields"] == (False, review)


@pytest.mark.parametrize(
    ("next_experiment", "n"),
    [
        # an irregular participle goes on with the question "whether" asks
        (
            "see whether the position ids are built on the CPU and sent to the GPU every "
            "step (print their device)",
            1,
        ),
        ("test whether the mask stays in fp32 and is cast to bf16 in every layer", 1),
        ("check whether the mask is kept in fp32 and cast to bf16 in every layer", 1),
        # "whichever" fixes what the look finds
        (
            "log dtype and device of the cache and the inputs each step, and drop whichever "
            "cast turns out to feed copy_",
            1,
        ),
        # a fix of its own after the look is still a second experiment
        ("log the dtypes of the inputs, and switch attention to FlashAttention-3", 2),
    ],
)
def test_participles_and_whichever(next_experiment: str, n: int) -> None:
    assert experiments_in(next_experiment) == n


@pytest.mark.parametrize(
    ("top_cuda", "stated"),
    [
        ("aten::copy_, about 61% of all CUDA time", True),
        # the share said of the wrong clock, in more words
        ("aten::copy_, about 61% of the step's CPU time", False),
        ("aten::copy_, responsible for 61% of the time on the CPU side", False),
    ],
)
def test_a_share_of_cpu_time_in_more_words(top_cuda: str, stated: bool) -> None:
    text = (
        "Workload: 7B decoder, decoding one token at a time, batch 1\n"
        "Hardware: L4\n"
        f"Top CUDA time: {top_cuda}\n"
        "Top CPU / orchestration cost: the Python loop\n"
        "Next experiment: log the dtype of every tensor passed to copy_\n"
    )
    assert grade_text(text, "partC")["copy-share-stated"] is stated


@pytest.mark.parametrize("mark", ["\u23f8\ufe0f", "\u231b", "\u23f3"])
def test_a_heading_opened_by_a_technical_symbol(mark: str) -> None:
    not_yet = (
        f"## {mark} Not yet\n\nAttention: it is already the flash path, and a new kernel "
        "would not remove a single copy."
    )
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"]


@pytest.mark.parametrize(
    ("next_experiment", "n"),
    [
        # a colon after the purpose opens the list of what is done for it
        (
            "a couple of things to reduce the launch cost, since I can't tell which helps "
            "most: torch.compile with reduce-overhead, and batching eight requests",
            2,
        ),
        # a purpose with no colon after it is still an aside of the one change
        ("capture the decode step in a CUDA graph to cut the launches, then compare", 1),
    ],
)
def test_a_colon_after_a_purpose_opens_the_list(next_experiment: str, n: int) -> None:
    assert experiments_in(next_experiment) == n


@pytest.mark.parametrize(
    ("next_experiment", "n"),
    [
        # the same change said again is one change
        (
            "capture the decode step in a CUDA graph (or, equivalently, torch.compile with "
            "reduce-overhead) and compare the time per token",
            1,
        ),
        (
            "capture the decode step in a CUDA graph, or equivalently compile it with "
            "reduce-overhead, and compare the time per token",
            1,
        ),
        # another change offered is an alternative
        ("capture the decode step in a CUDA graph (or just try torch.compile) and compare", 2),
        ("capture the decode step in a CUDA graph, or compile it with reduce-overhead", 2),
    ],
)
def test_the_same_change_said_again(next_experiment: str, n: int) -> None:
    assert experiments_in(next_experiment) == n


@pytest.mark.parametrize(
    ("not_yet", "proposes"),
    [
        # declined, then put forward on the side
        (
            "Not yet: a new attention kernel; the op is already flash and the copies are "
            "unexplained. That said, it might be worth switching to xformers as a side test "
            "while the stack traces run.",
            True,
        ),
        (
            "Not yet: a new attention kernel, since it is already flash. I'd still benchmark "
            "FlashAttention-3 on the side.",
            True,
        ),
        # declined, with "worth" used of something else
        (
            "Not yet: a new attention kernel. It is worth noting that the op is already "
            "flash, and the urge to swap it is worth resisting.",
            False,
        ),
    ],
)
def test_an_attention_kernel_tried_on_the_side(not_yet: str, proposes: bool) -> None:
    assert grade("partA", not_yet=not_yet)["no-premature-attention-kernel"] is not proposes


_TOKENIZER_CLAIM = (
    "tokenizer.encode runs on the CPU, outside the GPU (0 ms CUDA), and still adds its "
    "22 ms to the time to first token."
)


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        # no field anywhere: the claim is not counted from prose alone, and is flagged
        (f"Some thoughts on the profile.\n\n{_TOKENIZER_CLAIM}\n", False),
        # the fields answered in sentences, an essay: the claim counts, flagged
        (
            "The workload is one request at batch 1 with a 4096-token prompt, and the hardware "
            "is an L4. For top CUDA time, matmul leads at 38.4 ms. The top CPU / orchestration "
            f"cost is the tokenizer. {_TOKENIZER_CLAIM} My next experiment would be to find "
            "who calls to() with with_stack=True.\n",
            True,
        ),
        # with the fields, the claim counts and no one needs to look
        (
            "Workload: batch 1, 4096-token prompt\nHardware: L4\nTop CUDA time: matmul 38.4 "
            f"ms\nTop CPU / orchestration cost: {_TOKENIZER_CLAIM}\nNext experiment: find who "
            "calls to() with with_stack=True\n",
            True,
        ),
    ],
)
def test_claims_of_a_report_without_fields(text: str, passed: bool) -> None:
    got_passed, review = _graded(text, "partA")["tokenizer-outside-gpu"]
    assert got_passed is passed
    assert review is not text.startswith("Workload:")


# A report posted as a thread: each post numbered "n/N", emoji before the labels.
_THREAD_A = """\
1/6 Triage thread, Part A 🧵
Workload: decoder-only LLM, 4096-token prompt, 128 new tokens, bf16, batch 1
Hardware: L4
Top CUDA time: matmul 38.4 ms and attention 31.7 ms are the math; copy_ + to add 35 ms of \
movement that should not be needed
Top CPU / orchestration cost: tokenizer.encode, 22 ms of CPU and no CUDA time, still adds to TTFT
Next experiment: re-profile with with_stack=True to find who calls aten::to

2/6 Why copy_ + to?
{mark}H1: the rotary tables are fp32 and cast to bf16 every layer. Check: log their dtype.
{mark}H2: the ids are built on the CPU and copied over. Check: print the ids' device.

3/6 Not touching yet: the attention kernel, it is already flash and the copies come first.
"""


@pytest.mark.parametrize("mark", ["", "\U0001f4a1 ", "\u27a1\ufe0f "])
def test_a_thread_of_numbered_posts(mark: str) -> None:
    got = grade_text(_THREAD_A.format(mark=mark), "partA")
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"]
    assert got["not-yet-with-reason"]


_THREAD_C = """\
1/3 The five fields:
Workload:
{hardware}:
Top CUDA time:
Top CPU / orchestration cost:
Next experiment:

2/3 Filled for the run 👇
Workload: 7B decoder, decode phase, batch 1
{hardware}: A10G
Top CUDA time: aten::copy_, 61% of CUDA time
Top CPU / orchestration cost: the per-token Python loop

3/3 Next experiment: find who moves the KV cache to the device every step, with_stack=True
"""


@pytest.mark.parametrize(("hardware", "exact"), [("Hardware", True), ("Hardwear", False)])
def test_names_listed_bare_then_filled_in_posts(hardware: str, exact: bool) -> None:
    got = grade_text(_THREAD_C.format(hardware=hardware), "partC")
    assert got["field-names-exact"] is exact
    assert got["next-experiment-targets-bottleneck"]


@pytest.mark.parametrize(
    ("said", "passed"),
    [
        # the latency said in one clause, a vague phrase in the next
        (
            "The tokenizer runs on the CPU, 0 ms on the GPU, but the request waits for it "
            "before the first token, so it belongs in the latency picture.",
            True,
        ),
        # only the vague phrase
        (
            "The tokenizer runs on the CPU, 0 ms on the GPU; it belongs in the latency picture.",
            False,
        ),
        # denied in one clause, so no other clause says it
        (
            "The tokenizer runs on the CPU, 0 ms on the GPU, and doesn't really count toward "
            "the request; it's a one-off before the model starts.",
            False,
        ),
    ],
)
def test_the_latency_half_in_one_clause(said: str, passed: bool) -> None:
    text = (
        "Workload: decoder-only LLM, 4096-token prompt, batch 1\nHardware: L4\n"
        "Top CUDA time: matmul 38.4 ms\nTop CPU / orchestration cost: tokenizer.encode, 22 ms\n"
        f"Next experiment: find who calls to() with with_stack=True\n\n{said}\n"
    )
    assert grade_text(text, "partA")["tokenizer-outside-gpu"] is passed


@pytest.mark.parametrize(
    ("listed", "proposes"),
    [
        # a bare list of what to try, outside the Next experiment field
        ("Experiments: profile, torch.compile, CUDA graphs, FlashAttention-3, batching.", True),
        ("Things to try - xformers, fused MHA, compile.", True),
        # a list of what is put off
        ("Experiments I'd skip for now: FlashAttention-3, xformers, fused MHA.", False),
        ("Rejected experiments: FlashAttention-3, xformers, fused MHA.", False),
        # a list naming no attention kernel
        ("Experiments: profile, torch.compile, CUDA graphs, batching.", False),
    ],
)
def test_a_bare_list_of_experiments_naming_a_kernel(listed: str, proposes: bool) -> None:
    assert grade("partA", stretch=listed)["no-premature-attention-kernel"] is not proposes


_MEMO_C = """\
**Conclusion:** aten::copy_ is 61% of CUDA time in this 7B decode: movement first.

**{memo_label}:** log the dtype and device of everything copy_ touches in one decode step.

### Appendix: the template from memory

**Workload:** 7B decoder, decode phase, batch 1
**{hardware}:** A10G
**Top CUDA time:** aten::copy_, 61% of CUDA time
**Top CPU / orchestration cost:** the per-token Python loop
**Next experiment:** log the dtype and device of the tensors copy_ moves, one decode step
"""


@pytest.mark.parametrize(
    ("memo_label", "hardware", "exact"),
    [
        # the memo names a field above the template: the template is judged as a whole
        ("Next experiment", "Hardware", True),
        ("Next", "Hardware", True),
        # a misspelt name in the template still fails
        ("Next experiment", "Hardwear", False),
    ],
)
def test_the_template_judged_where_it_is_written(
    memo_label: str, hardware: str, exact: bool
) -> None:
    text = _MEMO_C.format(memo_label=memo_label, hardware=hardware)
    assert grade_text(text, "partC")["field-names-exact"] is exact


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        (
            "Not doing: FlashAttention or any attention swap; attention isn't what eats the time.",
            True,
        ),
        ("Not pursuing: a custom attention kernel, since the op is already flash.", True),
    ],
)
def test_a_label_that_declines_with_one_verb(not_yet: str, passed: bool) -> None:
    got = grade("partA", not_yet=not_yet)
    assert got["no-premature-attention-kernel"] is passed
    assert got["not-yet-with-reason"] is passed


@pytest.mark.parametrize(
    ("unit", "claim", "test"),
    [
        # the arrow leads to the cause; the labelled test comes after
        (
            "54 calls = 3 per layer -> a per-layer cast of the mask; test: log its dtype",
            "54 calls = 3 per layer -> a per-layer cast of the mask;",
            "test: log its dtype",
        ),
        # with no labelled test, an action after the arrow is the test
        (
            "the mask is fp32 -> cast it once at load and re-profile",
            "the mask is fp32",
            "cast it once at load and re-profile",
        ),
    ],
)
def test_an_arrow_to_the_cause_before_a_labelled_test(unit: str, claim: str, test: str) -> None:
    from grader.checks.experiment_text import split_test

    assert split_test(unit) == (claim, test)


@pytest.mark.parametrize(
    "heading",
    ["## Appendix 2 — why are copy_ and to there?", "## Annex B: two hypotheses"],
)
def test_an_appendix_number_decorates_a_lead(heading: str) -> None:
    hypotheses = (
        f"{heading}\n\n"
        "1. The rotary tables are fp32 and cast to bf16 every layer.\n"
        "   - Test: log their dtype at each layer's entry.\n"
        "2. The ids are built on the CPU and copied over each step.\n"
        "   - Test: look for Memcpy HtoD rows in the trace.\n"
    )
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"]


def test_launch_evidence_after_a_sentence_about_part_a() -> None:
    diagnosis = (
        "This is the opposite of Part A: the GPU is underfed. There are 240 calls of each "
        "op and none of them runs longer than about 25 us."
    )
    text = (
        "Workload: bs 1, prompt 32, decode 128\nHardware: L4\nTop CUDA time: matmul, 6.1 ms\n"
        "Top CPU / orchestration cost: the Python decode loop\n"
        "Next experiment: capture the decode step in a CUDA graph\n\n"
        f"{diagnosis}\n"
    )
    assert grade_text(text, "partB")["overhead-evidence"]
    # said of Part A, the numbers back nothing in B
    assert not grade_text(text.replace("There are 240", "Part A had 240"), "partB")[
        "overhead-evidence"
    ]


@pytest.mark.parametrize(
    ("aside", "proposes"),
    [
        ("Optimizing the attention is the key, with a fused attention kernel.", True),
        ("I'd optimize the slow layers with FlashAttention-3.", True),
        # declined, or said of what is already there
        ("I would not optimize anything with a new attention kernel yet.", False),
        ("The model is already optimized with flash attention.", False),
    ],
)
def test_a_kernel_as_the_means_of_optimizing(aside: str, proposes: bool) -> None:
    assert grade("partA", stretch=aside)["no-premature-attention-kernel"] is not proposes


@pytest.mark.parametrize(
    ("not_yet", "separated"),
    [
        # the copies still to be explained, beside the math the kernel would speed up
        (
            "Not optimizing yet: the attention kernel. It is already flash, and until I know "
            "where the 35 ms of copies come from, a custom kernel would only speed up the "
            "part of the run that is already doing useful work.",
            True,
        ),
    ],
)
def test_movement_still_to_be_explained_is_set_apart(not_yet: str, separated: bool) -> None:
    diagnosis = "copy_ and to, 35 ms, are movement that should not be needed."
    got = grade("partA", diagnosis=diagnosis, not_yet=not_yet)
    assert got["separates-math-from-movement"] is separated


# Third batch of own probes, written from criteria.md before grading (29 statements, 4 missed).
@pytest.mark.parametrize(
    ("slot", "text", "criterion", "passed"),
    [
        (
            "diagnosis",
            "The math is earning its keep; copy_ and to (~35 ms) are overhead we inflicted on "
            "ourselves.",
            "separates-math-from-movement",
            True,
        ),
        (
            "diagnosis",
            "The math is earning its keep; copy_ and to (~35 ms) come right after it.",
            "separates-math-from-movement",
            False,
        ),
        (
            "not_yet",
            "Things I'm deliberately ignoring: the attention kernel, since it's already the "
            "flash path.",
            "not-yet-with-reason",
            True,
        ),
        ("not_yet", "Things I'm deliberately ignoring: attention.", "not-yet-with-reason", False),
    ],
)
def test_own_probes_third_batch(slot: str, text: str, criterion: str, passed: bool) -> None:
    assert grade("partA", **{slot: text})[criterion] is passed


@pytest.mark.parametrize(
    ("cpu", "passed"),
    [
        (
            "tokenizer.encode, 22 ms: host-only work the GPU never sees, but the request can't "
            "start prefill until it's done",
            True,
        ),
        (
            "tokenizer.encode, 22 ms: it lengthens every request even though CUDA shows nothing "
            "for it",
            True,
        ),
        ("tokenizer.encode, 22 ms: CUDA shows nothing for it", False),
        ("tokenizer.encode, 22 ms: the request can't start prefill until it's done", False),
    ],
)
def test_both_halves_of_the_tokenizer_in_other_words(cpu: str, passed: bool) -> None:
    text = (
        "Workload: decoder-only LLM, 4096-token prompt, batch 1\nHardware: L4\n"
        "Top CUDA time: matmul 38.4 ms\n"
        f"Top CPU / orchestration cost: {cpu}\n"
        "Next experiment: find who calls to() with with_stack=True\n"
    )
    assert grade_text(text, "partA")["tokenizer-outside-gpu"] is passed


@pytest.mark.parametrize(
    ("said", "passed"),
    [
        # another class claimed in other words: the device said to be kept busy
        ("The GPU is saturated by matmul.", False),
        ("matmul pegs the GPU.", False),
        ("The GPU is not saturated: it waits on Python between tiny launches.", True),
    ],
)
def test_the_gpu_said_to_be_busy_is_another_class(said: str, passed: bool) -> None:
    text = (
        "Workload: batch 1, prompt 32, decode 128\nHardware: L4\n"
        "Top CUDA time: aten::matmul, 6.1 ms over 240 calls\n"
        f"Top CPU / orchestration cost: the Python loop, 38 ms. {said}\n"
        "Next experiment: capture the decode step in a CUDA graph and compare time per token\n"
    )
    assert grade_text(text, "partB")["diagnosis-matches"] is passed


@pytest.mark.parametrize(
    ("aside", "proposes"),
    [
        ("After the dtype fix, the natural follow-up is a fused attention kernel.", True),
        ("The follow-up would be FlashAttention-2 for the attention layers.", True),
        ("The follow-up is a second profile, not a new attention kernel.", False),
    ],
)
def test_a_kernel_named_as_the_follow_up(aside: str, proposes: bool) -> None:
    assert grade("partA", stretch=aside)["no-premature-attention-kernel"] is not proposes


@pytest.mark.parametrize(
    ("hyp_lead", "exp_lead", "tested"),
    [
        ("hypotheses", "experimnts", True),  # a lead misspelt
        ("Hypothses:", "how id test:", True),
        (
            "why copy/to r there:",
            "> One experiment that would confirm or reject each hypothesis.",
            True,
        ),
        # a word that is no lead's near spelling stays prose
        ("hypotheses", "experience", False),
    ],
)
def test_leads_in_hurried_spellings(hyp_lead: str, exp_lead: str, tested: bool) -> None:
    hypotheses = (
        f"{hyp_lead}\n"
        "1. the rotary tables are fp32 and get cast to bf16 every layer\n"
        "2. the ids are built on the cpu and shipped over each step\n\n"
        f"{exp_lead}\n\n"
        "1. print the dtype of the rotary tables at each layer\n"
        "2. look for Memcpy HtoD rows in the trace\n"
    )
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"] is tested


@pytest.mark.parametrize(
    ("next_experiment", "n"),
    [
        # a change, then also a look for something of its own
        (
            "cast everything to bf16 at load time and also rerun with with_stack=True to find "
            "who calls to()",
            2,
        ),
        # the change's own measurement
        ("cast everything to bf16 at load time and re-profile to see whether to() drops", 1),
        ("cast the cache to bf16 and also re-profile", 1),
    ],
)
def test_a_look_added_after_a_change(next_experiment: str, n: int) -> None:
    assert experiments_in(next_experiment) == n


@pytest.mark.parametrize(
    "heading",
    [
        '## "3. One thing you would not optimize yet, and why."',
        "## \u201cOne thing you would not optimize yet, and why.\u201d",
    ],
)
def test_the_prompt_kept_as_a_quoted_heading(heading: str) -> None:
    not_yet = (
        f"{heading}\n\nThe attention kernel. It is already a fused flash kernel, and a third "
        "of the GPU time is unexplained copying."
    )
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"]


def test_a_quoted_prompt_holds_no_hypothesis() -> None:
    from grader.report.leads import section_of

    assert section_of('"Two hypotheses for why copy_ and to are present."') == ("hypotheses", "")


def test_the_prompt_kept_in_the_file_states_no_share() -> None:
    text = (
        "*Write the five field names. Fill them for a fake run where aten::copy_ is 61% of "
        "CUDA time on a 7B decode.*\n\n"
        "Workload: 7B LLM, decode, batch 1\nHardware: H100\n"
        "Top CUDA time: aten::copy_ ({share} of CUDA time)\n"
        "Top CPU / orchestration cost: the Python loop\n"
        "Next experiment: find where the fp32 to bf16 casts happen with with_stack=True\n"
    )
    assert not grade_text(text.format(share="16%"), "partC")["copy-share-stated"]
    assert grade_text(text.format(share="61%"), "partC")["copy-share-stated"]


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # the group named on the line before, judged in other words
        ("The movement isn't part of the model and might be removable.", True),
        ("The movement might be removable.", True),
        ("The movement is part of the model.", False),
    ],
)
def test_movement_said_removable(diagnosis: str, passed: bool) -> None:
    got = grade("partA", diagnosis=f"copy_ and to are movement, ~35 ms. {diagnosis}")
    assert got["separates-math-from-movement"] is passed


@pytest.mark.parametrize(
    ("hypothesis", "separated"),
    [
        # "later" as a time in the run: a cause, not the copies put off
        (
            "3. Non-contiguous views: the slices produce strided views that later need "
            "`.contiguous()` copies.",
            True,
        ),
        # the copies put off for later are waved away
        ("3. The copies can wait for later; they are small.", False),
    ],
)
def test_later_as_a_time_is_no_deferral(hypothesis: str, separated: bool) -> None:
    hypotheses = (
        "Hypotheses:\n1. The rotary tables are fp32 and cast every layer.\n"
        f"2. The ids are built on the CPU and copied over.\n{hypothesis}\n"
    )
    got = grade(
        "partA",
        diagnosis="copy_ and to, 35 ms, are movement that should not be needed.",
        hypotheses=hypotheses,
    )
    assert got["separates-math-from-movement"] is separated
