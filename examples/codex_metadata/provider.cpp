#include "provider.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace codex_sample {
namespace {

constexpr std::int64_t kMaxLimit = 50;
constexpr double kConfidentMatch = 60;  // below it, metadata/match answers match: null
constexpr const char* kCredentialKey = "api_key";
constexpr const char* kCredentialEnv = "API_KEY";  // spec 2.2: the key in upper case

codex::CredentialField api_key_field() {
  codex::CredentialField f;
  f.key = kCredentialKey;
  f.label = "API key";
  f.description =
      "Any key works with the built-in catalog; \"revoked\", \"throttled\" and "
      "\"broken\" make it answer auth_failed, rate_limited and api_error";
  f.required = true;
  f.sensitive = true;
  f.credentialType = codex::CredentialType::kPassword;
  return f;
}

// The admin configuration this plugin reads; anything else in it is ignored (spec 7).
void apply_config(Session& s, const std::map<std::string, rpckit::JsonValue>& config) {
  auto it = config.find("defaultLimit");
  if (it == config.end()) return;
  const nlohmann::json& v = it->second.get();
  if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > kMaxLimit) {
    throw codex::make_error(codex::ErrorCode::kConfigError,
                            "config.defaultLimit must be an integer from 1 to " +
                                std::to_string(kMaxLimit) + ", got " + v.dump());
  }
  s.default_limit = v.get<std::int64_t>();
}

}  // namespace

codex::PluginManifest Provider::initialize(Session& s, const codex::InitializeParams& p) {
  Session fresh;
  apply_config(fresh, p.config_or_default());
  // init_message and both: the message's credentials win; env: the variable (spec 2.2).
  if (p.credentials) {
    if (auto it = p.credentials->find(kCredentialKey); it != p.credentials->end()) {
      fresh.api_key = it->second;
      fresh.credential_source = "init_message";
    }
  }
  if (!fresh.api_key) {
    if (const char* env = std::getenv(kCredentialEnv); env != nullptr && *env != '\0') {
      fresh.api_key = env;
      fresh.credential_source = "env";
    }
  }
  if (!fresh.api_key) fresh.credential_source = "none";
  fresh.initialized = true;
  s = fresh;

  codex::PluginManifest m;
  m.name = "codex-sample-catalog";
  m.displayName = "Sample Catalog";
  m.version = "1.0.0";
  m.description = "Series metadata from a small built-in catalog (rpckit example)";
  m.author = "rpckit";
  m.homepage = "https://example.org/rpckit/codex-sample-catalog";
  m.protocolVersion = std::string(codex::kProtocolVersion);
  m.capabilities.seriesMetadataProvider = true;
  m.requiredCredentials = std::vector<codex::CredentialField>{api_key_field()};
  m.configSchema = std::map<std::string, rpckit::JsonValue>{
      {"type", rpckit::JsonValue(nlohmann::json("object"))},
      {"properties", rpckit::JsonValue(nlohmann::json::parse(
                         R"({"defaultLimit":{"type":"integer","minimum":1,"maximum":50}})"))}};
  std::fprintf(stderr, "codex-sample-catalog: initialized, credential from %s\n",
               s.credential_source.c_str());
  return m;
}

void Provider::check_ready(const Session& s, const char* method) const {
  if (!s.initialized) {
    // Spec 2: nothing is sent before initialize succeeds; a host that does is not valid.
    throw codex::make_error(codex::ErrorCode::kInvalidRequest,
                            std::string(method) + " before initialize");
  }
  if (!s.api_key) {
    throw codex::make_error(codex::ErrorCode::kConfigError,
                            "missing credential api_key (set API_KEY or send credentials.api_key)");
  }
  // The stand-in provider's answers to special keys, so every provider error can be seen.
  if (*s.api_key == "revoked")
    throw codex::make_error(codex::ErrorCode::kAuthFailed, "the catalog rejected the API key");
  if (*s.api_key == "throttled") {
    throw codex::make_error(codex::ErrorCode::kRateLimited, "catalog rate limit reached",
                            rpckit::codec::encode(codex::RateLimitedData{30}));
  }
  if (*s.api_key == "broken") {
    throw codex::make_error(codex::ErrorCode::kApiError, "the catalog answered 503",
                            rpckit::codec::encode(codex::ApiErrorData{503}));
  }
}

codex::SearchResponse Provider::metadata_search(Session& s, const codex::MetadataSearchParams& p) {
  check_ready(s, "metadata/search");
  if (p.query.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw codex::make_error(codex::ErrorCode::kInvalidParams, "Invalid params: query is blank");
  }
  if (p.limit && *p.limit < 1)
    throw codex::make_error(codex::ErrorCode::kInvalidParams, "Invalid params: limit < 1");
  std::int64_t limit = std::min(p.limit.value_or(s.default_limit), kMaxLimit);
  std::vector<Scored> hits = catalog_.search(p.query);
  codex::SearchResponse r;
  for (std::size_t i = 0; i < hits.size() && static_cast<std::int64_t>(i) < limit; ++i) {
    r.results.push_back(catalog_.result(hits[i]));
  }
  r.totalResults = static_cast<std::int64_t>(hits.size());
  r.page = 1;  // only the first page exists in 1.0 (decision 8.8)
  r.hasNextPage = static_cast<std::int64_t>(hits.size()) > limit;
  return r;
}

codex::SeriesMetadata Provider::metadata_get(Session& s, const codex::MetadataGetParams& p) {
  check_ready(s, "metadata/get");
  // providerData is a hint only (decision 8.7): the externalId decides.
  const codex::SeriesMetadata* found = catalog_.find(p.externalId);
  if (found == nullptr) {
    throw codex::make_error(codex::ErrorCode::kNotFound,
                            "no series with externalId \"" + p.externalId + "\"");
  }
  return *found;
}

codex::MatchResponse Provider::metadata_match(Session& s, const codex::MetadataMatchParams& p) {
  if (!with_match_) return PluginHandler::metadata_match(s, p);  // -32601: host falls back
  check_ready(s, "metadata/match");
  if (p.title.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw codex::make_error(codex::ErrorCode::kInvalidParams, "Invalid params: title is blank");
  }
  std::vector<Scored> hits = catalog_.match(p.title, p.year, p.author);
  codex::MatchResponse r;
  r.confidence = hits.empty() ? 0 : hits.front().score;
  std::size_t first_alternative = 0;
  if (!hits.empty() && hits.front().score >= kConfidentMatch) {
    r.match = catalog_.result(hits.front());
    first_alternative = 1;
  }  // else match stays null: no confident match (decision 8.10)
  std::vector<codex::SearchResult> alternatives;
  for (std::size_t i = first_alternative; i < hits.size() && alternatives.size() < 3; ++i) {
    alternatives.push_back(catalog_.result(hits[i]));
  }
  if (!alternatives.empty()) r.alternatives = std::move(alternatives);
  return r;
}

}  // namespace codex_sample
