"""What a YAML file may hold, checked on its node tree before any Python object is built.

PyYAML builds an aliased node once, but anything that walks the built data afterwards (a
hash, a schema check, a JSON dump) expands every alias: a few nested ``*a`` of a 2 KB file
become gigabytes.  So the composed tree is checked first, in time linear in its size:

* aliases may expand the file to at most ``MAX_EXPANDED_NODES`` values, and never recurse;
* mapping keys are text (``1:``, ``2024-01-01:``, ``[a, b]:`` are refused: JSON, the schema
  and the reporters all need text keys);
* integers have at most ``MAX_INT_CHARS`` characters (Python refuses to print an integer of
  more than 4,300 digits) and floats are finite (JSON has no ``Infinity`` or ``NaN``).

Every refusal names the YAML path of the value (``$.workload.batch``) and its line.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import yaml

MAX_EXPANDED_NODES = 100_000
MAX_INT_CHARS = 100

_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_KIND = {
    "tag:yaml.org,2002:int": "an integer",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:bool": "true/false",
    "tag:yaml.org,2002:null": "null",
    "tag:yaml.org,2002:timestamp": "a date",
}


class NodeProblem(Exception):
    """A value the file may not hold: the path parts to it, its line and what is wrong."""

    def __init__(self, parts: list[Any], line: int, message: str) -> None:
        super().__init__(message)
        self.parts = parts
        self.line = line
        self.message = message


def _children(node: yaml.Node) -> Iterator[tuple[Any, yaml.Node]]:
    """(path part, child) for each child: the key's text in a mapping, the index in a list."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield (key.value if isinstance(key, yaml.ScalarNode) else "?"), key
            yield (key.value if isinstance(key, yaml.ScalarNode) else "?"), value
    elif isinstance(node, yaml.SequenceNode):
        yield from enumerate(node.value)


def _expanded_sizes(root: yaml.Node) -> tuple[dict[int, int], bool]:
    """Each node's size with aliases expanded (capped just above the limit), and whether an
    alias refers to a node that contains it."""
    cap = MAX_EXPANDED_NODES + 1
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    recursive = False
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        nid = id(node)
        if closing:
            open_nodes.discard(nid)
            total = 1
            for _, child in _children(node):
                size = sizes.get(id(child))
                if size is None:  # still open: an ancestor, so the alias recurses
                    recursive = True
                    size = cap
                total = min(cap, total + size)
            sizes[nid] = total
            continue
        if nid in sizes or nid in open_nodes:
            continue
        open_nodes.add(nid)
        stack.append((node, True))
        stack.extend((child, False) for _, child in _children(node) if id(child) not in sizes)
    return sizes, recursive


def _too_large(root: yaml.Node, sizes: dict[int, int], recursive: bool) -> NodeProblem:
    """Point at the deepest value that alone expands past the limit."""
    parts: list[Any] = []
    node = root
    while True:
        big = [(p, c) for p, c in _children(node) if sizes.get(id(c), 0) > MAX_EXPANDED_NODES]
        if not big or id(big[0][1]) == id(node):
            break
        part, node = big[0]
        parts.append(part)
        if len(parts) > 100:
            break
    what = (
        "an alias refers to a value that contains it"
        if recursive
        else f"aliases (*name) expand this value to more than {MAX_EXPANDED_NODES:,} values"
    )
    return NodeProblem(parts, node.start_mark.line + 1, f"{what}; write the values out instead")


def _scalar_problem(node: yaml.ScalarNode, loader: yaml.SafeLoader) -> str | None:
    if node.tag == _INT and len(node.value) > MAX_INT_CHARS:
        return f"an integer of {len(node.value):,} characters is too long (at most {MAX_INT_CHARS})"
    if node.tag == _FLOAT:
        value = loader.construct_yaml_float(node)
        if not math.isfinite(value):
            return f"{node.value!r} is not a finite number"
    return None


def _key_problem(key: yaml.Node) -> str | None:
    if isinstance(key, yaml.ScalarNode):
        if key.tag in (_STR, _MERGE):
            return None
        kind = _KIND.get(key.tag, "not text")
        return f"the key {key.value!r} is {kind}; keys must be text (quote it: '\"{key.value}\"')"
    kind = "a list" if isinstance(key, yaml.SequenceNode) else "a mapping"
    return f"a key is {kind}; keys must be text"


def check_nodes(root: yaml.Node, loader: yaml.SafeLoader) -> None:
    """Raise :class:`NodeProblem` for the first value the file may not hold."""
    sizes, recursive = _expanded_sizes(root)
    if recursive or sizes[id(root)] > MAX_EXPANDED_NODES:
        raise _too_large(root, sizes, recursive)
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, list[Any]]] = [(root, [])]
    while stack:
        node, parts = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            problem = _scalar_problem(node, loader)
            if problem:
                raise NodeProblem(parts, node.start_mark.line + 1, problem)
            continue
        if isinstance(node, yaml.MappingNode):
            for key, _ in node.value:
                problem = _key_problem(key)
                if problem:
                    raise NodeProblem(parts, key.start_mark.line + 1, problem)
            children = [(k.value, v) for k, v in node.value]
        else:
            children = list(enumerate(node.value))
        stack.extend((child, [*parts, part]) for part, child in reversed(children))
