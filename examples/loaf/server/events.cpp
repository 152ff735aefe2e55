#include "events.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace loaf_server {

std::string now_iso() {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t secs = system_clock::to_time_t(now);
  auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms));
  return buf;
}

bool EventSink::send(const nlohmann::json& envelope) const {
  loaf::v1::EventParams params;
  from_json(envelope, params);
  return client_.event(params);
}

}  // namespace loaf_server
