"""Read a Kineto Chrome trace (``torch.profiler`` JSON, plain or gzip) into slim events.

The whole file is decoded in one pass by msgspec straight into typed structs that hold only
the fields the importer reads; every other field is skipped without building a Python
object, so a 60 MB trace costs about its own size in memory, and a JSON file that is not a
trace is refused in about the time it takes to read it.  A field of the wrong type is
refused with its JSON path (``$.traceEvents[12].args.correlation``).
"""

from __future__ import annotations

import math
import os
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import msgspec

from grader.errors import GraderError, Location

# Ids are 64-bit in every profiler; a longer number is refused instead of kept as a bignum.
Id = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
Count = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
MAX_BYTES = 4 << 30  # a trace is read whole: refuse what cannot be meant as one
MAX_NAME = 4096  # longer names are cut: no kernel or op needs more to be told apart


class Args(msgspec.Struct, gc=False):
    """The ``args`` fields the importer reads; the rest are skipped while decoding."""

    external_id: Id | None = msgspec.field(default=None, name="External id")
    correlation: Id | None = None
    grid: list[Count] | None = None
    block: list[Count] | None = None
    bytes: Count | str | None = None  # ROCm writes it as a string on the runtime call
    device: Id | None = None
    stream: Id | None = None


MISSING = "\x00missing"  # the default of a name no event gave (JSON has no NaN for ts/dur)


class Event(msgspec.Struct, gc=False):
    ph: str = ""
    name: str = MISSING
    cat: str = ""
    ts: float = math.nan
    dur: float = math.nan
    pid: Id | str | None = None
    tid: Id | str | None = None
    args: Args | None = None

    @property
    def end(self) -> float:
        return self.ts + self.dur

    @property
    def a(self) -> Args:
        return self.args or _NO_ARGS


_NO_ARGS = Args()


def byte_count(value: int | str | None) -> int:
    """``args.bytes`` as a number: ROCm writes ``"256"``; anything else is not a count."""
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 19:
        return int(value)
    return 0


class _File(msgspec.Struct):
    traceEvents: list[Event] | None = None  # noqa: N815 (the format's own key)
    deviceProperties: list[dict[str, Any]] | None = None  # noqa: N815


