#pragma once
// What validation needs to know of a protocol, read from its schema (protocol.json and the
// files it names) through rpckit::model: each message's envelope schema, kind, direction and
// result schema; the JSON-RPC response schemas (jsonrpc.json next to protocol.json); the frame
// cap and framing from x-profile. Then ProtocolValidator checks one payload or one envelope.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rpckit/model/protocol.hpp"
#include "rpckit/validate/schema_store.hpp"
#include "rpckit/validate/schema_validator.hpp"

namespace rpckit::validate {

struct MessageSchema {
  std::string method;
  bool request = true;       // x-kind
  // x-direction "host_to_plugin": {"host", "plugin"}; both ways for a message both sides send.
  std::vector<std::pair<std::string, std::string>> routes;
  SchemaRef envelope;        // the message file: the whole request or notification
  std::optional<SchemaRef> params;  // its properties/params, when the file has one
  std::optional<SchemaRef> result;  // x-result (requests)
  // x-result-when, in the order written: a request whose params carry the member is answered
  // with that result instead (MCP: `task` -> CreateTaskResult).
  std::vector<std::pair<std::string, SchemaRef>> results_when;

  // The x-result-when member a request's params carry, not null (the first written), or ""
  // (x-result answers).
  std::string result_chosen_by(const nlohmann::json& request_params) const;

  bool sent_by(const std::string& role) const;
  // The one role that sends it, or "" when both sides do (or x-direction is unreadable).
  std::string sender() const;
  std::string routes_text() const;  // "host to plugin", "client to server, server to client"
};

// A one-shot exchange (x-exchange, a protocol that is not JSON-RPC): the messages in the order
// they cross, each a type of x-types told apart by its discriminator const.
struct ExchangeStepSchema {
  std::string from;       // a role
  std::string type;       // the type's title
  bool correlated = false;  // the type has the correlation member
  int answers = -1;         // the step it answers: the last earlier one from the other side
                            // (with the correlation member, when this one has it)
  SchemaRef schema;       // the type's schema
};
struct ExchangeSchema {
  std::string discriminator, correlation;
  std::vector<ExchangeStepSchema> steps;
};

class ProtocolSchema {
 public:
  // Throws SchemaLoadError.
  static std::shared_ptr<const ProtocolSchema> load(const std::filesystem::path& protocol_file);

  const MessageSchema* find(std::string_view method) const;
  const std::vector<std::string>& roles() const { return roles_; }
  const std::map<std::string, MessageSchema, std::less<>>& messages() const { return messages_; }
  // jsonrpc.json#/definitions/{Response,ErrorResponse,ErrorObject}, when the protocol has them.
  const std::optional<SchemaRef>& response() const { return response_; }
  const std::optional<SchemaRef>& error_response() const { return error_response_; }
  const std::optional<SchemaRef>& error_object() const { return error_object_; }
  std::optional<std::uint64_t> max_frame_bytes() const { return max_frame_bytes_; }
  std::optional<std::size_t> max_json_depth() const { return max_json_depth_; }
  const std::string& framing() const { return framing_; }  // "content-length", "ndjson" or ""
  // x-exchange, when the protocol is a one-shot exchange rather than JSON-RPC messages.
  const std::optional<ExchangeSchema>& exchange() const { return exchange_; }
  // x-profile's spawned role ("plugin") and the other one ("host"); "" when not named.
  const std::string& spawned_role() const { return spawned_; }
  std::string spawner_role() const;
  std::shared_ptr<const SchemaStore> store() const { return store_; }
  // The protocol's annotations as rpckit::model read them, over the store's loaded files.
  const model::Protocol& model() const { return *model_; }

 private:
  std::shared_ptr<const SchemaStore> store_;
  std::optional<model::Protocol> model_;
  std::vector<std::string> roles_;
  std::map<std::string, MessageSchema, std::less<>> messages_;
  std::optional<SchemaRef> response_, error_response_, error_object_;
  std::optional<std::uint64_t> max_frame_bytes_;
  std::optional<std::size_t> max_json_depth_;
  std::string framing_;
  std::string spawned_;
  std::optional<ExchangeSchema> exchange_;
};

enum class Part : std::uint8_t { kParams, kResult, kError };

class ProtocolValidator {
 public:
  explicit ProtocolValidator(std::shared_ptr<const ProtocolSchema> protocol,
                             ValidateOptions options = {});

  // One payload of `method`: its params, its result, or an error object. An unknown method
  // is one violation (keyword "method"). A result answers a request whose params carried the
  // member `request_with`: its x-result-when entry's schema, x-result when it has none ("").
  Violations payload(std::string_view method, Part part, const nlohmann::json& value,
                     std::string_view request_with = {}) const;
  // A whole request or notification (the method picks the schema), or a response, whose
  // result is checked against `response_to`'s result schema when given (`request_with`: as
  // for payload()).
  Violations envelope(const nlohmann::json& envelope,
                      std::optional<std::string_view> response_to = std::nullopt,
                      std::string_view request_with = {}) const;

  const ProtocolSchema& protocol() const { return *protocol_; }
  const SchemaValidator& schemas() const { return validator_; }

 private:
  // error.data of an error object against its code's schema (x-error-data), when the code has
  // one; each instance pointer starts with `at` ("/data", "/error/data").
  Violations error_data(const nlohmann::json& error, const std::string& at) const;

  std::shared_ptr<const ProtocolSchema> protocol_;
  SchemaValidator validator_;
};

}  // namespace rpckit::validate
