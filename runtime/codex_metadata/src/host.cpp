#include "rpckit/codex_metadata/host.hpp"

#include <unistd.h>  // environ

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace rpckit::codex_metadata {
namespace {

using supervision::Clock;
using supervision::StopCause;
using Kind = roles::LifecycleEvent::Kind;

// How long to wait for the lifecycle's next event beyond the profile's own timers (an outer
// bound: the events follow promptly).
constexpr std::chrono::seconds kEventSlack{10};

bool is_metadata(std::string_view method) { return method.rfind("metadata/", 0) == 0; }

CallError refusal(const std::string& reason, const std::string& detail,
                  nlohmann::json data = nlohmann::json::object()) {
  data["reason"] = reason;
  return CallError{
      CallError::Kind::kLocal,
      RpcError(jsonrpc_code::kInternalError, reason + ": " + detail, JsonValue(std::move(data)))};
}

// A result of a request the protocol knows that does not match its schema: why, or nullopt.
std::optional<std::string> invalid_result_of(std::string_view method, const CallResult& raw) {
  std::optional<std::string> invalid;
  cm::HostToPlugin::visit(method, [&]<class M>() {
    if constexpr (M::kKind == MessageKind::kRequest) {
      auto typed = decode_result<M>(raw);
      if (!typed.ok()) invalid = typed.error().error.message();
    }
  });
  return invalid;
}

}  // namespace

std::string failed_reason(const CallError& error) {
  switch (error.kind) {
    case CallError::Kind::kRemote:
    case CallError::Kind::kInvalidResult:
      return "";
    case CallError::Kind::kTimeout:
      return "timeout";
    case CallError::Kind::kLocal:
    case CallError::Kind::kCancelled:
    case CallError::Kind::kDisconnected:
    case CallError::Kind::kSendFailed:
      break;
  }
  if (error.error.data() && error.error.data()->get().is_object()) {
    auto it = error.error.data()->get().find("reason");
    if (it != error.error.data()->get().end() && it->is_string()) return it->get<std::string>();
  }
  switch (error.kind) {
    case CallError::Kind::kDisconnected:
      return "disconnected";
    case CallError::Kind::kSendFailed:
      return "send_failed";
    default:
      return "refused";
  }
}

Host::Host(Options options)
    : options_(std::move(options)),
      deadline_(scaled(cm::kRequestTimeoutMs)),
      wait_bound_(deadline_ + scaled(cm::kShutdownExitWaitMs) + kEventSlack),
      init_failures_(static_cast<int>(cm::kMaxFailedInitializations),
                     scaled(cm::kFailedInitializationWindowMs)),
      consecutive_(static_cast<int>(cm::kMaxConsecutiveCallFailures)),
      rate_limit_(std::max<std::int64_t>(options_.rate_limit_per_minute, 1),
                  scaled(std::chrono::milliseconds(
                      60000 / std::max<std::int64_t>(options_.rate_limit_per_minute, 1)))) {
  roles::SpawnedPlugin<cm::Protocol>::Options o;
  o.id = options_.id;
  o.time_scale = options_.time_scale;
  o.transcript = options_.transcript;
  if (options_.command.empty()) {
    command_refused_ = Finding{"command_not_allowed", "no plugin command (section 1)"};
  } else {
    std::string why;
    executable_ = options_.allowed_commands
                      ? allowed_command(options_.command.front(), options_.plugin_dir,
                                        *options_.allowed_commands, &why)
                      : allowed_command(options_.command.front(), options_.plugin_dir, &why);
    if (!executable_) command_refused_ = Finding{"command_not_allowed", why + " (section 1)"};
  }
  if (executable_) o.spawn.executable = *executable_;
  o.spawn.args.assign(options_.command.begin() + (options_.command.empty() ? 0 : 1),
                      options_.command.end());
  // Spec 2.2, 8.13: admin and credential variables override inherited ones, in the plugin's
  // environment only.
  CredentialPlan plan = plan_credentials(options_.credential_delivery, options_.credentials);
  std::map<std::string, std::string> variables = options_.environment;
  for (const auto& [name, value] : plan.environment) variables[name] = value;
  o.spawn.environment = plugin_environment(environ, variables);
  o.handshake_params = [config = options_.config, credentials = plan.in_message] {
    cm::InitializeParams p;
    p.config = config;  // always sent, {} when empty (section 2.1)
    p.credentials = credentials;
    return p;
  };
  o.judge = [this](const Result<cm::PluginManifest>& r) { return judge(r); };
  o.shutdown_answered = [this](const std::optional<CallError>& error) {
    if (!error) return;  // null, as decision 8.4 says
    if (error->kind == CallError::Kind::kTimeout) {
      record({"shutdown_timeout", error->describe() + " (section 2)"}, false);
    } else {
      record({"shutdown_failed", error->describe() + " (section 2, decision 8.4)"}, false);
    }
  };
  plugin_ = std::make_unique<roles::SpawnedPlugin<cm::Protocol>>(std::move(o));
  plugin_->on_lifecycle([this](const roles::LifecycleEvent& e) { on_event(e); });
  plugin_->on_diagnostic([this](const Diagnostic& d) {
    if (auto finding = violation_of(d)) record(*finding, true);
  });
}

Host::~Host() { stop(); }

std::chrono::milliseconds Host::scaled(std::chrono::milliseconds d) const {
  return std::chrono::milliseconds(
      std::llround(static_cast<double>(d.count()) * options_.time_scale));
}

supervision::TimePoint Host::now() const {
  return options_.clock ? options_.clock() : Clock::now();
}

bool Host::start() {
  if (command_refused_) {
    record(*command_refused_, false);
    return false;
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
    down_.reset();
  }
  if (plugin_->start()) return true;
  // The plugin's own wait ends before this host's observer has heard why: wait for it, so
  // why_not_running() says it.
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, wait_bound_,
                    [&] { return down_ || disabled_ || life_ == Life::kRunning || stopping_; });
  return life_ == Life::kRunning;
}

