// The child process of the pipe benchmarks: a plugin-like rpckit::Endpoint on stdin/stdout
// with Content-Length framing, handling what the host side sends through a typed Router:
//   on_watch_tick, on_chat_message, on_followed_live
//                    counted (each decoded into its typed params by the router)
//   ping             answered {}
//   done             (request, not in the protocol) answers the number of events counted
//                    since the previous "done", so the parent knows all of them arrived.
// Exits 0 when the parent closes the pipe (EOF), 1 on any other end of the connection.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "bench.hpp"
#include "rpckit/dispatch/router.hpp"
#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "streamnook_v1/dispatch.hpp"

namespace rpckit::bench {

namespace v1 = streamnook::v1;

int run_peer() {
  constexpr auto kMaxFrame = static_cast<std::size_t>(v1::kMaxFrameBytes);
  framing::InterruptibleFdSource source(STDIN_FILENO);
  framing::FdSink sink(STDOUT_FILENO);
  Endpoint::Options options;
  options.interrupt_reader = [&source] { source.interrupt(); };
  Endpoint endpoint(framing::make_reader(framing::Framing::kContentLength, source, kMaxFrame),
                    framing::make_writer(framing::Framing::kContentLength, sink, kMaxFrame),
                    options);

  // Handlers run on the endpoint's dispatcher thread only: no locking needed.
  std::int64_t events = 0;
  Router<v1::HostToPlugin> router;
  router.on<v1::messages::OnWatchTick>([&events](const v1::OnWatchTickParams&) { ++events; });
  router.on<v1::messages::OnChatMessage>([&events](const v1::OnChatMessageParams&) { ++events; });
  router.on<v1::messages::OnFollowedLive>([&events](const v1::OnFollowedLiveParams&) { ++events; });
  router.on<v1::messages::Ping>([](const v1::PingParams&) { return v1::PingResult{}; });

  endpoint.set_handler([&](const Incoming& in) -> nlohmann::json {
    if (in.method == "done") return std::exchange(events, 0);
    RouteResult routed = router.route(in.method, in.params);
    switch (routed.status) {
      case RouteResult::Status::kOk:
        return std::move(routed.result);
      case RouteResult::Status::kInvalidParams:
        throw RpcError(jsonrpc_code::kInvalidParams, routed.error);
      default:
        throw RpcError(jsonrpc_code::kMethodNotFound, routed.error);
    }
  });
  endpoint.on_diagnostic([](const Diagnostic& d) {
    std::fprintf(stderr, "rpckit_bench peer: %s\n", d.detail.c_str());
  });
  endpoint.start();
  const CloseReason reason = endpoint.wait();
  if (reason.kind != CloseReason::Kind::kEof) {
    std::fprintf(stderr, "rpckit_bench peer: connection ended: %s\n", reason.detail.c_str());
    return 1;
  }
  return 0;
}

}  // namespace rpckit::bench
