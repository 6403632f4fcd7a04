"""Reading a learner's file: what may be read, its encoding, control characters, front matter.

Everything here is in a learner's hands, so every rule bounds what it costs: only regular
files are read (a FIFO or a device is refused unopened), at most the size limit plus one
byte; control characters that a terminal or a spreadsheet would act on are removed; and the
front matter is read only when it is small and uses no YAML anchors or aliases, and gives
at most a short, plain ``student`` name.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.errors import GraderError, Location
from grader.report.document import MAX_BYTES

_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.DOTALL)
MAX_FRONT_MATTER = 4096  # characters: a name and a few keys take a few dozen
MAX_STUDENT = 100  # characters of a student's name

# C0 controls other than tab and newline, DEL and C1 controls: a terminal acts on them
# (ESC starts an escape sequence), and no report needs them.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

# Byte-order marks of the encodings read besides UTF-8 (UTF-32's before UTF-16's: the
# little-endian UTF-32 mark starts with UTF-16's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)

_NOT_REGULAR = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


@dataclass(frozen=True)
class Submission:
    path: str
    text: str
    warnings: tuple[str, ...]
    front_matter: dict[str, object]


def read_submission(path: Path) -> Submission:
    return decode_submission(read_bytes(path), str(path))


def read_bytes(path: Path) -> bytes:
    """The bytes of a report: a regular file of at most ``MAX_BYTES``, read once.

    What is not a regular file is refused before it is read (a FIFO would block, a device
    never ends); the file is opened without blocking and checked again (it may have been
    replaced since), and read up to one byte past the limit, whatever its size claims.
    """
    file = str(path)
    try:
        _check_kind(os.stat(path), path, file)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        fd = os.open(path, flags | getattr(os, "O_BINARY", 0))
        try:
            info = os.fstat(fd)
            _check_kind(info, path, file)
            if info.st_size > MAX_BYTES:
                raise GraderError(
                    f"is {info.st_size:,} bytes; a report may be at most {MAX_BYTES:,} bytes",
                    Location(file),
                )
            data = _read_at_most(fd, MAX_BYTES + 1)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise GraderError("no such file", Location(file)) from None
    except PermissionError:
        raise GraderError("cannot be read (permission denied)", Location(file)) from None
    except OSError as exc:
        raise GraderError(f"cannot be read: {exc.strerror}", Location(file)) from None
    if len(data) > MAX_BYTES:
        raise GraderError(
            f"is more than {MAX_BYTES:,} bytes; a report may be at most {MAX_BYTES:,} bytes",
            Location(file),
        )
    return data


def _check_kind(info: os.stat_result, path: Path, file: str) -> None:
    if stat.S_ISDIR(info.st_mode):
        try:
            with os.scandir(path):
                pass
        except OSError as exc:
            reason = (exc.strerror or "error").lower()
            raise GraderError(
                f"is a folder that cannot be read ({reason}); the reports in it were not graded",
                Location(file),
            ) from None
        raise GraderError("is a directory, expected a markdown report", Location(file))
    for test, kind in _NOT_REGULAR:
        if test(info.st_mode):
            raise GraderError(
                f"is {kind}, not a regular file; expected a markdown report", Location(file)
            )


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def decode_submission(data: bytes, file: str) -> Submission:
    warnings: list[str] = []
    text = _decode(data, file, warnings)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _strip_controls(text, file, warnings)
    if not text.strip():
        raise GraderError("is empty; expected a markdown report", Location(file))
    front: dict[str, object] = {}
    m = _FRONT.match(text)
    if m:
        front = _front_matter(m.group(1), file, warnings)
        text = "\n" * m.group(0).count("\n") + text[m.end() :]  # keep line numbers
    return Submission(file, text, tuple(warnings), front)


def _decode(data: bytes, file: str, warnings: list[str]) -> str:
    """UTF-8 (a byte-order mark is dropped), or UTF-16/32 when a byte-order mark says so."""
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            warnings.append(
                f"{file}: {name} text (it starts with a byte-order mark); read as {name}"
            )
            try:
                return data.decode(codec)
            except UnicodeDecodeError as exc:
                warnings.append(
                    f"{file}: not valid {name} (byte {exc.start}); undecodable bytes were replaced"
                )
                return data.decode(codec, errors="replace")
    if not data.strip():
        raise GraderError("is empty; expected a markdown report", Location(file))
    if b"\x00" in data[:8192]:
        raise GraderError("is a binary file, not a markdown report", Location(file))
    if data.startswith(codecs.BOM_UTF8):
        warnings.append(f"{file}: starts with a UTF-8 byte-order mark; read as UTF-8 without it")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        warnings.append(
            f"{file}: not valid UTF-8 (byte {exc.start}); undecodable bytes were replaced"
        )
        return data.decode("utf-8-sig", errors="replace")


def _strip_controls(text: str, file: str, warnings: list[str]) -> str:
    first = _CONTROL.search(text)
    if first is None:
        return text
    line = text.count("\n", 0, first.start()) + 1
    text, count = _CONTROL.subn("", text)
    warnings.append(
        f"{file}: {count:,} control character(s) removed (the first on line {line}); "
        "a report is plain text"
    )
    return text


def _front_matter(source: str, file: str, warnings: list[str]) -> dict[str, object]:
    """The YAML front matter, when it is small, plain and valid; else nothing, said once.

    Anchors and aliases are refused before anything is built: nested aliases expand
    exponentially (a few hundred bytes can stand for gigabytes).  The size cap keeps
    libyaml's scan, quadratic in open brackets, short; libyaml limits nesting itself.
    """
    if len(source) > MAX_FRONT_MATTER:
        warnings.append(
            f"{file}: front matter is {len(source):,} characters, more than "
            f"{MAX_FRONT_MATTER:,}; ignored"
        )
        return {}
    import yaml

    from grader.yamlload import SAFE_LOADER

    try:
        if ("&" in source or "*" in source) and _has_anchors(yaml.parse(source, SAFE_LOADER)):
            warnings.append(f"{file}: front matter uses YAML anchors or aliases (& or *); ignored")
            return {}
        loaded = yaml.load(source, Loader=SAFE_LOADER)  # noqa: S506 - a safe loader
    except yaml.YAMLError:
        warnings.append(f"{file}: front matter is not valid YAML; ignored")
        return {}
    if not isinstance(loaded, dict):
        return {}
    front = dict(loaded)
    if "student" in front:
        student = front.pop("student")
        problem = _name_problem(student)
        if problem:
            warnings.append(
                f"{file}: front matter 'student' {problem}; ignored, the file's name is used"
            )
        else:
            front["student"] = str(student).strip()
    return front


def _has_anchors(events: Iterable[Any]) -> bool:
    """Does a stream of YAML events hold an anchor or an alias?  Read before anything is
    built: an alias is expanded only when the document is constructed."""
    import yaml

    return any(isinstance(e, yaml.AliasEvent) or getattr(e, "anchor", None) for e in events)


def _name_problem(value: object) -> str | None:
    """Why a front matter value cannot name a student, or None."""
    if not isinstance(value, str):
        kind = "nothing" if value is None else f"a {type(value).__name__}"
        return f'is {kind}, not a name (quote it: student: "01234")'
    name = value.strip()
    if not name:
        return "is empty"
    if len(name) > MAX_STUDENT:
        return f"is {len(name):,} characters long; a name may have at most {MAX_STUDENT}"
    if "\n" in name or "\t" in name or _CONTROL.search(name):
        return "holds line breaks or control characters"
    return None
