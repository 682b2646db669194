#!/usr/bin/env bash
# cpu-blas at forced step teams (RNNPROF_STEP_TEAM, engine/cpu/recurrent_threads.h) against
# cpu-onednn on all cores of the GPU machine's host, one `rnnprof sweep` per point and team, from the
# bundle of a CUDA Release build in .gpu-bundle/; stops at a deadline ($1 seconds). The results are
# packed into one file, $OUT/step-teams.tgz ($OUT: the output folder, from the environment). The
# second argument picks the points: "teams" (default: the pass behind the step-team rule) or "rows"
# (training's team over the rows, RNNPROF_STEP_TEAM=rows, against the rule beyond its L2 bound).
start=$(date +%s); budget=${1:-150}; set=${2:-teams}
export OPENBLAS_CORETYPE=Haswell OPENBLAS_L2_SIZE=512
bash .gpu-bundle/run.sh true
mkdir -p "$OUT/cal"
one() { # name cell H B T mode team
    [ $(( $(date +%s) - start )) -lt "$budget" ] || return 0
    local be=cpu-blas; [ "$7" = onednn ] && be=cpu-onednn
    RNNPROF_STEP_TEAM=$([ "$7" = onednn ] || [ "$7" = rule ] || echo "$7") timeout 30 bash .gpu-bundle/run.sh rnnprof sweep \
        --cell $2 --input-size 128 --hidden-size $3 --batch $4 --seq-len $5 --backend $be --mode $6 \
        --threads 0 --warmup 3 --min-repeats 10 --max-repeats 300 --time-budget 500 --no-numerics \
        --out "$OUT/cal/$1-$7.json" > /dev/null 2>&1
}
run() { # cell H B T mode teams...
    local c=$1 h=$2 b=$3 t=$4 m=$5; shift 5
    for team in "$@"; do one "r$round-$c-$m-H$h-B$b-T$t" $c $h $b $t $m $team; done
}
rows_pass() {
    for c in lstm gru; do for h in 256 512; do for b in 64 256; do
        run $c $h $b 20 train rule rows onednn
    done; done; done
    run lstm 64 64 20 train rule split onednn
    run gru 64 64 100 train rule split onednn
    run lstm 1024 256 20 train rule rows onednn
}
for round in 1 2; do
    [ "$set" = rows ] && { rows_pass; continue; }
    for c in lstm gru; do for h in 256 512 1024; do run $c $h 1 100 infer rule onednn 2 4 8 12 16; done; done
    run lstm 512 1 20 train rule onednn split 1 4 8 16
    run lstm 512 16 20 train rule onednn split 4 8 16
    run lstm 1024 4 20 train rule onednn split 8 16
    run lstm 64 64 20 train rule onednn 1 2 4
    run gru 64 64 100 train rule onednn 1 2 4
    run lstm 256 16 20 train rule onednn split 4 8 16
    run lstm 256 64 20 train rule onednn split 8 16
    run gru 256 256 20 train rule onednn split 8 16
    run lstm 256 64 20 infer rule onednn split 4 16
    run gru 256 64 20 infer rule onednn split 4 16
    run gru 256 16 100 infer rule onednn split 4 16
done
echo "done at $(( $(date +%s) - start )) s: $(ls "$OUT/cal" | wc -l) files"
tar -czf "$OUT/step-teams.tgz" -C "$OUT" cal && rm -rf "$OUT/cal"
