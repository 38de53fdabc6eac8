# Arrow C++ for libfluss, from FLUSS_ARROW_SOURCE (CMakeLists.txt documents the options):
#
#   pyarrow  the libarrow and libarrow_compute of the pyarrow wheel (one Arrow in the process for
#            C++ and Python). The wheel's directory is FLUSS_PYARROW_DIR, or else asked of Python
#            (Python_EXECUTABLE, found by CMakeLists.txt). The wheel ships no CMake or pkg-config
#            files: the libraries are taken by path (libarrow.so.<ABI>, no unversioned link).
#   cmake    an installed Arrow C++ (>= 21: compute is its own library), found by
#            find_package(Arrow) and find_package(ArrowCompute) on CMAKE_PREFIX_PATH or
#            Arrow_DIR / ArrowCompute_DIR.
#
# Either way it defines the targets the build links, `arrow_shared` (headers and libarrow) and
# `arrow_compute_shared` (libarrow_compute, which links arrow_shared), and sets
#   FLUSS_ARROW_VERSION                          the Arrow version found
#   PYARROW_INCLUDE_DIR, PYARROW_LIB_DIR         the wheel's include/ and library directory
#   PYARROW_ARROW_LIB, PYARROW_ARROW_COMPUTE_LIB the two libraries' paths
#   FLUSS_ARROW_LIB_DIRS                         the directories of libarrow and libarrow_compute
# (the PYARROW_* ones are empty with FLUSS_ARROW_SOURCE=cmake). cmake/flussConfig.cmake.in
# finds the same Arrow for the users of the installed package.

if(FLUSS_ARROW_SOURCE STREQUAL "pyarrow")
  if(FLUSS_PYARROW_DIR)
    get_filename_component(PYARROW_LIB_DIR "${FLUSS_PYARROW_DIR}" ABSOLUTE)
    set(PYARROW_INCLUDE_DIR "${PYARROW_LIB_DIR}/include")
  else()
    execute_process(
      COMMAND "${Python_EXECUTABLE}" -c "import pyarrow as pa; print(pa.get_include()); print(pa.get_library_dirs()[0])"
      OUTPUT_VARIABLE _pa_out OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _pa_rc)
    if(NOT _pa_rc EQUAL 0)
      message(FATAL_ERROR "pyarrow is needed at build time (pip install pyarrow==22.0.0), or name its "
                          "directory with -DFLUSS_PYARROW_DIR=..., or use -DFLUSS_ARROW_SOURCE=cmake")
    endif()
    string(REPLACE "\n" ";" _pa_lines "${_pa_out}")
    list(GET _pa_lines 0 PYARROW_INCLUDE_DIR)
    list(GET _pa_lines 1 PYARROW_LIB_DIR)
  endif()
  # libarrow.so.2200 sorts before libarrow.so.2200.0.0 where both exist: the SONAME's file.
  file(GLOB _pa_arrow "${PYARROW_LIB_DIR}/libarrow.so.*")
  file(GLOB _pa_compute "${PYARROW_LIB_DIR}/libarrow_compute.so.*")
  set(_pa_config "${PYARROW_INCLUDE_DIR}/arrow/util/config.h")
  if(NOT _pa_arrow OR NOT _pa_compute OR NOT EXISTS "${_pa_config}")
    message(FATAL_ERROR "${PYARROW_LIB_DIR} is not a pyarrow (>= 21) directory: it needs libarrow.so.*, "
                        "libarrow_compute.so.* and include/arrow/util/config.h")
  endif()
  list(SORT _pa_arrow)
  list(SORT _pa_compute)
  list(GET _pa_arrow 0 PYARROW_ARROW_LIB)
  list(GET _pa_compute 0 PYARROW_ARROW_COMPUTE_LIB)
  file(STRINGS "${_pa_config}" _pa_version REGEX "^#define ARROW_VERSION_STRING ")
  string(REGEX REPLACE ".*\"(.*)\".*" "\\1" FLUSS_ARROW_VERSION "${_pa_version}")
  set(FLUSS_ARROW_LIB_DIRS "${PYARROW_LIB_DIR}")
  message(STATUS "Arrow ${FLUSS_ARROW_VERSION} from pyarrow: ${PYARROW_ARROW_LIB}")
  add_library(arrow_shared SHARED IMPORTED)
  set_target_properties(arrow_shared PROPERTIES
    IMPORTED_LOCATION "${PYARROW_ARROW_LIB}"
    INTERFACE_INCLUDE_DIRECTORIES "${PYARROW_INCLUDE_DIR}")
  # Arrow's compute kernels (a separate library since Arrow 21): Take splits Arrow input per partition.
  add_library(arrow_compute_shared SHARED IMPORTED)
  set_target_properties(arrow_compute_shared PROPERTIES
    IMPORTED_LOCATION "${PYARROW_ARROW_COMPUTE_LIB}"
    INTERFACE_LINK_LIBRARIES arrow_shared)
elseif(FLUSS_ARROW_SOURCE STREQUAL "cmake")
  find_package(Arrow REQUIRED)
  find_package(ArrowCompute REQUIRED)
  set(FLUSS_ARROW_VERSION "${Arrow_VERSION}")
  foreach(_v PYARROW_INCLUDE_DIR PYARROW_LIB_DIR PYARROW_ARROW_LIB PYARROW_ARROW_COMPUTE_LIB)
    set(${_v} "")
  endforeach()
  set(FLUSS_ARROW_LIB_DIRS "")
  foreach(_t Arrow::arrow_shared ArrowCompute::arrow_compute_shared)
    get_target_property(_loc ${_t} LOCATION)  # an imported target's file, for the default configuration
    get_filename_component(_dir "${_loc}" DIRECTORY)
    list(APPEND FLUSS_ARROW_LIB_DIRS "${_dir}")
  endforeach()
  list(REMOVE_DUPLICATES FLUSS_ARROW_LIB_DIRS)
  message(STATUS "Arrow ${FLUSS_ARROW_VERSION} from its CMake package: ${Arrow_DIR}")
  add_library(arrow_shared INTERFACE)
  target_link_libraries(arrow_shared INTERFACE Arrow::arrow_shared)
  add_library(arrow_compute_shared INTERFACE)
  target_link_libraries(arrow_compute_shared INTERFACE ArrowCompute::arrow_compute_shared arrow_shared)
else()
  message(FATAL_ERROR "FLUSS_ARROW_SOURCE is '${FLUSS_ARROW_SOURCE}': pyarrow or cmake")
endif()
