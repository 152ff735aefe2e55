// rpckit::codex_metadata as a library, against real processes on real pipes
// (misbehaving_plugin.py): the command allow-list, credential delivery, the manifest verdict,
// failure accounting, the 3600 s window of failed initializations, the token bucket, -32001's
// retry-after, the capability gate, the output cap's restart, and a hostile plugin (a flood of
// non-JSON lines, a 64 MiB line). The host's own time rules read a fake clock the tests move
// by hand; nothing sleeps, and the runtime's timers are only outer bounds.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rpckit/codex_metadata/host.hpp"

namespace {

namespace cmh = rpckit::codex_metadata;
namespace cm = ::codex_metadata::v1;
using nlohmann::json;
using rpckit::roles::LifecycleEvent;
using std::chrono::seconds;

// The host's clock, moved by hand; `step` is added after every reading (a failure per reading
// spaced by it).
class FakeClock {
 public:
  rpckit::supervision::TimePoint now() {
    return start_ + std::chrono::milliseconds(at_ms_.fetch_add(step_ms_));
  }
  void advance(std::chrono::milliseconds d) { at_ms_ += d.count(); }
  void step_each_reading(std::chrono::milliseconds d) { step_ms_ = d.count(); }
  std::function<rpckit::supervision::TimePoint()> fn() {
    return [this] { return now(); };
  }

 private:
  rpckit::supervision::TimePoint start_ = rpckit::supervision::Clock::now();
  std::atomic<std::int64_t> at_ms_{0};
  std::atomic<std::int64_t> step_ms_{0};
};

cmh::Host::Options plugin(const std::string& mode, FakeClock* clock = nullptr) {
  cmh::Host::Options o;
  o.command = {PYTHON_EXE, MISBEHAVING_PLUGIN, mode};
  o.credentials = {{"api_key", "k-1"}};
  if (clock != nullptr) o.clock = clock->fn();
  return o;
}

// The lifecycle as it happens, for waiting on it without sleeping. The events live as long as
// the observer does, which may be longer than this object: the Host, declared first, reports
// its stop when it ends, after this object has gone.
class Lifecycle {
 public:
  explicit Lifecycle(cmh::Host& host) : seen_(std::make_shared<Seen>()) {
    host.plugin().on_lifecycle([seen = seen_](const LifecycleEvent& e) {
      std::lock_guard lock(seen->mutex);
      seen->events.push_back(e.kind);
      seen->changed.notify_all();
    });
  }
  int count(LifecycleEvent::Kind kind) {
    std::lock_guard lock(seen_->mutex);
    return static_cast<int>(std::count(seen_->events.begin(), seen_->events.end(), kind));
  }
  // Waits (an outer bound only) until `kind` has happened `n` times.
  bool wait_for(LifecycleEvent::Kind kind, int n = 1) {
    std::unique_lock lock(seen_->mutex);
    return seen_->changed.wait_for(lock, std::chrono::minutes(2), [&] {
      return std::count(seen_->events.begin(), seen_->events.end(), kind) >= n;
    });
  }

 private:
  struct Seen {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<LifecycleEvent::Kind> events;
  };
  std::shared_ptr<Seen> seen_;
};

cm::MetadataSearchParams query(const std::string& q) {
  cm::MetadataSearchParams p;
  p.query = q;
  return p;
}

cm::MetadataGetParams unknown_id() {
  cm::MetadataGetParams p;
  p.externalId = "no-such-series";
  return p;
}

// totalResults of a search: the metadata calls the plugin's process has received.
std::int64_t calls_seen(const rpckit::Result<cm::SearchResponse>& r) {
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  return r.ok() ? r->totalResults.value_or(-1) : -1;
}

std::int64_t peak_rss_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6));
  }
  return -1;
}

// ---- section 1: the command allow-list ----------------------------------------------------

