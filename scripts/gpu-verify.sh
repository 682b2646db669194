#!/usr/bin/env bash
# Verifies a CUDA build on a GPU machine in one go: the GPU test executables, `rnnprof eval` on the
# PyTorch golden cases for both GPU backends, and the sweeps behind GPU tables (every
# cuDNN algorithm, traced vs untraced, CUDA graphs, the host's CPU backends on the same grid). Every
# step has its own time limit so that one hang costs one step.
#
# Usage, from the project root on the GPU machine, with the bundle of a CUDA Release build in
# .gpu-bundle/ (its run.sh starts a bundled program with the bundle's libraries):
#   bash scripts/gpu-verify.sh OUT_DIR            # logs and results land in OUT_DIR
# RNNPROF_RUN overrides how a bundled program is started (default: bash .gpu-bundle/run.sh), e.g.
#   RNNPROF_RUN="env PATH=$PWD/build:$PWD/build/tests:$PATH" bash scripts/gpu-verify.sh /tmp/v
# to try the script on a machine without a GPU (every GPU step then reports its reason).
set -uo pipefail
out=${1:?usage: scripts/gpu-verify.sh OUT_DIR}
mkdir -p "$out"
read -r -a run <<< "${RNNPROF_RUN:-bash .gpu-bundle/run.sh}"

step() { # step NAME SECONDS COMMAND...: runs COMMAND into NAME.log and prints its verdict and tail
    local name=$1 limit=$2 start rc
    shift 2
    start=$(date +%s)
    timeout "$limit" "$@" > "$out/$name.log" 2>&1
    rc=$?
    echo "== $name: exit $rc after $(($(date +%s) - start)) s"
    grep -E "PASSED|FAILED|SKIPPED|cases within|error|Error" "$out/$name.log" | grep -v "^\[       OK" | tail -n 8
}

"${run[@]}" nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
nproc | sed 's/^/host cores: /'

step gpu_tests 240 "${run[@]}" gpu_tests --gtest_brief=1
step cupti_tests 120 "${run[@]}" cupti_tests --gtest_brief=1
step engine_gpu_tests 120 "${run[@]}" engine_tests --gtest_brief=1 \
    --gtest_filter='Backends/BackendConformance.*/gpu_*:*Cudnn*:*Gpu*:MemoryFootprint*'
step profiling_tests 120 "${run[@]}" profiling_tests --gtest_brief=1
for backend in gpu-cudnn gpu-generic; do
    step "eval-$backend" 60 "${run[@]}" python3 scripts/eval-fixtures.py --backend "$backend" --rnnprof rnnprof
done

# The GPU table: LSTM 128->256 (the quick-start model), B in {1, 8, 64, 512}, T in {20, 100}.
grid=(--preset quick-start --batch 1,8,64,512 --seq-len 20,100 --mode infer,train
      --warmup 3 --min-repeats 10 --max-repeats 50 --time-budget 500 --no-numerics --quiet)
step sweep-algos 180 "${run[@]}" rnnprof sweep "${grid[@]}" --backend gpu-cudnn,gpu-generic \
    --cudnn-algo standard,persist_static,persist_dynamic,persist_static_small_h \
    --out "$out/algos.json" --csv "$out/algos.csv"
step sweep-untraced 120 "${run[@]}" rnnprof sweep "${grid[@]}" --backend gpu-cudnn,gpu-generic \
    --no-gpu-trace --out "$out/untraced.json"
step sweep-graph 120 "${run[@]}" rnnprof sweep "${grid[@]}" --backend gpu-cudnn,gpu-generic \
    --cuda-graph --out "$out/graph.json"
step sweep-cpu 240 "${run[@]}" rnnprof sweep "${grid[@]}" --backend cpu-blas,cpu-onednn \
    --out "$out/cpu.json"
step sweep-quick-start 120 "${run[@]}" rnnprof sweep --preset quick-start --quiet --out "$out/quick-start.json"
echo "== done"
