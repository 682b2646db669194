# Installation like a Debian desktop program, and the .deb (CPack):
#   bin/rnnprof, share/applications/rnnprof.desktop, share/icons/hicolor/scalable/apps/rnnprof.svg,
#   share/doc/rnnprof/{README.md,LICENSE,CHANGELOG.md,presets.md,presets/*.json,docs/*.md},
#   share/rnnprof/reference/h100-*.json.
# `cpack -G DEB` in the build folder writes rnnprof_<version>_amd64.deb; its Depends are computed by
# dpkg-shlibdeps from the libraries rnnprof links. The CUDA libraries (cuBLAS, cuDNN, CUPTI, the CUDA
# runtime) are not Debian packages: they are left out of Depends, named as Suggests (NVIDIA's
# repository's package names) and in the description.
include(GNUInstallDirs)

if(TARGET rnnprof)
    install(TARGETS rnnprof RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    install(FILES ${PROJECT_SOURCE_DIR}/resources/rnnprof.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/rnnprof.svg
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()

# share/doc/rnnprof/presets.md: every preset's title and description, from resources/presets/*.json.
file(GLOB rnnprof_doc_presets CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/resources/presets/*.json)
set(rnnprof_presets_md "# rnnprof presets\n\nRun one with `rnnprof sweep --preset NAME`; `rnnprof sweep --list-presets` lists them.\n")
foreach(preset_file IN LISTS rnnprof_doc_presets)
    file(READ ${preset_file} preset_json)
    get_filename_component(preset_name ${preset_file} NAME_WE)
    string(JSON preset_title ERROR_VARIABLE preset_error GET "${preset_json}" title)
    string(JSON preset_description ERROR_VARIABLE preset_error GET "${preset_json}" description)
    string(APPEND rnnprof_presets_md "\n## ${preset_name}: ${preset_title}\n\n${preset_description}\n")
endforeach()
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/doc/presets.md CONTENT "${rnnprof_presets_md}" @ONLY)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
        ${PROJECT_BINARY_DIR}/doc/presets.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The README links into docs/: the same relative layout in share/doc/rnnprof.
file(GLOB rnnprof_docs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${rnnprof_docs} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(FILES ${rnnprof_doc_presets} DESTINATION ${CMAKE_INSTALL_DOCDIR}/presets)
# share/rnnprof/reference/h100-*.json: the reference GPU results, unchanged, for the command line
# (`rnnprof sweep --compare`, `rnnprof plot`); the application has them built in (reference.qrc).
file(GLOB rnnprof_reference_results CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/resources/reference/*.json)
install(FILES ${rnnprof_reference_results} DESTINATION ${CMAKE_INSTALL_DATADIR}/rnnprof/reference)

set(CPACK_PACKAGE_NAME rnnprof)
set(CPACK_PACKAGE_VENDOR "rnnprof developers")
set(CPACK_PACKAGE_CONTACT "rnnprof developers <rnnprof@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Profiler for recurrent neural networks (LSTM, GRU) on CPU and GPU")
set(CPACK_PACKAGE_INSTALL_DIRECTORY rnnprof)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # rnnprof_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://localhost/rnnprof")
# CPack puts the summary first and indents these lines itself.
set(rnnprof_deb_description "Configure an LSTM or GRU, pick backends (CPU reference, CPU BLAS-fused, CPU
oneDNN, generic CUDA, cuDNN) and training or inference, and sweep batch size and sequence length:
rnnprof measures time per phase, GPU kernels and memory and plots where the GPU overtakes the CPU.
The same sweeps run headless: rnnprof sweep, plot, eval.")
if(RNNPROF_HAVE_CUDA)
    # dpkg-shlibdeps finds no Debian package for the toolkit's libraries: treat their folders as
    # private so they stay out of Depends.
    get_filename_component(rnnprof_cuda_libdir "${CUDAToolkit_LIBRARY_DIR}" REALPATH)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${CUDAToolkit_LIBRARY_DIR};${rnnprof_cuda_libdir}")
    # Optional: named as Suggests with the package names of NVIDIA's CUDA repository.
    set(cuda_major ${CUDAToolkit_VERSION_MAJOR})
    set(cuda_series ${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR})
    set(CPACK_DEBIAN_PACKAGE_SUGGESTS
        "cuda-cudart-${cuda_series}, libcublas-${cuda_series}, cuda-cupti-${cuda_series}, libcudnn9-cuda-${cuda_major}")
    string(APPEND rnnprof_deb_description "
This build has the GPU backends: it needs NVIDIA's CUDA ${CUDAToolkit_VERSION_MAJOR} runtime, cuBLAS,
cuDNN 9 and CUPTI libraries at run time (not Debian packages, so not in Depends).")
endif()
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${rnnprof_deb_description}")
include(CPack)
