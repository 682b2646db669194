#!/usr/bin/env python3
"""Turns rnn_backends_bench's JSON (--benchmark_out) into the README's Markdown tables.

Rows: cell/mode/hidden/batch/seq_len; columns: each backend's time per step (µs) and its fraction
of the in-run SGEMM peaks (oneDNN sgemm and OpenBLAS sgemm, both measured at 2048^3 in the same run).
"""
import json
import re
import sys
from collections import OrderedDict

data = json.load(open(sys.argv[1]))
rows = OrderedDict()
backends = []
peaks = {}
for b in data["benchmarks"]:
    name = b["name"]
    if name.startswith("sgemm_peak"):
        peaks = {k: v for k, v in b.items() if k.endswith("GFLOP/s")}
        continue
    m = re.match(r"(\w+)/(\w+)/H(\d+)/B(\d+)/T(\d+)/([^/]+)/", name)
    if not m:
        continue
    cell, mode, h, batch, t, backend = m.groups()
    key = (cell, mode, int(h), int(t), int(batch))
    rows.setdefault(key, {})[backend] = b
    if backend not in backends:
        backends.append(backend)

if peaks:
    print("SGEMM 2048^3 peaks in this run: " + ", ".join(f"{k} {v:.0f}" for k, v in peaks.items()))
    print()
head = "| cell | mode | H | T | B | " + " | ".join(f"{x} µs/step" for x in backends)
head += " | best GFLOP/s | best / oneDNN peak | best / OpenBLAS peak |"
print(head)
print("|" + "---|" * (head.count("|") - 1))
for (cell, mode, h, t, batch), by in rows.items():
    cells = [f"{by[x]['us_per_step']:.1f}" if x in by else "" for x in backends]
    best = max(by.values(), key=lambda r: r["GFLOP/s"])
    print(f"| {cell} | {mode} | {h} | {t} | {batch} | " + " | ".join(cells) +
          f" | {best['GFLOP/s']:.0f} | {100 * best['peak_onednn']:.0f} % | {100 * best['peak_openblas']:.0f} % |")
