// Codec benchmarks, per message: the generated codecs (typed) against nlohmann alone (plain)
// on the same bytes, so typed/plain is the price of the struct layer.
//   encode_typed   struct -> nlohmann::json (generated to_json) -> dump()
//   encode_plain   dump() of the DOM encode_typed builds (identical bytes)
//   decode_typed   parse -> generated decode into the struct, with a DecodePath
//   decode_plain   parse of the same bytes, nothing else
// plus, for on_chat_message only, the hand-written references of reference_codec.hpp:
//   encode_direct  struct -> JSON text without a DOM
//   decode_sax     text -> struct through nlohmann's SAX parser, without a DOM
// and, for the three sized_events() of benchmarks/compare, rpckit against nlohmann alone:
//   encode_vs_nlohmann  rpckit's encode (the generated direct writer, write_json, when the
//                       bindings have one; else to_json + dump) vs to_json + dump
//   decode_vs_nlohmann  rpckit's decode (parse + generated decode) vs nlohmann's DOM parse
//
// The ratios come from separate "A_vs_B" benchmarks that run A and B in alternating batches
// of about 0.2 ms each and time them with the thread's CPU clock: on a shared machine the load
// changes from one second to the next, so two benchmarks run seconds apart disagree by tens of
// percent, while interleaved batches see the same conditions. Counters: a_ns, b_ns, ratio.
#include <benchmark/benchmark.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench.hpp"
#include "payloads.hpp"
#include "reference_codec.hpp"
#include "rpckit/codec/decode_error.hpp"
#include "rpckit/codec/json_writer.hpp"
#include "rpckit/codec/text_decoder.hpp"
#include "streamnook_v1/types.hpp"