TEST(CodexHostLibrary, AllowListTakesTheSpecsNamesExtraNamesAndAbsolutePathsUnderTheFolder) {
  std::string why;
  EXPECT_TRUE(cmh::allowed_command("python3", std::nullopt, "", &why)) << why;
  EXPECT_FALSE(cmh::allowed_command("bash", std::nullopt, "", &why));
  EXPECT_NE(why.find("not an allowed command"), std::string::npos) << why;
  EXPECT_TRUE(cmh::allowed_command("bash", std::nullopt, "perl, bash", &why)) << why;
  EXPECT_FALSE(cmh::allowed_command("./run", std::nullopt, "", &why));
  EXPECT_TRUE(cmh::allowed_command("/opt/codex/plugins/acme/run", "/opt/codex/plugins", "", &why));
  EXPECT_FALSE(cmh::allowed_command("/opt/codex/plugins/../x", "/opt/codex/plugins", "", &why));
  EXPECT_FALSE(cmh::allowed_command("/opt/codex/pluginsx/run", "/opt/codex/plugins", "", &why));
}

TEST(CodexHostLibrary, ACommandOutsideTheAllowListIsNeverSpawned) {
  cmh::Host::Options o = plugin("well-behaved");
  o.command = {"bash", "-c", "exit 0"};
  o.allowed_commands = "";
  cmh::Host host(std::move(o));
  EXPECT_FALSE(host.start());
  ASSERT_TRUE(host.why_not_running());
  EXPECT_EQ(host.why_not_running()->kind, "command_not_allowed");
  EXPECT_EQ(cmh::failed_reason(host.ping().error()), "command_not_allowed");
  EXPECT_EQ(host.plugin().state(), rpckit::supervision::State::kIdle);
}

// ---- section 2.2 and decision 8.13: credential delivery -----------------------------------

TEST(CodexHostLibrary, EachDeliveryModePutsTheCredentialsWhereTheSpecSays) {
  ::unsetenv("API_KEY");
  struct Case {
    cm::CredentialDelivery mode;
    json env, credentials;
  };
  for (const Case& c : {Case{cm::CredentialDelivery::kEnv, "k-1", nullptr},
                        Case{cm::CredentialDelivery::kInitMessage, nullptr, {{"api_key", "k-1"}}},
                        Case{cm::CredentialDelivery::kBoth, "k-1", {{"api_key", "k-1"}}}}) {
    cmh::Host::Options o = plugin("well-behaved");
    o.credential_delivery = c.mode;
    cmh::Host host(std::move(o));
    ASSERT_TRUE(host.start());
    json seen = json::parse(host.manifest()->description.value_or("{}"));
    EXPECT_EQ(seen["env"], c.env) << c.mode.wire();
    EXPECT_EQ(seen["credentials"], c.credentials) << c.mode.wire();
    EXPECT_EQ(seen["config"], json::object()) << "config is always sent (2.1)";
  }
}

TEST(CodexHostLibrary, CredentialVariablesOverrideInheritedAndAdminOnes) {
  ::setenv("API_KEY", "inherited", 1);
  cmh::Host::Options o = plugin("well-behaved");
  o.environment = {{"API_KEY", "admin"}};
  o.config = {{"defaultLimit", rpckit::JsonValue(json(3))}};
  cmh::Host host(std::move(o));
  ASSERT_TRUE(host.start());
  json seen = json::parse(host.manifest()->description.value_or("{}"));
  EXPECT_EQ(seen["env"], "k-1");
  EXPECT_EQ(seen["config"], json({{"defaultLimit", 3}}));
  ::unsetenv("API_KEY");
  auto plan = cmh::plan_credentials(cm::CredentialDelivery::kEnv, {{"api_key", "x"}});
  EXPECT_EQ(plan.environment.at("API_KEY"), "x");
  EXPECT_FALSE(plan.in_message);
}

// ---- sections 5, 7, decisions 8.5, 8.14: the manifest -------------------------------------

TEST(CodexHostLibrary, ManifestVerdicts) {
  cm::PluginManifest m;
  m.name = "acme-meta";
  m.displayName = "Acme";
  m.version = "1.0.0";
  m.protocolVersion = "1.7";
  EXPECT_FALSE(cmh::judge_manifest(m));
  m.name = "Acme";
  EXPECT_EQ(cmh::judge_manifest(m)->kind, "invalid_manifest");
  for (const char* mode : {"bad-version", "bad-manifest"}) {
    cmh::Host host(plugin(mode));
    EXPECT_FALSE(host.start());
    ASSERT_TRUE(host.why_not_running()) << mode;
    EXPECT_EQ(host.why_not_running()->kind, std::string(mode) == "bad-version"
                                                ? "protocol_version_mismatch"
                                                : "invalid_manifest");
  }
}

