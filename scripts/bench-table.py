#!/usr/bin/env python3
"""Turns rnn_backends_bench's JSON (--benchmark_out) into Markdown tables (docs/performance.md).

One table per thread count. Rows: cell/mode/hidden/seq_len/batch; columns: each backend's time per
step (µs), cpu-blas[onednn] time / cpu-onednn time (the goal over the grid: median <= 1.00, worst <= 1.15; from the point's paired
benchmark, which times both in alternating blocks of runs, where the file has it), step time / floor at
batch 1 inference (the floor: W_hh streamed once by a GEMV at the same thread count or on one thread,
whichever is faster, same run;
goal <= 1.3; in brackets the paired benchmark's cpu-blas step over the floor it measures after each
pair of blocks (the median over the blocks; in files without it, its median step over the separate
benchmark's floor), which on a noisy host moves less than the separate benchmark, and after "rec" the recurrence alone
over the floor where the session projected the input of all steps apart: the floor streams W_hh
only, the step also carries its share of the input projection; after "+in" the step over the floor
plus that share's FLOPs at the in-run SGEMM peak at the same thread count, a bound for the whole step) and the best GFLOP/s with its fraction of the in-run SGEMM peaks. A summary line per
table gives the median and worst ratio and says where the ratios come from. With repetitions, every
number is the median of the repetitions (--benchmark_report_aggregates_only=true or not). Where the
file has one thread and more, a last line per larger thread count compares cpu-blas on it with
cpu-blas on one thread, point by point (the goal "never slower than one thread").
  scripts/bench-table.py result.json [--summary-only]
  scripts/bench-table.py --markdown bench/results     # docs/performance.md on stdout

With --markdown, every host folder's newest file (by name: <date>.json) becomes one section, opened
by the goal of cpu-blas against cpu-onednn, a tolerance: median <= 1.00 and worst <= 1.15 per thread
count.
"""
import contextlib
import io
import os
import json
import re
import statistics
import sys
from collections import OrderedDict

GOAL_MEDIAN, GOAL_WORST = 1.00, 1.15


