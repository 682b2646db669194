# Project code compiles with -Wall -Wextra; third-party headers are included as SYSTEM. Warnings are
# errors with RNNPROF_WERROR: on in CI (the environment variable CI is set) and in the developer and
# sanitizer presets, off by default so that a newer compiler's new warning never breaks a user's build.
if(DEFINED ENV{CI})
    set(rnnprof_werror_default ON)
else()
    set(rnnprof_werror_default OFF)
endif()
option(RNNPROF_WERROR "Treat compiler warnings as errors" ${rnnprof_werror_default})
add_library(rnnprof_warnings INTERFACE)
target_compile_options(rnnprof_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
if(RNNPROF_WERROR)
    target_compile_options(rnnprof_warnings INTERFACE
        $<$<COMPILE_LANGUAGE:CXX>:-Werror -Wno-error=deprecated-declarations>
        $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings -Xcompiler=-Werror>)
endif()
# Release builds keep assertions out but keep frame pointers, so perf/hotspot can unwind.
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
