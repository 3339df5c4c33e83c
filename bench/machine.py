"""The machine a figure was measured on, printed above every benchmark."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def describe() -> str:
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        total_kb = int(meminfo.read_text().split("MemTotal:", 1)[1].split()[0])
        memory = f", {total_kb / 1024 / 1024:.0f} GiB"
    return (
        f"machine: {cpu}, {os.cpu_count()} cores{memory}; {platform.system()} {platform.release()};"
        f" Python {platform.python_version()}"
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def summary(values_ms: list[float]) -> str:
    return (
        f"p50 {percentile(values_ms, 0.5):8.2f} ms   p95 {percentile(values_ms, 0.95):8.2f} ms"
        f"   p99 {percentile(values_ms, 0.99):8.2f} ms   (n={len(values_ms)})"
    )
