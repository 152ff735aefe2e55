#pragma once
// The sample plugin's provider: a small built-in catalog of series standing in for an external
// metadata service, with the lookups the protocol's three metadata methods need.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codex_metadata_v1/types.hpp"

namespace codex_sample {

namespace codex = ::codex_metadata::v1;

// A search hit with the catalog index it came from (the provider's opaque providerData).
struct Scored {
  std::size_t index = 0;
  double score = 0;  // 0-100 (spec decision 8.9)
};

class Catalog {
 public:
  Catalog();

  std::size_t size() const { return series_.size(); }
  // Series whose titles contain every word of `query`, best first.
  std::vector<Scored> search(const std::string& query) const;
  // The best candidates for a library title (year and author as hints), best first.
  std::vector<Scored> match(const std::string& title, std::optional<std::int64_t> year,
                            const std::optional<std::string>& author) const;
  const codex::SeriesMetadata* find(const std::string& external_id) const;

  codex::SearchResult result(const Scored& hit) const;

 private:
  std::vector<codex::SeriesMetadata> series_;
};

}  // namespace codex_sample
