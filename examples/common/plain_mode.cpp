#include "plain_mode.hpp"

#include <cstdio>

namespace rpckit_examples {

std::optional<PlainCall> parse_plain_call(const std::string& arg, std::string* error) {
  PlainCall call;
  auto eq = arg.find('=');
  call.method = arg.substr(0, eq);
  if (call.method.empty()) {
    *error = "--call needs a method: " + arg;
    return std::nullopt;
  }
  if (eq != std::string::npos) {
    nlohmann::json params = nlohmann::json::parse(arg.substr(eq + 1), nullptr, false);
    if (params.is_discarded()) {
      *error = "--call " + call.method + ": the params are not JSON: " + arg.substr(eq + 1);
      return std::nullopt;
    }
    call.params = std::move(params);
  }
  return call;
}

std::optional<std::vector<PlainCall>> parse_plain_calls(const std::vector<std::string>& args) {
  std::vector<PlainCall> calls;
  for (const std::string& arg : args) {
    std::string error;
    auto call = parse_plain_call(arg, &error);
    if (!call) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return std::nullopt;
    }
    calls.push_back(std::move(*call));
  }
  return calls;
}

nlohmann::json plain_line(const std::string& method, const rpckit::CallResult& result) {
  nlohmann::json line = {{"call", method}};
  if (result.ok()) {
    line["result"] = result.result();
    return line;
  }
  const rpckit::CallError& e = result.error();
  switch (e.kind) {
    case rpckit::CallError::Kind::kRemote: {
      nlohmann::json error = {{"code", e.error.code()}, {"message", e.error.message()}};
      if (e.error.data()) error["data"] = e.error.data()->get();
      line["error"] = std::move(error);
      break;
    }
    case rpckit::CallError::Kind::kTimeout: line["failed"] = "timeout"; break;
    case rpckit::CallError::Kind::kDisconnected: line["failed"] = "disconnected"; break;
    case rpckit::CallError::Kind::kSendFailed: line["failed"] = "send_failed"; break;
    case rpckit::CallError::Kind::kLocal: line["failed"] = "refused: " + e.error.message(); break;
    case rpckit::CallError::Kind::kCancelled:
      line["failed"] = "cancelled";
      break;
    case rpckit::CallError::Kind::kInvalidResult:
      line["failed"] = "invalid result: " + e.error.message();
      break;
  }
  return line;
}

int print_verdict(const rpckit::roles::SessionOutcome& outcome, std::size_t printed_before) {
  std::vector<std::string> violations = outcome.violations();
  for (std::size_t i = printed_before; i < violations.size(); ++i) {
    std::fprintf(stderr, "violation: %s\n", violations[i].c_str());
  }
  if (auto failure = outcome.failure()) {
    std::fprintf(stderr, "violation: %s\n", failure->describe().c_str());
  }
  return outcome.conformed() ? 0 : 1;
}

}  // namespace rpckit_examples
