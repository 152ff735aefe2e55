#pragma once
// Logger: lines for the plugin's log file. Through the host's `log` method when the grant has
// it, else on stderr, which the host appends to the same log file (spec 9.4).
#include <string_view>

#include "rpckit/streamnook/host_api.hpp"

namespace rpckit::streamnook {

class Logger {
 public:
  explicit Logger(HostApi& host) : host_(host) {}

  void write(const sn::LogLevel& level, std::string_view message);
  void debug(std::string_view message) { write(sn::LogLevel::kDebug, message); }
  void info(std::string_view message) { write(sn::LogLevel::kInfo, message); }
  void warning(std::string_view message) { write(sn::LogLevel::kWarning, message); }
  void error(std::string_view message) { write(sn::LogLevel::kError, message); }

 private:
  HostApi& host_;
};

}  // namespace rpckit::streamnook
