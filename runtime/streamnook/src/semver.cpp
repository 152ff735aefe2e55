// SemVer 2.0.0 validity and precedence (https://semver.org), for host_min and host versions.
#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "rpckit/streamnook/manifest.hpp"

namespace rpckit::streamnook {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}
bool all_digits(std::string_view s) {
  for (char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}
// A numeric identifier: digits, no leading zero except "0" itself.
bool is_numeric_identifier(std::string_view s) {
  return !s.empty() && all_digits(s) && (s.size() == 1 || s.front() != '0');
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    auto at = s.find(sep);
    parts.push_back(s.substr(0, at));
    if (at == std::string_view::npos) break;
    s.remove_prefix(at + 1);
  }
  return parts;
}

struct SemVer {
  std::string_view major, minor, patch;
  std::vector<std::string_view> pre_release;  // empty: a release
};

// SemVer 2.0.0 (https://semver.org, "Backus-Naur Form Grammar for Valid SemVer Versions").
std::optional<SemVer> parse_semver(std::string_view text) {
  if (auto plus = text.find('+'); plus != std::string_view::npos) {
    // Build metadata: non-empty identifiers of [0-9A-Za-z-]; leading zeros allowed.
    for (std::string_view id : split(text.substr(plus + 1), '.')) {
      if (id.empty()) return std::nullopt;
      for (char c : id) {
        if (!is_ident_char(c)) return std::nullopt;
      }
    }
    text = text.substr(0, plus);
  }
  SemVer v;
  if (auto dash = text.find('-'); dash != std::string_view::npos) {
    for (std::string_view id : split(text.substr(dash + 1), '.')) {
      if (id.empty()) return std::nullopt;
      for (char c : id) {
        if (!is_ident_char(c)) return std::nullopt;
      }
      if (all_digits(id) && !is_numeric_identifier(id)) return std::nullopt;  // "01"
      v.pre_release.push_back(id);
    }
    text = text.substr(0, dash);
  }
  auto core = split(text, '.');
  if (core.size() != 3) return std::nullopt;
  for (std::string_view n : core) {
    if (!is_numeric_identifier(n)) return std::nullopt;
  }
  v.major = core[0];
  v.minor = core[1];
  v.patch = core[2];
  return v;
}

// Numeric identifiers without leading zeros: a longer one is larger (no overflow, any size).
int compare_numeric(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int compare_identifier(std::string_view a, std::string_view b) {
  bool a_num = all_digits(a);
  bool b_num = all_digits(b);
  if (a_num && b_num) return compare_numeric(a, b);
  if (a_num != b_num) return a_num ? -1 : 1;  // numeric < alphanumeric
  int c = a.compare(b);                       // ASCII order
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int compare(const SemVer& a, const SemVer& b) {
  if (int c = compare_numeric(a.major, b.major); c != 0) return c;
  if (int c = compare_numeric(a.minor, b.minor); c != 0) return c;
  if (int c = compare_numeric(a.patch, b.patch); c != 0) return c;
  if (a.pre_release.empty() || b.pre_release.empty()) {
    if (a.pre_release.empty() == b.pre_release.empty()) return 0;
    return a.pre_release.empty() ? 1 : -1;  // a pre-release is lower than its release
  }
  std::size_t n = std::min(a.pre_release.size(), b.pre_release.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (int c = compare_identifier(a.pre_release[i], b.pre_release[i]); c != 0) return c;
  }
  if (a.pre_release.size() == b.pre_release.size()) return 0;
  return a.pre_release.size() < b.pre_release.size() ? -1 : 1;
}

}  // namespace

bool is_semver(std::string_view version) { return parse_semver(version).has_value(); }

std::optional<int> compare_semver(std::string_view a, std::string_view b) {
  auto va = parse_semver(a);
  auto vb = parse_semver(b);
  if (!va || !vb) return std::nullopt;
  return compare(*va, *vb);
}

}  // namespace rpckit::streamnook
