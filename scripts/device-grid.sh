#!/usr/bin/env bash
# rnn_backends_bench on the GPU machine's 16-core host, from the bundle of a CUDA Release build in
# .gpu-bundle/ (its run.sh starts a bundled program with the bundle's libraries): each stage
# NAME=FILTER writes $OUT/NAME.json and NAME.log ($OUT: the output folder, from the environment), and
# the stages stop at a deadline ($1 seconds) so that what they measured is written within an outer
# time limit. Example:
#   bash scripts/device-grid.sh 320 "all=sgemm_peak|thrall/paired|infer/H[0-9]+/B1/T[0-9]+/thrall/cpu-blas.onednn"
start=$(date +%s); budget=${1:-330}; shift
export OPENBLAS_CORETYPE=Haswell OPENBLAS_L2_SIZE=512
(lscpu; nproc; free -g; cat /proc/loadavg; nvidia-smi -L) > "$OUT/host.txt" 2>&1
bash .gpu-bundle/run.sh true
left() { echo $((budget - ($(date +%s) - start))); }
stage() {
    local name=$1 filter=$2 t; t=$(left); [ "$t" -gt 10 ] || return 0
    timeout "$t" bash .gpu-bundle/run.sh rnn_backends_bench --benchmark_filter="$filter" \
        --benchmark_out="$OUT/$name.json" > "$OUT/$name.log" 2>&1
    echo "$name rc $? at $(($(date +%s) - start)) s"; cat /proc/loadavg
}
for s in "$@"; do stage "${s%%=*}" "${s#*=}"; done
