#include "server_wire.hpp"

#include <unistd.h>

#include <deque>
#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "rpckit/framing/fd_io.hpp"
#include "rpckit/roles/plugin_role.hpp"
#include "rpckit/roles/route.hpp"
#include "rpckit/roles/stdout_guard.hpp"

namespace loaf_server {

namespace v1 = loaf::v1;
using rpckit::JsonValue;
using rpckit::RpcError;

namespace {

JsonValue reason_data(std::string_view reason) {
  return JsonValue(nlohmann::json{{"reason", reason}});
}

// Methods whose params the spec marks "ignored": the descriptors' kOptionalOmit.
template <class... M>
bool ignores_params_in(std::string_view method, rpckit::MessageList<M...>*) {
  return ((M::kMethod == method && M::kParamsPresence == rpckit::ParamsPresence::kOptionalOmit) ||
          ...);
}
bool ignores_params(std::string_view method) {
  return ignores_params_in(method, static_cast<v1::ClientToServer::Messages*>(nullptr));
}

// "params.session_id: expected string" -> "session_id"; "params: ..." -> "".
std::string field_of(const std::string& message) {
  auto at = message.find("params.");
  if (at == std::string::npos) return {};
  std::string rest = message.substr(at + 7);
  auto end = rest.find_first_of(".[: ");
  return rest.substr(0, end);
}

// The spec's data for an error that has none yet.
RpcError with_data(const RpcError& e, std::string_view method) {
  if (e.data()) return e;
  switch (e.code()) {
    case rpckit::jsonrpc_code::kMethodNotFound:
      return RpcError(e.code(), e.message(),
                      JsonValue(nlohmann::json{{"reason", "method_not_found"},
                                               {"method", std::string(method)}}));
    case rpckit::jsonrpc_code::kInvalidParams: {
      nlohmann::json data{{"reason", "invalid_params"}};
      if (std::string field = field_of(e.message()); !field.empty()) data["field"] = field;
      return RpcError(e.code(), e.message(), JsonValue(std::move(data)));
    }
    default:
      return RpcError(rpckit::jsonrpc_code::kInternalError, e.message(),
                      reason_data("internal_error"));
  }
}

}  // namespace

rpckit::roles::PluginSettings plugin_settings() {
  auto s = rpckit::roles::detail::plugin_settings<v1::Profile>();
  s.lifecycle.health_check.clear();  // its result carries the current time
  s.lifecycle.shutdown.clear();      // it echoes a reason and emits state.changed first
  return s;
}

rpckit::roles::PluginSession::Route loaf_route(const rpckit::Router<v1::ClientToServer>& router) {
  return [&router](const std::string& method, const nlohmann::json* params) -> JsonValue {
    try {
      return rpckit::roles::route_or_throw(router, method,
                                           ignores_params(method) ? nullptr : params);
    } catch (const RpcError& e) {
      throw with_data(e, method);
    } catch (const std::exception& e) {
      throw RpcError(rpckit::jsonrpc_code::kInternalError, e.what(),
                     reason_data("internal_error"));
    }
  };
}

// Splits lines on a lone CR too, drops lines once shutdown was answered, and reports a
// stop_reading() as the end of input.
class ServerWire::Reader final : public rpckit::framing::FrameReader {
 public:
  Reader(ServerWire& wire, std::unique_ptr<rpckit::framing::FrameReader> inner)
      : wire_(wire), inner_(std::move(inner)) {}
  rpckit::framing::ReadResult read() override {
    for (;;) {
      if (!pending_.empty()) {
        std::string line = std::move(pending_.front());
        pending_.pop_front();
        if (wire_.ignoring_) continue;
        return {rpckit::framing::ReadStatus::kOk, std::move(line), {}};
      }
      auto got = inner_->read();
      if (wire_.stopping_) return {rpckit::framing::ReadStatus::kEof, {}, "stopped"};
      if (!got.ok()) return got;
      split(got.body);
    }
  }

 private:
  void split(const std::string& body) {
    std::size_t start = 0;
    while (start <= body.size()) {
      std::size_t cr = body.find('\r', start);
      std::string part = body.substr(start, cr == std::string::npos ? cr : cr - start);
      auto first = part.find_first_not_of(" \t");
      if (first != std::string::npos) {
        part = part.substr(first, part.find_last_not_of(" \t") - first + 1);
        pending_.push_back(std::move(part));
      }
      if (cr == std::string::npos) break;
      start = cr + 1;
    }
  }
  ServerWire& wire_;
  std::unique_ptr<rpckit::framing::FrameReader> inner_;
  std::deque<std::string> pending_;
};

// Gives the endpoint's own errors (parse error, invalid request) the spec's data.
class ServerWire::Writer final : public rpckit::framing::FrameWriter {
 public:
  explicit Writer(std::unique_ptr<rpckit::framing::FrameWriter> inner)
      : inner_(std::move(inner)) {}
  rpckit::framing::WriteResult write(std::string_view body) override {
    if (body.find("\"error\"") == std::string_view::npos) return inner_->write(body);
    nlohmann::json frame = nlohmann::json::parse(body, nullptr, false);
    if (!frame.is_object() || !frame.contains("error") || !frame["error"].is_object() ||
        frame["error"].contains("data") || frame.contains("method")) {
      return inner_->write(body);
    }
    nlohmann::json& error = frame["error"];
    int code = error.value("code", 0);
    std::string message = error.value("message", "");
    std::string reason = "internal_error";
    if (code == rpckit::jsonrpc_code::kParseError) {
      reason = "parse_error";
    } else if (code == rpckit::jsonrpc_code::kInvalidRequest) {
      reason = message.find("batch") != std::string::npos ? "batch_not_supported"
                                                           : "invalid_request";
    } else if (code == rpckit::jsonrpc_code::kInvalidParams) {
      reason = "invalid_params";
    }
    error["data"] = {{"reason", reason}};
    return inner_->write(frame.dump());
  }

 private:
  std::unique_ptr<rpckit::framing::FrameWriter> inner_;
};

void ServerWire::stop_reading() {
  stopping_ = true;
  std::lock_guard lock(mutex_);
  if (source_ != nullptr) source_->interrupt();
}

int ServerWire::serve(rpckit::roles::PluginSession& session) {
  using Profile = v1::Profile;
  rpckit::roles::StdoutGuard guard;
  rpckit::framing::InterruptibleFdSource source(STDIN_FILENO);
  rpckit::framing::FdSink sink(guard.protocol_fd());
  {
    std::lock_guard lock(mutex_);
    source_ = &source;
    if (stopping_) source.interrupt();
  }
  rpckit::Endpoint::Options options;
  options.interrupt_reader = [&source] { source.interrupt(); };
  auto reader = std::make_unique<Reader>(
      *this, rpckit::framing::make_reader(Profile::kFraming, source, Profile::kMaxFrameBytes));
  auto writer = std::make_unique<Writer>(
      rpckit::framing::make_writer(Profile::kFraming, sink, Profile::kMaxFrameBytes));
  int code = session.serve(std::move(reader), std::move(writer), std::move(options));
  std::lock_guard lock(mutex_);
  source_ = nullptr;
  return code;
}

}  // namespace loaf_server
