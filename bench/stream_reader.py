"""The trace reader this project had before msgspec, kept as the bench's baseline: the file
is decoded one event at a time with ``json.JSONDecoder.raw_decode`` over a buffer that grows
1 MB at a time (a value longer than the buffer is decoded again from its start on every
chunk), and each complete event is kept as a dict."""

from __future__ import annotations

import gzip
import json
from typing import IO, Any

CHUNK = 1 << 20


class _Stream:
    def __init__(self, handle: IO[str]) -> None:
        self.handle, self.buf, self.pos, self.eof = handle, "", 0, False
        self.decoder = json.JSONDecoder()

    def _more(self) -> bool:
        chunk = "" if self.eof else self.handle.read(CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.buf, self.pos = self.buf[self.pos :] + chunk, 0
        return True

    def skip_ws(self) -> str:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return ""

    def value(self) -> Any:
        self.skip_ws()
        while True:
            try:
                obj, end = self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError:
                if self._more():
                    continue
                raise
            if end == len(self.buf) and not self.eof and self._more():
                continue
            self.pos = end
            return obj


def _events(stream: _Stream) -> list[dict[str, Any]]:
    stream.skip_ws()
    stream.pos += 1  # '['
    out: list[dict[str, Any]] = []
    if stream.skip_ws() == "]":
        return out
    while True:
        event = stream.value()
        if isinstance(event, dict) and event.get("ph") == "X":
            out.append(event)
        sep = stream.skip_ws()
        stream.pos += 1
        if sep != ",":
            return out


def read(path: str) -> list[dict[str, Any]]:
    with open(path, "rb") as probe:
        gz = probe.read(2) == b"\x1f\x8b"
    opener = gzip.open if gz else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as handle:  # type: ignore[operator]
        stream = _Stream(handle)
        if stream.skip_ws() == "[":
            return _events(stream)
        stream.pos += 1
        while stream.skip_ws() != "}":
            key = stream.value()
            stream.skip_ws()
            stream.pos += 1  # ':'
            if key == "traceEvents":
                return _events(stream)
            stream.value()
            if stream.skip_ws() == ",":
                stream.pos += 1
    raise ValueError("JSON without 'traceEvents'")