// ---- section 3: errors --------------------------------------------------------------------

TEST(CodexHostLibrary, RetryAfterIsTheDataOrSixty) {
  auto with = [](std::optional<json> data) {
    std::optional<rpckit::JsonValue> d;
    if (data) d = rpckit::JsonValue(*data);
    return cm::make_error(cm::ErrorCode::kRateLimited, "throttled", d);
  };
  EXPECT_EQ(cmh::retry_after_seconds(with(json{{"retryAfterSeconds", 7}})), 7);
  EXPECT_EQ(cmh::retry_after_seconds(with(json{{"retryAfterSeconds", 0}})), 0);
  EXPECT_EQ(cmh::retry_after_seconds(with(std::nullopt)), 60);
  EXPECT_EQ(cmh::retry_after_seconds(with(json{{"retryAfterSeconds", -1}})), 60);
  EXPECT_EQ(cmh::retry_after_seconds(with(json{{"retryAfterSeconds", "5"}})), 60);
  EXPECT_EQ(cmh::retry_after_seconds(with(json{{"retryAfterSeconds", 1.5}})), 60);
  EXPECT_EQ(cmh::error_name(cm::make_error(cm::ErrorCode::kNotFound, "x")), "not_found");
  EXPECT_EQ(cmh::error_name(rpckit::RpcError(-32099, "x")), "plugin_error");
}

TEST(CodexHostLibrary, NoMetadataCallBeforeTheRetryAfterHasElapsed) {
  FakeClock clock;
  cmh::Host host(plugin("well-behaved", &clock));
  ASSERT_TRUE(host.start());
  auto throttled = host.search(query(R"(throttle:{"retryAfterSeconds":5})"));
  ASSERT_FALSE(throttled.ok());
  EXPECT_EQ(cm::error_code(throttled.error()), cm::ErrorCode::kRateLimited);
  auto held = host.search(query("a"));
  ASSERT_FALSE(held.ok());
  EXPECT_EQ(cmh::failed_reason(held.error()), "rate_limited");
  EXPECT_TRUE(host.ping().ok()) << "only metadata calls are held";
  clock.advance(seconds(4));
  EXPECT_EQ(cmh::failed_reason(host.search(query("a")).error()), "rate_limited");
  clock.advance(seconds(1));
  EXPECT_EQ(calls_seen(host.search(query("a"))), 2) << "the held calls never reached it";

  // Without data (or with an unusable one): 60 s.
  ASSERT_FALSE(host.search(query("throttle:")).ok());
  clock.advance(seconds(59));
  EXPECT_EQ(cmh::failed_reason(host.search(query("a")).error()), "rate_limited");
  clock.advance(seconds(1));
  EXPECT_EQ(calls_seen(host.search(query("a"))), 4);
  ASSERT_FALSE(host.search(query(R"(throttle:{"retryAfterSeconds":-3})")).ok());
  clock.advance(seconds(59));
  EXPECT_EQ(cmh::failed_reason(host.search(query("a")).error()), "rate_limited");
  clock.advance(seconds(1));
  EXPECT_EQ(calls_seen(host.search(query("a"))), 6);
}

// ---- section 2: the rate limiter ------------------------------------------------------------

TEST(CodexHostLibrary, SixtyMetadataRequestsPerMinuteThenRefusedBeforeThePlugin) {
  FakeClock clock;
  cmh::Host host(plugin("well-behaved", &clock));
  ASSERT_TRUE(host.start());
  for (int i = 1; i <= 60; ++i) ASSERT_EQ(calls_seen(host.search(query("a"))), i);
  auto refused = host.search(query("a"));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(cmh::failed_reason(refused.error()), "rate_limited");
  EXPECT_TRUE(host.ping().ok()) << "the bucket counts metadata requests";
  clock.advance(seconds(1));  // one token back
  EXPECT_EQ(calls_seen(host.search(query("a"))), 61) << "the refused call never reached it";
  EXPECT_EQ(cmh::failed_reason(host.search(query("a")).error()), "rate_limited");
  EXPECT_EQ(host.consecutive_failures(), 0) << "a refusal is not the plugin's failure";
}

// ---- section 2: failure accounting ----------------------------------------------------------