void Host::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  plugin_->stop();
}

bool Host::enable() {
  {
    std::lock_guard lock(mutex_);
    disabled_.reset();
    init_failures_.clear();
    consecutive_.succeeded();
    life_ = Life::kIdle;
  }
  note("re-enabled");
  return start();
}

std::optional<cm::PluginManifest> Host::manifest() const { return plugin_->handshake_result(); }

std::optional<Finding> Host::disabled() const {
  std::lock_guard lock(mutex_);
  return disabled_;
}

std::optional<Finding> Host::why_not_running() const {
  if (command_refused_) return command_refused_;
  std::lock_guard lock(mutex_);
  if (life_ == Life::kRunning || life_ == Life::kIdle) return std::nullopt;
  return down_ ? down_ : disabled_;
}

int Host::consecutive_failures() const {
  std::lock_guard lock(mutex_);
  return consecutive_.count();
}

// ---- the call path -------------------------------------------------------------------------

CallResult Host::call(std::string_view method, const std::optional<std::string>& params_json) {
  auto admitted = admit(method);
  if (auto* refused = std::get_if<CallError>(&admitted)) return *refused;
  const Admission& a = std::get<Admission>(admitted);
  CallResult raw = a.endpoint->call_encoded(method, params_json, deadline_);
  std::optional<std::string> invalid = raw.ok() ? invalid_result_of(method, raw) : std::nullopt;
  return settle(method, std::move(raw), invalid, a);
}

template <class M>
Result<typename M::Result> Host::typed(const typename M::Params& params) {
  auto admitted = admit(M::kMethod);
  if (auto* refused = std::get_if<CallError>(&admitted)) return *refused;
  const Admission& a = std::get<Admission>(admitted);
  CallResult raw = a.endpoint->call_encoded(M::kMethod, encode_params_text<M>(params), deadline_);
  Result<typename M::Result> result = decode_result<M>(raw);
  std::optional<std::string> invalid;
  if (raw.ok() && !result.ok()) invalid = result.error().error.message();
  CallResult settled = settle(M::kMethod, std::move(raw), invalid, a);
  if (!settled.ok()) return settled.error();
  return result;
}

Result<cm::PingResult> Host::ping() { return typed<cm::messages::Ping>({}); }

Result<cm::SearchResponse> Host::search(const cm::MetadataSearchParams& params) {
  return typed<cm::messages::MetadataSearch>(params);
}

