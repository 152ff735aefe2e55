// Dispatch benchmarks: what an incoming message costs between "JSON parsed" and "typed
// handler called".
//   find/<method>          HostToPlugin::find, the generated name -> index lookup
//   decode_params/<msg>    decode_params<M> alone (DOM -> struct), the baseline of route
//   route/<msg>            Router::route: find + visit + std::function + decode + handler +
//                          result encoding, params already parsed
#include <benchmark/benchmark.h>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "bench.hpp"
#include "payloads.hpp"
#include "rpckit/dispatch/router.hpp"
#include "streamnook_v1/dispatch.hpp"

namespace rpckit::bench {
namespace {

namespace v1 = streamnook::v1;

void find_method(benchmark::State& state, const std::string& method) {
  for (auto _ : state) {
    std::string_view name = method;
    benchmark::DoNotOptimize(name);  // find() is constexpr: keep the name opaque
    auto index = v1::HostToPlugin::find(name);
    benchmark::DoNotOptimize(index);
  }
  state.SetItemsProcessed(state.iterations());
}

void decode_chat_params(benchmark::State& state, const nlohmann::json& params) {
  for (auto _ : state) {
    auto decoded = decode_params<v1::messages::OnChatMessage>(&params);
    benchmark::DoNotOptimize(&decoded);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}

void route_chat(benchmark::State& state, const nlohmann::json& params) {
  Router<v1::HostToPlugin> router;
  std::size_t chars = 0;
  router.on<v1::messages::OnChatMessage>(
      [&chars](const v1::OnChatMessageParams& p) { chars += p.message.text.size(); });
  for (auto _ : state) {
    RouteResult result = router.route("on_chat_message", &params);
    benchmark::DoNotOptimize(&result);
  }
  benchmark::DoNotOptimize(chars);
  state.SetItemsProcessed(state.iterations());
}

void route_ping(benchmark::State& state) {
  Router<v1::HostToPlugin> router;
  router.on<v1::messages::Ping>([](const v1::PingParams&) { return v1::PingResult{}; });
  const nlohmann::json params = nlohmann::json::object();
  for (auto _ : state) {
    RouteResult result = router.route("ping", &params);
    benchmark::DoNotOptimize(&result);
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

void register_dispatch_benchmarks() {
  // HostToPlugin has 14 methods: the first, the 12th, and a miss (compared with all 14).
  benchmark::RegisterBenchmark("dispatch/find/initialize", find_method, "initialize");
  benchmark::RegisterBenchmark("dispatch/find/on_chat_message", find_method, "on_chat_message");
  benchmark::RegisterBenchmark("dispatch/find/unknown", find_method, "on_something_new");
  const nlohmann::json chat = chat_message_params();
  benchmark::RegisterBenchmark("dispatch/decode_params/on_chat_message", decode_chat_params, chat);
  benchmark::RegisterBenchmark("dispatch/route/on_chat_message", route_chat, chat);
  benchmark::RegisterBenchmark("dispatch/route/ping", route_ping);
}

}  // namespace rpckit::bench