def render(data, summary_only=False):
    """Prints the tables of one benchmark file; returns {threads: (median, worst, where, above, n)}."""
    stats = {}
    PAIRED = "paired"
    tables = OrderedDict()  # threads -> OrderedDict(key -> {backend: record})
    backends = []
    peaks, label = {}, ""
    for b in data["benchmarks"]:
        name = b["name"]
        # With --benchmark_repetitions, each point's median (its mean, stddev and cv are skipped).
        if b.get("error_occurred") or b.get("aggregate_name", "median") != "median":
            continue
        if name.startswith("sgemm_peak"):
            peaks = {k: v for k, v in b.items() if k.endswith("GFLOP/s") or k == "cores"}
            label = b.get("label", "")
            continue
        m = re.match(r"(\w+)/(\w+)/H(\d+)/B(\d+)/T(\d+)/thr(\w+)/([^/]+)", name)
        if not m:
            continue
        cell, mode, h, batch, t, thr, backend = m.groups()
        threads = int(b["threads"])
        key = (cell, mode, int(h), int(t), int(batch))
        tables.setdefault(threads, OrderedDict()).setdefault(key, {})[backend] = b
        if backend not in backends and backend != PAIRED:
            backends.append(backend)

    ctx = data.get("context", {})
    def cache_sizes(caches):
        """'L1d 32 KiB, L2 1 MiB, L3 32 MiB' from Google Benchmark's context (per cache instance)."""
        parts = []
        for c in caches:
            if c.get("type") == "Instruction":
                continue
            size = int(c.get("size", 0))
            text = f"{size // 1048576} MiB" if size >= 1048576 and size % 1048576 == 0 else f"{size // 1024} KiB"
            parts.append(f"L{c.get('level')}{'d' if c.get('type') == 'Data' else ''} {text}")
        return ", ".join(parts)


    # The CPU model, OS, kernel ISA and version come from rnn_backends_bench's own context entries
    # (files written before it recorded them have only the host name).
    host = ", ".join(x for x in (ctx.get("cpu_model"), ctx.get("host_name", "?")) if x)
    caches = cache_sizes(ctx.get("caches", []))
    print(f"Host: {host}, {ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz"
          + (f" ({caches})" if caches else "") + f"; {label or ctx.get('cpu_libraries', '')}")
    extra = [f"{k.replace('_', ' ')}: {ctx[k]}" for k in ("os", "kernel_isa", "rnnprof_version") if ctx.get(k)]
    if extra:
        print("; ".join(extra))
    if peaks:
        print("SGEMM 2048^3 peaks in this run (all cores): " +
              ", ".join(f"{k} {v:.0f}" for k, v in peaks.items() if k != "cores"))
    print()
    BLAS, ONEDNN = "cpu-blas[onednn]", "cpu-onednn"
    for threads, rows in sorted(tables.items()):
        ratios, floors, pairedFloors, recurrenceFloors, inputFloors, pairedInputFloors, sources = [], [], [], [], [], [], set()
        lines = []
        paired_cols = any(PAIRED in by for by in rows.values())
        head = "| cell | mode | H | T | B | " + " | ".join(f"{x} µs/step" for x in backends)
        if paired_cols:
            head += " | paired: cpu-blas[onednn] / cpu-onednn µs/step"
        head += " | cpu-blas / cpu-onednn | step / floor | best GFLOP/s | best / all-core oneDNN peak |"
        lines.append(head)
        lines.append("|" + "---|" * (head.count("|") - 1))
        for (cell, mode, h, t, batch), by in rows.items():
            cells = [f"{by[x]['us_per_step']:.1f}" if x in by else "" for x in backends]
            if paired_cols:
                pair = by.get(PAIRED)
                cells.append(f"{pair['blas_us_per_step']:.1f} / {pair['onednn_us_per_step']:.1f}" if pair else "")
            r = None
            if PAIRED in by:
                r = by[PAIRED]["ratio"]
                sources.add("paired")
            elif BLAS in by and ONEDNN in by:
                r = by[BLAS]["us_per_step"] / by[ONEDNN]["us_per_step"]
                sources.add("separate benchmarks")
            ratio = ""
            if r is not None:
                ratios.append((r, f"{cell} {mode} H{h} T{t} B{batch}"))
                ratio = f"**{r:.2f}**" if r > 1.0 else f"{r:.2f}"
            floor_parts = []
            if BLAS in by and "step_over_floor" in by[BLAS]:
                floor_parts.append(f"{by[BLAS]['step_over_floor']:.2f}")
                floors.append(by[BLAS]["step_over_floor"])
            paired_floor = None
            if PAIRED in by and "blas_step_over_floor" in by[PAIRED]:
                paired_floor = by[PAIRED]["blas_step_over_floor"]
            elif PAIRED in by and BLAS in by and by[BLAS].get("floor_us"):  # files without the floor in blocks
                paired_floor = by[PAIRED]["blas_us_per_step"] / by[BLAS]["floor_us"]
            if paired_floor is not None:
                pairedFloors.append(paired_floor)
                floor_parts.append(f"({paired_floor:.2f})")
            if BLAS in by and "recurrence_over_floor" in by[BLAS]:
                recurrenceFloors.append(by[BLAS]["recurrence_over_floor"])
                floor_parts.append(f"rec {by[BLAS]['recurrence_over_floor']:.2f}")
            if BLAS in by and "step_over_floor_and_input" in by[BLAS]:
                inputFloors.append(by[BLAS]["step_over_floor_and_input"])
                floor_parts.append(f"+in {by[BLAS]['step_over_floor_and_input']:.2f}")
            if PAIRED in by and "blas_step_over_floor_and_input" in by[PAIRED]:
                pairedInputFloors.append(by[PAIRED]["blas_step_over_floor_and_input"])
                floor_parts.append(("" if BLAS in by and "step_over_floor_and_input" in by[BLAS] else "+in ") +
                                   f"({by[PAIRED]['blas_step_over_floor_and_input']:.2f})")
            floor = " ".join(floor_parts)
            timed = [x for x in by.values() if "GFLOP/s" in x]
            best = max(timed, key=lambda x: x["GFLOP/s"]) if timed else None
            best_cells = f"{best['GFLOP/s']:.0f} | {100 * best['peak_onednn']:.0f} %" if best else " | "
            lines.append(f"| {cell} | {mode} | {h} | {t} | {batch} | " + " | ".join(cells) +
                         f" | {ratio} | {floor} | {best_cells} |")
        print(f"### {threads} thread{'s' if threads != 1 else ''}")
        print()
        if ratios:
            values = [r for r, _ in ratios]
            worst = max(ratios)
            over = sum(1 for r in values if r > 1.0)
            parts = [f"cpu-blas / cpu-onednn: median {statistics.median(values):.2f}, worst {worst[0]:.2f} "
                     f"({worst[1]}), {over} of {len(values)} points above 1.00 ({' and '.join(sorted(sources))})"]
            for name, xs in (("step / floor at B=1 inference", floors),
                             ("paired step / floor", pairedFloors),
                             ("the recurrence alone / floor", recurrenceFloors),
                             ("step / (floor + the input projection at the in-run peak)", inputFloors),
                             ("paired step / (floor + the input projection)", pairedInputFloors)):
                if xs:
                    parts.append(f"{name}: median {statistics.median(xs):.2f}, worst {max(xs):.2f}")
            stats[threads] = (statistics.median(values), worst[0], worst[1], over, len(values))
            print("; ".join(parts))
            print()
        if not summary_only:
            print("\n".join(lines))
            print()

    # "Never slower than one thread": cpu-blas[onednn] on every other thread count against one thread,
    # point by point, where the file has both (the paired benchmark's medians where it has them).
    def blas_us(by):
        if PAIRED in by:
            return by[PAIRED]["blas_us_per_step"]
        return by[BLAS]["us_per_step"] if BLAS in by else None

    if 1 in tables:
        for threads, rows in sorted(tables.items()):
            if threads == 1:
                continue
            pairs = []
            for key, by in rows.items():
                one = tables[1].get(key)
                many, single = blas_us(by), blas_us(one) if one else None
                if many and single:
                    cell, mode, h, t, batch = key
                    pairs.append((many / single, f"{cell} {mode} H{h} T{t} B{batch}"))
            if pairs:
                values = [r for r, _ in pairs]
                worst = max(pairs)
                print(f"cpu-blas[onednn] on {threads} threads / on 1 thread: median {statistics.median(values):.2f}, "
                      f"worst {worst[0]:.2f} ({worst[1]}), {sum(1 for r in values if r > 1.0)} of {len(values)} "
                      "points above 1.00")
                print()
    return stats


