#include "host_session.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace codex_host {

namespace cmh = rpckit::codex_metadata;
namespace cm = ::codex_metadata::v1;

void Failures::add(const std::string& failure_class, const std::string& detail) {
  std::lock_guard lock(mutex_);
  // One line per class: a lost process also fails every call still waiting on it.
  for (const auto& f : failures_) {
    if (f.first == failure_class) return;
  }
  failures_.emplace_back(failure_class, detail);
}

bool Failures::any() const {
  std::lock_guard lock(mutex_);
  return !failures_.empty();
}

std::vector<std::string> Failures::lines() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [name, detail] : failures_) {
    out.push_back("failure: " + name + (detail.empty() ? "" : ": " + detail));
  }
  return out;
}

namespace {

// The class of a call that gave no usable result.
std::string failure_class(const rpckit::CallError& e) {
  if (cmh::is_invalid_result(e)) return "invalid_result";
  if (e.kind == rpckit::CallError::Kind::kRemote) return cmh::error_name(e.error);
  if (e.kind == rpckit::CallError::Kind::kTimeout) return "request_timeout";
  std::string reason = cmh::failed_reason(e);
  if (reason == "restarted" || reason == "disconnected" || reason == "send_failed") {
    return "process_lost";
  }
  return reason;  // disabled, rate_limited, not_a_metadata_provider, ...
}

// The script's steps: each call's outcome against what the script expects.
class Steps {
 public:
  Steps(cmh::Host& host, rpckit_examples::Transcript& transcript, Failures& failures)
      : host_(host), transcript_(transcript), failures_(failures) {}

  // True when the call gave a result; `expected_error` names the error the script asks for.
  template <class T>
  bool record(const std::string& step, const rpckit::Result<T>& r,
              std::optional<cm::ErrorCode> expected_error = std::nullopt) {
    if (r.ok()) {
      if (expected_error) {
        failures_.add("unexpected_result",
                      step + " succeeded, expected " + std::string(cm::to_string(*expected_error)));
      }
      return true;
    }
    const rpckit::CallError& e = r.error();
    if (expected_error && e.kind == rpckit::CallError::Kind::kRemote &&
        cm::error_code(e) == *expected_error && !cmh::is_invalid_result(e)) {
      transcript_.host(step + ": " + cmh::error_name(e.error) + " as expected (" +
                       e.error.message() + ")");
    } else {
      std::string failure = failure_class(e);
      std::string detail = step + ": " + e.describe();
      if (e.kind == rpckit::CallError::Kind::kRemote &&
          cm::error_code(e) == cm::ErrorCode::kRateLimited) {
        detail += " (retry after " + std::to_string(cmh::retry_after_seconds(e.error)) + " s)";
      }
      lost_ = lost_ || failure == "process_lost";
      failures_.add(failure, detail);
    }
    // Section 2: three failed metadata calls in a row disable the instance.
    if (auto disabled = host_.disabled()) {
      failures_.add(disabled->kind, disabled->detail);
      over_ = true;
    }
    return false;
  }
  // No more calls: the instance is disabled or its process was lost.
  bool over() const { return over_ || lost_; }

 private:
  cmh::Host& host_;
  rpckit_examples::Transcript& transcript_;
  Failures& failures_;
  bool over_ = false;
  bool lost_ = false;
};

std::string number(double value) { return nlohmann::json(value).dump(); }

std::string brief(const cm::SearchResult& r) {
  return r.externalId + " \"" + r.title + "\"" + (r.score ? " score " + number(*r.score) : "");
}

}  // namespace

void run_session(cmh::Host& host, const Script& script, rpckit_examples::Transcript& transcript,
                 Failures& failures) {
  std::optional<cm::PluginManifest> manifest = host.manifest();
  if (!manifest) return;
  transcript.host("plugin " + manifest->name + " " + manifest->version + " (protocol " +
                  manifest->protocolVersion + ")");

  // Decision 8.3: any string is a healthy answer; anything else fails the check.
  auto pong = host.ping();
  if (!pong.ok()) {
    std::string failure = failure_class(pong.error());
    failures.add(failure == "invalid_result" ? "health_check_failed" : failure,
                 "ping: " + pong.error().describe());
    return;
  }
  transcript.host("ping answered \"" + std::string(pong->wire()) + "\"");

  // Decision 8.15: metadata/* only to a series metadata provider (the host refuses them).
  if (!manifest->capabilities.seriesMetadataProvider_or_default()) {
    failures.add("not_a_metadata_provider",
                 "capabilities.seriesMetadataProvider is not true: no metadata/* may be sent");
    return;
  }
  Steps steps(host, transcript, failures);

  cm::MetadataSearchParams search;
  search.query = script.query;
  search.limit = 5;
  auto found = host.search(search);
  std::optional<cm::SearchResult> best;
  if (steps.record("metadata/search", found)) {
    transcript.host("metadata/search \"" + script.query +
                    "\": " + std::to_string(found->results.size()) + " result(s)");
    if (found->results.empty() || found->results.size() > 5) {
      failures.add("unexpected_result", "metadata/search \"" + script.query + "\" gave " +
                                            std::to_string(found->results.size()) +
                                            " results, expected 1 to 5");
    } else {
      best = found->results.front();
      transcript.host("best: " + brief(*best));
    }
  }

  if (best && !steps.over()) {
    cm::MetadataGetParams get;
    get.externalId = best->externalId;
    get.providerData = best->providerData;  // decision 8.7: handed back unchanged
    auto series = host.get(get);
    if (steps.record("metadata/get", series)) {
      transcript.host("metadata/get " + get.externalId + ": \"" + series->titles.front().value +
                      "\", " + std::to_string(series->titles.size()) + " title(s)");
      if (series->externalId != get.externalId) {
        failures.add("unexpected_result",
                     "metadata/get " + get.externalId + " answered " + series->externalId);
      }
    }
  }

  if (!steps.over()) {
    cm::MetadataGetParams unknown;
    unknown.externalId = "no-such-series-0000";
    steps.record("metadata/get unknown id", host.get(unknown), cm::ErrorCode::kNotFound);
  }

  if (!steps.over()) {
    cm::MetadataMatchParams match;
    match.title = script.title;
    match.year = 2011;
    auto matched = host.match(match);  // falls back to metadata/search without match (section 4)
    if (steps.record("metadata/match", matched)) {
      transcript.host(matched->match.has_value()
                          ? "match: " + brief(*matched->match) + ", confidence " +
                                number(matched->confidence)
                          : "no confident match (confidence " + number(matched->confidence) + ")");
    }
  }
}

}  // namespace codex_host
