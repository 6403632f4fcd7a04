"""Statements from the eighteenth unseen round, each a table row.

s60 to s62 were measured once, unseen, with the rules of bed1407 (94.5%), before their
disagreements were read: an ordinary undergraduate class, working ML engineers writing in
tickets and abbreviations, and an international class writing in their second language.
"""

from __future__ import annotations

import pytest

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report
from tests.test_statements import BASES, DEFAULTS, NO_LEAD, experiments_in, grade, grade_text


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # more than such work should cost: the copies set apart as suspect
        (
            "copy_ and to together are ~34.7 ms which is a lot for something that is just "
            "moving data around.",
            True,
        ),
        ("copy_ and to are 35 ms of moves, a separate bucket, and not one the model needs.", True),
        # the same op listed, with no judgement of it
        ("copy_ and to together are ~34.7 ms of moving data around.", False),
    ],
)
def test_the_copies_set_apart(diagnosis: str, passed: bool) -> None:
    got = grade("partA", diagnosis=diagnosis, next=NO_LEAD)
    assert got["separates-math-from-movement"] is passed


@pytest.mark.parametrize(
    ("cpu_line", "passed"),
    [
        ("the Python decode loop, 38 ms; the GPU is underfed", True),
        ("the Python decode loop, 38 ms; the GPU is hungry for work", True),
        ("the Python decode loop, 38 ms", False),
    ],
)
def test_an_underfed_gpu_waits_on_the_host(cpu_line: str, passed: bool) -> None:
    text = (
        "Workload: batch 1, prompt 32, decode 128\nHardware: L4\nTop CUDA time: aten::matmul "
        f"6.1 ms\nTop CPU / orchestration cost: {cpu_line}\n{NO_LEAD}\n"
    )
    assert grade_text(text, "partB")["diagnosis-matches"] is passed


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # a clause after the thing that calls it small is its reason
        ("Not optimizing yet: slice, lots of calls but tiny cuda time (1.4ms)", True),
        ("Not yet: slice, lots of calls but tiny cuda time (1.4ms)", True),
        # a question as the lead, the thing and its reason under it
        (
            "**Q: what not yet?**\nThe attention kernel. It's already FlashAttention via SDPA and "
            "nobody has explained 35 ms of copies.",
            True,
        ),
        ("Not yet: slice, and the attention kernel", False),
    ],
)
def test_not_yet_of_round_18(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


@pytest.mark.parametrize(
    ("hypotheses", "two", "tested"),
    [
        # "exp:" leads a hypothesis's own test; "fp32 -> bf16" is a conversion, not a lead
        (
            "Hypotheses\n- H1 casting: mask or kv cache in fp32 -> bf16 cast per layer. exp: "
            "assert dtype == bf16 in each layer's fwd, see which one trips.\n- H2 H2D: position "
            "ids / mask built on cpu every step and shipped over. exp: check trace for Memcpy "
            "HtoD rows; build them on device and diff.",
            True,
            True,
        ),
        # "Checking that is ..." leads a test
        (
            "Why the copies? My first bet is a dtype mismatch: the attention mask is fp32, so "
            "every layer casts it. I'd check by logging dtypes at layer entry. Second bet is "
            ".contiguous(): the attention path transposes q/k/v and something calls "
            ".contiguous(), hence copy_. Checking that is with_stack=True and reading the copy_ "
            "callsite.",
            True,
            True,
        ),
        # "For A: / For B:" under "Hypothesis A: / Hypothesis B:"
        (
            "Hypothesis A: fp32 → bf16 casting of some buffer in each layer.\nHypothesis B: "
            "tensors going CPU → GPU (inputs created on CPU).\nFor A: check dtype of the "
            "buffers, fix it to bf16 and re-profile.\nFor B: search Memcpy HtoD in the trace, "
            "and create the inputs on cuda.",
            True,
            True,
        ),
        (
            "Hypothesis A: fp32 → bf16 casting of some buffer in each layer.\nHypothesis B: "
            "tensors going CPU → GPU (inputs created on CPU).\nFor A: check dtype of the "
            "buffers, fix it to bf16 and re-profile.",
            True,
            False,
        ),
    ],
)
def test_hypotheses_of_round_18(hypotheses: str, two: bool, tested: bool) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"] is two
    assert got["experiment-per-hypothesis"] is tested


def test_a_test_is_quoted_from_its_own_line() -> None:
    text = grade_report(
        Report.parse(
            "Workload: decode\nHardware: L4\nTop CUDA time: copy_ 35 ms, should not be there\n"
            "Top CPU / orchestration cost: tokenizer\nNext experiment: with_stack=True\n\n"
            "Hypothesis A: fp32 → bf16 casting of some buffer in each layer.\nHypothesis B: "
            "tensors going CPU → GPU (inputs created on CPU).\nFor A: check dtype of the "
            "buffers.\nFor B: search Memcpy HtoD in the trace.\n"
        ),
        resolve_exercise("partA"),
    )
    got = next(c for c in text.criteria if c.id == "experiment-per-hypothesis")
    assert got.evidence is not None
    assert got.evidence.line == 10 and got.evidence.text.startswith("For B")


@pytest.mark.parametrize(
    ("next_experiment", "n"),
    [
        # what an outcome would mean is no step of its own
        (
            "batch more sequences per step (bs 1 -> 16) and check whether ms/step stays flat. if "
            "it does, we were overhead-bound and batching amortizes it",
            True,
        ),
        ("batch more sequences per step and also capture the loop in a CUDA graph", False),
    ],
)
def test_an_outcome_read_is_no_second_step(next_experiment: str, n: bool) -> None:
    text = (
        "Workload: batch 1, prompt 32, decode 128\nHardware: L4\nTop CUDA time: aten::matmul "
        "6.1 ms\nTop CPU / orchestration cost: the Python loop, 38 ms; the GPU waits\n"
        f"Next experiment: {next_experiment}\n"
    )
    assert grade_text(text, "partB")["one-next-experiment"] is n


@pytest.mark.parametrize(
    ("value", "filled"),
    [
        ("TBD after standup", False),
        ("TODO until the rerun", False),
        ("profile once more after standup", True),
    ],
)
def test_a_placeholder_put_off_is_no_answer(value: str, filled: bool) -> None:
    text = (
        "Workload: llm bs1 4k prompt\nHardware: L4\nTop CUDA time: matmul\n"
        f"Top CPU / orchestration cost: tokenizer\nNext experiment: {value}\n"
    )
    assert grade_text(text, "partA")["five-fields"] is filled


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # "also" in a description proposes nothing
        ("flash attention 31.7 ms also math. copy_ and to should not be there.", True),
        ("copy_ and to should not be there; also try FlashAttention-3.", False),
    ],
)
def test_also_in_a_description(diagnosis: str, passed: bool) -> None:
    got = grade("partA", diagnosis=diagnosis)
    assert got["no-premature-attention-kernel"] is passed


