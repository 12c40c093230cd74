# codesim_fitted_constants(FIT JSON ...): the fitted constants of each fit's output JSON, embedded
# at build time as models/calibration/<FIT>.hpp (namespace codesim::calibration::<FIT>), one
# `inline constexpr double` per member of the file's "constants" object and `all`, the same as
# (name, value) pairs. The target
# codesim::calibration carries the headers; editing a JSON re-runs the configuration.
function(codesim_fitted_header fit json)
  file(READ ${json} text)
  string(JSON constants ERROR_VARIABLE missing GET "${text}" constants)
  if(missing)
    message(FATAL_ERROR "${json}: no \"constants\" object (${missing})")
  endif()
  string(JSON count LENGTH "${constants}")
  math(EXPR last "${count} - 1")
  set(lines "")
  set(named "")
  foreach(i RANGE ${last})
    string(JSON key MEMBER "${constants}" ${i})
    string(JSON type TYPE "${constants}" ${key})
    if(NOT key MATCHES "^[a-z][a-z0-9_]*$" OR NOT type STREQUAL "NUMBER")
      message(FATAL_ERROR "${json}: constants.${key} must be a number named as a C++ identifier")
    endif()
    string(JSON value GET "${constants}" ${key})
    string(APPEND lines "inline constexpr double ${key} = ${value};\n")
    string(APPEND named "    {\"${key}\", ${key}},\n")
  endforeach()
  file(RELATIVE_PATH source ${PROJECT_SOURCE_DIR} ${json})
  set(header ${PROJECT_BINARY_DIR}/generated/models/calibration/${fit}.hpp)
  file(CONFIGURE OUTPUT ${header} CONTENT
"// Generated at build time from ${source} (its \"constants\"): do not edit; refit instead.
#pragma once

#include <string_view>
#include <utility>

namespace codesim::calibration::${fit} {

${lines}
// Every constant by its name, for code that reads several fits of one form alike.
inline constexpr std::pair<std::string_view, double> all[] = {
${named}};

}  // namespace codesim::calibration::${fit}
")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${json})
  install(FILES ${header} DESTINATION include/codesim/models/calibration)
endfunction()

function(codesim_fitted_constants)
  add_library(codesim_calibration INTERFACE)
  add_library(codesim::calibration ALIAS codesim_calibration)
  target_include_directories(codesim_calibration
                             INTERFACE $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/generated>)
  set_target_properties(codesim_calibration PROPERTIES EXPORT_NAME calibration)
  install(TARGETS codesim_calibration EXPORT codesimTargets)
  set(pairs ${ARGN})
  while(pairs)
    list(POP_FRONT pairs fit json)
    codesim_fitted_header(${fit} ${CMAKE_CURRENT_SOURCE_DIR}/${json})
  endwhile()
endfunction()
