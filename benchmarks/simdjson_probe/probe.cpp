// rpckit_simdjson_probe: would simdjson be a worthwhile fast path under codec::decode_text?
// For the three sized_events() (their wire text, params.dump()), CPU ns per message of
//   rpckit        codec::decode_text into the generated struct (what the runtime does)
//   nlohmann      nlohmann::json::parse alone (a DOM, no struct)
//   od_typed      simdjson on-demand into the same struct (simdjson_decode.cpp), the text
//                 already in a padded_string prepared outside the timed loop
//   od_typed_copy the same plus copying the text into a fresh padded_string per message
//   simdjson_dom  simdjson's DOM parser alone (full validation, no struct), padded text
//   dom_typed     simdjson_dom, then its tape walked into the struct (the same walk)
//   struct_copy   a copy of the decoded struct: the allocations any typed decoder makes, no
//                 parsing (a floor for the typed decoders)
// interleaved in one run: rounds of one batch (~0.2 ms of rpckit) of each, the order rotated
// from round to round, timed with the thread's CPU clock; each repetition gives ns/message
// (its total time / messages) and the ratio to rpckit in the same rounds; the table shows the
// median over repetitions and the ratio's range. Method and figures: README.md.
//
// Usage: rpckit_simdjson_probe [--reps=N] [--rounds=N]   (pin it: taskset -c 0)
#include <benchmark/benchmark.h>  // DoNotOptimize, ClobberMemory
#include <simdjson.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "payloads.hpp"
#include "rpckit/codec/decode_error.hpp"
#include "rpckit/codec/text_decoder.hpp"
#include "simdjson_decode.hpp"
#include "streamnook_v1/types.hpp"

namespace rpckit::simdjson_probe {
namespace {

namespace v1 = streamnook::v1;

// One payload and the decoders' state, all prepared outside the timed loops.
template <class T>
struct Subject {
  std::string wire;                     // params.dump(): what every decoder reads
  simdjson::padded_string padded;       // the same bytes + SIMDJSON_PADDING
  simdjson::ondemand::parser ondemand;  // buffers kept from one message to the next
  simdjson::dom::parser dom;            // likewise
  T decoded{};                          // what rpckit decodes
};

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "rpckit_simdjson_probe: %s\n", what);
  std::abort();
}

// ---- the operations measured --------------------------------------------------------------

template <class T>
void rpckit_op(Subject<T>& s) {
  T out{};
  codec::decode_text(s.wire, out, "params");
  benchmark::DoNotOptimize(&out);
  benchmark::ClobberMemory();
}

template <class T>
void nlohmann_op(Subject<T>& s) {
  nlohmann::json j = nlohmann::json::parse(s.wire);
  benchmark::DoNotOptimize(&j);
  benchmark::ClobberMemory();
}

template <class T>
void od_typed_op(Subject<T>& s) {
  T out{};
  if (!decode_ondemand(s.ondemand, s.padded, out)) fail("on-demand decode failed");
  benchmark::DoNotOptimize(&out);
  benchmark::ClobberMemory();
}

template <class T>
void od_typed_copy_op(Subject<T>& s) {
  const simdjson::padded_string padded(s.wire);
  T out{};
  if (!decode_ondemand(s.ondemand, padded, out)) fail("on-demand decode failed");
  benchmark::DoNotOptimize(&out);
  benchmark::ClobberMemory();
}

template <class T>
void simdjson_dom_op(Subject<T>& s) {
  simdjson::dom::element root;
  if (s.dom.parse(s.padded).get(root) != simdjson::SUCCESS) fail("DOM parse failed");
  benchmark::DoNotOptimize(&root);
  benchmark::ClobberMemory();
}

template <class T>
void dom_typed_op(Subject<T>& s) {
  T out{};
  if (!decode_dom(s.dom, s.padded, out)) fail("DOM decode failed");
  benchmark::DoNotOptimize(&out);
  benchmark::ClobberMemory();
}

template <class T>
void struct_copy_op(Subject<T>& s) {
  T out = s.decoded;
  benchmark::DoNotOptimize(&out);
  benchmark::ClobberMemory();
}

constexpr std::size_t kOps = 7;
constexpr std::array<const char*, kOps> kOpNames = {
    "rpckit",       "nlohmann",  "od_typed",   "od_typed_copy",
    "simdjson_dom", "dom_typed", "struct_copy"};
template <class T>
constexpr std::array<void (*)(Subject<T>&), kOps> kOpsOf = {
    rpckit_op<T>,       nlohmann_op<T>,   od_typed_op<T>,    od_typed_copy_op<T>,
    simdjson_dom_op<T>, dom_typed_op<T>, struct_copy_op<T>};

