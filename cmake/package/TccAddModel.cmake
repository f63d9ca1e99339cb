# tcc_add_model(<name> MODEL <model.onnx> [TARGET <target>] [OPTIONS <option>...])
#
# Compiles <model.onnx> with tcc::tcc at build time into <name>.so (in the current binary
# folder), with <name>.h beside it (tcc --emit-header). It rebuilds when the model, an external
# data file it reads (tcc's depfile), the options or tcc itself change. Gives <name>, an
# interface library: linking it adds the header's folder to the include path, links
# tcc::runtime, and defines <NAME>_LIBRARY, the path of the compiled library, for
# tcc_model_load. TARGET is tcc's --target (default: host); OPTIONS are passed to tcc as they
# are (--dim batch=1:64, --cpu=native, ...).
function(tcc_add_model name)
  cmake_parse_arguments(ARG "" "MODEL;TARGET" "OPTIONS" ${ARGN})
  if(NOT ARG_MODEL)
    message(FATAL_ERROR "tcc_add_model(${name}): MODEL <model.onnx> is required")
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "tcc_add_model(${name}): the name must be a C identifier (it names the "
                        "header's macros and ${name}_run)")
  endif()
  get_filename_component(model "${ARG_MODEL}" ABSOLUTE)
  set(library "${CMAKE_CURRENT_BINARY_DIR}/${name}.so")
  set(header "${CMAKE_CURRENT_BINARY_DIR}/${name}.h")
  set(depfile "${CMAKE_CURRENT_BINARY_DIR}/${name}.d")
  set(target_option)
  if(ARG_TARGET)
    set(target_option --target ${ARG_TARGET})
  endif()
  add_custom_command(
    OUTPUT "${library}" "${header}"
    COMMAND tcc::tcc "${model}" -o "${library}" --emit-header "${header}"
            -MF "${depfile}" -MT "${library}" ${target_option} ${ARG_OPTIONS}
    DEPENDS "${model}" "$<TARGET_FILE:tcc::tcc>"
    DEPFILE "${depfile}"
    COMMENT "tcc: compiling ${ARG_MODEL} into ${name}.so"
    VERBATIM)
  add_custom_target(${name}_model DEPENDS "${library}" "${header}")
  add_library(${name} INTERFACE)
  add_dependencies(${name} ${name}_model)
  string(TOUPPER "${name}" upper)
  target_include_directories(${name} INTERFACE "${CMAKE_CURRENT_BINARY_DIR}")
  target_compile_definitions(${name} INTERFACE "${upper}_LIBRARY=\"${library}\"")
  target_link_libraries(${name} INTERFACE tcc::runtime)
  set_target_properties(${name} PROPERTIES TCC_MODEL_LIBRARY "${library}")
endfunction()
