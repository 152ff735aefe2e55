#pragma once
// The generator's intermediate representation: plain structs, no JSON inside. Lowering makes
// every decision here (C++ names, optional/nullable, defaults, docs); emitters only print.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rpckit/model/location.hpp"

namespace rpckit::gen::ir {

// Where a piece of the IR came from, for diagnostics: "types/channel.json#/properties/login".
using Location = model::Location;

enum class Primitive : std::uint8_t { kString, kBool, kInt64, kUInt32, kDouble, kNull, kAny };

// A `pattern`: the schema's ECMAScript source (for messages) and its RE2 spelling (for
// matching in linear time; see rpckit/codec/ecmascript_pattern.hpp).
struct Pattern {
  std::string source;
  std::string re2;
  std::string message;  // x-error-messages: what a failure says instead of the regex ("" = default)
};

// Validation the decoder performs on one use of a type (JSON Schema keywords of that use).
struct Constraints {
  std::optional<std::uint64_t> min_length, max_length;
  std::optional<Pattern> pattern, not_pattern;
  std::optional<double> minimum, maximum;
  std::optional<std::uint64_t> min_items, max_items;
  bool unique_items = false;
  bool date_time = false;  // format: date-time
  bool object = false;     // a free-form object (kept as "any"): the value must be an object

