# The C++ package (FLUSS_INSTALL_CPP): one shared library, libfluss.so, and `cmake --install`
# rules, all in the install component `cpp`, for find_package(fluss) -> fluss::fluss.
#
#   <prefix>/include/fluss/*.h                   the public headers (they need Arrow and C++20 only)
#   <prefix>/lib/libfluss.so.<major>.<minor>     every layer of libfluss; its own dependencies
#                                                are private: lz4 and zstd linked in (when static,
#                                                FLUSS_STATIC_COMPRESSION) and not exported,
#                                                libprotobuf.so (Debian's libprotobuf.a is not
#                                                PIC), Arrow; RUNPATH to Arrow's directory
#   <prefix>/lib/cmake/fluss/flussConfig.cmake   (+ flussConfigVersion.cmake, flussTargets*.cmake)
#
# The layer libraries stay static and are what the tests, the examples and the Python module
# link (`fluss`); libfluss.so is made of their object files, so nothing is compiled twice.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/fluss_shared.cc"
     CONTENT "// libfluss.so: the object files of the layer libraries (cmake/fluss_package.cmake).\n")
set(_fluss_objects "")
foreach(t IN LISTS FLUSS_LAYER_TARGETS)
  get_target_property(_type ${t} TYPE)
  if(_type STREQUAL "STATIC_LIBRARY")
    list(APPEND _fluss_objects $<TARGET_OBJECTS:${t}>)
  endif()
endforeach()
add_library(fluss_shared SHARED "${CMAKE_CURRENT_BINARY_DIR}/fluss_shared.cc" ${_fluss_objects})
add_library(fluss::fluss ALIAS fluss_shared)  # the same name in a build tree (add_subdirectory)
# `fluss` brings the layers' own dependencies (protobuf, lz4, zstd, Threads, Arrow); its static
# layer archives add nothing, every object is already in. Symbols of static archives (lz4, zstd)
# are not exported: only libfluss's own.
target_link_libraries(fluss_shared PRIVATE fluss)
target_link_options(fluss_shared PRIVATE -Wl,--exclude-libs,ALL)
if(NOT FLUSS_SANITIZE AND NOT FLUSS_BUILD_FUZZERS)
  target_link_options(fluss_shared PRIVATE -Wl,--no-undefined)  # (a sanitizer's runtime is the program's)
endif()
target_include_directories(fluss_shared INTERFACE
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
# The public headers use Arrow's types; fluss::arrow is defined by flussConfig.cmake.
target_link_libraries(fluss_shared PUBLIC $<BUILD_INTERFACE:arrow_shared> $<INSTALL_INTERFACE:fluss::arrow>)
target_compile_features(fluss_shared INTERFACE cxx_std_20)  # e.g. defaulted operator== in types.h
# 0.x: every minor version may change the ABI, so the SONAME carries major.minor.
# INSTALL_RPATH: the installed library finds Arrow where it was linked from (the pyarrow
# directory, or an Arrow outside the system's directories); a program linking fluss::fluss gets
# both directories on its build RUNPATH from the imported targets.
set(_fluss_rpath ${FLUSS_ARROW_LIB_DIRS})
if(_fluss_rpath)
  list(REMOVE_ITEM _fluss_rpath ${CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES} ${CMAKE_PLATFORM_IMPLICIT_LINK_DIRECTORIES})
endif()
set_target_properties(fluss_shared PROPERTIES
  OUTPUT_NAME fluss EXPORT_NAME fluss
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  INSTALL_RPATH "${_fluss_rpath}")

install(TARGETS fluss_shared EXPORT flussTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT cpp NAMELINK_COMPONENT cpp)
install(DIRECTORY include/fluss DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT cpp
        FILES_MATCHING PATTERN "*.h")
set(_fluss_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/fluss)
install(EXPORT flussTargets NAMESPACE fluss:: DESTINATION ${_fluss_cmake_dir} COMPONENT cpp)
configure_package_config_file(cmake/flussConfig.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/flussConfig.cmake" INSTALL_DESTINATION ${_fluss_cmake_dir})
# 0.x: a consumer asking for 0.1 takes any 0.1.z.
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/flussConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/flussConfig.cmake" "${CMAKE_CURRENT_BINARY_DIR}/flussConfigVersion.cmake"
        DESTINATION ${_fluss_cmake_dir} COMPONENT cpp)
