#include "catalog.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>

namespace codex_sample {
namespace {

struct Row {
  const char* id;
  const char* title;
  const char* native;    // the original-language title, or ""
  const char* language;  // ISO 639-1 of `native` and of the original
  const char* country;
  std::int64_t year;
  std::int64_t year_end;  // 0: still running
  const char* status;
  const char* author;
  const char* publisher;
  const char* genres;  // comma-separated
  double rating;       // 0-10
  const char* summary;
};

// Invented series: the catalog stands in for a provider, it is not one.
constexpr Row kRows[] = {
    {"cx-0001", "Blue Harbor", "Aoi Minato", "ja", "JP", 2011, 2019, "completed", "Mei Tanabe",
     "Shiosai Books", "drama,slice of life", 8.4, "A ferry pilot keeps a port town together."},
    {"cx-0002", "Blue Harbor Nights", "", "en", "US", 2021, 0, "ongoing", "Mei Tanabe",
     "Shiosai Books", "drama,mystery", 7.6, "The night shift of the same harbor, ten years on."},
    {"cx-0003", "Iron Lanterns", "Tetsu no Chouchin", "ja", "JP", 2003, 2012, "completed",
     "Goro Ishida", "Kurogane", "action,fantasy", 8.9, "Lamp-lighters fight what the dark hides."},
    {"cx-0004", "The Paper Cartographer", "", "en", "GB", 2016, 0, "hiatus", "Ada Finch",
     "Quill & Tide", "adventure", 7.9, "A mapmaker whose maps change the land."},
    {"cx-0005", "Salt and Static", "", "en", "US", 2019, 2023, "completed", "Rosa Vey",
     "Quill & Tide", "science fiction", 7.1, "Radio operators on a drowned coast."},
    {"cx-0006", "Moonlit Bakery", "Tsukiyo Pan", "ja", "JP", 2014, 2017, "completed", "Hana Oda",
     "Kurogane", "comedy,slice of life", 7.3, "Bread for customers who only come at night."},
    {"cx-0007", "Northern Relay", "Bukbang Gyeju", "ko", "KR", 2020, 0, "ongoing", "Kim Seoyun",
     "Haneul", "sports,drama", 8.1, "A relay team from the last school on the line."},
    {"cx-0008", "Glass Orchard", "", "fr", "FR", 2009, 2010, "cancelled", "Luc Marais", "Verger",
     "fantasy,romance", 6.2, "Trees of glass, and the family who tends them."},
    {"cx-0009", "Thousand Steps Temple", "Senkai-ji", "ja", "JP", 1998, 2004, "completed",
     "Goro Ishida", "Kurogane", "historical,action", 8.7,
     "Monks guard a stair no one has climbed."},
    {"cx-0010", "Clockwork Gardeners", "", "en", "CA", 2022, 0, "ongoing", "Ada Finch",
     "Quill & Tide", "science fiction,comedy", 7.0, "Robots inherit an overgrown greenhouse."},
    {"cx-0011", "Winter Signal", "Fuyu no Shingou", "ja", "JP", 2018, 0, "unknown", "Mei Tanabe",
     "Shiosai Books", "mystery", 7.4, "A signal box that receives messages from next winter."},
    {"cx-0012", "Harbor of Ash", "", "en", "AU", 2005, 2008, "completed", "Rosa Vey",
     "Southern Cross", "horror", 6.8, "A port town after the fire, and who came back."},
};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (char c : lower(text) + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      word += c;
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  return out;
}

std::vector<std::string> split(const char* list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

codex::SeriesMetadata to_metadata(const Row& row) {
  codex::SeriesMetadata m;
  m.externalId = row.id;
  codex::Title primary;
  primary.value = row.title;
  primary.language = "en";
  primary.primary = true;
  m.titles.push_back(primary);
  if (*row.native != '\0') {
    codex::Title native;
    native.value = row.native;
    native.language = row.language;
    m.titles.push_back(native);
  }
  m.summary = row.summary;
  m.status = codex::SeriesStatus::from_wire(row.status);
  m.year = row.year;
  if (row.year_end != 0) m.yearEnd = row.year_end;
  m.coverUrl = std::string("https://catalog.example/covers/") + row.id + ".jpg";
  m.genres = split(row.genres);
  m.authors = std::vector<codex::Person>{{row.author, "author"}};
  m.artists = std::vector<codex::Person>{{row.author, "artist"}};
  m.publisher = row.publisher;
  m.originalLanguage = row.language;
  m.country = row.country;
  m.rating = row.rating;
  m.ratingCount = static_cast<std::int64_t>(row.rating * 100);
  m.externalLinks = std::vector<codex::ExternalLink>{
      {"Catalog", std::string("https://catalog.example/s/") + row.id}};
  return m;
}

// How well `query` words cover a title: 100 for the exact title, less for partial cover.
double title_score(const std::vector<std::string>& query, const std::string& title) {
  std::vector<std::string> have = words(title);
  if (query.empty() || have.empty()) return 0;
  if (query == have) return 100;
  std::size_t found = 0;
  for (const std::string& w : query) {
    if (std::find(have.begin(), have.end(), w) != have.end()) ++found;
  }
  if (found < query.size()) return 0;  // every word must be there
  return 90.0 * static_cast<double>(query.size()) / static_cast<double>(have.size());
}

}  // namespace

Catalog::Catalog() {
  for (const Row& row : kRows) series_.push_back(to_metadata(row));
}

std::vector<Scored> Catalog::search(const std::string& query) const {
  std::vector<std::string> wanted = words(query);
  std::vector<Scored> hits;
  for (std::size_t i = 0; i < series_.size(); ++i) {
    double best = 0;
    for (const codex::Title& t : series_[i].titles)
      best = std::max(best, title_score(wanted, t.value));
    if (best > 0) hits.push_back({i, best});
  }
  std::stable_sort(hits.begin(), hits.end(),
                   [](const Scored& a, const Scored& b) { return a.score > b.score; });
  return hits;
}

std::vector<Scored> Catalog::match(const std::string& title, std::optional<std::int64_t> year,
                                   const std::optional<std::string>& author) const {
  std::vector<Scored> hits = search(title);
  for (Scored& hit : hits) {
    const codex::SeriesMetadata& s = series_[hit.index];
    // Hints move a candidate, never past the exact-title score.
    if (year && s.year) hit.score += *year == *s.year ? 5 : -20;
    if (author && s.authors && !s.authors->empty()) {
      hit.score += lower(*author) == lower((*s.authors)[0].name) ? 5 : -20;
    }
    hit.score = std::clamp(hit.score, 0.0, 100.0);
  }
  std::stable_sort(hits.begin(), hits.end(),
                   [](const Scored& a, const Scored& b) { return a.score > b.score; });
  return hits;
}

const codex::SeriesMetadata* Catalog::find(const std::string& external_id) const {
  for (const codex::SeriesMetadata& s : series_) {
    if (s.externalId == external_id) return &s;
  }
  return nullptr;
}

codex::SearchResult Catalog::result(const Scored& hit) const {
  const codex::SeriesMetadata& s = series_[hit.index];
  codex::SearchResult r;
  r.externalId = s.externalId;
  r.title = s.titles.front().value;
  if (s.titles.size() > 1) {
    r.alternateTitles = std::vector<codex::Title>(s.titles.begin() + 1, s.titles.end());
  }
  r.year = s.year;
  r.coverUrl = s.coverUrl;
  r.summary = s.summary;
  r.status = s.status;
  r.score = hit.score;
  r.providerData = std::map<std::string, rpckit::JsonValue>{
      {"catalogIndex", rpckit::JsonValue(nlohmann::json(hit.index))}};
  return r;
}

}  // namespace codex_sample