Result<cm::SeriesMetadata> Host::get(const cm::MetadataGetParams& params) {
  return typed<cm::messages::MetadataGet>(params);
}

Result<cm::MatchResponse> Host::match(const cm::MetadataMatchParams& params) {
  Result<cm::MatchResponse> matched = typed<cm::messages::MetadataMatch>(params);
  if (matched.ok() || matched.error().kind != CallError::Kind::kRemote ||
      cm::error_code(matched.error()) != cm::ErrorCode::kMethodNotFound) {
    return matched;
  }
  // Section 4: no match implementation: search with limit 10 and take the best result.
  note("metadata/match not implemented: falling back to metadata/search with limit " +
       std::to_string(cm::kMatchFallbackSearchLimit) + " (section 4)");
  cm::MetadataSearchParams search_params;
  search_params.query = params.title;
  search_params.limit = cm::kMatchFallbackSearchLimit;
  Result<cm::SearchResponse> found = search(search_params);
  if (!found.ok()) return found.error();
  cm::MatchResponse out;
  const std::vector<cm::SearchResult>& results = found->results;
  auto best = std::max_element(results.begin(), results.end(), [](const auto& a, const auto& b) {
    return a.score.value_or(0) < b.score.value_or(0);  // the first of equals stays
  });
  if (best != results.end()) {
    out.match = *best;
    out.confidence = best->score.value_or(0);
  }
  return out;
}

std::variant<Host::Admission, CallError> Host::admit(std::string_view method) {
  const bool metadata = is_metadata(method);
  for (;;) {
    auto running = await_running();
    if (auto* refused = std::get_if<CallError>(&running)) return *refused;
    Admission a;
    a.endpoint = std::get<std::shared_ptr<Endpoint>>(std::move(running));
    if (!metadata) {
      std::lock_guard lock(mutex_);
      a.restarts = restarts_;
      a.disables = disables_;
      return a;
    }
    // Decision 8.15: metadata/* only to a series metadata provider.
    std::optional<cm::PluginManifest> m = manifest();
    if (!m || !m->capabilities.seriesMetadataProvider_or_default()) {
      return refusal("not_a_metadata_provider",
                     "the manifest's capabilities.seriesMetadataProvider is not true: no "
                     "metadata/* is sent (decision 8.15)");
    }
    std::unique_lock lock(mutex_);
    // Section 3: after -32001, nothing before the retry-after has elapsed.
    if (auto held = retry_after_.remaining(now())) {
      if (options_.while_held == WhileHeld::kRefuse) {
        double seconds = static_cast<double>(held->count()) / 1000.0 / options_.time_scale;
        return refusal("rate_limited",
                       "the plugin's -32001 asked the host to wait " +
                           std::to_string(held->count()) + " ms more (section 3)",
                       {{"retryAfterSeconds", static_cast<std::int64_t>(std::ceil(seconds))}});
      }
      note("waiting " + std::to_string(held->count()) + " ms for the retry-after (section 3)");
      changed_.wait_for(lock, *held, [&] { return stopping_; });
      if (stopping_) return refusal("not_running", "the host is stopping the plugin");
      continue;  // the plugin may have changed meanwhile
    }
    // Section 2: the host-side token bucket refuses excess calls before they reach the plugin.
    if (auto wait = rate_limit_.take(now())) {
      return refusal("rate_limited", "more than " + std::to_string(options_.rate_limit_per_minute) +
                                         " metadata requests per minute; the next may go in " +
                                         std::to_string(*wait) +
                                         " ms (section 2, host-side rate limiter)");
    }
    a.restarts = restarts_;
    a.disables = disables_;
    return a;
  }
}

