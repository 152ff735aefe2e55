# One warning policy for every target, generated code included (DESIGN.md conventions).
# g++'s -Wsubobject-linkage is off in unity builds: a batch #includes each .cpp, and g++ then
# takes a class of that file holding a type from its anonymous namespace for a header's.
function(rpckit_warnings target)
  get_target_property(unity ${target} UNITY_BUILD)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wconversion -Wshadow
    $<$<AND:$<CXX_COMPILER_ID:GNU>,$<BOOL:${unity}>>:-Wno-subobject-linkage>
    $<$<BOOL:${RPCKIT_WERROR}>:-Werror>)
endfunction()
