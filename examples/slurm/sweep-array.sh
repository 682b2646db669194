#!/usr/bin/env bash
# A GPU sweep as a Slurm array job: each array task measures one shard of the plan
# (`rnnprof sweep --shard I/N`), and a job that waits for all of them joins the shards
# (`rnnprof merge`). Submit from a login node:
#
#   examples/slurm/sweep-array.sh submit
#
# which runs `sbatch --array=0-(SHARDS-1)` on this script and then a dependent merge job
# (--dependency=afterok:<array>). Inside a task (SLURM_ARRAY_TASK_ID set) the script sweeps
# shard SLURM_ARRAY_TASK_ID+1 of SHARDS; with `merge` it merges. Settings, from the environment:
#   RNNPROF     the rnnprof binary (default: rnnprof on PATH)
#   SHARDS      how many shards, one task each (default 4)
#   OUT_DIR     a folder every node can write, for the shard files and sweep.json
#               (default: ./rnnprof-sweep)
#   SWEEP_ARGS  the plan, as `rnnprof sweep` flags (default: the cpu-gpu-crossover preset)
#   GPUS        --gres for each task (default gpu:1)
# A task that reaches its time limit gets SIGTERM 120 s before it (--signal, below; Slurm's own at
# the limit leaves only KillWait, 30 s by default): rnnprof abandons the run in progress, saves the
# points measured ("stopped_by": "SIGTERM") and exits 143, so the merge job does not run. Submitting
# again continues every shard where it stopped (--resume: its journal or saved file), measuring
# only what is missing; the same holds for a re-queued or preempted task.
#SBATCH --job-name=rnnprof-sweep
#SBATCH --time=02:00:00
#SBATCH --signal=B:TERM@120
#SBATCH --cpus-per-task=8
#SBATCH --output=rnnprof-sweep-%A_%a.log
set -euo pipefail

RNNPROF=${RNNPROF:-rnnprof}
SHARDS=${SHARDS:-4}
OUT_DIR=${OUT_DIR:-$PWD/rnnprof-sweep}
SWEEP_ARGS=${SWEEP_ARGS:---preset cpu-gpu-crossover}
GPUS=${GPUS:-gpu:1}

shard_file() { # the results file of shard $1 (1-based)
    echo "$OUT_DIR/shard-$1-of-$SHARDS.json"
}

case "${1:-}" in
submit)
    mkdir -p "$OUT_DIR"
    export RNNPROF SHARDS OUT_DIR SWEEP_ARGS
    array=$(sbatch --parsable --export=ALL --gres="$GPUS" --array="0-$((SHARDS - 1))" "$0")
    sbatch --export=ALL --dependency="afterok:${array%%;*}" --job-name=rnnprof-merge \
        --output=rnnprof-merge-%j.log "$0" merge
    ;;
merge)
    files=()
    for ((i = 1; i <= SHARDS; i++)); do files+=("$(shard_file "$i")"); done
    exec "$RNNPROF" merge "${files[@]}" --out "$OUT_DIR/sweep.json"
    ;;
"")
    if [[ -z ${SLURM_ARRAY_TASK_ID:-} ]]; then
        echo "$0: not an array task (no SLURM_ARRAY_TASK_ID): run '$0 submit' to submit the sweep" >&2
        exit 2
    fi
    shard=$((SLURM_ARRAY_TASK_ID + 1))
    read -r -a sweep_args <<<"$SWEEP_ARGS"
    mkdir -p "$OUT_DIR"
    exec "$RNNPROF" sweep "${sweep_args[@]}" --shard "$shard/$SHARDS" --resume --quiet \
        --out "$(shard_file "$shard")"
    ;;
*)
    echo "$0: unknown step '$1': give submit, merge, or nothing inside an array task" >&2
    exit 2
    ;;
esac
