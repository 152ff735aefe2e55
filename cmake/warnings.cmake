# One warning policy for every target, generated code included (DESIGN.md conventions).
function(rpckit_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wconversion -Wshadow
    $<$<BOOL:${RPCKIT_WERROR}>:-Werror>)
endfunction()
