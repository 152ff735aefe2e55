#include "formats.hpp"

#include <array>
#include <charconv>
#include <map>
#include <memory>
#include <string>

#include <re2/re2.h>

namespace rpckit::validate {
namespace {

int to_int(re2::StringPiece digits) {
  int out = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), out);
  return out;
}

bool leap_year(int year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

bool is_date(std::string_view s) {
  static const RE2 re(R"(^(\d\d\d\d)-(\d\d)-(\d\d)$)");
  re2::StringPiece y, m, d;
  if (!RE2::FullMatch(s, re, &y, &m, &d)) return false;
  static constexpr std::array<int, 13> kDays = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const int year = to_int(y), month = to_int(m), day = to_int(d);
  if (month < 1 || month > 12 || day < 1) return false;
  if (month == 2 && day == 29) return leap_year(year);
  return day <= kDays[static_cast<std::size_t>(month)];
}

bool is_time(std::string_view s) {
  // hh:mm:ss[.frac] and a zone (Z, ±hh, ±hhmm or ±hh:mm), as ajv-formats' full mode reads it:
  // a leap second only where the time is 23:59:60 in UTC.
  static const RE2 re(R"(^(\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:[zZ]|([+-])(\d\d)(?::?(\d\d))?)$)");
  re2::StringPiece h, m, sec, sign, oh, om;
  if (!RE2::FullMatch(s, re, &h, &m, &sec, &sign, &oh, &om)) return false;
  const int hour = to_int(h), minute = to_int(m), second = to_int(sec);
  const int zone_hours = oh.empty() ? 0 : to_int(oh), zone_minutes = om.empty() ? 0 : to_int(om);
  if (zone_hours > 23 || zone_minutes > 59) return false;
  if (hour <= 23 && minute <= 59 && second <= 59) return true;
  const int direction = sign == "-" ? -1 : 1;
  const int utc_minute = minute - zone_minutes * direction;
  const int utc_hour = hour - zone_hours * direction - (utc_minute < 0 ? 1 : 0);
  return (utc_hour == 23 || utc_hour == -1) && (utc_minute == 59 || utc_minute == -1) &&
         second <= 60;
}

bool is_date_time(std::string_view s) {
  // ajv-formats splits at /t|\s/i: 'T', 't' or any ECMAScript white space or line terminator.
  static const std::string separators =
      R"(tT\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F})"
      R"(\x{3000}\x{FEFF})";
  static const RE2 re("(?s)^([^" + separators + "]*)[" + separators + "](.*)$");
  re2::StringPiece date, time;
  return RE2::FullMatch(s, re, &date, &time) && is_date(date) && is_time(time);
}

// URI and URI-reference as ajv-formats' full mode reads them (RFC 3986 by the regex of
// jmrware.com/articles/2009/uri_regexp, with its looseness: "https://host:port/" passes as
// "https:/" and a path), its /i spelled out as ASCII classes (RE2's (?i) folds U+212A to k).
constexpr const char* kAjvUri =
    R"(^(?:[a-zA-Z][a-zA-Z0-9+\-.]*:)(?:\/?\/(?:(?:[a-zA-Z0-9\-._~!$&'()*+,;=:]|%[0-9a-fA-F)"
    R"(]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-fA-F]{1,4}:){6}|::(?:[0-9a-fA-F]{1,4}:){5}|(?:[0-9a-)"
    R"(fA-F]{1,4})?::(?:[0-9a-fA-F]{1,4}:){4}|(?:(?:[0-9a-fA-F]{1,4}:){0,1}[0-9a-fA-F]{1,4})"
    R"()?::(?:[0-9a-fA-F]{1,4}:){3}|(?:(?:[0-9a-fA-F]{1,4}:){0,2}[0-9a-fA-F]{1,4})?::(?:[0-)"
    R"(9a-fA-F]{1,4}:){2}|(?:(?:[0-9a-fA-F]{1,4}:){0,3}[0-9a-fA-F]{1,4})?::[0-9a-fA-F]{1,4})"
    R"(:|(?:(?:[0-9a-fA-F]{1,4}:){0,4}[0-9a-fA-F]{1,4})?::)(?:[0-9a-fA-F]{1,4}:[0-9a-fA-F]{)"
    R"(1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:)"
    R"([0-9a-fA-F]{1,4}:){0,5}[0-9a-fA-F]{1,4})?::[0-9a-fA-F]{1,4}|(?:(?:[0-9a-fA-F]{1,4}:))"
    R"({0,6}[0-9a-fA-F]{1,4})?::)|[Vv][0-9a-fA-F]+\.[a-zA-Z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:)"
    R"(25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-zA-Z0-9\-._~)"
    R"(!$&'()*+,;=]|%[0-9a-fA-F]{2})*)(?::\d*)?(?:\/(?:[a-zA-Z0-9\-._~!$&'()*+,;=:@]|%[0-9a)"
    R"(-fA-F]{2})*)*|\/(?:(?:[a-zA-Z0-9\-._~!$&'()*+,;=:@]|%[0-9a-fA-F]{2})+(?:\/(?:[a-zA-Z)"
    R"(0-9\-._~!$&'()*+,;=:@]|%[0-9a-fA-F]{2})*)*)?|(?:[a-zA-Z0-9\-._~!$&'()*+,;=:@]|%[0-9a)"
    R"(-fA-F]{2})+(?:\/(?:[a-zA-Z0-9\-._~!$&'()*+,;=:@]|%[0-9a-fA-F]{2})*)*)(?:\?(?:[a-zA-Z)"
    R"(0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-fA-F]{2})*)?(?:#(?:[a-zA-Z0-9\-._~!$&'()*+,;=:@/?]|%)"
    R"([0-9a-fA-F]{2})*)?$)";
constexpr const char* kAjvUriReference =
    R"(^(?:[a-zA-Z][a-zA-Z0-9+\-.]*:)?(?:\/?\/(?:(?:[a-zA-Z0-9\-._~!$&'()*+,;=:]|%[0-9a-fA-)"
    R"(F]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-fA-F]{1,4}:){6}|::(?:[0-9a-fA-F]{1,4}:){5}|(?:[0-9a)"
    R"(-fA-F]{1,4})?::(?:[0-9a-fA-F]{1,4}:){4}|(?:(?:[0-9a-fA-F]{1,4}:){0,1}[0-9a-fA-F]{1,4)"
    R"(})?::(?:[0-9a-fA-F]{1,4}:){3}|(?:(?:[0-9a-fA-F]{1,4}:){0,2}[0-9a-fA-F]{1,4})?::(?:[0)"
    R"(-9a-fA-F]{1,4}:){2}|(?:(?:[0-9a-fA-F]{1,4}:){0,3}[0-9a-fA-F]{1,4})?::[0-9a-fA-F]{1,4)"
    R"(}:|(?:(?:[0-9a-fA-F]{1,4}:){0,4}[0-9a-fA-F]{1,4})?::)(?:[0-9a-fA-F]{1,4}:[0-9a-fA-F])"
    R"({1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?)"
    R"(:[0-9a-fA-F]{1,4}:){0,5}[0-9a-fA-F]{1,4})?::[0-9a-fA-F]{1,4}|(?:(?:[0-9a-fA-F]{1,4}:)"
    R"(){0,6}[0-9a-fA-F]{1,4})?::)|[Vv][0-9a-fA-F]+\.[a-zA-Z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?)"
    R"(:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-zA-Z0-9\-._)"
    R"(~!$&'"()*+,;=]|%[0-9a-fA-F]{2})*)(?::\d*)?(?:\/(?:[a-zA-Z0-9\-._~!$&'"()*+,;=:@]|%[0)"
    R"(-9a-fA-F]{2})*)*|\/(?:(?:[a-zA-Z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-fA-F]{2})+(?:\/(?:[a-)"
    R"(zA-Z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-fA-F]{2})*)*)?|(?:[a-zA-Z0-9\-._~!$&'"()*+,;=:@]|)"
    R"(%[0-9a-fA-F]{2})+(?:\/(?:[a-zA-Z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-fA-F]{2})*)*)?(?:\?(?)"
    R"(:[a-zA-Z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-fA-F]{2})*)?(?:#(?:[a-zA-Z0-9\-._~!$&'"()*+)"
    R"(,;=:@/?]|%[0-9a-fA-F]{2})*)?$)";

