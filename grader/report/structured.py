"""Answers written as structured data: a YAML or JSON block, read as the lines it stands for.

Some learners hand in the report as data::

    ```yaml
    Workload: decoder-only LLM, 4096-token prompt, bf16, batch 1
    Top CUDA time: >
      matmul 38.4 ms and attention 31.7 ms are the math ...
    hypotheses:
      - id: H1
        claim: "the KV cache is fp32 and cast to bf16 every layer"
        test: "log cache.dtype at each layer's entry"
    not_yet:
      what: the attention kernel
      why: it is already a flash kernel
    ```

Read as markdown, a fenced block is code, and a folded value or a list of mappings is not
a field or a hypothesis.  ``unstructure`` parses each such block with PyYAML (JSON is YAML
too) and writes it as markdown: a key and its text as a labelled line ("Top CUDA time:
matmul 38.4 ms ..."; snake_case keys in words: "not yet"), a list as bullets under its key,
a mapping in a list as a bullet that opens with its name ("- H1: the KV cache is fp32 ...")
and its other keys as bullets under it ("  - test: log cache.dtype ..."), and a mapping
under a key as bullets under it ("not yet:" / "- the attention kernel" / "- why: it is
already ...").  Each line written points at the line of the file its key or item stands on.

A block is read so when it is tagged ``yaml``, ``yml`` or ``json``, or when it parses to a
mapping two of whose keys name a field: a block of code that happens to parse is left alone.
A file that is one JSON object, with no fence, is read so too.
"""

from __future__ import annotations

import re

import yaml

_FENCE = re.compile(r"^(?P<fence>```+|~~~+)[ \t]*(?P<lang>[\w-]*)[^\n]*$")
_DATA_LANGS = {"yaml", "yml", "json", "json5"}
# The key of a mapping in a list that names it: "- id: H1", "- name: dtype cast"
_NAME_KEYS = {"id", "name", "label", "key", "hypothesis", "hyp", "what", "thing", "item"}
_MIN_FIELD_KEYS = 2
# a key that may name a field, at the start of a line (checked before the block is parsed)
_FIELD_KEY = re.compile(
    r"^[ \t]*[\"']?(?:workload|hardware|top[ _]?(?:cuda|gpu|cpu)|next[ _]?experiment)",
    re.IGNORECASE | re.MULTILINE,
)

# A report's data is small and shallow: a block past these is not one.
_ANCHOR = re.compile(r"(?:^|[\s\[{,:-])[&*][\w-]")
_MAX_NODES = 2000
_MAX_DEPTH = 8

Written = list[tuple[str, int]]  # each line written, with the (0-based) line it came from


def _words(key: object) -> str:
    """A key as words: "top_cuda_time" -> "top cuda time", "notYet" stays as it is."""
    return str(key).replace("_", " ").strip()


def _flat(value: object) -> str:
    """A scalar's text on one line (a folded or literal block joined by spaces)."""
    return " ".join(str(value).split()) if value is not None else ""


def _scalar(node: yaml.ScalarNode) -> str:
    """A scalar's text; a quoted name keeps its quotes (- "decode_step": a range named
    exactly), a quoted sentence is just its words."""
    text = _flat(node.value)
    if node.style in ('"', "'") and text and " " not in text:
        return f'"{text}"'
    return text


def _inline(node: yaml.Node) -> str:
    """A node's text on one line: a scalar's, a list's items, a mapping's entries."""
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return "; ".join(_inline(item) for item in node.value)
    if isinstance(node, yaml.MappingNode):
        return ", ".join(_entry(k, v, first=i == 0) for i, (k, v) in enumerate(node.value))
    return ""


def _entry(key: yaml.Node, value: yaml.Node, first: bool) -> str:
    name = _words(key.value)
    if first and name.lower() in _NAME_KEYS:
        return _inline(value)  # "what: attention kernel" -> "attention kernel"
    return f"{name}: {_inline(value)}"


def _mapping(node: yaml.MappingNode, depth: int, out: Written) -> None:
    pad = "  " * depth
    bullet = "- " if depth else ""
    for key, value in node.value:
        label = f"{pad}{bullet}{_words(key.value)}:"
        line = key.start_mark.line
        if isinstance(value, yaml.SequenceNode):
            out.append((label, line))
            for item in value.value:
                _item(item, depth + 1, out)
        elif isinstance(value, yaml.MappingNode) and value.value:
            # "not_yet: {what: ..., why: ...}": the key, its entries as bullets under it
            out.append((label, line))
            for i, (k, v) in enumerate(value.value):
                text = _entry(k, v, first=i == 0)
                out.append((f"{pad}  - {text}" if depth else f"- {text}", k.start_mark.line))
        else:
            out.append((f"{label} {_inline(value)}".rstrip(), line))


