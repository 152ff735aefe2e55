// rpckit_bench: one executable for every benchmark. With kPeerFlag it is instead the child
// process the pipe benchmarks talk to (spawned from /proc/self/exe), so no second binary has
// to be found at run time.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "bench.hpp"
#include "rpckit/framing/fd_io.hpp"

int main(int argc, char** argv) {
  // Both processes own their signal policy, as a host application or a plugin does: a peer
  // gone away is EPIPE, and writes from this thread need no per-write SIGPIPE guard.
  rpckit::framing::ignore_sigpipe();
  if (argc == 2 && std::strcmp(argv[1], rpckit::bench::kPeerFlag) == 0) {
    return rpckit::bench::run_peer();
  }
  // The default min time is ours unless the command line sets one. (Setting it per benchmark
  // with MinTime() would append "/min_time:0.050" to every name.)
  std::string min_time = "--benchmark_min_time=" + std::to_string(rpckit::bench::kMinTime);
  std::vector<char*> args{argv[0]};
  bool has_min_time = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg.starts_with(rpckit::bench::kSamplesFlag)) {
      rpckit::bench::samples_file() = arg.substr(std::string_view(rpckit::bench::kSamplesFlag).size());
      continue;
    }
    has_min_time = has_min_time || arg.starts_with("--benchmark_min_time");
    args.push_back(argv[i]);
  }
  if (!has_min_time) args.insert(args.begin() + 1, min_time.data());
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);

  rpckit::bench::register_codec_benchmarks();
  rpckit::bench::register_dispatch_benchmarks();
  rpckit::bench::register_pipe_benchmarks();
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
