#include "script.hpp"

#include <chrono>
#include <nlohmann/json.hpp>

#include "desktop_v1/roles.hpp"

namespace desktop_sample {
namespace dv1 = desktop::v1;

namespace {

// Plugin-defined requests have no protocol deadline; this feature of the host picks its own.
constexpr std::chrono::milliseconds kCallLimit{60000};
constexpr const char* kText = "the quick brown fox\njumps over the lazy dog";

class Checks {
 public:
  explicit Checks(rpckit_examples::Transcript& transcript) : transcript_(transcript) {}
  void check(bool ok, const std::string& what) {
    transcript_.host((ok ? "ok    " : "FAILED ") + what);
    if (!ok) failed_.push_back(what);
  }
  std::vector<std::string> failed() { return std::move(failed_); }

 private:
  rpckit_examples::Transcript& transcript_;
  std::vector<std::string> failed_;
};

bool error_code_is(const rpckit::CallResult& r, dv1::ErrorCode code) {
  return !r.ok() && r.error().kind == rpckit::CallError::Kind::kRemote &&
         r.error().error.code() == static_cast<int>(code);
}

std::string shown(const rpckit::CallResult& r) {
  return r.ok() ? r.result().dump() : r.error().describe();
}

}  // namespace

std::vector<std::string> run_script(rpckit::desktop::Host& host,
                                    rpckit_examples::Transcript& transcript) {
  Checks c(transcript);
  auto health = host.client().plugin_health();
  c.check(health.ok() && (health->ok.value_or(false) || health->status.value_or("") == "ok"),
          "plugin/health may be repeated and stays healthy");

  rpckit::desktop::HostCounts before = host.counts();
  nlohmann::json params = {{"text", kText}};
  rpckit::CallResult counted = host.call("sample/word_count", params);
  c.check(counted.ok() && counted.result().value("status", "") == "finished" &&
              counted.result().value("words", -1) == 9 && counted.result().value("lines", -1) == 2,
          "sample/word_count counts 9 words on 2 lines after the user approves: " + shown(counted));
  rpckit::desktop::HostCounts after = host.counts();
  c.check(after.pings > before.pings, "the plugin called host/ping while the host waited on it");
  c.check(after.approved > before.approved,
          "the plugin asked host/request_approval (workspace.read) while the host waited on it");

  params["permission"] = "network.connect";
  rpckit::CallResult denied = host.call("sample/word_count", params);
  c.check(denied.ok() && denied.result().value("status", "") == "denied",
          "an unknown permission is declined, and the plugin says so: " + shown(denied));

  rpckit::CallResult invalid =
      host.call("sample/word_count", nlohmann::json{{"text", 5}});
  c.check(error_code_is(invalid, dv1::ErrorCode::kInvalidParams),
          "params of the wrong shape are -32602: " + shown(invalid));

  rpckit::CallResult unknown =
      host.call("sample/no_such_method", nlohmann::json::object());
  c.check(error_code_is(unknown, dv1::ErrorCode::kMethodNotFound),
          "an unknown plugin method is -32601: " + shown(unknown));

  // The events precede each answer on the pipe, but run on the host's dispatcher: wait (only
  // when the plugin answered, so a plugin that sends none fails at once).
  bool events =
      counted.ok() && denied.ok() &&
      host.wait_for(
          [&](const rpckit::desktop::HostCounts& n) { return n.events >= before.events + 4; },
          kCallLimit);
  c.check(events,
          "codex/event notifications arrived (" + std::to_string(host.counts().events) + ")");
  return c.failed();
}

}  // namespace desktop_sample