TEST(CodexHostLibrary, ThreeFailedCallsInARowDisableTheInstanceASuccessResets) {
  cmh::Host host(plugin("well-behaved"));
  Lifecycle life(host);
  ASSERT_TRUE(host.start());
  EXPECT_FALSE(host.get(unknown_id()).ok());
  EXPECT_FALSE(host.get(unknown_id()).ok());
  EXPECT_EQ(host.consecutive_failures(), 2);
  EXPECT_EQ(calls_seen(host.search(query("a"))), 3);
  EXPECT_EQ(host.consecutive_failures(), 0);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(host.get(unknown_id()).ok());
  ASSERT_TRUE(host.disabled());
  EXPECT_EQ(host.disabled()->kind, "consecutive_call_failures");
  EXPECT_EQ(cmh::failed_reason(host.search(query("a")).error()), "disabled");
  ASSERT_TRUE(life.wait_for(LifecycleEvent::Kind::kStopped));
  EXPECT_EQ(life.count(LifecycleEvent::Kind::kStarting), 1);
  // The admin re-enables it: a fresh process.
  ASSERT_TRUE(host.enable());
  EXPECT_EQ(calls_seen(host.search(query("a"))), 1);
}

// The window is read on the fake clock; the runtime's timers run at a fifth (each refused
// initialize waits the profile's 5 s for an exit the plugin never makes: 1 s here).
cmh::Host::Options failing_initialize(FakeClock& clock) {
  cmh::Host::Options o = plugin("init-error", &clock);
  o.time_scale = 0.2;
  return o;
}

TEST(CodexHostLibrary, ThreeFailedInitializationsWithinTheWindowDisableThePlugin) {
  FakeClock clock;  // frozen: every failure within the window
  cmh::Host host(failing_initialize(clock));
  Lifecycle life(host);
  EXPECT_FALSE(host.start());
  ASSERT_TRUE(life.wait_for(LifecycleEvent::Kind::kDisabled));
  ASSERT_TRUE(host.disabled());
  EXPECT_EQ(host.disabled()->kind, "initialization_failures");
  EXPECT_EQ(life.count(LifecycleEvent::Kind::kStarting), 3);
  EXPECT_EQ(cmh::failed_reason(host.ping().error()), "disabled");
  EXPECT_EQ(life.count(LifecycleEvent::Kind::kStarting), 3) << "no spawn once disabled";
}

TEST(CodexHostLibrary, FailedInitializationsOutsideTheWindowDoNotCount) {
  FakeClock clock;
  clock.step_each_reading(std::chrono::milliseconds(1801 * 1000));  // two per 3600 s at most
  cmh::Host host(failing_initialize(clock));
  Lifecycle life(host);
  EXPECT_FALSE(host.start());
  ASSERT_TRUE(life.wait_for(LifecycleEvent::Kind::kDisabled));
  // Not the window's: the supervisor's own limit of restarts (the profile's
  // max_restarts_in_window, 3 within the window) ends it at the fourth failure.
  ASSERT_TRUE(host.disabled());
  EXPECT_NE(host.disabled()->kind, "initialization_failures") << host.disabled()->describe();
  EXPECT_EQ(life.count(LifecycleEvent::Kind::kStarting), 4);
}

// ---- decision 8.15: the capability gate -----------------------------------------------------

TEST(CodexHostLibrary, MetadataGoesOnlyToAProvider) {
  cmh::Host host(plugin("no-capability"));
  ASSERT_TRUE(host.start());
  EXPECT_TRUE(host.ping().ok());
  auto gated = host.search(query("a"));
  ASSERT_FALSE(gated.ok());
  EXPECT_EQ(cmh::failed_reason(gated.error()), "not_a_metadata_provider");
  // Past the gate (the raw endpoint): this is the first metadata call the plugin sees.
  auto raw = host.plugin().endpoint()->call_encoded("metadata/search", R"({"query":"a"})",
                                                    std::chrono::seconds(30));
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw.result()["totalResults"], 1);
}

// ---- section 1, decision 8.12: the output cap (the runtime's, from the profile) -----------

