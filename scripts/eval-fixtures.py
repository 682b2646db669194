#!/usr/bin/env python3
"""Runs `rnnprof eval` on every PyTorch golden case and compares what it writes with PyTorch's answers.

Usage: scripts/eval-fixtures.py --backend gpu-cudnn [--rnnprof build/rnnprof]
                                [--fixtures tests/data/pytorch] [--tol 1e-4]

For each case of the manifest it passes the case's weights, x, h0 (c0), dy and dh_n (dc_n) to
`rnnprof eval --backend ID`, then compares output, h_n, c_n and every grad_* file with the fixture:
the error is norm-wise relative, |a - b| / |b| over the whole tensor (the tests' measure). Prints one
line per case with its worst file and exits 1 when any error exceeds --tol or a run fails. Needs
nothing but Python 3, so that it runs both on a development host and on a GPU machine.
"""
import argparse
import ast
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

NPY_FORMATS = {"<f4": "f", "<f8": "d"}


def load_npy(path):
    """The values of a little-endian float32/float64 .npy file, flattened in C order."""
    with open(path, "rb") as f:
        if f.read(6) != b"\x93NUMPY":
            raise RuntimeError(f"{path}: not a .npy file")
        major = f.read(2)[0]
        (header_len,) = struct.unpack("<H" if major == 1 else "<I", f.read(2 if major == 1 else 4))
        header = ast.literal_eval(f.read(header_len).decode("latin1"))
        if header["descr"] not in NPY_FORMATS or header["fortran_order"]:
            raise RuntimeError(f"{path}: only C-order float32/float64 files are compared")
        count = math.prod(header["shape"])
        code = NPY_FORMATS[header["descr"]]
        return struct.unpack(f"<{count}{code}", f.read(count * struct.calcsize(code)))


def eval_args(case, case_dir, backend, out_dir):
    def f(name):
        return os.path.join(case_dir, name)

    args = ["eval", "--cell", case["cell"], "--input-size", str(case["input_size"]),
            "--hidden-size", str(case["hidden_size"]), "--layers", str(case["layers"]),
            "--weights", case_dir, "--input", f("x.npy"), "--h0", f("h0.npy"),
            "--grad-output", f("dy.npy"), "--grad-h-n", f("dh_n.npy"),
            "--backend", backend, "--out", out_dir]
    if case["bidirectional"]:
        args.append("--bidirectional")
    if not case["bias"]:
        args.append("--no-bias")
    if case["cell"] == "lstm":
        args += ["--c0", f("c0.npy"), "--grad-c-n", f("dc_n.npy")]
    return args


def relative_error(got, want):
    if len(got) != len(want):
        return math.inf
    diff = math.sqrt(sum((g - w) ** 2 for g, w in zip(got, want)))
    return diff / max(math.sqrt(sum(w * w for w in want)), 1e-30)


def check_case(rnnprof, case, case_dir, backend):
    """Returns (worst error, worst file name) or raises RuntimeError with rnnprof's message."""
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = os.path.join(tmp, "out")
        run = subprocess.run([rnnprof] + eval_args(case, case_dir, backend, out_dir),
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"rnnprof eval exited {run.returncode}: {run.stderr.strip()}")
        compared = [n for n in sorted(os.listdir(out_dir)) if n.endswith(".npy")]
        expected = {"output.npy", "h_n.npy"} | ({"c_n.npy"} if case["cell"] == "lstm" else set())
        if not expected <= set(compared):
            raise RuntimeError(f"missing outputs: {sorted(expected - set(compared))}")
        worst = (0.0, "")
        for name in compared:
            err = relative_error(load_npy(os.path.join(out_dir, name)),
                                 load_npy(os.path.join(case_dir, name)))
            worst = max(worst, (err, name))
        return worst, len(compared)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", required=True)
    parser.add_argument("--rnnprof", default=os.path.join(here, "..", "build", "rnnprof"))
    parser.add_argument("--fixtures", default=os.path.join(here, "..", "tests", "data", "pytorch"))
    parser.add_argument("--tol", type=float, default=1e-4)
    a = parser.parse_args()
    with open(os.path.join(a.fixtures, "manifest.json")) as f:
        cases = json.load(f)["cases"]
    failed = 0
    worst_all = 0.0
    for case in cases:
        try:
            (err, name), files = check_case(a.rnnprof, case, os.path.join(a.fixtures, case["name"]),
                                            a.backend)
        except RuntimeError as e:
            print(f"{a.backend} {case['name']}: FAILED: {e}")
            failed += 1
            continue
        worst_all = max(worst_all, err)
        verdict = "ok" if err <= a.tol else "TOO FAR"
        failed += err > a.tol
        print(f"{a.backend} {case['name']}: {files} files, worst {err:.2e} ({name}) {verdict}")
    print(f"{a.backend}: {len(cases) - failed}/{len(cases)} cases within {a.tol:g}; "
          f"worst relative error {worst_all:.2e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