// ---- timing -------------------------------------------------------------------------------

double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Options {
  int reps = 9;
  int rounds = 200;
  bool json = false;  // one JSON object on stdout, no tables (compare/rounds.py reads it)
};

// One decoder's figures on one event: medians over repetitions, and the ratio's range.
struct Figures {
  double ns;
  double ratio;
  double ratio_min;
  double ratio_max;
};

template <class T>
std::array<Figures, kOps> measure(Subject<T>& s, const Options& options) {
  const auto& ops = kOpsOf<T>;
  // Batch: about 0.2 ms of rpckit (the slowest op runs a few times as long).
  int batch = 0;
  for (const double start = thread_cpu_ns(); thread_cpu_ns() - start < 2e5 && batch < 100000;) {
    ops[0](s);
    ++batch;
  }
  batch = std::max(batch, 1);
  std::array<std::vector<double>, kOps> ns;     // per repetition
  std::array<std::vector<double>, kOps> ratio;  // per repetition, to rpckit
  for (int rep = -1; rep < options.reps; ++rep) {  // rep -1: warm-up, not recorded
    std::array<double, kOps> total{};
    for (int round = 0; round < options.rounds; ++round) {
      for (std::size_t j = 0; j < kOps; ++j) {
        const std::size_t k = (static_cast<std::size_t>(round) + j) % kOps;
        const double t0 = thread_cpu_ns();
        for (int i = 0; i < batch; ++i) ops[k](s);
        total[k] += thread_cpu_ns() - t0;
      }
    }
    if (rep < 0) continue;
    const double messages = static_cast<double>(batch) * options.rounds;
    for (std::size_t k = 0; k < kOps; ++k) {
      ns[k].push_back(total[k] / messages);
      ratio[k].push_back(total[k] / total[0]);
    }
  }
  std::array<Figures, kOps> figures{};
  for (std::size_t k = 0; k < kOps; ++k) {
    const auto [lo, hi] = std::minmax_element(ratio[k].begin(), ratio[k].end());
    figures[k] = {median(ns[k]), median(ratio[k]), *lo, *hi};
  }
  return figures;
}

void print_table(const std::string& name, std::size_t bytes, const std::array<Figures, kOps>& f) {
  for (std::size_t k = 0; k < kOps; ++k) {
    std::printf("| %s | %zu | %s | %.0f | %.2f | %.2f-%.2f |\n", name.c_str(), bytes, kOpNames[k],
                f[k].ns, f[k].ratio, f[k].ratio_min, f[k].ratio_max);
  }
  std::fflush(stdout);
}

// ---- checks -------------------------------------------------------------------------------

// The on-demand decoder must produce what rpckit produces, or its numbers mean nothing.
template <class T>
std::unique_ptr<Subject<T>> make_subject(const nlohmann::json& params) {
  auto s = std::make_unique<Subject<T>>();
  s->wire = params.dump();
  s->padded = simdjson::padded_string(s->wire);
  codec::decode_text(s->wire, s->decoded, "params");
  T actual{};
  if (!decode_ondemand(s->ondemand, s->padded, actual)) fail("on-demand rejects a payload");
  if (!(actual == s->decoded)) fail("on-demand decodes a payload differently from rpckit");
  T from_dom{};
  if (!decode_dom(s->dom, s->padded, from_dom)) fail("DOM decode rejects a payload");
  if (!(from_dom == s->decoded)) fail("DOM decode decodes a payload differently from rpckit");
  simdjson::dom::element root;
  if (s->dom.parse(s->padded).get(root) != simdjson::SUCCESS) fail("DOM rejects a payload");
  return s;
}

