# Every dependency is a Debian package; scripts/install-deps.sh installs them. When one is missing,
# configure stops with the Debian packages to install rather than CMake's generic text.

# find_package(<name> <args...>) QUIET, then a message naming the packages when it was not found.
macro(rnnprof_find_package name debian_packages)
    find_package(${name} ${ARGN} QUIET)
    if(NOT ${name}_FOUND)
        message(FATAL_ERROR "${name} not found: install ${debian_packages} "
                            "(scripts/install-deps.sh does this)")
    endif()
endmacro()

find_package(Threads REQUIRED)
rnnprof_find_package(OpenMP "libgomp (g++) or, for clang, libomp-14-dev" COMPONENTS CXX)
rnnprof_find_package(nlohmann_json nlohmann-json3-dev 3.10)
# oneDNN's own CMake config requires OpenCL (Debian builds it with the OpenCL GPU runtime) and
# fails with CMake's text when it is missing; look first so the message names the package.
rnnprof_find_package(OpenCL "ocl-icd-opencl-dev (oneDNN's CMake config needs OpenCL)")
rnnprof_find_package(dnnl libdnnl-dev CONFIG)
rnnprof_find_package(OpenBLAS libopenblas-dev CONFIG)

add_library(rnnprof_openblas INTERFACE)
target_include_directories(rnnprof_openblas SYSTEM INTERFACE ${OpenBLAS_INCLUDE_DIRS})
target_link_libraries(rnnprof_openblas INTERFACE ${OpenBLAS_LIBRARIES})

# The headless commands (cli/) need QtCore; the desktop application the rest.
set(rnnprof_qt_modules Core)
if(RNNPROF_BUILD_GUI)
    list(APPEND rnnprof_qt_modules Gui Widgets Charts Svg)
endif()
if(RNNPROF_BUILD_GUI AND RNNPROF_BUILD_TESTS)
    list(APPEND rnnprof_qt_modules Test)
endif()
# Qt module -> the Debian packages that provide it and what it needs (Charts needs OpenGL).
set(rnnprof_qt_packages_Core qt6-base-dev)
set(rnnprof_qt_packages_Gui "qt6-base-dev libgl-dev")
set(rnnprof_qt_packages_Widgets qt6-base-dev)
set(rnnprof_qt_packages_Charts "qt6-charts-dev libqt6opengl6-dev")
set(rnnprof_qt_packages_Svg qt6-svg-dev)
set(rnnprof_qt_packages_Test qt6-base-dev)
find_package(Qt6 6.4 COMPONENTS ${rnnprof_qt_modules} QUIET)
foreach(module IN LISTS rnnprof_qt_modules)
    if(NOT Qt6${module}_FOUND)
        message(FATAL_ERROR "Qt6 ${module} (6.4 or newer) not found: install ${rnnprof_qt_packages_${module}} "
                            "(scripts/install-deps.sh does this)")
    endif()
endforeach()
# GoogleTest and Google Benchmark only when tests or benchmarks are built.
if(RNNPROF_BUILD_TESTS)
    rnnprof_find_package(GTest "libgtest-dev libgmock-dev")
endif()
if(RNNPROF_BUILD_BENCHMARKS)
    rnnprof_find_package(benchmark libbenchmark-dev)
endif()
