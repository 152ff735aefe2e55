// RFC 3339 section 5.6 date-time, checked by hand: twenty lines beat a date library here.
#include <cctype>

#include "rpckit/codec/codec.hpp"

namespace rpckit::codec {
namespace {

// Reads `count` digits at s[pos] into value; false if any is not a digit.
bool digits(std::string_view s, std::size_t pos, std::size_t count, int& value) {
  if (pos + count > s.size()) return false;
  value = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    value = value * 10 + (s[i] - '0');
  }
  return true;
}

int days_in_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

bool is_rfc3339_date_time(std::string_view s) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, month) ||
      s[7] != '-' || !digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') ||
      !digits(s, 11, 2, hour) || s[13] != ':' || !digits(s, 14, 2, minute) || s[16] != ':' ||
      !digits(s, 17, 2, second)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) || hour > 23 ||
      minute > 59 || second > 60) {
    return false;
  }
  std::size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    std::size_t start = ++pos;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
    if (pos == start) return false;
  }
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) return pos + 1 == s.size();
  int off_hour = 0, off_minute = 0;
  return pos + 6 == s.size() && (s[pos] == '+' || s[pos] == '-') &&
         digits(s, pos + 1, 2, off_hour) && s[pos + 3] == ':' &&
         digits(s, pos + 4, 2, off_minute) && off_hour <= 23 && off_minute <= 59;
}

}  // namespace rpckit::codec