SPANISH_C = """\
Carga de trabajo: modelo 7B, decode, batch 1, bf16
Hardware: L4
Tiempo CUDA top: aten::copy_ 61% del tiempo CUDA
Costo CPU / orquestación: loop de Python
Siguiente experimento: check the dtype of the KV cache and cast it once at load, then profile again.
"""


def test_field_labels_in_a_first_language_are_read_but_not_exact() -> None:
    got = grade_text(SPANISH_C, "partC")
    assert not got["field-names-exact"]
    assert got["copy-share-stated"] and got["one-next-experiment"]
    assert got["next-experiment-targets-bottleneck"]


@pytest.mark.parametrize(
    ("contrast", "passed"),
    [
        # what is said of the copies is not said of the top op
        ("- A: matmul top, copies big\n- B: matmul top, copies small but still there", False),
        (
            "- A: matmul on top is real prefill math, copies close behind\n"
            "- B: matmul on top is 240 tiny calls, the GPU mostly idle",
            True,
        ),
    ],
)
def test_top_cuda_meaning_is_said_of_the_top_op(contrast: str, passed: bool) -> None:
    text = (
        "Workload: batch 1, prompt 32, decode 128\nHardware: L4\nTop CUDA time: aten::matmul "
        "6.1 ms\nTop CPU / orchestration cost: the Python loop, 38 ms; the GPU waits\n"
        f"Next experiment: capture the decode step in a CUDA graph\n\n{contrast}\n"
    )
    assert grade_text(text, "partB")["top-cuda-meaning"] is passed


