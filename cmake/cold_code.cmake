# Cold code: what no fuzz target drives and no test runs on large input (processes, roles,
# supervision, the protocol host libraries, the bindings no fuzz target reads, the examples, the
# tool) compiles with these extra flags after the build's own. The ASan presets pass -O0: clang's
# -O1 with ASan doubles such a file's compile time and buys nothing a test would notice. So does the
# TSan preset (its -O1 for this code was a third of that stage's build; TSan instruments every
# access at -O0 too). The fuzz preset adds -fno-sanitize=fuzzer-no-link: no fuzz target runs this
# code, and libFuzzer's coverage instrumentation (a counter per edge, a callback per comparison, a
# table of every edge's address) only slowed its build and every process a test starts. (For those
# processes that preset also links position-dependent executables, -no-pie: an ASan test executable
# carried 500,000 relocations, applied at each of the thousands of starts a run makes.) The parsers
# a peer's bytes reach (values, codec, framing, endpoint, validate and the model it reads schemas
# through, the manifest, the generated modules a fuzz target reads) keep the preset's -O1 and the
# instrumentation, for the fuzz targets' throughput and the megabyte payloads of the hostile tests.
set(RPCKIT_COLD_CXX_FLAGS "" CACHE STRING
  "Extra compiler flags for code no fuzz target drives (the ASan presets: -O0)")
separate_arguments(rpckit_cold_flags UNIX_COMMAND "${RPCKIT_COLD_CXX_FLAGS}")

# rpckit_cold_code(<target>...): the targets' own sources take RPCKIT_COLD_CXX_FLAGS.
function(rpckit_cold_code)
  foreach(target ${ARGN})
    target_compile_options(${target} PRIVATE ${rpckit_cold_flags})
  endforeach()
endfunction()
