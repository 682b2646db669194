#!/usr/bin/env python3
"""Turns the result files of scripts/gpu-verify.sh into GPU tables (Markdown).

Usage: scripts/gpu-tables.py DIR     (DIR holds algos.json, graph.json, cpu.json, gpu.txt)

Table 1, per point of gpu-cudnn (STANDARD) and gpu-generic: the headline (untraced host wall
time per iteration, median), the GPU time of the same runs (CUDA events around the phases),
the median of the CUPTI-traced pass and its ratio to the headline, and the CUDA-graph headline.
Table 2: every cuDNN algorithm, gpu-cudnn[best] with the algorithm it picked, and the fastest CPU
backend of the same host. Times in ms. Reads only what the files say; prints '-' for what is
missing and the status (e.g. ineligible) where a point did not run.
"""
import json
import os
import sys

ALGOS = ["standard", "persist_static", "persist_dynamic", "persist_static_small_h"]


def load(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        doc = json.load(f)
    return {(p["backend"], p["mode"], p["batch"], p["seq_len"]): p for p in doc["points"]}


def median(point):
    if not point or point.get("status") != "ok":
        return None
    return point["iteration_ms"]["median"]


def ms(value):
    return "-" if value is None else f"{value:.3f}"


def cell(point):
    if point is None:
        return "-"
    if point.get("status") != "ok":
        return point.get("status", "?")
    return ms(median(point))


def device_ms(point):
    if not point or point.get("status") != "ok":
        return None
    events = (point.get("gpu") or {}).get("event_ms") or {}
    values = [v for v in events.values() if v]
    return sum(values) if values else None


def traced_ms(point):
    if not point or point.get("status") != "ok":
        return None
    return (point.get("gpu") or {}).get("traced_median_ms")


def ratio(a, b):
    return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}"


def grid(points):
    keys = {(k[1], k[3], k[2]) for k in points}
    return sorted(keys, key=lambda k: (k[0] != "infer", k[1], k[2]))


def best_algo(point):
    """The algorithm gpu-cudnn[best] copied, from its note "fastest cuDNN algorithm here: X (...)"."""
    prefix = "fastest cuDNN algorithm here: "
    for note in (point or {}).get("notes", []):
        if note.startswith(prefix):
            return note[len(prefix):].split(" ")[0]
    return ""


def main():
    folder = sys.argv[1]
    algos, graphs, cpu = (load(os.path.join(folder, f)) for f in ("algos.json", "graph.json", "cpu.json"))
    gpu_name = open(os.path.join(folder, "gpu.txt")).read().strip() if os.path.exists(
        os.path.join(folder, "gpu.txt")) else "unknown GPU"
    print(f"GPU: {gpu_name}\n")
    print("| mode | T | B | cudnn host | cudnn device | cudnn traced | traced/host | cudnn graph | "
          "generic host | generic device | generic traced | traced/host | generic graph |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for mode, t, b in grid(algos):
        row = [mode, str(t), str(b)]
        for backend in ("gpu-cudnn", "gpu-generic"):
            p = algos.get((backend, mode, b, t))
            row += [ms(median(p)), ms(device_ms(p)), ms(traced_ms(p)), ratio(traced_ms(p), median(p)),
                    cell(graphs.get((backend, mode, b, t)))]
        print("| " + " | ".join(row) + " |")
    print()
    print("| mode | T | B | " + " | ".join(ALGOS) + " | best | fastest CPU |")
    print("|---|---|---|" + "---|" * (len(ALGOS) + 2))
    for mode, t, b in grid(algos):
        row = [mode, str(t), str(b)]
        for algo in ALGOS:
            backend = "gpu-cudnn" if algo == "standard" else f"gpu-cudnn[{algo}]"
            row.append(cell(algos.get((backend, mode, b, t))))
        best = algos.get(("gpu-cudnn[best]", mode, b, t))
        row.append(f"{cell(best)} ({best_algo(best)})" if median(best) is not None else cell(best))
        cpus = [(median(cpu.get((c, mode, b, t))), c) for c in ("cpu-blas", "cpu-onednn")]
        cpus = [c for c in cpus if c[0] is not None]
        row.append(f"{min(cpus)[0]:.3f} ({min(cpus)[1]})" if cpus else "-")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
