// rpckit_compare: the C++ comparison pairs of benchmarks/compare (docs/PERFORMANCE.md).
//   rpckit_compare raw|naive [--pings N] [--warmup-pings N] [--events SIZE:BATCHESxBATCH]...
//       the parent: runs the ping workload (N timed round trips after the warm-up ones), then
//       each --events workload, each with a child of its own, and prints one JSON object
//   rpckit_compare raw-child|naive-child    the child, on stdin/stdout
//   rpckit_compare events                    the sized events as JSON (for the Node pair)
// benchmarks/compare/rounds.py runs it; vscode_parent.mjs takes the same options and prints
// the same JSON.
#include <csignal>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "workload.hpp"

namespace {

using namespace rpckit::compare;

struct Options {
  int pings = 0;
  int warmup_pings = 200;
  std::vector<EventsRun> events;
};

int to_int(std::string_view text) {
  std::size_t used = 0;
  const int value = std::stoi(std::string(text), &used);
  if (used != text.size() || value < 0) throw std::invalid_argument(std::string(text));
  return value;
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("missing value after " + std::string(arg));
    const std::string_view value = argv[++i];
    if (arg == "--pings") {
      options.pings = to_int(value);
    } else if (arg == "--warmup-pings") {
      options.warmup_pings = to_int(value);
    } else if (arg == "--events") {  // SIZE:BATCHESxBATCH
      const std::size_t colon = value.find(':');
      const std::size_t x = value.find('x', colon);
      if (colon == std::string_view::npos || x == std::string_view::npos) {
        throw std::invalid_argument("--events SIZE:BATCHESxBATCH, not " + std::string(value));
      }
      options.events.push_back({std::string(value.substr(0, colon)),
                                to_int(value.substr(colon + 1, x - colon - 1)),
                                to_int(value.substr(x + 1))});
    } else {
      throw std::invalid_argument("unknown option " + std::string(arg));
    }
  }
  return options;
}

void print_samples(const std::vector<double>& samples) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::printf("%s%.3f", i ? "," : "", samples[i]);
  }
}

int run_parent(const Pair& pair, const Options& options) {
  std::signal(SIGPIPE, SIG_IGN);  // a child gone: EPIPE and an error, not a silent death
  std::printf("{\"impl\":\"%s\"", pair.name);
  if (options.pings > 0) {
    const PingResult ping = pair.ping(options.pings, options.warmup_pings);
    std::printf(",\"ping\":{\"count\":%zu,\"warmup\":%d,\"request_bytes\":%zu,"
                "\"response_bytes\":%zu,\"samples_us\":[",
                ping.samples_us.size(), options.warmup_pings, ping.request_bytes,
                ping.response_bytes);
    print_samples(ping.samples_us);
    std::printf("]}");
  }
  std::printf(",\"events\":[");
  const std::vector<Event> all = events();
  bool first = true;
  for (const EventsRun& run : options.events) {
    const Event* event = nullptr;
    for (const Event& e : all) {
      if (e.size == run.size) event = &e;
    }
    if (!event) throw std::invalid_argument("no event of size " + run.size);
    const EventsResult result = pair.events(*event, run);
    const double count = static_cast<double>(run.batches) * run.batch;
    std::printf("%s{\"size\":\"%s\",\"method\":\"%s\",\"batches\":%d,\"batch\":%d,"
                "\"seconds\":%.6f,\"events_per_s\":%.1f,\"frame_bytes\":%zu}",
                first ? "" : ",", run.size.c_str(), event->method.c_str(), run.batches,
                run.batch, result.seconds, count / result.seconds, result.frame_bytes);
    first = false;
  }
  std::printf("]}\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "events") {
      std::printf("%s\n", events_json().c_str());
      return 0;
    }
    for (const Pair& pair : {raw_pair(), naive_pair()}) {
      if (mode == pair.child_mode) return pair.child();
      if (mode == pair.name) return run_parent(pair, parse(argc, argv));
    }
    std::fprintf(stderr,
                 "usage: rpckit_compare raw|naive [--pings N] [--warmup-pings N] "
                 "[--events SIZE:BATCHESxBATCH]...\n"
                 "       rpckit_compare events\n");
    return 2;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "rpckit_compare %s: %s\n", argv[1], e.what());
    return 1;
  }
}
