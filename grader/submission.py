"""Reading a learner's file: size, binary and encoding checks, front matter."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from grader.errors import GraderError, Location
from grader.report.document import MAX_BYTES

_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.DOTALL)


@dataclass(frozen=True)
class Submission:
    path: str
    text: str
    warnings: tuple[str, ...]
    front_matter: dict[str, object]


def read_submission(path: Path) -> Submission:
    file = str(path)
    try:
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError
            if info.st_size > MAX_BYTES:
                raise GraderError(
                    f"is {info.st_size:,} bytes; a report may be at most {MAX_BYTES:,} bytes",
                    Location(file),
                )
            data = handle.read()
    except IsADirectoryError:
        raise GraderError("is a directory, expected a markdown report", Location(file)) from None
    except FileNotFoundError:
        raise GraderError("no such file", Location(file)) from None
    except PermissionError:
        raise GraderError("cannot be read (permission denied)", Location(file)) from None
    except OSError as exc:
        raise GraderError(f"cannot be read: {exc.strerror}", Location(file)) from None
    return decode_submission(data, file)


def decode_submission(data: bytes, file: str) -> Submission:
    warnings: list[str] = []
    if not data.strip():
        raise GraderError("is empty; expected a markdown report", Location(file))
    if b"\x00" in data[:8192]:
        raise GraderError("is a binary file, not a markdown report", Location(file))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        warnings.append(
            f"{file}: not valid UTF-8 (byte {exc.start}); undecodable bytes were replaced"
        )
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    front: dict[str, object] = {}
    m = _FRONT.match(text)
    if m:
        import yaml

        from grader.yamlload import SAFE_LOADER

        try:
            loaded = yaml.load(m.group(1), Loader=SAFE_LOADER)  # noqa: S506 - a safe loader
            front = loaded if isinstance(loaded, dict) else {}
        except yaml.YAMLError:
            warnings.append(f"{file}: front matter is not valid YAML; ignored")
        text = "\n" * m.group(0).count("\n") + text[m.end() :]  # keep line numbers
    return Submission(file, text, tuple(warnings), front)
