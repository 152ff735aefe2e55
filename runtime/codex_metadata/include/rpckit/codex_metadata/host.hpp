#pragma once
// rpckit::codex_metadata::Host: a Codex host of one metadata plugin, protocol 1.0
// (../shared/spec/codex-metadata-plugins-v1.md). The wire is the profile's (NDJSON, integer
// ids from 1 per process, a string id holding the decimal matched by its string form, a line
// over 1 MiB discarded, non-JSON stdout logged, 100 MiB of stdout restarting the plugin, the
// stop sequence shutdown -> 5 s with stdin open -> kill, a restart right after a failure);
// this adds what the spec puts on the host beyond it:
// - the command allow-list (section 1) and credential delivery env/init_message/both (2.2,
//   decision 8.13), initialize's params with `config` always sent (2.1);
// - the manifest verdict (sections 5, 7, decisions 8.5, 8.14);
// - failure accounting (section 2): three failed metadata calls in a row disable the running
//   instance (stopped with shutdown); three failed initializations within 3600 s disable the
//   plugin; both until enable();
// - the host-side token bucket, 60 metadata requests per minute (section 2), and -32001's
//   data.retryAfterSeconds (60 when absent or invalid): no metadata call before it elapsed
//   (section 3); both refuse a call locally as `rate_limited` (or wait, for retry-after);
// - the capability gate (decision 8.15), the ping rule (any string is healthy, 8.3), the
//   match fallback (section 4), error names (section 3);
// - what went wrong, in the spec's words, in a SessionOutcome: failures (the plugin went down
//   or was refused for a reason that is its fault) and violations (what it sent that it should
//   not have). An initialize answered with an error is a legal answer, not a failure.
//
//   rpckit::codex_metadata::Host host({.command = {"/opt/codex/plugins/acme/run"},
//                                      .credentials = {{"api_key", "k-123"}}});
//   if (!host.start()) return fail(host.why_not_running()->describe());
//   auto found = host.search({.query = "blue harbor", .limit = 5});
//   if (!found.ok()) puts(rpckit::codex_metadata::failed_reason(found.error()).c_str());
//   host.stop();  // shutdown, 5 s with stdin open, kill
//
// Time scaling (tests, demos): every timer of the spec is multiplied by `time_scale`: the
// profile's, the retry-after, the rate limiter's minute and the 3600 s window.
// The clock: the host's own rules (the token bucket, the retry-after, the 3600 s window of
// failed initializations) read `Options::clock`, so a test moves time by hand; the profile's
// timers (request timeout, health checks, exit wait) are the runtime's, on the steady clock.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "codex_metadata_v1/roles.hpp"
#include "rpckit/codex_metadata/accounting.hpp"
#include "rpckit/codex_metadata/launch.hpp"
#include "rpckit/codex_metadata/verdicts.hpp"
#include "rpckit/roles/rate_limit.hpp"
#include "rpckit/roles/session_outcome.hpp"
#include "rpckit/roles/spawned_plugin.hpp"
#include "rpckit/roles/transcript.hpp"

namespace rpckit::codex_metadata {

// Why a call got no answer from the plugin: "timeout", "restarted" (the process was lost and
// is being replaced), "disabled", "rate_limited", "not_a_metadata_provider", "not_running",
// "disconnected", ...; "" when the plugin answered (with a result or an error).
std::string failed_reason(const CallError& error);

class Host {
 public:
  // What a metadata call does while a -32001's retry-after holds calls back.
  enum class WhileHeld { kRefuse, kWait };

  struct Options {
    std::string id = "codex-plugin";
    std::vector<std::string> command{};                 // the plugin's command and its arguments
    std::optional<std::filesystem::path> plugin_dir{};  // absolute commands must be under it
    // Names allowed besides node, npx, python, python3, uv, uvx (comma-separated); nullopt:
    // the host's CODEX_PLUGIN_ALLOWED_COMMANDS.
    std::optional<std::string> allowed_commands{};
    cm::CredentialDelivery credential_delivery{cm::CredentialDelivery::kEnv};
    std::map<std::string, std::string> credentials{};
    std::map<std::string, std::string> environment{};  // the admin-configured variables
    std::map<std::string, JsonValue> config{};         // initialize's params.config
    double time_scale = 1.0;
    // What the host's own rules read as now (default: the steady clock).
    std::function<supervision::TimePoint()> clock{};
    // kWait sleeps (on the steady clock) until `clock` says the retry-after has elapsed.
    WhileHeld while_held = WhileHeld::kRefuse;
    std::int64_t rate_limit_per_minute = cm::kRateLimitRequestsPerMinute;
    roles::Transcript* transcript = nullptr;
    // Each failure and violation as it is recorded, in order (`violation`: the session went
    // on), besides outcome(). Called from the runtime's threads, without the host's locks.
    std::function<void(const Finding&, bool violation)> on_finding{};
  };

