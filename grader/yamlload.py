"""One loader for every YAML file: safe load, JSON Schema from package data, clear errors.

Errors name the file and the YAML path (``file::$.workload.batch: ...``) with the line, so a
person can find the mistake without reading a traceback.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml

from grader.errors import GraderError, Location
from grader.yamlnodes import NodeProblem, check_nodes

# libyaml's safe loader when PyYAML was built with it (several times faster), else Python's.
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SAFE_LOADER = _SafeLoader


class _UniqueKeyLoader(_SafeLoader):  # type: ignore[valid-type,misc]
    """The safe loader, refusing duplicate mapping keys instead of keeping the last one."""


def _construct_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"duplicate key {key!r} (first at line {seen[key]})",
                key_node.start_mark,
            )
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


@cache
def load_schema(name: str) -> dict[str, Any]:
    text = resources.files("grader.schemas").joinpath(name).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def package_data(name: str) -> Any:
    """A YAML file of ``grader/data`` (lexicons, patterns), read once with the safe loader."""
    text = resources.files("grader.data").joinpath(name).read_text(encoding="utf-8")
    return yaml.load(text, Loader=_SafeLoader)  # noqa: S506 - a safe loader


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GraderError("no such file", Location(str(path))) from None
    except IsADirectoryError:
        raise GraderError("is a directory, expected a YAML file", Location(str(path))) from None
    except UnicodeDecodeError as exc:
        raise GraderError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start})", Location(str(path))
        ) from None
    except OSError as exc:
        raise GraderError(f"cannot read: {exc.strerror}", Location(str(path))) from None


def _yaml_path(parts: Any) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def node_line(root: yaml.Node | None, parts: list[Any]) -> int | None:
    """The 1-based line of the value at ``parts`` in a composed YAML tree, if it exists."""
    node = root
    line = node.start_mark.line + 1 if node is not None else None
    for part in parts:
        if isinstance(node, yaml.MappingNode):
            match = next((v for k, v in node.value if k.value == part), None)
        elif (
            isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value)
        ):
            match = node.value[part]
        else:
            match = None
        if match is None:
            break
        node = match
        line = node.start_mark.line + 1
    return line


def cache_dir() -> Path:
    """Where proofs of validation are kept: ``$XDG_CACHE_HOME/triage-grader/valid`` (else
    ``~/.cache/triage-grader/valid``).  Deleting the folder only costs the next run the
    schema checks again."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "triage-grader" / "valid"


def _cache_marker(schema_name: str, raw: bytes) -> Path:
    """A proof that a file of exactly these bytes passed this exact schema and every check
    after it.  Importing jsonschema costs more than grading a report, so a file that was
    fully validated once is not validated again; any change to its bytes is a new file."""
    schema = resources.files("grader.schemas").joinpath(schema_name).read_bytes()
    digest = hashlib.sha256(
        hashlib.sha256(schema).digest() + hashlib.sha256(raw).digest()
    ).hexdigest()
    return cache_dir() / digest


def _remember(marker: Path) -> None:
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # a read-only home only costs the next run the validation again