@dataclass
class Trace:
    path: str
    events: list[Event]
    meta: dict[str, Any] = field(default_factory=dict)
    by_cat: dict[str, list[Event]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.by_cat:
            for e in self.events:
                self.by_cat.setdefault(e.cat, []).append(e)

    def of(self, *cats: str) -> list[Event]:
        if len(cats) == 1:
            return self.by_cat.get(cats[0], [])
        out = [e for c in cats for e in self.by_cat.get(c, [])]
        out.sort(key=_ts)
        return out

    @property
    def device(self) -> dict[str, Any]:
        props = self.meta.get("deviceProperties")
        if isinstance(props, list) and props and isinstance(props[0], dict):
            return props[0]
        return {}

    @property
    def device_name(self) -> str | None:
        name = self.device.get("name")
        return name.strip() or None if isinstance(name, str) else None


def _ts(e: Event) -> float:
    return e.ts


_DECODE_FILE = msgspec.json.Decoder(_File)
_DECODE_LIST = msgspec.json.Decoder(list[Event])


def _raw(path: Path, file: str) -> bytes:
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_BYTES:
                raise GraderError(
                    "the trace is larger than 4 GiB; profile a shorter window", Location(file)
                )
            data = handle.read(size + 1)  # a regular file: at most its size (plus growth)
    except OSError as exc:
        raise GraderError(f"cannot read the trace ({exc.strerror})", Location(file)) from None
    if data[:2] == b"\x1f\x8b":
        try:
            out = zlib.decompressobj(wbits=47)
            data = out.decompress(data, MAX_BYTES + 1)
            cut = not out.eof
        except zlib.error as exc:
            raise GraderError(f"the compressed trace is damaged ({exc})", Location(file)) from None
        if cut and len(data) <= MAX_BYTES:
            raise GraderError("the compressed trace is cut short", Location(file))
    if len(data) > MAX_BYTES:
        raise GraderError(
            "the trace is larger than 4 GiB; profile a shorter window", Location(file)
        )
    return data


def _decode(data: bytes, file: str) -> tuple[list[Event], dict[str, Any]]:
    first = data.lstrip()[:1]
    if not first:
        raise GraderError("empty file; expected a profiler trace", Location(file))
    if first not in (b"{", b"["):
        raise GraderError("not JSON: a trace starts with '{' or '['", Location(file))
    try:
        try:
            decoded = (_DECODE_FILE if first == b"{" else _DECODE_LIST).decode(data)
        except msgspec.DecodeError as exc:
            if "UTF-8" not in str(exc):
                raise
            data = data.decode("utf-8", "replace").encode()  # keep going past a bad byte
            decoded = (_DECODE_FILE if first == b"{" else _DECODE_LIST).decode(data)
    except msgspec.ValidationError as exc:
        text = str(exc)
        message, _, where = text.partition(" - at `")
        raise GraderError(
            f"not a PyTorch profiler trace: {message[0].lower()}{message[1:]}",
            Location(file, where.rstrip("`") or "$"),
        ) from None
    except msgspec.DecodeError as exc:
        reason = str(exc).removeprefix("JSON is malformed: ")
        hint = "; is the trace cut short?" if "truncated" in reason else ""
        raise GraderError(f"not valid JSON ({reason}){hint}", Location(file)) from None
    except RecursionError:
        raise GraderError("not a profiler trace: values nested too deep", Location(file)) from None
    if isinstance(decoded, list):
        return decoded, {}
    if decoded.traceEvents is None:
        raise GraderError(
            "JSON without 'traceEvents': not a PyTorch profiler trace", Location(file, "$")
        )
    meta: dict[str, Any] = {}
    if decoded.deviceProperties is not None:
        meta["deviceProperties"] = decoded.deviceProperties
    return decoded.traceEvents, meta


def complete_events(raw: Iterable[Event], file: str) -> list[Event]:
    """The complete events (ph 'X'), checked, their categories in lower case, their names cut
    at MAX_NAME characters (every rule after reads a bounded name), sorted by start."""
    out: list[Event] = []
    cats: dict[str, str] = {}
    names: dict[str, str] = {}
    isfinite = math.isfinite
    for index, e in enumerate(raw):
        if e.ph != "X":
            continue  # instants, flows and metadata carry nothing the importer needs
        if e.name is MISSING or e.ts != e.ts or e.dur != e.dur:  # NaN: not given
            missing = [
                k
                for k, gone in (
                    ("name", e.name is MISSING),
                    ("ts", e.ts != e.ts),
                    ("dur", e.dur != e.dur),
                )
                if gone
            ]
            raise GraderError(
                f"complete event (ph 'X') without {', '.join(missing)}",
                Location(file, f"$.traceEvents[{index}]"),
            )
        if not (isfinite(e.ts) and isfinite(e.dur)) or e.dur < 0:
            raise GraderError(
                f"ts and dur must be finite and dur not negative (ts {e.ts}, dur {e.dur})",
                Location(file, f"$.traceEvents[{index}]"),
            )
        cat = cats.get(e.cat)
        if cat is None:
            cat = cats[e.cat] = e.cat.lower()
        e.cat = cat
        if len(e.name) > MAX_NAME:
            e.name = e.name[:MAX_NAME] + "..."
        e.name = names.setdefault(e.name, e.name)  # one string per distinct name
        out.append(e)
    out.sort(key=_ts)
    return out


def read_trace(path: Path) -> Trace:
    """Events and device properties of a trace: ``{"traceEvents": [...]}`` or a bare list."""
    file = str(path)
    if not path.exists():
        raise GraderError("no such file", Location(file))
    if not path.is_file():
        raise GraderError("not a regular file; expected a profiler trace", Location(file))
    raw, meta = _decode(_raw(path, file), file)
    events = complete_events(raw, file)
    del raw
    if not events:
        where = Location(file, "$.traceEvents")
        raise GraderError("the trace has no complete events (ph 'X')", where)
    return Trace(file, events, meta)
