# Project code compiles with warnings as errors; third-party headers are included as SYSTEM.
add_library(rnnprof_warnings INTERFACE)
target_compile_options(rnnprof_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror -Wno-error=deprecated-declarations>
    $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)
# Release builds keep assertions out but keep frame pointers, so perf/hotspot can unwind.
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
