// RFC 3339 section 5.6 date-time, checked by hand: twenty lines beat a date library here.
#include "rpckit/codec/ascii.hpp"
#include "rpckit/codec/codec.hpp"

namespace rpckit::codec {
namespace {

int days_in_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// The number written by the digits at s[from, to); -1 if any is not a digit. The caller has
// checked the size.
int number_at(std::string_view s, std::size_t from, std::size_t to) {
  int value = 0;
  for (std::size_t i = from; i < to; ++i) {
    if (!ascii::is_digit(s[i])) return -1;
    value = value * 10 + (s[i] - '0');
  }
  return value;
}

}  // namespace

bool is_rfc3339_date_time(std::string_view s) {
  // "2024-05-18T14:02:11" at fixed places, then a fraction and an offset ("Z" or "+09:00").
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') ||
      s[13] != ':' || s[16] != ':') {
    return false;
  }
  const int year = number_at(s, 0, 4);
  const int month = number_at(s, 5, 7);
  const int day = number_at(s, 8, 10);
  const int hour = number_at(s, 11, 13);
  const int minute = number_at(s, 14, 16);
  const int second = number_at(s, 17, 19);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) ||
      hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
    return false;
  }
  std::size_t pos = 19;
  if (s[pos] == '.') {
    std::size_t start = ++pos;
    while (pos < s.size() && ascii::is_digit(s[pos])) ++pos;
    if (pos == start) return false;
  }
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) return pos + 1 == s.size();
  if (pos + 6 != s.size() || (s[pos] != '+' && s[pos] != '-') || s[pos + 3] != ':') return false;
  const int off_hour = number_at(s, pos + 1, pos + 3);
  const int off_minute = number_at(s, pos + 4, pos + 6);
  return off_hour >= 0 && off_hour <= 23 && off_minute >= 0 && off_minute <= 59;
}

}  // namespace rpckit::codec
