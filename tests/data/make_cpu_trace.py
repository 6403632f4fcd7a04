"""Record tests/data/cpu_tiny_decoder.json.gz: a tiny decoder, prefill + a few decode steps.

Not run by the tests (they read the recorded file); run it with torch installed
(`pip install torch==2.13.0` gives the CPU build on the project machine):
    python tests/data/make_cpu_trace.py
"""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function

OUT = Path(__file__).with_name("cpu_tiny_decoder.json.gz")


class Block(nn.Module):
    def __init__(self, d: int) -> None:
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.up, self.down = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        a = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.out(a)
        return x + self.down(nn.functional.gelu(self.up(self.norm2(x))))


def main() -> None:
    torch.manual_seed(0)
    d, vocab, layers = 64, 128, 2
    embed, head = nn.Embedding(vocab, d), nn.Linear(d, vocab)
    blocks = nn.Sequential(*[Block(d) for _ in range(layers)])
    tokens = torch.randint(0, vocab, (1, 16))
    with torch.inference_mode(), profile(activities=[ProfilerActivity.CPU]) as prof:
        with record_function("tokenize"):
            ids = tokens.clone()
        with record_function("prefill"):
            logits = head(blocks(embed(ids)))
        with record_function("Python decode loop"):
            for _ in range(3):
                nxt = logits[:, -1].argmax(-1, keepdim=True)
                ids = torch.cat([ids, nxt], dim=1)
                logits = head(blocks(embed(ids)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.json"
        prof.export_chrome_trace(str(path))
        data = json.loads(path.read_text())
    with gzip.open(OUT, "wt") as handle:
        json.dump(data, handle)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(data['traceEvents'])} events)")


if __name__ == "__main__":
    main()
