# codesim_module(NAME SOURCES ... DEPS ...): one folder = one static library = one namespace.
# Warnings are errors in project code only; third-party headers come in as SYSTEM.
function(codesim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wno-sign-conversion -Wno-missing-field-initializers -Wnon-virtual-dtor -Wold-style-cast)
  if(CODESIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

function(codesim_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(codesim_${name} STATIC ${ARG_SOURCES})
  add_library(codesim::${name} ALIAS codesim_${name})
  target_include_directories(codesim_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(codesim_${name} PUBLIC ${ARG_DEPS})
  codesim_warnings(codesim_${name})
endfunction()
