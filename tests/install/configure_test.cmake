# Configures the project in a scratch folder with extra arguments and checks the outcome.
# Arguments (-D): SOURCE_DIR, SCRATCH, ARGS (cmake arguments separated by |), EXPECT ("success" or a text the failing
# configure must print, e.g. the Debian package to install).
string(REPLACE "|" ";" ARGS "${ARGS}")
file(REMOVE_RECURSE "${SCRATCH}")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${SCRATCH}" -G Ninja ${ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(REMOVE_RECURSE "${SCRATCH}")
string(REGEX REPLACE "[ \n]+" " " flat "${out}${err}") # CMake wraps long messages
if(EXPECT STREQUAL "success")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "configure with ${ARGS} failed (${rc}):\n${out}${err}")
    endif()
else()
    if(rc EQUAL 0)
        message(FATAL_ERROR "configure with ${ARGS} succeeded; expected it to fail with '${EXPECT}'")
    endif()
    string(FIND "${flat}" "${EXPECT}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "configure with ${ARGS} failed without saying '${EXPECT}':\n${out}${err}")
    endif()
endif()