  explicit Host(Options options);
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // Checks the command against the allow-list, spawns the plugin and initializes it; true
  // when it runs. Otherwise why_not_running() says why (a later call waits for the restart
  // the supervisor makes at once, until the plugin is disabled).
  bool start();
  // The profile's stop sequence; blocks until stopped. Calls waiting for the plugin end.
  void stop();
  // Re-enables a disabled plugin (the admin's action): a fresh failure count, then start().
  bool enable();

  // Any request, through the host's policy: the plugin started when first needed (or waited
  // for while it restarts), the capability gate, retry-after, the rate limiter, then the call
  // (30 s) and its accounting. `params_json`: the params' JSON text (nullopt: no member).
  // A result that does not match the method's schema is returned as it came and recorded as
  // a violation.
  CallResult call(std::string_view method, const std::optional<std::string>& params_json);
  // The same, typed. ping(): any string is healthy (decision 8.3), anything else a failed
  // health check. match(): a plugin without metadata/match (-32601) gets metadata/search with
  // limit 10, and the best result is the match (section 4).
  Result<cm::PingResult> ping();
  Result<cm::SearchResponse> search(const cm::MetadataSearchParams& params);
  Result<cm::SeriesMetadata> get(const cm::MetadataGetParams& params);
  Result<cm::MatchResponse> match(const cm::MetadataMatchParams& params);

  // The manifest of the running (or last) instance.
  std::optional<cm::PluginManifest> manifest() const;
  // Why the plugin is disabled (consecutive_call_failures, initialization_failures, ...), or
  // nullopt when it is not.
  std::optional<Finding> disabled() const;
  // Why the plugin is not running: the first failure since it last ran (command_not_allowed,
  // initialize_failed, process_lost, ...; the others follow from it), or nullopt when it runs
  // or was never started.
  std::optional<Finding> why_not_running() const;
  // Failed metadata calls in a row on the running instance.
  int consecutive_failures() const;

  roles::SessionOutcome& outcome() { return outcome_; }
  roles::SpawnedPlugin<cm::Protocol>& plugin() { return *plugin_; }

 private:
  // The plugin's life as the lifecycle events tell it (the supervisor's own state lags them).
  enum class Life { kIdle, kStarting, kRunning, kDown, kRestarting, kStopped, kDisabled };
  struct Admission {
    std::shared_ptr<Endpoint> endpoint;
    std::uint64_t restarts = 0;
    std::uint64_t disables = 0;
  };

  std::variant<Admission, CallError> admit(std::string_view method);
  std::variant<std::shared_ptr<Endpoint>, CallError> await_running();
  CallResult settle(std::string_view method, CallResult raw,
                    const std::optional<std::string>& invalid, const Admission& admission);
  template <class M>
  Result<typename M::Result> typed(const typename M::Params& params);
  std::string why_lost(const Admission& admission);
  void account(std::string_view method, bool failed);
  roles::HandshakeOutcome judge(const Result<cm::PluginManifest>& answer);
  void on_event(const roles::LifecycleEvent& event);
  void record(const Finding& finding, bool violation);
  void note(const std::string& what) const;
  std::chrono::milliseconds scaled(std::chrono::milliseconds d) const;
  supervision::TimePoint now() const;

  Options options_;
  std::optional<std::filesystem::path> executable_;
  std::optional<Finding> command_refused_;
  std::chrono::milliseconds deadline_;    // a call's: the request timeout, scaled
  std::chrono::milliseconds wait_bound_;  // outer bound of a wait for the lifecycle's next word
  roles::SessionOutcome outcome_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  Life life_ = Life::kIdle;
  bool ran_ = false;          // this process generation reached running
  bool stopping_ = false;     // stop() called: waits end
  std::uint64_t events_ = 0;  // lifecycle events seen
  std::uint64_t restarts_ = 0;
  std::uint64_t disables_ = 0;
  std::optional<Finding> handshake_finding_;  // the judge's reason for the last refusal
  std::optional<Finding> down_;               // the first failure since it last ran
  std::optional<Finding> disabled_;
  InitializationFailures init_failures_;
  ConsecutiveFailures consecutive_;
  RetryAfter retry_after_;
  roles::RateLimit rate_limit_;

  std::unique_ptr<roles::SpawnedPlugin<cm::Protocol>> plugin_;  // last: its threads use the rest
};

}  // namespace rpckit::codex_metadata
