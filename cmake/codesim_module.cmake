# codesim_module(NAME SOURCES ... DEPS ...): one folder = one static library = one namespace.
# Warnings are errors in project code only; third-party headers come in as SYSTEM.
function(codesim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wno-sign-conversion -Wno-missing-field-initializers -Wnon-virtual-dtor -Wold-style-cast)
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