EQUATED = """\
Workload: The workload of the movement is the decoder-only prefill in bf16 at batch 1.
Hardware: NVIDIA L4
Top CUDA time: The top CUDA time is the matmul of the separation, because the casts are the \
dtype of the transfers.
Top CPU / orchestration cost: The orchestration is the CPU of the tokenizer outside the GPU, and \
it adds latency to TTFT.
Next experiment: profile with with_stack=True and find which code calls aten::to.
"""


def test_terms_said_to_be_each_others_are_soup() -> None:
    got = grade_text(EQUATED, "partA")
    assert not got["diagnosis-matches"] and not got["tokenizer-outside-gpu"]
    assert got["five-fields"]  # the form is still judged
    # one such phrase in an otherwise plain report is not enough
    plain = (
        EQUATED.replace("The workload of the movement is", "The workload is")
        .replace(
            "The top CUDA time is the matmul of the separation, because the",
            "matmul and attention are the math; copy_ and to should not be there:",
        )
        .replace(
            "The orchestration is the CPU of the tokenizer outside the GPU",
            "tokenizer.encode runs on the CPU, outside the GPU",
        )
    )
    got = grade_text(plain, "partA")
    assert got["tokenizer-outside-gpu"] and got["diagnosis-matches"]


@pytest.mark.parametrize(
    ("top_cuda", "passed"),
    [
        # one term made another's property, twice: soup
        (
            "61% of the movement is the copy_ of the decode. The dtype of the device of the "
            "movement is what the copy_ is.",
            False,
        ),
        # a genuine finding names the property of a thing: "the dtype of the KV cache"
        (
            "aten::copy_ 61% of CUDA time: the dtype of the KV cache does not match the weights",
            True,
        ),
    ],
)
def test_terms_made_each_others_property(top_cuda: str, passed: bool) -> None:
    text = (
        "Workload: 7B decode, batch 1, bf16\nHardware: L4\n"
        f"Top CUDA time: {top_cuda}\nTop CPU / orchestration cost: the Python loop\n"
        "Next experiment: log the dtype of the KV cache and cast it to bf16 at load, then "
        "re-profile.\n"
    )
    assert grade_text(text, "partC")["copy-share-stated"] is passed