std::variant<std::shared_ptr<Endpoint>, CallError> Host::await_running() {
  if (command_refused_) return refusal("command_not_allowed", command_refused_->detail);
  std::unique_lock lock(mutex_);
  for (;;) {
    if (disabled_) return refusal("disabled", disabled_->describe());
    if (stopping_) return refusal("not_running", "the host stopped the plugin");
    switch (life_) {
      case Life::kIdle: {
        // Section 2: spawned when first needed.
        lock.unlock();
        plugin_->start();
        lock.lock();
        continue;
      }
      case Life::kRunning:
        if (auto endpoint = plugin_->endpoint()) return endpoint;
        break;  // going down: its event follows
      case Life::kStopped:
        return refusal("not_running", down_ ? down_->describe() : "the plugin was stopped");
      case Life::kDisabled:
        return refusal("disabled", disabled_ ? disabled_->describe() : "the plugin is disabled");
      case Life::kStarting:
      case Life::kDown:
      case Life::kRestarting:
        break;
    }
    const std::uint64_t seen = events_;
    if (!changed_.wait_for(lock, wait_bound_, [&] { return events_ != seen || stopping_; })) {
      return refusal("not_running", "the plugin did not come up");
    }
  }
}

CallResult Host::settle(std::string_view method, CallResult raw,
                        const std::optional<std::string>& invalid, const Admission& admission) {
  if (raw.ok()) {
    if (invalid) {
      if (method == cm::messages::Ping::kMethod) {
        record({"health_check_failed",
                *invalid + ": the host accepts any string (section 2, decision 8.3)"},
               false);
      } else {
        record({"invalid_result", *invalid + " (section 4)"}, true);
      }
    }
    account(method, invalid.has_value());
    return raw;
  }
  const CallError& e = raw.error();
  switch (e.kind) {
    case CallError::Kind::kRemote:
      if (is_metadata(method) && cm::error_code(e) == cm::ErrorCode::kRateLimited) {
        std::int64_t seconds = retry_after_seconds(e.error);
        auto delay = std::chrono::milliseconds(static_cast<std::int64_t>(
            std::min<double>(static_cast<double>(seconds) * 1000.0 * options_.time_scale, 1e15)));
        {
          std::lock_guard lock(mutex_);
          retry_after_.hold(now(), delay);
        }
        note(std::string(method) + ": -32001, no metadata call for " + std::to_string(seconds) +
             " s (section 3)");
      }
      // Section 4: -32601 to metadata/match is "no match implementation", not a failure.
      account(method, !(method == cm::messages::MetadataMatch::kMethod &&
                        cm::error_code(e) == cm::ErrorCode::kMethodNotFound));
      return raw;
    case CallError::Kind::kTimeout:
    case CallError::Kind::kInvalidResult:
      account(method, true);
      return raw;
    case CallError::Kind::kDisconnected:
    case CallError::Kind::kSendFailed: {
      std::string reason = why_lost(admission);
      account(method, true);
      return CallError{e.kind, RpcError(e.error.code(), e.error.message(),
                                        JsonValue(nlohmann::json{{"reason", reason}}))};
    }
    case CallError::Kind::kLocal:
    case CallError::Kind::kCancelled:
      break;
  }
  return raw;
}

std::string Host::why_lost(const Admission& a) {
  // The connection went away under the call: the lifecycle says what became of the process.
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, wait_bound_, [&] {
    return restarts_ > a.restarts || disables_ > a.disables || life_ == Life::kStopped ||
           life_ == Life::kDisabled || stopping_;
  });
  if (restarts_ > a.restarts) return "restarted";
  if (disables_ > a.disables || life_ == Life::kDisabled) return "disabled";
  return "disconnected";
}

void Host::account(std::string_view method, bool failed) {
  if (!is_metadata(method)) return;
  std::optional<Finding> disable;
  std::uint64_t disables = 0;
  {
    std::lock_guard lock(mutex_);
    disables = disables_;
    if (!failed) {
      consecutive_.succeeded();
      return;
    }
    if (!consecutive_.failed() || disabled_) return;
    disable = Finding{"consecutive_call_failures",
                      std::to_string(consecutive_.count()) +
                          " failed metadata calls in a row: the running instance is disabled "
                          "(section 2)"};
    disabled_ = disable;
  }
  note("disabled: " + disable->detail);
  // Stopped as a disabled plugin is (section 2: with shutdown), then disabled until enable().
  plugin_->stop();
  if (auto* process = plugin_->process()) process->disable(disable->detail);
  // The supervisor says so asynchronously: wait, so that an enable() after this call returned
  // is not undone by it.
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, wait_bound_, [&] { return disables_ != disables; });
}

