# rpckit_generate(TARGET <target> SCHEMA <protocol.json> [OUTPUT_DIR <dir>])
#
# Generates C++ bindings from a protocol schema at build time and adds them to <target>
# (sources, include directory, the runtime libraries the bindings and their role surfaces
# need). Every schema file the protocol reaches is a dependency (a depfile the generator
# writes), so editing any of them regenerates. OUTPUT_DIR defaults to a folder of the build
# tree; the module's files land in <OUTPUT_DIR>/<x-module>/, included as "<x-module>/types.hpp".
#
# rpckit_generate_check(NAME <test> SCHEMA <protocol.json> DIR <checked-in dir>)
#
# For bindings checked in instead: a test that fails when <DIR> is not what the schema
# generates (rpckit check).
function(rpckit_generate)
  cmake_parse_arguments(ARG "" "TARGET;SCHEMA;OUTPUT_DIR" "" ${ARGN})
  if(NOT ARG_TARGET OR NOT ARG_SCHEMA)
    message(FATAL_ERROR "rpckit_generate: TARGET and SCHEMA are required")
  endif()
  get_filename_component(schema "${ARG_SCHEMA}" ABSOLUTE)
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/rpckit_generated/${ARG_TARGET}")
  endif()
  get_filename_component(out "${ARG_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  # The module name decides the file names, so it is read now, at configure time.
  file(READ "${schema}" text)
  string(JSON module ERROR_VARIABLE no_module GET "${text}" "x-module")
  if(no_module)
    message(FATAL_ERROR "rpckit_generate: ${schema} has no \"x-module\"")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${schema}")
  # The files `rpckit generate` writes for this schema (generator/src/emit/emit_all.cpp): a
  # profile's protocol gets profile.hpp, an exchange's exchange.hpp, declared error codes
  # errors.hpp.
  set(files types.hpp types.cpp messages.hpp dispatch.hpp constants.hpp roles.hpp)
  foreach(pair "x-profile;profile.hpp" "x-exchange;exchange.hpp" "x-error-codes;errors.hpp")
    list(GET pair 0 key)
    list(GET pair 1 file)
    string(JSON value ERROR_VARIABLE missing GET "${text}" "${key}")
    if(NOT missing)  # NOTFOUND when the key is there
      list(APPEND files ${file})
    endif()
  endforeach()
  list(TRANSFORM files PREPEND "${out}/${module}/")
  add_custom_command(
    OUTPUT ${files}
    COMMAND "$<TARGET_FILE:rpckit::rpckit>" generate "${schema}" --out "${out}"
            --depfile "${out}/${module}.d"
    # rpckit generate rewrites only files whose text changed; touched, they stay newer than the
    # schema, so an edit that changes nothing does not rerun it on every build.
    COMMAND "${CMAKE_COMMAND}" -E touch ${files}
    DEPENDS "${schema}" "$<TARGET_FILE:rpckit::rpckit>"
    DEPFILE "${out}/${module}.d"
    COMMENT "rpckit generate ${ARG_SCHEMA}"
    VERBATIM)
  target_sources(${ARG_TARGET} PRIVATE ${files})
  target_include_directories(${ARG_TARGET} PUBLIC "$<BUILD_INTERFACE:${out}>")
  target_link_libraries(${ARG_TARGET} PUBLIC
    rpckit::values rpckit::codec rpckit::descriptors rpckit::framing rpckit::roles)
endfunction()

function(rpckit_generate_check)
  cmake_parse_arguments(ARG "" "NAME;SCHEMA;DIR" "" ${ARGN})
  get_filename_component(schema "${ARG_SCHEMA}" ABSOLUTE)
  get_filename_component(dir "${ARG_DIR}" ABSOLUTE)
  add_test(NAME ${ARG_NAME}
           COMMAND "$<TARGET_FILE:rpckit::rpckit>" check "${schema}" --out "${dir}")
endfunction()