@pytest.mark.parametrize(
    ("hypotheses", "two", "tested"),
    [
        # "A:" / "B:" with no heading, each a cause with its test
        (
            "A: the KV cache is kept in fp32 and cast to bf16 every layer. Test: print its dtype."
            "\nB: the input ids are created on the CPU and copied over each step. Test: look for "
            "Memcpy HtoD in the trace.",
            True,
            True,
        ),
        # answers numbered "A1:" / "A2:" under a question
        (
            "Q: why are copy_ and to there?\nA1: the rope tables are fp32 and get cast every "
            "layer; I'd log dtypes with a pre-hook.\nA2: position ids are built on the CPU each "
            "step and uploaded; I'd look for HtoD memcpy in the trace.",
            True,
            True,
        ),
        # dictated: "hypothesis one ... hypothesis two ..."
        (
            "hypothesis one the mask is built in fp32 and cast every layer, to test that I log "
            "the dtypes with a hook. hypothesis two the input ids are made on the cpu and copied "
            "every step, to test that I look for memcpy htod in the trace.",
            True,
            True,
        ),
        # "one, ...; two, ..." and then "For one I would ...; for two I would ..."
        (
            "Why the copies: one, the mask is built in fp32 and cast every layer; two, the input "
            "ids are made on the CPU and copied every step. For one I would log the dtypes with "
            "a hook; for two I would look for Memcpy HtoD in the trace.",
            True,
            True,
        ),
        # ... two numbers for one cause are one hypothesis
        (
            "Why the copies: one, the mask is built in fp32 and cast every layer; two, the mask "
            "is converted to bf16 in each layer. For one I would log the dtypes with a hook; for "
            "two I would print the mask dtype.",
            False,
            False,
        ),
        # lower-case parts with no blank line between, the numbers said without commas
        (
            "hypotheses for the copies: one a float32 to bf16 cast on the mask every layer, two "
            "inputs created on the CPU and copied over to the GPU\nexperiments: one print the "
            "mask dtype and make it bf16, see if to drops; two look for memcpy HtoD in the trace"
            " and build the inputs on cuda, see if copy drops",
            True,
            True,
        ),
        # "experiments:" at the margin right under the last numbered hypothesis
        (
            "copy_/to hypotheses:\n1. kv cache appends (copy_ into a preallocated cache)\n2. "
            "fp32 → bf16 cast of the attention mask\nexperiments:\n1. disable kv cache for one "
            "run, compare copy_ count\n2. print mask dtype before sdpa",
            True,
            True,
        ),
        # a test led by a mark ("✅/❌ test: ..."), and tests led by the letter and an arrow
        (
            "#### Hypotheses ⟶ tests\n- **H1 — dtype mismatch.** the attention mask is fp32 and "
            "gets cast in every block.\n  - ✅/❌ test: register a forward pre-hook that asserts "
            "every input is bf16.\n- **H2 — device hop.** position ids live on the CPU and are "
            "copied H2D per step.\n  - ✅/❌ test: look for Memcpy HtoD in the kernel view.",
            True,
            True,
        ),
        (
            "Why copies? two stories\n- Story A: fp32 rotary cache cast down to bf16 each "
            "layer\n- Story B: the attention "
            "mask is rebuilt on the host each step and uploaded\n\nTesting the stories\n- A → "
            "print dtypes at the call site\n- B → look for Memcpy HtoD in the trace",
            True,
            True,
        ),
        # numbered aloud one a line, the tests "for one, ..." / "for two, ..."
        (
            "hypotheses for copy and to\none, the inputs come in as float32 and get cast to bf16"
            "\ntwo, the logits get copied back to the CPU with dot cpu every step\nexperiments\n"
            "for one, print the input dtypes\nfor two, look for memcpy device to host in the trace",
            True,
            True,
        ),
        # "my first guess is ...; the second is ..."
        (
            "Why the copies: my first guess is the attention mask built on the CPU and shipped "
            "over each layer; the second is a KV cache allocated in fp32 and cast every layer. To "
            "test the first I'd look for Memcpy HtoD in the trace; to test the second I'd print "
            "cache.dtype.",
            True,
            True,
        ),
        # round 19's handover notes: a checkbox before each hypothesis, its check after it
        (
            "TODO for you:\n[ ] Hypothesis 1 — fp32 → bf16 casts every step (the mask built in "
            "fp32). Check: print dtypes going into each layer.\n[ ] Hypothesis 2 — the KV cache "
            "lives on the CPU and gets copied over on every call. Check: watch for HtoD memcpys "
            "in the trace.",
            True,
            True,
        ),
        # "(a) ...; (b) ... For (a): ...; For (b): ..."
        (
            "- Your two suspects for the copies: (a) a dtype mismatch — fp32 activations meeting "
            "bf16 weights; (b) `.contiguous()` on transposed views. For (a): log dtypes at the "
            "to() call sites. For (b): check `is_contiguous()` on the tensors handed to copy_.",
            True,
            True,
        ),
        # the outcome that tells, after an arrow
        (
            "### Why the copies\n- Casting: fp32 stuff hitting bf16 weights → you'll know, "
            "because to() should disappear after an up-front cast.\n- Transfers: tensors built "
            "on the CPU → you'll know if the HtoD memcpys go away once the inputs live on the GPU.",
            True,
            True,
        ),
        # "copy_/to: probably casting. Could also be ...": the first cause is not the lead's
        (
            "copy_/to: probably casting. Could also be the KV cache getting shuttled CPU→GPU.",
            True,
            False,
        ),
        # an essay's causes: "two quite different mistakes. In the first scenario ... In the
        # second scenario ...", each with "A simple test is ..." / "Here the test is ..."
        (
            "The copies could arise from two quite different mistakes. In the first scenario, the "
            "KV cache is stored in fp32 and every layer casts it to bf16. A simple test is to "
            "print cache.dtype. In the second scenario, a mask is built on the CPU and copied to "
            "the GPU at each step. Here the test is a timeline: HtoD memcpys in Nsight Systems "
            "confirm it.",
            True,
            True,
        ),
        (
            "Why are the copies there? I can see two distinct stories. According to the first, "
            "the KV cache is fp32 and cast on every layer. According to the second, the input ids "
            "cross from host to device each step. For the first, I would print the dtype of the "
            "cache; for the second, I would look for HtoD memcpys in the trace.",
            True,
            True,
        ),
        # ... and a test for only one of them
        (
            "hypothesis one the mask is built in fp32 and cast every layer, to test that I log "
            "the dtypes with a hook. hypothesis two the input ids are made on the cpu and copied "
            "every step.",
            True,
            False,
        ),
    ],
)
def test_hypothesis_layouts_numbered_aloud_or_by_letter(
    hypotheses: str, two: bool, tested: bool
) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"] is two
    assert got["experiment-per-hypothesis"] is tested


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # two attention kernels side by side are alternatives
        ("swap SDPA for FlashAttention-3 / xformers memory efficient attention and compare", 2),
        ("swap SDPA for FlashAttention-3 (or an xformers memory-efficient kernel) and measure", 2),
        # one kernel named twice, or settings of one change, stay one
        ("swap SDPA for FlashAttention-3 (or FlashAttention-3 built from source)", 1),
        (
            "capture the decode step as a CUDA graph (torch.cuda.graphs / CUDAGraph) and replay it",
            1,
        ),
    ],
)
def test_attention_kernels_offered_side_by_side(value: str, n: int) -> None:
    assert experiments_in(value) == n


