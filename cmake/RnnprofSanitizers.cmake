# One sanitizer set per build directory (ASan+UBSan, or TSan), and the libFuzzer build; see
# docs/reliability.md. scripts/ci-sanitizers.sh and scripts/fuzz.sh configure these build directories.
# A sanitizer build leaves CUDA out (cmake/RnnprofCuda.cmake): nvcc's host code and the CUDA
# runtime are not instrumented, and the machines that run these builds have no GPU anyway.
if(RNNPROF_BUILD_FUZZERS)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "RNNPROF_BUILD_FUZZERS=ON needs clang (libFuzzer): configure with "
                            "-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang (got ${CMAKE_CXX_COMPILER_ID})")
    endif()
    # Fuzzers run under ASan+UBSan unless told otherwise, so that a memory error is a crash
    # libFuzzer reports. The preset 'fuzz-fast' (UBSan only) is for long runs whose kept inputs
    # scripts/fuzz-long.sh then replays under ASan+UBSan.
    if(NOT RNNPROF_SANITIZE)
        set(RNNPROF_SANITIZE "address;undefined")
    endif()
endif()

if(RNNPROF_SANITIZE)
    set(_rnnprof_known_sanitizers address undefined thread)
    foreach(_san IN LISTS RNNPROF_SANITIZE)
        if(NOT _san IN_LIST _rnnprof_known_sanitizers)
            message(FATAL_ERROR "RNNPROF_SANITIZE: unknown sanitizer '${_san}' "
                                "(allowed: 'address;undefined', 'address', 'undefined' or 'thread')")
        endif()
    endforeach()
    if("thread" IN_LIST RNNPROF_SANITIZE AND "address" IN_LIST RNNPROF_SANITIZE)
        message(FATAL_ERROR "RNNPROF_SANITIZE: thread and address cannot share a build directory")
    endif()
    string(REPLACE ";" "," _rnnprof_san "${RNNPROF_SANITIZE}")
    # Every reported error ends the test (a UBSan report would otherwise only be printed).
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${_rnnprof_san}> $<$<COMPILE_LANGUAGE:C>:-fsanitize=${_rnnprof_san}>
        $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=all> $<$<COMPILE_LANGUAGE:CXX>:-g>)
    add_link_options(-fsanitize=${_rnnprof_san})
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        # GCC's instrumentation produces false -Wmaybe-uninitialized (e.g. inside <regex>); GCC's
        # manual warns of it. Release builds keep the warning as an error.
        add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized>)
    endif()
endif()

if(RNNPROF_BUILD_FUZZERS)
    # Coverage instrumentation for everything the fuzz targets call; only the targets themselves
    # link libFuzzer's main (-fsanitize=fuzzer, tests/fuzz/CMakeLists.txt).
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>
                        $<$<COMPILE_LANGUAGE:C>:-fsanitize=fuzzer-no-link>)
    # The product is built with GCC and -Werror; clang's extra warnings are shown here but do not
    # stop the fuzz build (appended after rnnprof_warnings' -Werror so that it takes effect). The
    # instrumentation defeats `#pragma omp simd`, which clang reports as -Wpass-failed: not shown.
    target_compile_options(rnnprof_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-error -Wno-pass-failed>)
endif()
