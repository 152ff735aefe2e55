#include "host_session.hpp"

#include <nlohmann/json.hpp>

#include "rpckit/codec/value_codec.hpp"

namespace codex_host {
namespace {

// Spec 2: consecutive failed metadata calls (error, timeout, process loss) on one running
// plugin; max_consecutive_call_failures of them disable the instance, a success resets.
class CallAccounting {
 public:
  CallAccounting(rpckit_examples::Transcript& transcript, Failures& failures)
      : transcript_(transcript), failures_(failures) {}

  // Records one call's outcome; `expected` names the error the script asked for.
  template <class T>
  bool record(const char* step, const rpckit::Result<T>& r, int expected_error = 0) {
    if (r.ok()) {
      consecutive_ = 0;
      if (expected_error != 0) {
        failures_.add("unexpected_result",
                      std::string(step) + " succeeded, expected " + error_name(expected_error));
      }
      return true;
    }
    ++consecutive_;
    const rpckit::CallError& e = r.error();
    if (e.kind == rpckit::CallError::Kind::kDisconnected ||
        e.kind == rpckit::CallError::Kind::kSendFailed) {
      lost_ = std::string(step) + ": " + e.describe();  // the caller asks the lifecycle why
      return false;
    }
    if (e.kind == rpckit::CallError::Kind::kRemote && e.error.code() == expected_error &&
        !is_invalid_result(e)) {
      transcript_.host(std::string(step) + ": " + error_name(expected_error) + " as expected (" +
                       e.error.message() + ")");
    } else {
      std::string detail = std::string(step) + ": " + e.describe();
      if (e.kind == rpckit::CallError::Kind::kRemote &&
          e.error.code() == static_cast<int>(codex::ErrorCode::kRateLimited)) {
        detail += " (retry after " + std::to_string(retry_after_seconds(e.error)) + " s)";
      }
      failures_.add(failure_class(e), detail);
    }
    if (consecutive_ >= codex::kMaxConsecutiveCallFailures) {
      failures_.add("consecutive_call_failures", std::to_string(consecutive_) +
                                                     " failed metadata calls in a row: "
                                                     "the running instance is disabled");
      disabled_ = true;
    }
    return false;
  }
  // No more calls: the instance is disabled or its process is gone.
  bool over() const { return disabled_ || lost_.has_value(); }
  SessionEnd end() const { return {lost_.has_value(), lost_.value_or("")}; }

  static std::string failure_class(const rpckit::CallError& e) {
    switch (e.kind) {
      case rpckit::CallError::Kind::kTimeout:
        return "request_timeout";
      case rpckit::CallError::Kind::kDisconnected:
      case rpckit::CallError::Kind::kSendFailed:
        return "process_lost";
      case rpckit::CallError::Kind::kLocal:
        return "refused_locally";
      case rpckit::CallError::Kind::kRemote:
        break;
    }
    return is_invalid_result(e) ? "invalid_result" : error_name(e.error.code());
  }

 private:
  rpckit_examples::Transcript& transcript_;
  Failures& failures_;
  int consecutive_ = 0;
  bool disabled_ = false;
  std::optional<std::string> lost_;
};

std::string number(double value) { return nlohmann::json(value).dump(); }

std::string brief(const codex::SearchResult& r) {
  return r.externalId + " \"" + r.title + "\"" + (r.score ? " score " + number(*r.score) : "");
}

}  // namespace

SessionEnd run_session(const codex::PluginClient& plugin, const codex::PluginManifest& manifest,
                       const Script& script, rpckit_examples::Transcript& transcript,
                       Failures& failures) {
  const auto deadline = script.request_timeout;
  transcript.host("plugin " + manifest.name + " " + manifest.version + " (protocol " +
                  manifest.protocolVersion + ")");

  // Decision 8.3: any string is a healthy answer; anything else fails the check.
  auto pong = plugin.ping({}, deadline);
  if (pong.ok()) {
    transcript.host("ping answered \"" + std::string(pong->wire()) + "\"");
  } else {
    std::string failure = CallAccounting::failure_class(pong.error());
    std::string detail = "ping: " + pong.error().describe();
    if (failure == "process_lost") return {true, detail};
    failures.add(failure == "invalid_result" ? "health_check_failed" : failure, detail);
    return {};
  }

  // Decision 8.15: metadata/* only to a series metadata provider.
  if (!manifest.capabilities.seriesMetadataProvider_or_default()) {
    failures.add("not_a_metadata_provider",
                 "capabilities.seriesMetadataProvider is not true: no metadata/* may be sent");
    return {};
  }
  CallAccounting calls(transcript, failures);

  codex::MetadataSearchParams search;
  search.query = script.query;
  search.limit = 5;
  auto found = plugin.metadata_search(search, deadline);
  std::optional<codex::SearchResult> best;
  if (calls.record("metadata/search", found)) {
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

  if (best && !calls.over()) {
    codex::MetadataGetParams get;
    get.externalId = best->externalId;
    get.providerData = best->providerData;  // decision 8.7: handed back unchanged
    auto series = plugin.metadata_get(get, deadline);
    if (calls.record("metadata/get", series)) {
      transcript.host("metadata/get " + get.externalId + ": \"" + series->titles.front().value +
                      "\", " + std::to_string(series->titles.size()) + " title(s)");
      if (series->externalId != get.externalId) {
        failures.add("unexpected_result",
                     "metadata/get " + get.externalId + " answered " + series->externalId);
      }
    }
  }

  if (!calls.over()) {
    codex::MetadataGetParams unknown;
    unknown.externalId = "no-such-series-0000";
    calls.record("metadata/get unknown id", plugin.metadata_get(unknown, deadline),
                 static_cast<int>(codex::ErrorCode::kNotFound));
  }

  if (!calls.over()) {
    codex::MetadataMatchParams match;
    match.title = script.title;
    match.year = 2011;
    auto matched = plugin.metadata_match(match, deadline);
    if (!matched.ok() && matched.error().kind == rpckit::CallError::Kind::kRemote &&
        matched.error().error.code() == rpckit::jsonrpc_code::kMethodNotFound) {
      // Spec 4: no match implementation: search with limit 10 and take the best result.
      transcript.host("metadata/match not implemented: falling back to metadata/search");
      codex::MetadataSearchParams fallback;
      fallback.query = script.title;
      fallback.limit = codex::kMatchFallbackSearchLimit;
      auto fell_back = plugin.metadata_search(fallback, deadline);
      if (calls.record("metadata/search (match fallback)", fell_back)) {
        transcript.host(fell_back->results.empty()
                            ? std::string("fallback: no match")
                            : "fallback match: " + brief(fell_back->results.front()));
      }
    } else if (calls.record("metadata/match", matched)) {
      transcript.host(matched->match.has_value()
                          ? "match: " + brief(*matched->match) + ", confidence " +
                                number(matched->confidence)
                          : "no confident match (confidence " + number(matched->confidence) + ")");
    }
  }
  return calls.end();
}

}  // namespace codex_host