@pytest.mark.parametrize(
    ("next_experiment", "passed"),
    [
        # the matmul's own speed is work on the math, whatever dtype it names
        (
            "Next experiment: check whether the matmuls run on the L4's bf16 tensor cores (look "
            "for HMMA kernel names in the trace).",
            False,
        ),
        (
            "Next experiment: make sure the GEMMs hit the tensor cores and re-measure matmul time.",
            False,
        ),
        # a dtype probe of the copies stays a movement experiment
        (
            "Next experiment: find which op casts to bf16: log the dtypes around every aten::to.",
            True,
        ),
        (
            "Next experiment: check whether the copies feed the tensor cores fp32 data and cast "
            "it to bf16 once at load.",
            True,
        ),
    ],
)
def test_the_matmuls_speed_is_not_the_copies(next_experiment: str, passed: bool) -> None:
    assert grade("partA", next=next_experiment)["next-experiment-targets-bottleneck"] is passed


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # the thing declined, named with the verb that would do it
        ("Not yet: writing a custom attention kernel, because the copies come first.", True),
        ("What I would not do yet is adopt FlashAttention-3, as the copies are unexplained.", True),
        (
            "Not yet: slice, it is tiny. I'd also leave the attention kernel alone, it is "
            "already flash.",
            True,
        ),
        # ... but put forward beside the work, in the same part
        (
            "Not yet: slice, it is tiny (1.4 ms).\nAlso since attention is 31.7 ms, maybe also "
            "try FlashAttention-3 on it.",
            False,
        ),
        (
            "Not yet: the slice ops, 1.4 ms. Attention is 31.7 ms though, so I'd probably try "
            "xformers memory_efficient_attention there in parallel.",
            False,
        ),
    ],
)
def test_a_proposal_inside_the_not_yet_part(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["no-premature-attention-kernel"] is passed


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # "fine to do" judges an action, not the copies
        (
            "copy_ and to are 35 ms that should not be there; I'd fix the casts and the uploads, "
            "and I think it's fine to do them together in one run.",
            True,
        ),
        ("copy_ and to are 35 ms, and they are fine.", False),
    ],
)
def test_fine_to_do_is_no_dismissal(diagnosis: str, passed: bool) -> None:
    assert grade("partA", diagnosis=diagnosis)["separates-math-from-movement"] is passed


@pytest.mark.parametrize(
    "not_yet",
    [
        "**Q: What are you leaving alone?**\nThe attention kernel. It is already flash, while a "
        "third of device time is unexplained movement.",
        "> 3. One thing you would not optimize yet, and why.\n\nThe attention kernel. It's "
        "already flash attention, and the copies are still unexplained.",
        "### Deliberately left alone\nThe attention kernel: it is already a flash kernel, and "
        "touching it now would be premature.",
        "### Slide 5 — Hold off ✋\n- custom attention: already a flash kernel, and rewriting it "
        "while the copies are unexplained is backwards",
    ],
)
def test_not_yet_leads_and_the_answer_quoted(not_yet: str) -> None:
    text = (BASES / "base_partA.md").read_text().format(**{**DEFAULTS["partA"], "not_yet": not_yet})
    result = grade_report(Report.parse(text), resolve_exercise("partA"))
    got = next(c for c in result.criteria if c.id == "not-yet-with-reason")
    assert got.passed
    # the line quoted is the answer, not the question above it
    assert got.evidence is not None and "attention" in got.evidence.text.lower()
    assert grade("partA", not_yet=not_yet.split("\n")[0])["not-yet-with-reason"] is False


