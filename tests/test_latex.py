"""Reports pasted as LaTeX source: each construct read as its markdown."""

from __future__ import annotations

import pytest

from grader.report.latex import inline, unlatex
from grader.report.model import Report
from tests.test_statements import grade_text


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (r"\textbf{Workload:} batch 1", "**Workload:** batch 1"),
        (r"\texttt{aten::copy\_} is 61\%", "`aten::copy_` is 61%"),
        (r"\emph{not} the attention kernel", "*not* the attention kernel"),
        (r"$\approx 25\,\mu$s per call", "≈ 25 µs per call"),
        (r"38 ms CPU $\gg$ 15 ms CUDA", "38 ms CPU ≫ 15 ms CUDA"),
        (r"host$\to$device", "host→device"),
        (r"\verb|x.cpu()| each step", "`x.cpu()` each step"),
        (r"casts, e.g.\ the KV cache", "casts, e.g. the KV cache"),
        (r"\textbf{\texttt{copy\_} first}", "**`copy_` first**"),
        (r"see\footnote{at 22 ms}", "see (at 22 ms)"),
        (r"~35 ms of movement", "~35 ms of movement"),  # about, not a tie
        (r"a line ends here \\", "a line ends here "),
    ],
)
def test_a_command_is_read_as_its_markdown(text: str, read: str) -> None:
    assert inline(text) == read


LATEX = r"""\section*{Part A}
\begin{itemize}
  \item \textbf{Workload:} decoder-only LLM, 4096 in, 128 out, bf16, batch 1
  \item \textbf{Hardware:} L4
  \item \textbf{Top CUDA time:} matmul + flash attention $\approx 70$ ms of math;
        \texttt{copy\_} + \texttt{to} 35 ms of movement that should not be there
  \item \textbf{Top CPU / orchestration cost:} \texttt{tokenizer.encode}, 22 ms on the CPU,
        0 ms CUDA, still paid in TTFT
  \item \textbf{Next experiment:} re-profile with \texttt{with\_stack=True} to find who calls
        \texttt{to()}
\end{itemize}
\subsection*{Hypotheses}
\begin{enumerate}
  \item The KV cache is fp32 and cast to bf16 in every layer.
  \begin{itemize}
    \item Test: print the cache dtype; fp32 confirms it.
  \end{itemize}
  \item The inputs are built on the CPU and copied over each step.
  \begin{itemize}
    \item Test: look for Memcpy HtoD in the trace.
  \end{itemize}
\end{enumerate}
\subsection*{Not yet}
The attention kernel: it is already flash, and the movement is unexplained.
"""


def test_a_latex_report_is_graded_as_the_report_it_stands_for() -> None:
    got = grade_text(LATEX, "partA")
    assert all(
        got[c]
        for c in (
            "five-fields",
            "diagnosis-matches",
            "separates-math-from-movement",
            "tokenizer-outside-gpu",
            "two-hypotheses",
            "experiment-per-hypothesis",
            "not-yet-with-reason",
        )
    ), got


def test_nested_lists_and_numbers_are_kept() -> None:
    text, _ = unlatex(LATEX)
    assert "1. The KV cache is fp32" in text
    assert "2. The inputs are built on the CPU" in text
    assert "   - Test: print the cache dtype" in text  # under its numbered item


def test_evidence_points_at_the_line_the_learner_wrote() -> None:
    report = Report.parse(LATEX)
    f = report.field("hardware")
    assert f is not None and f.label_line == 4


TABLE = r"""\section*{Part B}
\begin{tabular}{ll}
\hline
\textbf{Workload:} & batch 1, prompt 32, decode 128 \\
\textbf{Hardware:} & L4 \\
\textbf{Top CUDA time:} & \texttt{aten::matmul} 6.1 ms over 240 calls \\
\textbf{Top CPU / orchestration cost:} & Python decode loop 38 ms \\
\hline
\textbf{Next experiment:} & CUDA graphs for the decode step \\
\hline
\end{tabular}
"""


def test_a_tabular_is_a_table_of_fields() -> None:
    report = Report.parse(TABLE)
    assert set(report.fields) == {"workload", "hardware", "top_cuda", "top_cpu", "next_experiment"}
    assert report.field("top_cpu").label_line == 7  # type: ignore[union-attr]
    # a rule between rows does not end the table
    assert report.field("next_experiment").label_line == 9  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "text",
    [
        # markdown with a backslash or one command is not LaTeX
        "Workload: batch 1\nTop CUDA time: copy\\_ 19.6 ms\n",
        "Next experiment: \\textbf{with_stack} profile\n",
        "C:\\Users\\me\\report.md\n\\n and \\t",
    ],
)
def test_text_that_is_not_latex_is_left_alone(text: str) -> None:
    assert unlatex(text) == (text, [])
