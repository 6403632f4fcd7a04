"""Reports written as LaTeX source and handed in as markdown.

A learner who writes in LaTeX pastes the source: ``\\section*{Part A}``,
``\\item \\textbf{Workload:} ...`` inside ``itemize``, ``\\texttt{aten::copy\\_}``,
``$\\approx 61\\%$``, a ``tabular`` of field and value.  Markdown reads all of it as one
paragraph of backslashes.  ``unlatex`` writes each construct as its markdown equivalent:

- ``\\section{X}`` is ``## X`` (``\\subsection`` ``###``, ``\\subsubsection`` ``####``), and
  ``\\paragraph{X} ...`` is ``**X** ...``;
- ``\\item`` is a bullet inside ``itemize``, a numbered item inside ``enumerate``, and
  ``\\item[Workload:] ...`` the labelled item ``- Workload: ...``; nested lists are indented;
- a ``tabular`` is a markdown table (its first row the header), rules dropped;
- ``verbatim`` and ``lstlisting`` are fenced code;
- ``\\textbf{x}`` is ``**x**``, ``\\emph{x}``/``\\textit{x}`` ``*x*``, ``\\texttt{x}`` and
  ``\\verb|x|`` a code span, and other commands leave their argument as text;
- math is written with its symbols (``$\\approx 25\\,\\mu$s`` is "≈ 25 µs"), and escaped
  characters (``\\_``, ``\\%``, ``\\&``) are the characters.

A text is read as LaTeX only when it has at least two of its structural commands.  Each
line written points at the report's own line, so evidence quotes the line the learner wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CUE = re.compile(
    r"\\(?:section|subsection|subsubsection|paragraph|begin|end|item|textbf|texttt|emph|textit)"
    r"\b"
)
_COMMENT_LINE = re.compile(r"^\s*%")
_PREAMBLE = re.compile(
    r"^\s*\\(?:documentclass|usepackage|maketitle|author|date|tableofcontents|newpage|"
    r"clearpage|setlength|pagestyle|geometry)\b"
)
_BEGIN = re.compile(r"^\s*\\begin\{(?P<env>[a-zA-Z*]+)\}(?:\{[^{}]*\}|\[[^\]]*\])*\s*(?P<rest>.*)$")
_END = re.compile(r"^\s*\\end\{(?P<env>[a-zA-Z*]+)\}\s*(?P<rest>.*)$")
_HEADING = re.compile(
    r"^\s*\\(?P<cmd>part|chapter|section|subsection|subsubsection|title)\*?\{(?P<rest>.*)$"
)
_PARAGRAPH = re.compile(r"^\s*\\(?:sub)?paragraph\*?\{(?P<rest>.*)$")
_ITEM = re.compile(r"^\s*\\item\b\s*(?:\[(?P<label>[^\]]*)\])?\s*(?P<rest>.*)$")
_RULE = re.compile(r"\\(?:hline|toprule|midrule|bottomrule|cline\{[^{}]*\})")
_LEVELS = {"part": "#", "chapter": "#", "title": "#", "section": "##", "subsection": "###"}
_LISTS = {"itemize": False, "enumerate": True, "description": False}
_CODE = ("verbatim", "lstlisting", "minted", "Verbatim")
_TABLES = ("tabular", "tabular*", "tabularx", "longtable")

_SYMBOLS = {
    "approx": "≈", "times": "×", "to": "→", "rightarrow": "→", "Rightarrow": "⇒",
    "leftarrow": "←", "leftrightarrow": "↔", "sim": "~", "gg": "≫", "ll": "≪", "geq": "≥",
    "ge": "≥", "leq": "≤", "le": "≤", "mu": "µ", "cdot": "·", "neq": "≠", "ne": "≠",
    "textrightarrow": "→", "ldots": "...", "dots": "...", "cdots": "...", "textasciitilde": "~",
    "textbackslash": "\\", "pm": "±", "infty": "∞", "checkmark": "✓", "S": "§",
}  # fmt: skip
_WRAP = {"textbf": "**", "textit": "*", "emph": "*", "texttt": "`", "code": "`"}
_DROP = re.compile(
    r"\\(?:medskip|bigskip|smallskip|noindent|newline|par|centering|hfill|vfill|quad|qquad|"
    r"small|footnotesize|large|Large|normalsize|raggedright|linebreak|displaystyle)\b\s?"
    r"|\\(?:vspace|hspace|label|ref|cite)\*?\{[^{}]*\}"
)
_VERB = re.compile(r"\\verb(?P<d>[^a-zA-Z\s])(?P<body>.*?)(?P=d)")
_ESCAPED = re.compile(r"\\([_%&#${}])")
_COMMAND = re.compile(r"\\([a-zA-Z]+)\*?")
_MATH = re.compile(r"\$\$?(?P<body>[^$]*)\$\$?|\\\((?P<inline>.*?)\\\)")


@dataclass
class _List:
    numbered: bool
    indent: int  # where its items' markers start
    content: int  # where the current item's text starts
    count: int = 0  # items so far


def looks_like_latex(text: str) -> bool:
    return len(_CUE.findall(text)) >= 2


def unlatex(text: str) -> tuple[str, list[int]]:
    """``text`` with its LaTeX written as markdown, and for each line written the number of
    the line it came from (an empty list when the text is not LaTeX)."""
    if "\\" not in text or not looks_like_latex(text):
        return text, []
    out: list[tuple[str, int]] = []
    lists: list[_List] = []
    env: list[str] = []
    table_rows = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip()
        if env and env[-1] in _CODE:
            end = _END.match(line)
            if end is not None and end.group("env") == env[-1]:
                env.pop()
                out.append(("```", number))
            else:
                out.append((raw, number))
            continue
        if _COMMENT_LINE.match(line) or _PREAMBLE.match(line):
            out.append(("", number))
            continue
        if (b := _BEGIN.match(line)) is not None:
            name = b.group("env")
            env.append(name)
            if name in _LISTS:
                indent = lists[-1].content if lists else 0
                lists.append(_List(_LISTS[name], indent, indent + 2))
            if name in _CODE:
                out.append(("```", number))
                continue
            table_rows = 0 if name in _TABLES else table_rows
            line = b.group("rest")
            if not line.strip():
                out.append(("", number))
                continue
        if (e := _END.match(line)) is not None:
            name = e.group("env")
            if env and env[-1] == name:
                env.pop()
            if name in _LISTS and lists:
                lists.pop()
            out.append((inline(e.group("rest")), number))
            continue
        if env and env[-1] in _TABLES:
            rows = _table_rows(line)
            for row in rows:
                out.append((row, number))
                table_rows += 1
                if table_rows == 1:
                    out.append(("|" + "---|" * row.count(" | ") + "---|", number))
            if not rows and not table_rows:
                out.append(("", number))  # a rule before the first row
            # a rule between rows writes nothing: a blank line would end the table
            continue
        out.append((_line(line, lists), number))
    return "\n".join(t for t, _ in out), [n for _, n in out]


def _line(line: str, lists: list[_List]) -> str:
    if (h := _HEADING.match(line)) is not None:
        title, rest = _argument(h.group("rest"))
        marks = _LEVELS.get(h.group("cmd"), "####")
        return f"{marks} {inline(title)}" + (f" {inline(rest)}" if rest.strip() else "")
    if (p := _PARAGRAPH.match(line)) is not None:
        title, rest = _argument(p.group("rest"))
        return f"**{inline(title).strip()}** {inline(rest)}".rstrip()
    if (i := _ITEM.match(line)) is not None:
        level = lists[-1] if lists else _List(False, 0, 2)
        level.count += 1
        marker = f"{level.count}. " if level.numbered else "- "
        level.content = level.indent + len(marker)
        body = inline(i.group("rest"))
        if i.group("label") is not None:  # "\item[Workload:] ..."
            body = f"{inline(i.group('label')).strip()} {body}".strip()
        return " " * level.indent + marker + body
    text = inline(line)
    if lists and text.strip():  # an item's text going on, kept inside the item
        return " " * lists[-1].content + text.strip()
    return text


def _table_rows(line: str) -> list[str]:
    body = _RULE.sub(" ", line).strip()
    rows = [r for r in re.split(r"\\\\", body) if r.strip()]
    return ["| " + " | ".join(inline(c).strip() for c in r.split("&")) + " |" for r in rows]


def _argument(text: str) -> tuple[str, str]:
    """The text of a command's argument up to its matching brace, and what follows it."""
    depth = 1
    for at, ch in enumerate(text):
        if ch == "{" and (at == 0 or text[at - 1] != "\\"):
            depth += 1
        elif ch == "}" and (at == 0 or text[at - 1] != "\\"):
            depth -= 1
            if depth == 0:
                return text[:at], text[at + 1 :]
    return text, ""