bool is_uri(std::string_view s) {
  static const RE2 re(kAjvUri);
  return s.find_first_of("/:") != std::string_view::npos && RE2::FullMatch(s, re);
}

bool is_uri_reference(std::string_view s) {
  static const RE2 re(kAjvUriReference);
  return RE2::FullMatch(s, re);
}

bool is_hostname(std::string_view s) {
  static const RE2 re(
      R"(^[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[-0-9A-Za-z]{0,61}[0-9A-Za-z])?)*\.?$)");
  return s.size() <= 253 && RE2::FullMatch(s, re);
}

bool is_email(std::string_view s) {
  static const RE2 re(
      R"(^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?$)");
  return RE2::FullMatch(s, re);
}

bool is_ipv4(std::string_view s) {
  static const RE2 re(R"(^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$)");
  return RE2::FullMatch(s, re);
}

bool is_ipv6(std::string_view s) {
  // Groups of 1-4 hex digits, at most one "::", optionally ending in a dotted IPv4.
  std::string text(s);
  std::string tail_v4;
  if (auto dot = text.find('.'); dot != std::string::npos) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || !is_ipv4(text.substr(colon + 1))) return false;
    tail_v4 = text.substr(colon + 1);
    text = text.substr(0, colon + 1) + "0:0";  // the IPv4 part counts as two groups
  }
  const auto gap = text.find("::");
  if (gap != std::string::npos && text.find("::", gap + 1) != std::string::npos) return false;
  static const RE2 group(R"(^[0-9A-Fa-f]{1,4}$)");
  auto count = [&](std::string_view part, int& groups) {
    if (part.empty()) return true;
    std::size_t start = 0;
    while (true) {
      const auto end = part.find(':', start);
      const auto piece = part.substr(start, end == std::string_view::npos ? end : end - start);
      if (!RE2::FullMatch(piece, group)) return false;
      ++groups;
      if (end == std::string_view::npos) return true;
      start = end + 1;
    }
  };
  int groups = 0;
  if (gap == std::string::npos) return count(text, groups) && groups == 8;
  const std::string_view all(text);
  return count(all.substr(0, gap), groups) && count(all.substr(gap + 2), groups) && groups < 8;
}

bool is_uuid(std::string_view s) {
  static const RE2 re(R"(^(?:urn:uuid:)?[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$)");
  return RE2::FullMatch(s, re);
}

}  // namespace

bool matches_format(std::string_view format, std::string_view value) {
  using Check = bool (*)(std::string_view);
  static const std::map<std::string_view, Check> kChecks = {
      {"date-time", is_date_time}, {"date", is_date},   {"time", is_time},
      {"uri", is_uri},             {"uri-reference", is_uri_reference},
      {"hostname", is_hostname},   {"email", is_email}, {"ipv4", is_ipv4},
      {"ipv6", is_ipv6},           {"uuid", is_uuid}};
  auto it = kChecks.find(format);
  return it == kChecks.end() || it->second(value);
}

}  // namespace rpckit::validate