def _parse(text: str, file: str) -> tuple[Any, yaml.Node | None]:
    """Compose the node tree, check what it holds (aliases, keys, numbers), then build it."""
    loader = _UniqueKeyLoader(text)
    try:
        root = loader.get_single_node()  # one parse: the node tree gives line numbers later
        if root is None:
            return None, None
        check_nodes(root, loader)
        return loader.construct_document(root), root
    except NodeProblem as exc:
        raise GraderError(exc.message, Location(file, _yaml_path(exc.parts), exc.line)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise GraderError(
            f"invalid YAML: {exc.problem or exc}", Location(file, line=line)
        ) from None
    except yaml.YAMLError as exc:
        raise GraderError(f"invalid YAML: {exc}", Location(file)) from None
    except RecursionError:
        raise GraderError("invalid YAML: nested too deeply", Location(file)) from None
    finally:
        loader.dispose()


def load_yaml(
    path: Path,
    schema_name: str,
    then: Callable[[Any, yaml.Node | None], object] | None = None,
    top: type = dict,
    aliases: bool = True,
) -> tuple[Any, yaml.Node | None]:
    """Parse ``path`` safely, validate it against a bundled schema, then run ``then`` (the
    checks the schema cannot express, such as parsing an exercise's table).

    The file holds a mapping (``top=dict``) or a list (``top=list``, where an empty file is
    an empty list); ``aliases=False`` refuses ``*name`` aliases altogether (a file a tool
    edits, where a shared value would change two entries at once).  Only a file that passed
    all of them is remembered as valid, keyed on its bytes.  Returns the data and the
    composed node tree (for line numbers of later errors).
    """
    text = read_text(path)
    file = str(path)
    data, root = _parse(text, file)
    if data is None and top is list:
        data = []
    if not isinstance(data, top):
        kind = "empty" if data is None else type(data).__name__
        expected = "a list" if top is list else "a mapping"
        raise GraderError(f"expected {expected} at the top level, got {kind}", Location(file, "$"))
    if not aliases and root is not None:
        _refuse_aliases(root, file)
    marker = _cache_marker(schema_name, text.encode("utf-8"))
    known_valid = marker.exists()
    if not known_valid:
        _validate(data, schema_name, file, root)
    if then is not None:
        then(data, root)
    if not known_valid:
        _remember(marker)
    return data, root


def _refuse_aliases(root: yaml.Node, file: str) -> None:
    """An alias is a node met twice in the composed tree: name the place of the second
    (by its key's line: the node itself carries the anchor's)."""
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, list[Any], int | None]] = [(root, [], None)]
    while stack:
        node, parts, line = stack.pop()
        if id(node) in seen:
            raise GraderError(
                "YAML aliases (*name) are not allowed in this file; write the value out",
                Location(file, _yaml_path(parts), line),
            )
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            children = [(v, [*parts, k.value], k.start_mark.line + 1) for k, v in node.value]
        elif isinstance(node, yaml.SequenceNode):
            # an aliased item carries its anchor's line, not its own: give the path alone
            children = [(v, [*parts, i], None) for i, v in enumerate(node.value)]
        else:
            children = []
        stack.extend(reversed(children))


def _titled_choice(error: Any) -> bool:
    """A oneOf/anyOf whose every choice has a title that says what it is."""
    choices = error.validator_value if error.validator in ("oneOf", "anyOf") else None
    return isinstance(choices, list) and all("title" in s for s in choices)


def _validate(data: Any, schema_name: str, file: str, root: yaml.Node | None) -> None:
    """Raise the first (most relevant) schema error with its YAML path and line."""
    import jsonschema  # imported here: only content not validated before needs it

    schema = load_schema(schema_name)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: (list(e.absolute_path), e.message))
    if not errors:
        return
    best = jsonschema.exceptions.best_match(errors)
    while best.parent is not None and _titled_choice(best.parent):
        best = best.parent  # "is none of these kinds" says more than one kind's detail
    parts = list(best.absolute_path)
    message = best.message
    if best.validator == "additionalProperties":
        allowed = sorted(best.schema.get("properties", {}))
        message += f"; allowed keys: {', '.join(allowed)}"
    elif _titled_choice(best):
        kinds = " or ".join(s["title"] for s in best.validator_value)
        message = f"expected {kinds}; got the keys {', '.join(map(str, best.instance))}"
    elif best.validator == "pattern" and "description" in best.schema:
        message = f"{best.instance!r} is not {best.schema['description']}"
    raise GraderError(message, Location(file, _yaml_path(parts), line=node_line(root, parts)))


_LOADED: dict[tuple[str, str, int, int], Any] = {}
T = TypeVar("T")


def once_per_file(kind: str, path: Path, build: Callable[[Path], T]) -> T:
    """``build(path)``, remembered for this process while the file is unchanged (same
    modification time and size): a batch grading thousands of reports against one exercise
    and one rubric reads, parses and validates each once."""
    try:
        info = os.stat(path)
    except OSError:
        return build(path)  # build() names the file in its error
    key = (kind, os.path.realpath(path), info.st_mtime_ns, info.st_size)
    if key not in _LOADED:
        _LOADED[key] = build(path)
    value: T = _LOADED[key]
    return value
