#pragma once
// Registration entry points of the benchmark topics, and the peer mode of the executable.
#include <string>

namespace rpckit::bench {

// Default --benchmark_min_time (seconds of CPU time per repetition of a codec or dispatch
// benchmark; the pipe ones have fixed iteration counts). With 5 repetitions the whole suite
// takes about a minute on a quiet 2-core machine (run.sh).
inline constexpr double kMinTime = 0.05;

// The argument that turns rpckit_bench into the child of the pipe benchmarks.
inline constexpr const char* kPeerFlag = "--rpckit-bench-peer";

void register_codec_benchmarks();     // codec_bench.cpp
void register_dispatch_benchmarks();  // dispatch_bench.cpp
void register_pipe_benchmarks();      // pipe_bench.cpp

// --rpckit-bench-samples=FILE (taken out of the arguments by main): pipe/ping_rtt appends
// every sample of each run to FILE as a JSON line. Empty: no file.
inline constexpr const char* kSamplesFlag = "--rpckit-bench-samples=";
std::string& samples_file();  // pipe_bench.cpp

// The child side of the pipe benchmarks: a plugin-like Endpoint on stdin/stdout until EOF.
int run_peer();  // peer.cpp

}  // namespace rpckit::bench
