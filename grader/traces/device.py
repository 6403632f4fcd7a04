"""Which device a trace ran on: its recorded name, else what its runtime and memory say."""

from __future__ import annotations

from typing import Any

from grader.traces.reader import Trace
from grader.yamlload import package_data


def _vendor(trace: Trace) -> str | None:
    for e in trace.of("cuda_runtime") or trace.of("cuda_driver"):
        if e.name.startswith("hip"):
            return "AMD"
        if e.name.startswith(("cuda", "cu")):
            return "NVIDIA"
    return None


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def device_name(trace: Trace, has_kernels: bool) -> str:
    """
    The name the trace records; where it is empty, the vendor (from the runtime calls), the
    family (from the compute capability and memory, ``data/devices.yaml``) and the memory,
    e.g. "AMD MI300X-class GPU (192 GiB; the trace records no device name)".
    """
    if trace.device_name:
        return trace.device_name
    if not has_kernels:
        return "CPU only (no GPU in the trace)"
    props = trace.device
    vendor = _vendor(trace)
    memory = _number(props.get("totalGlobalMem"))
    gib = round(memory / 2**30) if memory and 0 < memory < 2**50 else None
    family = None
    if vendor is not None and gib is not None:
        major, minor = _number(props.get("computeMajor")), _number(props.get("computeMinor"))
        for entry in package_data("devices.yaml").get(vendor, []):
            if (entry["major"], entry["minor"]) == (major, minor) and gib in entry["memory"]:
                family = entry["name"]
                break
    what = " ".join(x for x in (vendor, family, "GPU") if x) if vendor else "unknown GPU"
    size = f"{gib} GiB; " if gib else ""
    return f"{what} ({size}the trace records no device name)"
