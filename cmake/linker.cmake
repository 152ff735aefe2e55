# rpckit's own build links with lld when the compiler can use it (tools/bootstrap installs it):
# the ~60 test and example executables link several times faster than with GNU ld. A project
# that adds rpckit with add_subdirectory or FetchContent keeps its own linker.
option(RPCKIT_LLD "Link rpckit's own build with lld when the compiler can use it" ON)
if(PROJECT_IS_TOP_LEVEL AND RPCKIT_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" RPCKIT_HAS_LLD)
  if(RPCKIT_HAS_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
