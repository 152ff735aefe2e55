// Compiles tests/CMakeLists.txt's precompiled header (rpckit_test_pch) for the test executables.