def inline(text: str) -> str:
    """One line's commands, math and escapes written as markdown and plain characters."""
    text = _VERB.sub(lambda m: f"`{m.group('body')}`", text)
    text = _MATH.sub(lambda m: _math(m.group("body") or m.group("inline") or ""), text)
    text = _DROP.sub("", text)
    text = text.replace("``", '"').replace("''", '"')
    text = re.sub(r"\\\\\s*$", "", text)  # a forced line break at the line's end
    text = re.sub(r"\\[ ,;:!]", " ", text)  # "e.g.\ the", "25\,ms"
    text = re.sub(r"(?<![\\\w])~(?!\d)", " ", text)  # a tie, not "~35 ms"
    return _ESCAPED.sub(r"\1", _commands(text))


def _commands(text: str) -> str:
    out = ""
    while (m := _COMMAND.search(text)) is not None:
        out += text[: m.start()]
        name, rest = m.group(1), text[m.end() :]
        if rest.startswith("{"):
            arg, rest = _argument(rest[1:])
            if name == "href" and rest.startswith("{"):
                arg, rest = _argument(rest[1:])
            arg = _commands(arg)
            wrap = _WRAP.get(name, "")
            if name == "footnote":
                out += f" ({arg})"
            else:
                body = _ESCAPED.sub(r"\1", arg) if wrap == "`" else arg
                out += f"{wrap}{body}{wrap}"
        else:
            out += _SYMBOLS.get(name, "")
        text = rest
    return out + text


def _math(body: str) -> str:
    body = re.sub(r"\\[,;: ]", " ", body)
    body = re.sub(r"\\(?:text|mathrm|mathit|mathbf|operatorname)\{([^{}]*)\}", r"\1", body)
    body = re.sub(r"\\([a-zA-Z]+)", lambda m: _SYMBOLS.get(m.group(1), m.group(1)), body)
    body = body.replace("{", "").replace("}", "")
    return _ESCAPED.sub(r"\1", body).strip()
