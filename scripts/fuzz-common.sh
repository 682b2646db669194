# Shared by scripts/fuzz.sh (CI: every target for a few seconds) and scripts/fuzz-long.sh (nightly:
# the file readers until millions of executions). Sourced, not run: defines the targets, builds
# them (by default the CMake preset 'fuzz': clang, ASan + UBSan, tests/fuzz/), runs them on scratch
# copies of their seed corpora (tests/fuzz/corpus/<target>/ is never modified) and reports
# executions per target. The caller sets `targets` (an array) and `jobs` before calling these
# functions, and may switch to another preset and build directory with fuzz_use_build.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
all_targets=(npy results_json results_charts journal plan_json sweep_args eval_args csv)

# The CMake preset and build directory the functions below use; its scratch corpora, failing inputs
# and logs live inside the build directory.
fuzz_use_build() {
    preset="$1"
    build="$2"
    work="$build/fuzz-work"
    artifacts="$build/fuzz-artifacts"
    logs="$build/fuzz-logs"
}
fuzz_use_build fuzz "${RNNPROF_FUZZ_BUILD_DIR:-$root/build-fuzz}"
# Seconds one input may take before it counts as a hang (a failure).
fuzz_timeout="${RNNPROF_FUZZ_TIMEOUT:-10}"

corpus_of() { # results_charts reads results files too
    case "$1" in
    results_charts) echo "$root/tests/fuzz/corpus/results_json" ;;
    *) echo "$root/tests/fuzz/corpus/$1" ;;
    esac
}

dict_for() {
    case "$1" in
    npy) echo "$root/tests/fuzz/dict/npy.dict" ;;
    results_json | results_charts | journal | plan_json) echo "$root/tests/fuzz/dict/json.dict" ;;
    sweep_args | eval_args) echo "$root/tests/fuzz/dict/cli.dict" ;;
    esac
}

# Exits 2 naming the first target that has no seed corpus, or when RNNPROF_FUZZ_TIMEOUT is not a
# whole number of seconds >= 1.
fuzz_check_targets() {
    local t
    if ! [[ "$fuzz_timeout" =~ ^[0-9]+$ ]] || [ "$fuzz_timeout" -lt 1 ]; then
        echo "fuzz: RNNPROF_FUZZ_TIMEOUT must be a whole number of seconds >= 1 (got '$fuzz_timeout')" >&2
        exit 2
    fi
    for t in "${targets[@]}"; do
        if [ ! -d "$(corpus_of "$t")" ]; then
            echo "fuzz: unknown target '$t' (known: ${all_targets[*]})" >&2
            exit 2
        fi
    done
}

fuzz_build() {
    # clang, its libFuzzer runtime and OpenMP library (the engine links OpenMP) are Debian packages.
    "$root/scripts/install-deps.sh" >/dev/null
    local start
    start=$(date +%s)
    mkdir -p "$build"
    # Two runs on the same build directory (fuzz-long.sh for different targets side by side) take
    # turns at configuring and building it.
    (cd "$root" && flock "$build/.fuzz-build.lock" sh -c \
        'cmake --preset "$1" -B "$2" >/dev/null && shift 2 && cmake --build "$@"' \
        fuzz-build "$preset" "$build" "$build" --parallel "$jobs" --target "${targets[@]/#/fuzz_}")
    echo "fuzz: $preset build finished in $(($(date +%s) - start)) s"
}

# Runs target $1 of the current build with the arguments after it, logging to $logs/$2.log and
# leaving its exit status in $logs/$2.rc.
fuzz_exec() {
    local t="$1" log="$2" rc=0
    shift 2
    mkdir -p "$artifacts" "$logs"
    # Relative paths in the command-line seeds (resources/presets/...) resolve from the root.
    # malloc_context_size=5: ASan records 5 frames per allocation instead of 30, which the
    # allocation-heavy parsers pay on every input; a report still shows where a block came from.
    (cd "$root" && ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:malloc_context_size=5" \
        LSAN_OPTIONS="suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0" \
        UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
        "$build/tests/fuzz/fuzz_$t" -timeout="$fuzz_timeout" -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts/$t-" "$@") >"$logs/$log.log" 2>&1 || rc=$?
    echo "$rc" >"$logs/$log.rc"
}

# Runs one target with the libFuzzer limits given after it (-max_total_time=..., -runs=...).
fuzz_run_one() {
    local t="$1" dict
    shift
    dict="$(dict_for "$t")"
    mkdir -p "$work/$t"
    cp -n "$(corpus_of "$t")"/* "$work/$t"/ # earlier runs' finds stay in the scratch copy
    fuzz_exec "$t" "$t" "$@" -print_final_stats=1 ${dict:+-dict="$dict"} "$work/$t"
}

# Runs every input in folder $2 once through target $1 of the current build (libFuzzer's -runs=0
# executes the corpus it is given and stops): the inputs a faster build found, replayed under this
# build's sanitizers. The outcome goes to $logs/$1-replay.{log,rc}.
fuzz_replay_one() {
    fuzz_exec "$1" "$1-replay" -runs=0 "$2"
}

# Every target of `targets` with the same limits, `jobs` at a time.
fuzz_run_all() {
    local t
    for t in "${targets[@]}"; do
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
        fuzz_run_one "$t" "$@" &
    done
    wait
}

fuzz_executions() { # of the last run of target $1, from libFuzzer's final stats
    grep -o 'stat::number_of_executed_units: *[0-9]*' "$logs/$1.log" 2>/dev/null | grep -o '[0-9]*$' | tail -1 || true
}

# One line per target: executions, executions per second, corpus size and `$1` or the failure.
# Returns 1 when a target failed, after the tail of its log.
fuzz_report() {
    local ok_text="$1" t rc execs speed corpus result failed=0
    printf '%-14s %12s %10s %8s  %s\n' target executions exec/s corpus result
    for t in "${targets[@]}"; do
        rc="$(cat "$logs/$t.rc" 2>/dev/null || echo "not run")"
        execs="$(fuzz_executions "$t")"
        speed="$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$logs/$t.log" 2>/dev/null | grep -o '[0-9]*$' | tail -1 || true)"
        corpus="$(find "$work/$t" -type f | wc -l)"
        result="$ok_text"
        if [ "$rc" != 0 ]; then
            result="FAILED (exit $rc): see $logs/$t.log, input under $artifacts/"
            failed=1
        fi
        printf '%-14s %12s %10s %8s  %s\n' "$t" "${execs:-?}" "${speed:-?}" "$corpus" "$result"
    done
    if [ "$failed" -ne 0 ]; then
        for t in "${targets[@]}"; do
            [ "$(cat "$logs/$t.rc" 2>/dev/null)" = 0 ] || { echo "---- $t"; tail -40 "$logs/$t.log"; }
        done
        return 1
    fi
}