TEST(CodexHostLibrary, AfterOneHundredMiBOfStdoutThePluginIsRestarted) {
  std::filesystem::path marker =
      std::filesystem::temp_directory_path() / ("codex-flood-" + std::to_string(::getpid()));
  std::filesystem::remove(marker);
  cmh::Host::Options o = plugin("flood");
  o.environment = {{"CODEX_TEST_FLOOD_MARKER", marker.string()}};
  cmh::Host host(std::move(o));
  Lifecycle life(host);
  ASSERT_TRUE(host.start());
  auto flooded = host.search(query("a"));
  ASSERT_FALSE(flooded.ok());
  EXPECT_EQ(cmh::failed_reason(flooded.error()), "restarted");
  ASSERT_TRUE(host.outcome().failure());
  EXPECT_EQ(host.outcome().failure()->kind, "output_cap");
  EXPECT_EQ(calls_seen(host.search(query("a"))), 1) << "a fresh process";
  EXPECT_EQ(life.count(LifecycleEvent::Kind::kStarting), 2);
  std::filesystem::remove(marker);
}

// ---- section 1: ids -------------------------------------------------------------------------

TEST(CodexHostLibrary, AStringIdHoldingTheDecimalIsAccepted) {
  cmh::Host host(plugin("string-ids"));
  ASSERT_TRUE(host.start());
  EXPECT_EQ(calls_seen(host.search(query("a"))), 1);
}

// Section 1: "The plugin copies the id unchanged. The host also accepts a string id containing
// a decimal integer." Accepted (above), and reported as the plugin's deviation.
TEST(CodexHostLibrary, AStringIdIsReportedAsTheBindingsDeviation) {
  cmh::Host host(plugin("string-ids"));
  ASSERT_TRUE(host.start());
  EXPECT_EQ(calls_seen(host.search(query("a"))), 1);
  EXPECT_FALSE(host.outcome().conformed());
}

// Section 2 Deadlines: "failed initialize: no shutdown is sent; the host waits up to 5 s for
// exit, then kills" (the profile's handshake_failure_exit_wait).
TEST(CodexHostLibrary, AFailedInitializeGetsTheExitWaitBeforeTheKill) {
  std::filesystem::path marker =
      std::filesystem::temp_directory_path() / ("codex-exit-" + std::to_string(::getpid()));
  std::filesystem::remove(marker);
  cmh::Host::Options o = plugin("init-error-exit");
  o.environment = {{"CODEX_TEST_EXIT_MARKER", marker.string()}};
  cmh::Host host(std::move(o));
  Lifecycle life(host);
  EXPECT_FALSE(host.start());
  ASSERT_TRUE(life.wait_for(LifecycleEvent::Kind::kStopped));
  host.stop();
  EXPECT_TRUE(std::filesystem::exists(marker)) << "killed before it could exit by itself";
  std::filesystem::remove(marker);
}

// ---- a hostile plugin -----------------------------------------------------------------------

TEST(CodexHostLibrary, AFloodOfNonJsonLinesIsLoggedAtAFallingRate) {
  std::atomic<int> findings{0};
  cmh::Host::Options o = plugin("noisy");
  o.on_finding = [&](const cmh::Finding& f, bool) {
    if (f.kind == "malformed_line") ++findings;
  };
  cmh::Host host(std::move(o));
  ASSERT_TRUE(host.start());
  EXPECT_EQ(calls_seen(host.search(query("a"))), 1);
  EXPECT_EQ(calls_seen(host.search(query("a"))), 2);
  // 200,000 lines: ten, then one per power of ten.
  EXPECT_GE(findings.load(), 1);
  EXPECT_LE(findings.load(), 20);
  EXPECT_LE(host.outcome().violation_count(), 20U);
}

TEST(CodexHostLibrary, ALineOverOneMiBIsDiscardedWithoutBeingHeldWhole) {
  std::atomic<int> findings{0};
  cmh::Host::Options o = plugin("long-line");
  o.on_finding = [&](const cmh::Finding& f, bool violation) {
    if (f.kind == "oversized_line" && violation) ++findings;
  };
  cmh::Host host(std::move(o));
  ASSERT_TRUE(host.start());
  const std::int64_t before = peak_rss_kib();
  EXPECT_EQ(calls_seen(host.search(query("a"))), 1) << "the call's answer follows the line";
  const std::int64_t grown = peak_rss_kib() - before;
  EXPECT_LT(grown, 32 * 1024) << "KiB for a 64 MiB line";
  EXPECT_EQ(findings.load(), 1);
  EXPECT_FALSE(host.outcome().failure()) << "not a reason to kill (decision 8.12)";
}

}  // namespace
