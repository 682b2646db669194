# Installs the build into a fresh prefix, as a user or the .deb would, and runs the installed program.
# Arguments (-D): BUILD_DIR, PREFIX. Run by ctest as Install.InstalledProgramRuns.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed (${rc}): ${out}${err}")
endif()

foreach(file bin/rnnprof share/applications/rnnprof.desktop share/icons/hicolor/scalable/apps/rnnprof.svg
             share/doc/rnnprof/README.md share/doc/rnnprof/presets.md share/doc/rnnprof/presets/quick-start.json
             share/doc/rnnprof/LICENSE share/doc/rnnprof/docs/user-guide.md share/doc/rnnprof/docs/cli.md
             share/rnnprof/reference/h100-quick-start.json)
    if(NOT EXISTS "${PREFIX}/${file}")
        message(FATAL_ERROR "not installed: ${file}")
    endif()
endforeach()

# The desktop entry starts the installed program by name and names the installed icon.
file(READ "${PREFIX}/share/applications/rnnprof.desktop" desktop)
foreach(line "Type=Application" "Exec=rnnprof %F" "Icon=rnnprof" "Terminal=false")
    string(FIND "${desktop}" "\n${line}\n" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "rnnprof.desktop lacks the line '${line}'")
    endif()
endforeach()
file(READ "${PREFIX}/share/doc/rnnprof/presets.md" presets_doc)
string(FIND "${presets_doc}" "## quick-start: " at)
if(at EQUAL -1)
    message(FATAL_ERROR "presets.md does not describe the quick-start preset")
endif()

# The installed program runs from its new place (no build folder on any path it uses).
set(ENV{QT_QPA_PLATFORM} offscreen)
execute_process(COMMAND "${PREFIX}/bin/rnnprof" --version WORKING_DIRECTORY "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^rnnprof [0-9]+\\.[0-9]+\\.[0-9]+\n")
    message(FATAL_ERROR "installed rnnprof --version: exit ${rc}, output '${out}${err}'")
endif()
execute_process(COMMAND "${PREFIX}/bin/rnnprof" sweep --list-presets WORKING_DIRECTORY "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "(^|\n)quick-start ")
    message(FATAL_ERROR "installed rnnprof sweep --list-presets: exit ${rc}, output '${out}${err}'")
endif()
message(STATUS "installed into ${PREFIX}; rnnprof --version and sweep --list-presets ran")