def markdown(root):
    out = ["# Performance", "",
           "Generated by `scripts/bench-table.py --markdown bench/results` from the newest benchmark file of",
           "each host in `bench/results/<host>/` (DEVELOPMENT.md, \"Benchmarks\"); do not edit by hand.",
           f"cpu-blas's goal against cpu-onednn (time per step, paired where measured): median <= {GOAL_MEDIAN:.2f}",
           f"and worst <= {GOAL_WORST:.2f}.", ""]
    for host in sorted(os.listdir(root)):
        folder = os.path.join(root, host)
        files = sorted(f for f in os.listdir(folder) if f.endswith(".json")) if os.path.isdir(folder) else []
        if not files:
            continue
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            stats = render(json.load(open(os.path.join(folder, files[-1]))))
        out += [f"## {host}", "", f"`bench/results/{host}/{files[-1]}`", ""]
        out += ["| threads | median | worst | goal (median <= 1.00, worst <= 1.15) |", "|---|---|---|---|"]
        for threads, (median, worst, where, over, n) in sorted(stats.items()):
            met = "met" if median <= GOAL_MEDIAN and worst <= GOAL_WORST else "not met"
            out.append(f"| {threads} | {median:.2f} | {worst:.2f} ({where}) | {met} ({over} of {n} points above 1.00) |")
        out += ["", buf.getvalue().replace("\n### ", "\n### ").rstrip(), ""]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    if sys.argv[1] == "--markdown":
        sys.stdout.write(markdown(sys.argv[2]))
    else:
        render(json.load(open(sys.argv[1])), "--summary-only" in sys.argv)