def _item(node: yaml.Node, depth: int, out: Written) -> None:
    pad = "  " * (depth - 1)
    line = node.start_mark.line
    if isinstance(node, yaml.MappingNode) and node.value:
        (key, value), *rest = node.value
        name = _words(key.value)
        if name.lower() in _NAME_KEYS and isinstance(value, yaml.ScalarNode) and rest:
            # "- id: H1 / claim: ..." -> "- H1: <claim>", the name first
            (_, claim), *rest = rest
            out.append((f"{pad}- {_scalar(value)}: {_inline(claim)}", line))
        else:
            out.append((f"{pad}- {_entry(key, value, first=True)}", line))
        for k, v in rest:
            out.append((f"{pad}  - {_words(k.value)}: {_inline(v)}", k.start_mark.line))
    else:
        out.append((f"{pad}- {_inline(node)}", line))


def _nodes(node: yaml.Node | None, depth: int = 0) -> int:
    """How many nodes ``node`` holds (past the limits: more than allowed)."""
    if node is None:
        return 0
    if depth > _MAX_DEPTH:
        return _MAX_NODES + 1
    if isinstance(node, yaml.SequenceNode):
        return 1 + sum(_nodes(n, depth + 1) for n in node.value)
    if isinstance(node, yaml.MappingNode):
        return 1 + sum(_nodes(k, depth + 1) + _nodes(v, depth + 1) for k, v in node.value)
    return 1


def _names_fields(node: yaml.MappingNode) -> bool:
    from grader.report.labels import match_label  # labels reads lines this module makes

    named = sum(
        1
        for key, _ in node.value
        if isinstance(key, yaml.ScalarNode)
        and (hit := match_label(_words(key.value))) is not None
        and not hit[2]
    )
    return named >= _MIN_FIELD_KEYS


def _render(body: str, lang: str) -> Written | None:
    """The block's lines written as markdown, or None when it is not data to read so."""
    if lang not in _DATA_LANGS and (lang or len(_FIELD_KEY.findall(body)) < _MIN_FIELD_KEYS):
        return None  # code in a language of its own, or a block whose keys name no field
    if body.count("[") + body.count("{") > _MAX_NODES // 10:
        return None  # a flow collection nested past any report's
    if _ANCHOR.search(body):
        return None  # anchors and aliases ("&a", "*a") are no learner's; they can nest forever
    try:
        root = yaml.compose(body, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return None
    if _nodes(root) > _MAX_NODES:
        return None
    if not isinstance(root, yaml.MappingNode) or not root.value:
        return None
    if lang not in _DATA_LANGS and not _names_fields(root):
        return None
    out: Written = []
    _mapping(root, 0, out)
    return out


def unstructure(text: str) -> tuple[str, list[int]]:
    """``text`` with its YAML or JSON blocks written as markdown, and for each line written
    the (1-based) number of the line it came from (an empty list when nothing changed).
    A file that is one JSON object, unfenced, is such a block."""
    if text.lstrip().startswith("{") and text.rstrip().endswith("}"):
        written = _render(text, "json")
        if written is not None:
            return "\n".join(t for t, _ in written), [n + 1 for _, n in written]
    if "```" not in text and "~~~" not in text:
        return text, []
    lines = text.split("\n")
    out: list[tuple[str, int]] = []
    changed = False
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        end = _closing(lines, i, m.group("fence")) if m else None
        written = (
            _render("\n".join(lines[i + 1 : end]), m.group("lang").lower())
            if m is not None and end is not None
            else None
        )
        if written is None or end is None:
            out.append((lines[i], i + 1))
            i += 1
            continue
        changed = True
        out.append(("", i + 1))  # the fence, blank: the data is a block of its own
        out += [(t, i + 2 + n) for t, n in written]
        out.append(("", end + 1))
        i = end + 1
    if not changed:
        return text, []
    return "\n".join(t for t, _ in out), [n for _, n in out]


def _closing(lines: list[str], start: int, fence: str) -> int | None:
    for j in range(start + 1, len(lines)):
        if lines[j].strip().startswith(fence[:3]) and not lines[j].strip()[len(fence) :].strip():
            return j
    return None