  bool empty() const {
    return !min_length && !max_length && !pattern && !not_pattern && !minimum && !maximum &&
           !min_items && !max_items && !unique_items && !date_time && !object;
  }
};

// A use of a type: a field's type, an array's items, a map's values, a union member.
struct TypeRef {
  enum class Kind : std::uint8_t { kPrimitive, kNamed, kArray, kMap };
  Kind kind = Kind::kPrimitive;
  Primitive primitive = Primitive::kAny;  // kPrimitive
  std::string name;                       // kNamed: a TypeDecl's name
  std::shared_ptr<TypeRef> element;       // kArray items, kMap values
  bool nullable = false;                  // the JSON may be null: rpckit::Nullable<T>
  Constraints constraints;
  std::string alias;  // spelled as this TypeDecl alias's name (kMap uses of a named map)
};

struct Field {
  std::string wire_name;  // the JSON key, verbatim
  std::string cpp_name;   // wire_name, made a legal identifier
  std::string doc;
  TypeRef type;
  bool required = false;
  // JSON text of the schema's "const": the member is not stored, always written, checked.
  std::optional<std::string> const_json;
  // The schema's "default" (optional fields only), as JSON text: `<wire>_or_default()`
  // returns it when the field is absent. `default_cpp` is set when the default has a plain C++
  // expression (inline accessor); otherwise the accessor decodes default_json once.
  std::optional<std::string> default_json;
  std::optional<std::string> default_cpp;
  std::string default_accessor;  // "level_or_default" ("default" -> "default_or_default")
  Location loc;
};

// The C++ member of an open struct that keeps its undeclared members.
inline constexpr const char* kRestMember = "additional_properties";

struct Struct {
  std::vector<Field> fields;
  // `additionalProperties` beside `properties` (an object schema or true): the struct is open,
  // and the members it does not declare are kept, each of this type, in a map named
  // kRestMember. Absent (or false): they are ignored on decode.
  std::optional<TypeRef> rest;
  // An "anyOf" of required lists beside `properties`: the wire names of each alternative, one
  // of which must be all present (TextResourceContents | BlobResourceContents as one struct).
  std::vector<std::vector<std::string>> required_any_of;
};

struct EnumValue {
  std::string wire;      // string value, or the integer as text
  std::string cpp_name;  // kPascalCase
  std::string label;     // the schema's name for it (x-enum-names), else the wire text
  std::string doc;
};

// Enums are open: a value the schema does not list decodes and re-encodes unchanged.
struct Enum {
  bool integer = false;  // integer enums are `enum class X : std::int32_t`
  std::vector<EnumValue> values;
  std::string from_name_function;  // integer enums: "error_code_from_string" (by label)
  std::string values_struct;       // string enums: "UiCapabilityValues" (rpckit::OpenEnum)
};

struct UnionMember {
  TypeRef type;
  std::string tag;  // discriminator value (tagged unions)
  // Untagged unions: the JSON kind that selects this member ("boolean", "number",
  // "integer", "string", "object", "array:string", "array:object", ...).
  std::string match;
};

// A variant of its members plus rpckit::JsonValue for anything a newer peer may send.
struct Union {
  std::optional<std::string> discriminator;  // wire key of the tag (tagged unions)
  std::vector<UnionMember> members;
};

struct TypeDecl {
  enum class Kind : std::uint8_t { kStruct, kEnum, kUnion, kAlias };
  Kind kind = Kind::kStruct;
  std::string name;
  std::string doc;
  Location loc;
  Struct struct_;
  Enum enum_;
  Union union_;
  TypeRef alias_;  // a named string map: `using Name = std::map<std::string, T>;`
  std::vector<std::string> depends_on;  // names of TypeDecls this one holds by value
  // Its JSON Schema on its own, as compact JSON text (structs, with x-type-schemas).
  std::optional<std::string> json_schema;
};

struct Constant {
  enum class Kind : std::uint8_t { kInteger, kNumber, kString, kBool, kDurationMs };
  std::string wire_name;
  std::string cpp_name;
  std::string doc;
  Kind kind = Kind::kInteger;
  bool array = false;
  std::vector<std::string> values;  // C++ literals (or JSON text of numbers)
};

struct GateClause {
  // As rpckit::GateClause::Kind (rpckit/descriptors/message.hpp).
  enum class Kind : std::uint8_t {
    kGrantedValue,
    kGrantedParam,
    kDeclaredParam,
    kCapability,
    kParamCapability,
    kSenderCapability,
    kKeyedCapability
  };
  Kind kind = Kind::kGrantedValue;
  std::string list;
  std::string value;
  std::string param;
};

struct Message {
  std::string method;
  std::string cpp_name;  // descriptor struct name (PascalCase of the method)
  // Its function in the generated handler and client ("get_followed_live"; "system.shutdown"
  // and "textDocument/didOpen" become "system_shutdown" and "textDocument_didOpen").
  std::string function_name;
  std::string doc;
  bool request = true;
  // Who sends it to whom: one route, or several for a message both sides send (MCP's ping).
  struct Route {
    std::string from, to;  // roles
    bool operator==(const Route&) const = default;
  };
  std::vector<Route> routes;
  bool goes(const std::string& from, const std::string& to) const {
    return std::find(routes.begin(), routes.end(), Route{from, to}) != routes.end();
  }
  bool sent_by(const std::string& role) const {
    return std::any_of(routes.begin(), routes.end(),
                       [&](const Route& r) { return r.from == role; });
  }
  bool received_by(const std::string& role) const {
    return std::any_of(routes.begin(), routes.end(), [&](const Route& r) { return r.to == role; });
  }
  std::string params_type;
  enum class ParamsPresence : std::uint8_t { kRequired, kOptionalSendEmpty, kOptionalOmit };
  ParamsPresence params_presence = ParamsPresence::kRequired;
  bool params_all_optional = false;  // `{}` is valid params: clients default them
  std::optional<TypeRef> result;          // requests only
  // x-result-when: a request whose params carry `member` is answered with `result` instead of
  // the message's own. Each is a descriptor of its own deriving from the message's (MCP:
  // ToolsCallWithTask, Result = CreateTaskResult) and a client function (tools_call_with_task).
  // The first written whose member the params carry answers.
  struct ResultWhen {
    std::string member;  // the params member, as written
    std::string field;   // its C++ name in the params struct
    TypeRef result;
    std::string cpp_name;       // "ToolsCallWithTask"
    std::string function_name;  // "tools_call_with_task"
  };
  std::vector<ResultWhen> results_when;
  std::vector<GateClause> gate;
  std::vector<std::string> errors;        // enumerator names of the error code enum
  // Constant cpp name (requests only): x-deadline, else the protocol's x-default-deadline.
  std::optional<std::string> deadline;
  Location loc;
};

// Messages from one role to another: a dispatch table ("PluginToHost").
struct Direction {
  std::string from, to;
  std::string cpp_name;
};

// The generated surface of a role that receives messages: the interface that handles them
// and the client a peer sends them through.
struct RoleSurface {
  std::string role;
  std::string handler;  // "HostHandler"
  std::string client;   // "HostClient"
};

// How the protocol travels and lives (protocol.json "x-profile"): what generic roles read
// instead of code. Message names are descriptor names; absent lifecycle messages are empty.
struct Profile {
  std::string framing;          // enumerator of rpckit::framing::Framing
  std::string max_frame_bytes;  // C++ name of an integer constant
  std::string max_json_depth;   // C++ name of an integer constant, or empty (runtime default)
  std::string id_sent;          // enumerator of rpckit::IdKind
  std::vector<std::string> ids_accepted;
  std::string spawned_role;     // the role run as a child process ("plugin")
  std::string spawner_role;     // the other one, which spawns it ("host")
  // What the generic roles are given (roles.hpp `Protocol`): the directions between the two
  // and each side's surfaces; empty where a side receives nothing.
  std::string to_spawned, to_spawner;            // direction C++ names
  std::string spawned_handler, spawned_client;   // surfaces of the spawned role
  std::string spawner_handler, spawner_client;
  std::string handshake, handshake_done, health_check, shutdown, exit;
  std::string grant_member;     // C++ field of the handshake params holding the grant
  // Wire member of the handshake result holding what the spawner's own gated messages are
  // checked against (MCP: the server's capabilities); empty: the spawner's grant is fixed.
  std::string result_grant_member;
  // "version": the wire member of the handshake result holding the version the spawned side
  // will speak (empty: no check), the C++ name of the string constant the spawner speaks, and
  // how they must match (enumerator of rpckit::VersionMatch).
  struct Version {
    std::string result_member;
    std::string constant;
    std::string match = "kExact";
  };
  Version version;
  // "before_handshake_done": the wire methods the spawned role may send before it has received
  // the handshake-done message, in the order written; nullopt: no such limit.
  std::optional<std::vector<std::string>> before_handshake_done;
  // "gate_on_receipt": the error-code enumerator ("ErrorCode::kMethodNotFound") a receiver
  // answers when its own handshake declarations refuse a clause of that kind; empty: the
  // receiver does not check that kind.
  struct GateOnReceipt {
    std::string capability;
    std::string keyed;
    std::string param;
  };
  GateOnReceipt gate_on_receipt;
  // A peer's error object without `code`: malformed when `missing_error_code` is empty
  // (strict), else read as that error-code enumerator ("ErrorCode::kPluginError"), and a
  // missing `message` as `missing_error_message` (a C++ string literal).
  std::string missing_error_code;
  std::string missing_error_message;
  bool stops_on_stdin_eof = false, stops_on_sigterm = false, stops_on_exit = false;
  bool stops_on_shutdown = false;  // once its answer to shutdown is written
  std::string after_shutdown = "kServe";  // enumerator of rpckit::AfterShutdown
  // Wire rules beyond JSON-RPC's letter (rpckit/descriptors/profile.hpp): enumerators and flags.
  std::string id_match = "kExact";
  bool jsonrpc_optional = false;
  bool blank_method_invalid = false;
  bool invalid_request_id_null = false;
  bool unknown_id_omitted = false;  // "unknown_id": "omit"
  // "cancel": the notification that cancels a request (its method; empty: none), the wire
  // names of its params members holding the id and the reason (empty: none), whether a call
  // given up at its deadline is cancelled, and the request never cancelled (the handshake's
  // method).
  struct Cancel {
    std::string method;
    std::string id_member;
    std::string reason_member;
    bool on_timeout = false;
    std::string uncancellable;
  };
  Cancel cancel;
  // "progress": the notification reporting progress on a request (its method; empty: none),
  // the wire name of its params member naming the request, and the dotted path of the token
  // in a request's params.
  struct Progress {
    std::string method;
    std::string token_member;
    std::string request_token;
  };
  Progress progress;
  bool split_on_cr = false;  // NDJSON lines end at a lone CR too
  // "error_data": the member, and the reason per runtime error in the order of
  // rpckit::ErrorReasons (parse_error, batch, invalid_request, method_not_found,
  // invalid_params, internal_error); an empty member: none.
  std::string error_data_member;
  std::vector<std::string> error_data_values;
  // What each side does with what its peer should not have sent (enumerators).
  struct Receive {
    std::string not_json = "kAnswer";
    std::string oversize;
    std::string stray_response = "kLog";
  };
  Receive spawned_receives, spawner_receives;
  std::string output_cap;  // C++ name of the integer constant capping a spawned role's output
  // The spawner's stop sequence: each step's rpckit::StopStep::Kind enumerator and, for a
  // wait, the C++ name of its duration constant.
  struct StopStep {
    std::string kind;
    std::string wait;
  };
  std::vector<StopStep> stop;
  // The lifecycle timers ("timings"), every one of them, in a fixed order: trait name
  // ("kHandshakeTimeout") and the C++ name of its constant; an empty constant is none (the
  // profile said "none", or the protocol has nothing the timer would apply to).
  struct Timing {
    std::string trait;
    std::string constant;
    enum class Kind : std::uint8_t { kDuration, kDurations, kCount } kind = Kind::kDuration;
  };
  std::vector<Timing> timings;
  // After a refused handshake the spawner runs the stop sequence (its steps that send nothing
  // of the protocol: close stdin, SIGTERM, the waits, the kill) rather than waiting
  // handshake_failure_exit_wait with nothing sent (timings: "handshake_failure_exit_wait":
  // "stop").
  bool handshake_failure_stops = false;
};

// A one-shot exchange (protocol.json "x-exchange"), for a protocol that is not JSON-RPC: the
// spawner starts one process per call and the two sides send a fixed sequence of messages,
// each a type of the module told apart by a discriminator member and, where it has one,
// matched to the message it answers by a correlation member; then the session ends.
struct Exchange {
  std::string framing;          // enumerator of rpckit::framing::Framing (NDJSON so far)
  std::string max_frame_bytes;  // C++ name of an integer constant
  bool strict_lines = false;    // a blank line is a (malformed) frame; a last line may end at EOF
  std::string spawned_role, spawner_role;
  std::string discriminator;  // wire key present, as a const, in every step's type
  std::string correlation;    // wire key, or empty
  struct Step {
    std::string from;      // a role of x-roles
    std::string type;      // a struct TypeDecl's name
    std::string tag;       // its discriminator value (the const), as a C++ string literal body
    bool correlated = false;  // the type has the correlation member
    int answers = -1;         // the step this one answers (the last one from the other side)
    std::string timeout;      // C++ name of a duration constant bounding its arrival, or empty
  };
  std::vector<Step> steps;
  std::string ends;  // how the session ends after the last step: "stdin_eof"
  // Duration constants (C++ names): the whole call, the spawn, the exit after the last step,
  // and the wait for a killed process to be reaped.
  std::string invoke_timeout, launch_timeout, teardown_timeout, reap_timeout;
};

// x-error-data: an error code whose error.data has a type.
struct ErrorData {
  std::string wire;        // the code ("-32042")
  std::string label;       // its name (x-enum-names): "url_elicitation_required"
  std::string enumerator;  // the error enum's C++ enumerator
  std::string cpp_name;    // the label as a C++ name, for make_<it>_error and <it>_data
  TypeRef type;
};

struct Module {
  std::string title;
  std::string doc;
  std::string cpp_namespace;  // "streamnook::v1"
  std::string name;           // output folder and target: "streamnook_v1"
  std::vector<std::string> roles;            // x-roles, wire names
  std::vector<std::string> role_enumerators;  // the same, as `enum class Role` ("kHost")
  std::vector<Constant> constants;
  std::vector<TypeDecl> types;  // dependency order
  std::vector<Message> messages;
  std::vector<Direction> directions;   // role order, only those with messages
  std::vector<RoleSurface> surfaces;   // role order, only roles that receive messages
  std::optional<Profile> profile;
  std::optional<Exchange> exchange;
  std::optional<std::string> error_code_type;  // integer enum used by Message::errors
  std::vector<ErrorData> error_data;           // the error enum's order
  std::string schema_hash;                    // fnv1a64 over every schema file, hex

  // The Role enumerator of a role of `roles`.
  const std::string& role_enumerator(const std::string& role) const;
};

}  // namespace rpckit::gen::ir