@pytest.mark.parametrize(
    ("cpu_field", "passed"),
    [
        # the field's second line speaks of what its first line named
        (
            "tokenizer.encode (22 ms)\n  - not on the GPU at all (0 ms CUDA), but it's on the "
            "request path, so it adds straight to TTFT",
            True,
        ),
        # a named footnote carries the answer
        (
            "tokenizer.encode, 22 ms[^tok]\n\n[^tok]: it shows 0 ms CUDA because it's pure CPU "
            "string work, but it happens before the first token, so it's part of TTFT.",
            True,
        ),
        ("tokenizer.encode (22 ms)\n  - not on the GPU at all (0 ms CUDA)", False),
    ],
)
def test_the_tokenizer_over_two_lines_or_in_a_footnote(cpu_field: str, passed: bool) -> None:
    text = (
        "Workload: decoder-only LLM, prompt 4096, output 128, bf16, batch 1\nHardware: L4\n"
        "Top CUDA time: matmul and attention are the math; copy_ and to should not be there.\n"
        f"- Top CPU / orchestration cost: {cpu_field}\n"
        "Next experiment: profile with with_stack=True and find which code calls aten::to.\n"
    )
    assert grade_text(text, "partA")["tokenizer-outside-gpu"] is passed


def test_a_field_named_in_a_sentence_among_labelled_ones() -> None:
    text = (
        "Workload is a decoder-only model, 4096-token prompt, 128 generated, bf16, batch 1. "
        "Hardware: an L4. Top CUDA time: matmul (38.4 ms) and attention are the math; copy_ and "
        "to may well be avoidable. Top CPU / orchestration cost: tokenizer.encode, 22 ms on the "
        "CPU, still in TTFT. Next experiment: run the profiler with stack capture.\n"
    )
    assert grade_text(text, "partA")["five-fields"]
    assert not grade_text(text.replace("Workload is a", "It is a"), "partA")["five-fields"]


ESSAY = """\
# Reading the Part A profile

A report of this kind begins with the Workload, and here the workload is a decoder-only model \
at batch 1: a 4096-token prompt, 128 output tokens, bf16 weights. The Hardware is one L4.

Turning to the Top CUDA time, the largest line is aten::matmul at 38.4 ms, with flash attention \
at 31.7 ms: the math. By contrast, copy_ and to spend 35 ms moving 2.8 GiB, work that some line \
of code decided to do and that needs explaining first.

The Top CPU / orchestration cost points elsewhere: tokenizer.encode takes 22 ms of CPU and no \
GPU time, yet it lands on the time to first token.

My Next experiment is a single re-profile with with_stack=True, grouping aten::to by its stack.
"""


def test_an_essay_that_names_the_fields_in_its_sentences() -> None:
    got = grade_text(ESSAY, "partA")
    assert got["five-fields"] and got["one-next-experiment"]
    assert got["separates-math-from-movement"] and got["tokenizer-outside-gpu"]
    # a report that labels its fields is not read as an essay: its prose names no field
    labelled = "Workload: decoder-only, batch 1\nHardware: L4\n\n" + ESSAY.split("\n\n", 2)[2]
    assert not grade_text(labelled.replace("My Next experiment is", "I would"), "partA")[
        "one-next-experiment"
    ]


def test_a_question_that_asks_what_takes_the_field() -> None:
    text = (
        "**What is the Workload?**\nA decoder-only LLM, batch 1, 4096 in, 128 out, bf16.\n\n"
        "**What is the Hardware?**\nA single L4.\n\n**What takes the Top CUDA time?**\n"
        "aten::matmul at 38.4 ms, then flash attention.\n\n**What is the Top CPU / "
        "orchestration cost?**\ntokenizer.encode, 22 ms.\n\n**What is the Next experiment?**\n"
        "Re-run with with_stack=True and find who calls aten::to.\n"
    )
    assert grade_text(text, "partA")["five-fields"]
