# codesim_module(NAME SOURCES ... DEPS ...): one folder = one static library = one namespace.
# Warnings in project code only (third-party headers come in as SYSTEM); errors only where
# CODESIM_WERROR is on (the developers' and CI's build, tools/build.sh and the "dev" preset).
function(codesim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wno-sign-conversion -Wno-missing-field-initializers -Wnon-virtual-dtor -Wold-style-cast)
  # GCC 12 at -O3 (the Release build) reports -Wrestrict and -Wmaybe-uninitialized inside
  # libstdc++'s std::string concatenation and std::optional/std::variant moves, code it inlines
  # from the standard headers (false positives: none is in codesim's own code); -O2 does not.
  # Those two are off there.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE
                           "$<$<CONFIG:Release>:-Wno-restrict;-Wno-maybe-uninitialized>")
  endif()
  if(CODESIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Every module but INTERNAL ones (the CLI's) is installed and exported as codesim::NAME
# (find_package(codesim), see cmake/codesimConfig.cmake.in); headers keep their paths under
# include/codesim.
function(codesim_module name)
  cmake_parse_arguments(ARG "INTERNAL" "" "SOURCES;DEPS" ${ARGN})
  add_library(codesim_${name} STATIC ${ARG_SOURCES})
  add_library(codesim::${name} ALIAS codesim_${name})
  target_include_directories(codesim_${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                                    $<INSTALL_INTERFACE:include/codesim>)
  target_link_libraries(codesim_${name} PUBLIC ${ARG_DEPS})
  set_target_properties(codesim_${name} PROPERTIES EXPORT_NAME ${name})
  codesim_warnings(codesim_${name})
  if(NOT ARG_INTERNAL)
    install(TARGETS codesim_${name} EXPORT codesimTargets ARCHIVE DESTINATION lib)
  endif()
endfunction()