namespace rpckit::bench {
namespace {

namespace v1 = streamnook::v1;

// What every benchmark of one message shares, built once at registration.
template <class T>
struct Subject {
  T value;              // the typed message
  nlohmann::json dom;   // what the generated to_json makes of it
  std::string encoded;  // dom.dump(): what both encoders produce
  std::string wire;     // the peer's bytes (unknown fields included): what both decoders read
  const char* root;     // "params" or "result"
};

template <class T>
using SubjectPtr = std::shared_ptr<const Subject<T>>;

template <class T>
SubjectPtr<T> make_subject(const nlohmann::json& source, const char* root) {
  auto s = std::make_shared<Subject<T>>();
  s->root = root;
  s->wire = source.dump();
  codec::DecodePath path(root);
  decode(source, s->value, path);  // throws on a payload the schema rejects: a bug here
  s->dom = nlohmann::json(s->value);
  s->encoded = s->dom.dump();
  return s;
}

// ---- the operations measured --------------------------------------------------------------

template <class T>
void encode_typed_op(const Subject<T>& s) {
  nlohmann::json j = s.value;
  std::string text = j.dump();
  benchmark::DoNotOptimize(text.data());
}

template <class T>
void encode_plain_op(const Subject<T>& s) {
  std::string text = s.dom.dump();
  benchmark::DoNotOptimize(text.data());
}

template <class T>
void decode_typed_op(const Subject<T>& s) {
  nlohmann::json j = nlohmann::json::parse(s.wire);
  T out{};
  codec::DecodePath path(s.root);
  decode(j, out, path);
  benchmark::DoNotOptimize(&out);
  benchmark::ClobberMemory();
}

template <class T>
void decode_plain_op(const Subject<T>& s) {
  nlohmann::json j = nlohmann::json::parse(s.wire);
  benchmark::DoNotOptimize(&j);
  benchmark::ClobberMemory();
}

// The bindings' direct writer: JSON text with no DOM, when the generator emits one.
template <class T>
constexpr bool kHasDirectWriter = requires(std::string& out, const T& v) { write_json(out, v); };

// What rpckit does to encode a message: the direct writer if there is one, else the DOM.
template <class T>
void rpckit_encode_op(const Subject<T>& s) {
  if constexpr (kHasDirectWriter<T>) {
    // As the typed calls and the host's fan-out encode params (encode_params_text).
    std::string text = codec::to_json_text(s.value);
    benchmark::DoNotOptimize(text.data());
  } else {
    encode_typed_op(s);
  }
}

// What rpckit does to decode a message: the streaming decoder (text straight into the
// struct, validating as it goes; codec::decode_text, as the endpoint's typed routing does).
template <class T>
void rpckit_decode_op(const Subject<T>& s) {
  T out{};
  codec::decode_text(s.wire, out, s.root);
  benchmark::DoNotOptimize(&out);
  benchmark::ClobberMemory();
}

void encode_direct_op(const Subject<v1::OnChatMessageParams>& s) {
  std::string text;  // a fresh string per message, as dump() returns
  encode_direct(s.value, text);
  benchmark::DoNotOptimize(text.data());
}

void decode_sax_op(const Subject<v1::OnChatMessageParams>& s) {
  v1::OnChatMessageParams out{};
  decode_sax(s.wire, out);
  benchmark::DoNotOptimize(&out);
  benchmark::ClobberMemory();
}

// ---- benchmark bodies ---------------------------------------------------------------------

double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// A and B in alternating batches (A first on even iterations, B first on odd ones).
template <class T>
void paired(benchmark::State& state, void (*a)(const Subject<T>&), void (*b)(const Subject<T>&),
            const SubjectPtr<T>& s) {
  // Batch size: about 0.2 ms of A.
  const double start = thread_cpu_ns();
  int calibration = 0;
  while (thread_cpu_ns() - start < 2e5 && calibration < 100000) {
    a(*s);
    ++calibration;
  }
  const int batch = calibration > 0 ? calibration : 1;
  double a_ns = 0;
  double b_ns = 0;
  std::int64_t ops = 0;
  bool a_first = true;
  auto run = [&](void (*op)(const Subject<T>&), double& total) {
    const double t0 = thread_cpu_ns();
    for (int i = 0; i < batch; ++i) op(*s);
    total += thread_cpu_ns() - t0;
  };
  for (auto _ : state) {
    if (a_first) {
      run(a, a_ns);
      run(b, b_ns);
    } else {
      run(b, b_ns);
      run(a, a_ns);
    }
    a_first = !a_first;
    ops += batch;
  }
  state.counters["a_ns"] = a_ns / static_cast<double>(ops);
  state.counters["b_ns"] = b_ns / static_cast<double>(ops);
  state.counters["ratio"] = a_ns / b_ns;
}

// ---- registration -------------------------------------------------------------------------

template <class T>
void register_single(const std::string& name, void (*op)(const Subject<T>&), const SubjectPtr<T>& s,
                     std::size_t bytes) {
  benchmark::RegisterBenchmark(name.c_str(), [op, s, bytes](benchmark::State& state) {
    for (auto _ : state) op(*s);
    state.SetItemsProcessed(state.iterations());
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
    state.counters["bytes"] = static_cast<double>(bytes);
  });
}

template <class T>
void register_paired(const std::string& name, void (*a)(const Subject<T>&),
                     void (*b)(const Subject<T>&), const SubjectPtr<T>& s) {
  benchmark::RegisterBenchmark(name.c_str(), paired<T>, a, b, s);
}

template <class T>
void register_message(const std::string& name, const nlohmann::json& source, const char* root) {
  const SubjectPtr<T> s = make_subject<T>(source, root);
  const std::string p = "codec/" + name + "/";
  register_single<T>(p + "encode_typed", encode_typed_op<T>, s, s->encoded.size());
  register_single<T>(p + "encode_plain", encode_plain_op<T>, s, s->encoded.size());
  register_single<T>(p + "decode_typed", decode_typed_op<T>, s, s->wire.size());
  register_single<T>(p + "decode_plain", decode_plain_op<T>, s, s->wire.size());
  register_paired<T>(p + "encode_typed_vs_plain", encode_typed_op<T>, encode_plain_op<T>, s);
  register_paired<T>(p + "decode_typed_vs_plain", decode_typed_op<T>, decode_plain_op<T>, s);
}

// rpckit against nlohmann alone, interleaved: encode (a: rpckit, b: to_json + dump) and
// decode (a: rpckit, b: DOM parse). Counter direct_writer: 1 when rpckit's encode is the
// generated direct writer.
template <class T>
void register_vs_nlohmann(const std::string& name, const nlohmann::json& source) {
  const SubjectPtr<T> s = make_subject<T>(source, "params");
  if constexpr (kHasDirectWriter<T>) {
    std::string text;
    write_json(text, s->value);
    if (text != s->encoded) {  // its numbers would mean nothing
      std::fprintf(stderr, "%s: write_json disagrees with to_json + dump\n", name.c_str());
      std::abort();
    }
  }
  const std::string p = "codec/" + name + "/";
  const double bytes = static_cast<double>(s->wire.size());
  benchmark::RegisterBenchmark((p + "encode_vs_nlohmann").c_str(), [s, bytes](benchmark::State& st) {
    paired<T>(st, rpckit_encode_op<T>, encode_typed_op<T>, s);
    st.counters["bytes"] = bytes;
    st.counters["direct_writer"] = kHasDirectWriter<T> ? 1 : 0;
  });
  benchmark::RegisterBenchmark((p + "decode_vs_nlohmann").c_str(), [s, bytes](benchmark::State& st) {
    paired<T>(st, rpckit_decode_op<T>, decode_plain_op<T>, s);
    st.counters["bytes"] = bytes;
  });
  // rpckit's encode and decode alone: bytes/s, and a profile with nothing else in it.
  register_single<T>(p + "encode_rpckit", rpckit_encode_op<T>, s, s->encoded.size());
  register_single<T>(p + "decode_rpckit", rpckit_decode_op<T>, s, s->wire.size());
}

// The references must agree with the generated codecs, or their numbers mean nothing.
void check_references(const Subject<v1::OnChatMessageParams>& s) {
  std::string text;
  encode_direct(s.value, text);
  v1::OnChatMessageParams decoded{};
  decode_sax(s.wire, decoded);
  if (nlohmann::json::parse(text) != s.dom || text.size() != s.encoded.size() ||
      !(decoded == s.value)) {
    std::fprintf(stderr, "reference codecs disagree with the generated ones\n");
    std::abort();
  }
}

void register_references(const nlohmann::json& source) {
  using T = v1::OnChatMessageParams;
  const SubjectPtr<T> s = make_subject<T>(source, "params");
  check_references(*s);
  const std::string p = "codec/on_chat_message/";
  register_single<T>(p + "encode_direct", encode_direct_op, s, s->encoded.size());
  register_single<T>(p + "decode_sax", decode_sax_op, s, s->wire.size());
  register_paired<T>(p + "encode_typed_vs_direct", encode_typed_op<T>, encode_direct_op, s);
  register_paired<T>(p + "decode_typed_vs_sax", decode_typed_op<T>, decode_sax_op, s);
}

}  // namespace

void register_codec_benchmarks() {
  const nlohmann::json chat = chat_message_params();
  register_message<v1::OnChatMessageParams>("on_chat_message", chat, "params");
  register_references(chat);
  register_message<v1::OnFollowedLiveParams>("on_followed_live_1", followed_live_params(1),
                                             "params");
  register_message<v1::OnFollowedLiveParams>("on_followed_live_50", followed_live_params(50),
                                             "params");
  register_message<v1::InitializeParams>("initialize", initialize_params(), "params");
  register_message<v1::RegisterPanelParams>("register_panel", register_panel_params(), "params");
  register_message<v1::GetFollowedLiveResult>("get_followed_live_result",
                                              get_followed_live_result(), "result");
  for (const SizedEvent& event : sized_events()) {
    if (event.size == "small") {
      register_vs_nlohmann<v1::OnWatchTickParams>(event.name, event.params);
    } else if (event.size == "medium") {
      register_vs_nlohmann<v1::OnChatMessageParams>(event.name, event.params);
    } else {
      register_vs_nlohmann<v1::OnFollowedLiveParams>(event.name, event.params);
    }
  }
}

}  // namespace rpckit::bench
