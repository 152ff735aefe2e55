#pragma once
// The sample plugin's handler: the generated PluginHandler with the protocol's own policy on
// this side: the manifest, credentials from the environment or the initialize message
// (spec 2.2), the admin config, and the provider's error codes (spec 3).
#include <map>
#include <optional>
#include <string>

#include "catalog.hpp"
#include "codex_metadata_v1/roles.hpp"

namespace codex_sample {

// What one host session settled in initialize.
struct Session {
  bool initialized = false;
  std::optional<std::string> api_key;  // from params.credentials, else from API_KEY
  std::string credential_source;       // "init_message", "env" or "none"
  std::int64_t default_limit = 10;
};

class Provider : public codex::PluginHandler<Session> {
 public:
  // `with_match`: false builds a provider without metadata/match (-32601; the host falls back).
  explicit Provider(bool with_match = true) : with_match_(with_match) {}

  codex::PluginManifest initialize(Session& s, const codex::InitializeParams& p) override;
  codex::SearchResponse metadata_search(Session& s, const codex::MetadataSearchParams& p) override;
  codex::SeriesMetadata metadata_get(Session& s, const codex::MetadataGetParams& p) override;
  codex::MatchResponse metadata_match(Session& s, const codex::MetadataMatchParams& p) override;

 private:
  // Throws the error a provider call gets before it reaches the catalog, if any.
  void check_ready(const Session& s, const char* method) const;

  Catalog catalog_;
  bool with_match_;
};

}  // namespace codex_sample