// What each decoder accepts, on variations of the small event: where on-demand's "validates
// what it touches" differs from JsonReader's (and simdjson DOM's) full validation.
void print_validation() {
  struct Case {
    const char* what;
    std::string text;
  };
  const std::string ts = R"("ts":"2024-05-18T14:03:11Z")";
  const std::string id = R"("active_channel_id":"71092938")";
  const std::vector<Case> cases = {
      {"valid", "{" + id + "," + ts + "}"},
      {"truncated", "{" + id + "," + ts},
      {"trailing value", "{" + id + "," + ts + "} {}"},
      {"required member missing", "{" + id + "}"},
      {"ts of the wrong type", "{" + id + R"(,"ts":5})"},
      {"ts not a date-time", "{" + id + R"(,"ts":"yesterday"})"},
      {"bad escape in a walked string", "{" + id + R"(,"ts":"2024\q"})"},
      {"invalid UTF-8 in an unknown member", "{" + id + "," + ts + ",\"x\":\"\xff\"}"},
      {"bad escape in an unknown member", "{" + id + "," + ts + R"(,"x":"\q"})"},
      {"bad literal in an unknown member", "{" + id + "," + ts + R"(,"x":nul})"},
      {"bad number in an unknown member", "{" + id + "," + ts + R"(,"x":01})"},
      {"missing item in an unknown array", "{" + id + "," + ts + R"(,"x":[1,,2]})"},
      {"unclosed array in an unknown member", "{" + id + "," + ts + R"(,"x":[1,2})"},
  };
  std::printf("| input (on_watch_tick) | rpckit | od_typed | simdjson_dom | dom_typed |\n"
              "|---|---|---|---|---|\n");
  simdjson::ondemand::parser ondemand;
  simdjson::dom::parser dom;
  for (const Case& c : cases) {
    bool rpckit_ok = true;
    try {
      v1::OnWatchTickParams out{};
      codec::decode_text(c.text, out, "params");
    } catch (const codec::DecodeError&) {
      rpckit_ok = false;
    }
    const simdjson::padded_string padded(c.text);
    v1::OnWatchTickParams out{};
    const bool od_ok = decode_ondemand(ondemand, padded, out);
    simdjson::dom::element root;
    const bool dom_ok = dom.parse(padded).get(root) == simdjson::SUCCESS;
    const bool dom_typed_ok = decode_dom(dom, padded, out);
    auto word = [](bool ok) { return ok ? "accepts" : "rejects"; };
    std::printf("| %s | %s | %s | %s | %s |\n", c.what, word(rpckit_ok), word(od_ok), word(dom_ok),
                word(dom_typed_ok));
  }
  std::printf("\n");
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--reps=")) {
      options.reps = std::max(1, std::atoi(argv[i] + 7));
    } else if (arg.starts_with("--rounds=")) {
      options.rounds = std::max(1, std::atoi(argv[i] + 9));
    } else if (arg == "--json") {
      options.json = true;
    } else {
      std::fprintf(stderr, "usage: rpckit_simdjson_probe [--reps=N] [--rounds=N] [--json]\n");
      std::exit(2);
    }
  }
  return options;
}

}  // namespace
}  // namespace rpckit::simdjson_probe

int main(int argc, char** argv) {
  using namespace rpckit::simdjson_probe;
  const Options options = parse_options(argc, argv);
  const std::string implementation = simdjson::get_active_implementation()->name();
  if (!options.json) {
    std::printf(
        "simdjson %d.%d.%d: stage 1 (runtime dispatch) %s; on-demand stage 2 (compile "
        "time) %s\n\n",
        simdjson::SIMDJSON_VERSION_MAJOR, simdjson::SIMDJSON_VERSION_MINOR,
        simdjson::SIMDJSON_VERSION_REVISION, implementation.c_str(),
        simdjson::builtin_implementation()->name().c_str());
    print_validation();
    std::printf(
        "%d repetitions x %d rounds; CPU ns per message, median over repetitions; ratio "
        "to rpckit in the same rounds: median, min-max\n\n",
        options.reps, options.rounds);
    std::printf(
        "| event | bytes | decoder | ns | ratio | ratio range |\n|---|---|---|---|---|---|\n");
  }
  nlohmann::json report = {{"simdjson", std::to_string(simdjson::SIMDJSON_VERSION_MAJOR) + "." +
                                            std::to_string(simdjson::SIMDJSON_VERSION_MINOR) + "." +
                                            std::to_string(simdjson::SIMDJSON_VERSION_REVISION)},
                           {"implementation", implementation},
                           {"events", nlohmann::json::object()}};
  for (const rpckit::bench::SizedEvent& event : rpckit::bench::sized_events()) {
    std::array<Figures, kOps> figures{};
    std::size_t bytes = 0;
    auto run = [&]<class T>(std::type_identity<T>) {
      auto s = make_subject<T>(event.params);
      figures = measure(*s, options);
      bytes = s->wire.size();
    };
    if (event.size == "small") {
      run(std::type_identity<v1::OnWatchTickParams>{});
    } else if (event.size == "medium") {
      run(std::type_identity<v1::OnChatMessageParams>{});
    } else {
      run(std::type_identity<v1::OnFollowedLiveParams>{});
    }
    if (!options.json) {
      print_table(event.name, bytes, figures);
      continue;
    }
    nlohmann::json& entry = report["events"][event.size];
    entry["name"] = event.name;
    entry["bytes"] = bytes;
    for (std::size_t k = 0; k < kOps; ++k) {
      entry["decoders"][kOpNames[k]] = {{"ns", figures[k].ns},
                                        {"ratio_to_rpckit", figures[k].ratio}};
    }
  }
  if (options.json) std::printf("%s\n", report.dump().c_str());
  return 0;
}
