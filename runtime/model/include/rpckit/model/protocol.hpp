#pragma once
// A protocol as its loaded schema states it: the annotation keywords of protocol.json and its
// message files (schema/README.md), each read once here and handed out with where it is
// written. The readers (validation now; the generator's lowering, compat and docs next) take
// their values from here instead of looking an "x-" keyword up themselves (annotations.hpp
// spells the keywords).
//
// Linking is tolerant: a keyword of the wrong form is left absent or empty, never an error,
// so a draft the generator refuses can still be validated against and compared. The
// generator's lowering is where a malformed annotation is reported.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rpckit/model/annotations.hpp"
#include "rpckit/model/schema_set.hpp"

namespace rpckit::model {

// One entry of x-messages: its file and what the file says of the message.
struct Message {
  Node file;                      // the message file: the whole request or notification
  std::string method;             // properties/method/const ("" when that is not a string)
  std::optional<Node> params;     // properties/params
  std::optional<Node> result;     // x-result
  // x-result-when: {"<params member>": <schema>}: a request whose params carry that member is
  // answered with that result instead (MCP's task-augmented requests: CreateTaskResult).
  std::optional<Node> result_when;
  std::optional<Node> kind;       // x-kind, as written
  std::optional<Node> direction;  // x-direction, as written
  std::optional<Node> gate;       // x-gate, as written
  std::optional<Node> errors;     // x-errors, as written
  std::optional<Node> deadline;   // x-deadline, as written

  // x-kind "request", or no x-kind (the convention's default).
  bool request() const;
  // x-result-when's entries, in the order written: the params member and its result schema.
  // Empty when it is absent or not an object.
  std::vector<std::pair<std::string, Node>> results_when() const;
  // x-direction "host_to_plugin" as {{"host", "plugin"}}; an array of such strings (a message
  // both sides send) gives one pair each. Empty when it is absent or not of that form.
  std::vector<std::pair<std::string, std::string>> routes() const;
};

// One step of x-exchange: who sends it and the x-types file whose title is its type.
struct ExchangeStep {
  std::string from;            // a role
  std::string type;            // a type's title
  std::optional<Node> schema;  // the x-types file with that title (none: no such file)
};

// x-exchange: a protocol that is a one-shot exchange of typed messages, not JSON-RPC.
struct Exchange {
  Node node;
  std::string discriminator, correlation;
  std::vector<ExchangeStep> steps;
};

// An error code whose error.data has a schema: an entry of x-error-data, which the enum of
// error codes (x-error-codes) carries.
struct ErrorDataSchema {
  Json code;         // the code, as the enum lists it
  std::string name;  // its name (x-enum-names)
  Node schema;       // the schema of error.data under that code
};

class Protocol {
 public:
  // Reads the annotations of `schemas` (which must outlive the Protocol). Throws SchemaError
  // only when an x-messages or x-types entry names a file the set did not load.
  static Protocol link(const SchemaSet& schemas);

  const SchemaSet& schemas() const { return *schemas_; }
  Node root() const { return schemas_->root(); }

  // A protocol-level annotation (x-namespace, x-error-codes, ...) as written in protocol.json.
  std::optional<Node> annotation(Annotation a) const { return model::annotation(root(), a); }
  const std::vector<std::string>& roles() const { return roles_; }  // x-roles
  // x-messages as written (none: the file is not a protocol file), and its messages in order.
  const std::optional<Node>& message_list() const { return message_list_; }
  const std::vector<Message>& messages() const { return messages_; }
  const std::vector<Node>& type_files() const { return type_files_; }  // x-types, each file's root
  const std::optional<Node>& profile() const { return profile_; }      // x-profile
  const std::optional<Exchange>& exchange() const { return exchange_; }  // x-exchange

  // The const of protocol.json's property `name` (a protocol constant), when it has one.
  const Json* constant(std::string_view name) const;
  // The value of the constant that `settings` (x-profile, x-exchange) names under `key`
  // ("max_frame_bytes": "max_frame_bytes" names protocol.json's constant of that name).
  const Json* named_constant(const Node& settings, std::string_view key) const;
  // A string member of `settings` ("" when absent or not a string).
  static std::string text(const Node& settings, std::string_view key);
  // jsonrpc.json#/definitions/<name>, when the set loaded jsonrpc.json and it defines it.
  std::optional<Node> jsonrpc(std::string_view name) const;
  // The enum x-error-codes references, when it resolves.
  std::optional<Node> error_code_enum() const;
  // Its x-error-data, in the enum's order (an entry that names no code is left out here; the
  // generator reports it).
  const std::vector<ErrorDataSchema>& error_data() const { return error_data_; }

 private:
  explicit Protocol(const SchemaSet& schemas) : schemas_(&schemas) {}

  const SchemaSet* schemas_;
  std::vector<std::string> roles_;
  std::optional<Node> message_list_;
  std::vector<Message> messages_;
  std::vector<Node> type_files_;
  std::optional<Node> profile_;
  std::optional<Exchange> exchange_;
  std::vector<ErrorDataSchema> error_data_;
};

}  // namespace rpckit::model
