#include "plain_session.hpp"

#include <cstdio>
#include <functional>
#include <optional>
#include <mutex>

#include "demo_app.hpp"
#include "rpckit/codec/value_codec.hpp"
#include "rpckit/roles/session_outcome.hpp"
#include "rpckit/streamnook/conformance.hpp"

namespace demo {
namespace {

namespace sn = ::streamnook::v1;
using rpckit::streamnook::LifecycleEvent;
using rpckit_examples::PlainCall;

// The demo application (it serves every host method with demo data), judging the plugin: each
// violation is recorded and said on stderr as it happens.
class PlainApplication final : public DemoApplication {
 public:
  PlainApplication(Transcript& transcript, rpckit::roles::SessionOutcome& outcome)
      : DemoApplication(transcript), outcome_(outcome) {}

  void on_lifecycle(const LifecycleEvent& event) override {
    DemoApplication::on_lifecycle(event);
    if (auto what = rpckit::streamnook::violation_of(event)) violation(*what);
  }
  void on_diagnostic(std::string_view, const rpckit::Diagnostic& diagnostic) override {
    if (auto what = rpckit::streamnook::violation_of(diagnostic)) violation(*what);
  }

 private:
  void violation(const std::string& what) {
    outcome_.violation(what);
    std::lock_guard lock(print_);
    std::fprintf(stderr, "violation: %s\n", what.c_str());
  }
  rpckit::roles::SessionOutcome& outcome_;
  std::mutex print_;
};

using Send = std::function<nlohmann::json(rpckit::streamnook::Host&, const std::string& id)>;

// A call, its params decoded before the session starts: invoke_action as a request (its answer
// printed), an event as a notification to the plugin ("delivered" when the plugin hooked it,
// "not_hooked" when the host dropped it). nullopt with *error for a usage error.
std::optional<Send> prepare(const PlainCall& call, std::string* error) {
  std::optional<Send> send;
  *error = "not a message the host sends after the handshake";
  const nlohmann::json params = call.params.value_or(nlohmann::json::object());
  sn::HostToPlugin::visit(call.method, [&]<class M>() {
    constexpr bool kEvent = M::kKind == rpckit::MessageKind::kNotification &&
                            !std::is_same_v<M, sn::messages::Initialized> &&
                            !std::is_same_v<M, sn::messages::Exit>;
    if constexpr (std::is_same_v<M, sn::messages::InvokeAction> || kEvent) {
      typename M::Params typed;
      try {
        rpckit::codec::decode_from(params, typed, "params");
      } catch (const std::exception& e) {
        *error = e.what();
        return;
      }
      const std::string method = call.method;
      if constexpr (kEvent) {
        send = [method, typed](rpckit::streamnook::Host& host, const std::string& id) {
          return nlohmann::json{{"call", method},
                                {"event", host.emit_to<M>(id, typed) ? "delivered" : "not_hooked"}};
        };
      } else {
        send = [method, typed](rpckit::streamnook::Host& host, const std::string& id) {
          auto result = host.invoke_action(
              id, typed.action, typed.args.value_or(rpckit::JsonValue(nlohmann::json::object())));
          return result.ok() ? rpckit_examples::plain_line(method, rpckit::CallResult(result.value()))
                             : rpckit_examples::plain_line(method, result.error());
        };
      }
    }
  });
  return send;
}

}  // namespace

int run_plain(const PlainSession& session, rpckit_examples::Transcript& transcript) {
  rpckit::roles::SessionOutcome outcome;
  PlainApplication app(transcript, outcome);
  const std::string id = session.manifest.manifest.id;
  std::vector<Send> sends;
  for (const PlainCall& call : session.calls) {
    std::string error;
    auto send = prepare(call, &error);
    if (!send) {
      std::fprintf(stderr, "--call %s: %s\n", call.method.c_str(), error.c_str());
      return 2;
    }
    sends.push_back(std::move(*send));
  }
  {
    rpckit::streamnook::Host host(app, session.host);
    if (!host.add_plugin(session.manifest, session.offered)) {
      std::fprintf(stderr, "this host cannot run the plugin (see above)\n");
      return 2;
    }
    host.start(id);
    // Running, or a first stop (the violation is recorded; the calls then find it down).
    using Kind = LifecycleEvent::Kind;
    if (!app.wait_for_any(id, {Kind::kRunning, Kind::kStopped, Kind::kDisabled},
                          session.start_timeout)) {
      std::fprintf(stderr, "violation: not running %lld ms after its start (section 2)\n",
                   static_cast<long long>(session.start_timeout.count()));
      outcome.violation("not running after its start");
    } else {
      for (const Send& send : sends) {
        nlohmann::json line = send(host, id);
        std::printf("%s\n",
                    line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        std::fflush(stdout);
      }
    }
    host.stop_all();
  }
  return outcome.conformed() ? 0 : 1;
}

}  // namespace demo
