# One sanitizer set per build directory (ASan+UBSan, or TSan); see README "Reliability".
if(RNNPROF_SANITIZE)
    string(REPLACE ";" "," _rnnprof_san "${RNNPROF_SANITIZE}")
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${_rnnprof_san}> $<$<COMPILE_LANGUAGE:C>:-fsanitize=${_rnnprof_san}>
        $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=all> $<$<COMPILE_LANGUAGE:CXX>:-g>)
    add_link_options(-fsanitize=${_rnnprof_san})
endif()
