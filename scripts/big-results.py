#!/usr/bin/env python3
"""Writes a results file of N points made from a small one's points: what the loading benchmarks
(tests/bench/result_load, tests/bench/app_open) and `rnnprof report` are measured on.

    scripts/big-results.py SMALL.json N OUT.json [SEQ_LENS]

Every (backend, mode) of SMALL.json is repeated over batch sizes 1, 2, ... and SEQ_LENS sequence
lengths (8, 16, ...; default 5) until there are N points; the plan lists what the points cover.
"""
import json
import sys


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    small, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    seq_lens = [8 * (i + 1) for i in range(int(sys.argv[4]) if len(sys.argv) == 5 else 5)]
    with open(small) as f:
        result = json.load(f)
    by_pair = {(p["backend"], p["mode"]): p for p in result["points"]}
    pairs = sorted(by_pair)
    per_batch = len(seq_lens) * len(pairs)
    batches = (count + per_batch - 1) // per_batch
    points = []
    for batch in range(1, batches + 1):
        for seq_len in seq_lens:
            for pair in pairs:
                if len(points) < count:
                    points.append(dict(by_pair[pair], batch=batch, seq_len=seq_len))
    result["plan"]["sweep"]["batch"] = list(range(1, batches + 1))
    result["plan"]["sweep"]["seq_len"] = seq_lens
    result["points"] = points
    with open(out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
