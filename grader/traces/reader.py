"""Stream a Kineto Chrome trace (``torch.profiler`` JSON, plain or gzip) into slim events.

The file is decoded one event at a time with ``json.JSONDecoder.raw_decode`` over a
sliding buffer, and each event keeps only the fields the importer reads, so memory stays
a small multiple of the events kept rather than of the file.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from grader.errors import GraderError, Location

CHUNK = 1 << 20
ARGS_KEPT = ("External id", "correlation", "grid", "block", "kind", "bytes", "device", "stream")


@dataclass(frozen=True)
class Event:
    cat: str  # lower case
    name: str
    ph: str
    ts: float
    dur: float
    pid: Any
    tid: Any
    args: dict[str, Any]

    @property
    def end(self) -> float:
        return self.ts + self.dur


@dataclass
class Trace:
    path: str
    events: list[Event]
    meta: dict[str, Any] = field(default_factory=dict)

    def of(self, *cats: str) -> list[Event]:
        return [e for e in self.events if e.cat in cats]

    @property
    def device_name(self) -> str | None:
        props = self.meta.get("deviceProperties")
        if isinstance(props, list) and props and isinstance(props[0], dict):
            name = props[0].get("name")
            return str(name) if name else None
        return None


def _open(path: Path) -> IO[str]:
    with path.open("rb") as probe:
        gz = probe.read(2) == b"\x1f\x8b"
    if gz:
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return path.open("r", encoding="utf-8", errors="replace")


class _Stream:
    def __init__(self, handle: IO[str], file: str) -> None:
        self.handle, self.file = handle, file
        self.buf, self.pos, self.eof = "", 0, False
        self.decoder = json.JSONDecoder()

    def _more(self) -> bool:
        if self.eof:
            return False
        try:
            chunk = self.handle.read(CHUNK)
        except (EOFError, OSError, zlib.error) as exc:
            raise GraderError(
                f"the compressed trace is cut short or damaged ({exc})", Location(self.file)
            ) from None
        if not chunk:
            self.eof = True
            return False
        self.buf = self.buf[self.pos :] + chunk
        self.pos = 0
        return True

    def skip_ws(self) -> str:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return ""

    def expect(self, char: str, what: str) -> None:
        got = self.skip_ws()
        if got != char:
            shown = repr(got) if got else "the end of the file"
            raise GraderError(
                f"not a profiler trace: expected {what}, found {shown}", Location(self.file)
            )
        self.pos += 1

    def value(self) -> Any:
        self.skip_ws()
        while True:
            try:
                obj, end = self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if self._more():
                    continue
                raise GraderError(
                    f"not valid JSON ({exc.msg}); is the trace cut short?", Location(self.file)
                ) from None
            if end == len(self.buf) and not self.eof and self._more():
                continue  # a number may go on in the next chunk
            self.pos = end
            return obj


def _slim(raw: Any, index: int, file: str) -> Event | None:
    if not isinstance(raw, dict):
        where = Location(file, f"$.traceEvents[{index}]")
        raise GraderError(f"event {index} is not an object", where)
    ph = raw.get("ph", "")
    if ph != "X":
        return None  # instants, flows and metadata carry nothing the importer needs
    missing = [k for k in ("name", "ts", "dur") if k not in raw]
    if missing:
        raise GraderError(
            f"complete event (ph 'X') without {', '.join(missing)}",
            Location(file, f"$.traceEvents[{index}]"),
        )
    try:
        ts, dur = float(raw["ts"]), float(raw["dur"])
    except (TypeError, ValueError):
        raise GraderError(
            "ts and dur must be numbers", Location(file, f"$.traceEvents[{index}]")
        ) from None
    args = raw.get("args") or {}
    kept = {k: args[k] for k in ARGS_KEPT if k in args} if isinstance(args, dict) else {}
    return Event(
        str(raw.get("cat", "")).lower(),
        str(raw["name"]),
        ph,
        ts,
        dur,
        raw.get("pid"),
        raw.get("tid"),
        kept,
    )


def _events(stream: _Stream, file: str) -> Iterator[Event]:
    stream.expect("[", "a list of events")
    index = 0
    if stream.skip_ws() == "]":
        stream.pos += 1
        return
    while True:
        event = _slim(stream.value(), index, file)
        if event is not None:
            yield event
        index += 1
        sep = stream.skip_ws()
        stream.pos += 1
        if sep == "]":
            return
        if sep != ",":
            raise GraderError(
                f"not valid JSON after event {index - 1}; is the trace cut short?", Location(file)
            )


def read_trace(path: Path) -> Trace:
    """Events and top-level metadata of a trace: ``{"traceEvents": [...]}`` or a bare list."""
    file = str(path)
    if not path.is_file():
        raise GraderError("no such file", Location(file))
    meta: dict[str, Any] = {}
    events: list[Event] = []
    with _open(path) as handle:
        stream = _Stream(handle, file)
        first = stream.skip_ws()
        if first == "[":
            events = list(_events(stream, file))
        elif first == "{":
            stream.pos += 1
            found = False
            while stream.skip_ws() != "}":
                key = stream.value()
                stream.expect(":", "':' after a key")
                if key == "traceEvents":
                    events = list(_events(stream, file))
                    found = True
                else:
                    meta[str(key)] = stream.value()
                if stream.skip_ws() == ",":
                    stream.pos += 1
            if not found:
                raise GraderError(
                    "JSON without 'traceEvents': not a PyTorch profiler trace", Location(file, "$")
                )
        elif first == "":
            raise GraderError("empty file; expected a profiler trace", Location(file))
        else:
            raise GraderError("not JSON: a trace starts with '{' or '['", Location(file))
    if not events:
        where = Location(file, "$.traceEvents")
        raise GraderError("the trace has no complete events (ph 'X')", where)
    events.sort(key=lambda e: e.ts)
    return Trace(file, events, meta)