// ---- what the plugin did -------------------------------------------------------------------

roles::HandshakeOutcome Host::judge(const Result<cm::PluginManifest>& answer) {
  using Outcome = roles::HandshakeOutcome;
  InitializeVerdict verdict = judge_initialize(answer);
  {
    std::lock_guard lock(mutex_);
    handshake_finding_ = verdict.finding;
  }
  switch (verdict.kind) {
    case InitializeVerdict::Kind::kAccepted:
      return {};
    case InitializeVerdict::Kind::kRefused:
      // A legal answer: counted as a failed initialization, not the plugin's fault.
      note("initialize refused: " + verdict.finding->detail);
      return {Outcome::Kind::kRefused, verdict.finding->detail, false};
    case InitializeVerdict::Kind::kInvalid:
      record(*verdict.finding, false);
      return {Outcome::Kind::kRefused, verdict.finding->detail, verdict.version_mismatch};
    case InitializeVerdict::Kind::kNoAnswer:
      break;
  }
  return {Outcome::Kind::kUnsettled, {}, false};
}

void Host::on_event(const roles::LifecycleEvent& e) {
  std::vector<std::pair<Finding, bool>> findings;
  std::optional<std::string> disable;
  {
    std::lock_guard lock(mutex_);
    ++events_;
    switch (e.kind) {
      case Kind::kStarting:
        life_ = Life::kStarting;
        ran_ = false;
        handshake_finding_.reset();
        break;
      case Kind::kRunning:
        life_ = Life::kRunning;
        ran_ = true;
        down_.reset();
        consecutive_.succeeded();  // counted per running instance
        break;
      case Kind::kStopped: {
        if (e.cause == StopCause::kRequested) {
          life_ = Life::kStopped;
          if (auto unclean = stop_violation(e.detail)) findings.emplace_back(*unclean, false);
          break;
        }
        life_ = e.cause == StopCause::kExitTimeout ? Life::kStopped : Life::kDown;
        const bool handshake =
            e.cause == StopCause::kHandshakeFailed || e.cause == StopCause::kHandshakeRejected;
        Finding finding = handshake && handshake_finding_ ? *handshake_finding_
                                                          : describe_down({e.cause, e.detail});
        if (!down_) down_ = finding;  // the first since it last ran: the others follow from it
        // The judge recorded a manifest it refused; an error answer is legal.
        if (!handshake) findings.emplace_back(finding, false);
        if (!ran_ && e.cause != StopCause::kExitTimeout &&
            e.cause != StopCause::kHandshakeRejected && init_failures_.record(now()) &&
            !disabled_) {
          disabled_ = Finding{"initialization_failures",
                              std::to_string(cm::kMaxFailedInitializations) +
                                  " failed initializations within " +
                                  std::to_string(cm::kFailedInitializationWindowMs.count() / 1000) +
                                  " s: the plugin is disabled until re-enabled (section 2); "
                                  "last: " +
                                  finding.describe()};
          disable = disabled_->detail;
        }
        break;
      }
      case Kind::kRestartScheduled:
        life_ = Life::kRestarting;
        ++restarts_;
        break;
      case Kind::kDisabled:
        life_ = Life::kDisabled;
        ++disables_;
        if (!disabled_) {
          disabled_ = Finding{down_name(e.cause).empty() ? "disabled" : down_name(e.cause),
                              e.detail.empty() ? "the plugin is disabled" : e.detail};
        }
        break;
    }
  }
  changed_.notify_all();
  for (const auto& [finding, violation] : findings) record(finding, violation);
  if (disable) {
    note("disabled: " + *disable);
    // Before the supervisor's restart: it is acted on once the process has exited.
    if (auto* process = plugin_->process()) process->disable(*disable);
  }
}

void Host::record(const Finding& finding, bool violation) {
  if (violation) {
    outcome_.violation(finding.describe());
  } else {
    outcome_.fail(finding.kind, finding.detail);
  }
  if (options_.on_finding) options_.on_finding(finding, violation);
}

void Host::note(const std::string& what) const {
  if (options_.transcript) options_.transcript->host(what);
}

}  // namespace rpckit::codex_metadata
