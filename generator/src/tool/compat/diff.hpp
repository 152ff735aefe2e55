#pragma once
// Pieces shared by the schema comparisons (internal to rpckit_compat).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "model.hpp"
#include "tool/compat/compat.hpp"

namespace rpckit::compat {

std::string location(const gen::Node& node);  // "types/channel.json#/properties/login"
std::string json_text(const gen::Json& j);    // compact JSON, for "what changed"

// How the version constant changed. Numbers: greater is a major step. Dotted numbers ("1.2"):
// a greater first number is major, a greater rest with the same first number is minor.
// Anything else that differs counts as major; lower or sideways is kOther.
enum class VersionStep { kNone, kMajor, kMinor, kOther };
VersionStep version_step(const gen::Json& before, const gen::Json& after);

// The changes found so far, in discovery order. A change met again through another message
// (a shared type reached from several payloads) is kept once, with every payload in `via`.
class Changes {
 public:
  void add(Change change);
  std::vector<Change> take() { return std::move(list_); }

 private:
  std::vector<Change> list_;
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, std::size_t>
      index_;
};

// One payload's way across the wire: who writes it and who reads it.
struct Flow {
  std::string direction;  // "host_to_plugin"; "" for a type no message carries
  std::string sender;     // "host"; "writers" off the wire
  std::string receiver;   // "plugin"; "readers" off the wire
  std::string via;        // "on_stream_start.params"
};

// What a protocol's messages and grants name as capabilities: the values of x-gate clauses
// and the handshake params member holding the grant (x-profile "grant").
struct Capabilities {
  std::set<std::string> gate_values;
  std::string handshake;  // method of x-profile lifecycle.handshake ("" = none)
  std::string grant;      // x-profile grant member ("" = none)
};
Capabilities capabilities_of(const model::Protocol& protocol);

// Structural comparison of the payload schemas, from the receiver's point of view.
class PayloadDiff {
 public:
  PayloadDiff(const model::Protocol& before, const model::Protocol& after,
              const CompareOptions& options, Capabilities capabilities, Changes& out)
      : before_protocol_(before),
        after_protocol_(after),
        before_(before.schemas()),
        after_(after.schemas()),
        options_(options),
        capabilities_(std::move(capabilities)),
        out_(out) {}

  // A member of two versions of an object (`key` of `before`/`after`, either may lack it), as
  // read by flow.receiver; `where` names the object ("ping": the envelope of ping).
  void compare_member(const gen::Node& before, const gen::Node& after, const std::string& key,
                      const Flow& flow, const std::string& where);
  // Two versions of one value's schema. `where` names it: "get_followed_live.result".
  void compare_value(const gen::Node& before, const gen::Node& after, const Flow& flow,
                     const std::string& where, bool grant = false);
  // Types (x-types roots and definitions) no payload reached in either version.
  void compare_unreached_types(const std::string& skip_location);

  struct Ctx;    // where the walk is: flow, anchor type, JSON path
  struct Shape;  // a schema node read for comparison: $refs followed, nullable unwrapped
  enum class Effect { kNarrower, kWider, kChanged, kAdditive, kApi };

 private:
  Shape shape_of(const gen::Node& node, const gen::SchemaSet& set, Ctx& ctx, bool is_new);
  void walk(const gen::Node& before, const gen::Node& after, Ctx ctx);
  void compare_shapes(const Shape& o, const Shape& n, const Ctx& ctx);
  void compare_constraints(const gen::Node& o, const gen::Node& n, const Ctx& ctx);
  void compare_enums(const Shape& o, const Shape& n, const Ctx& ctx);
  void compare_objects(const Shape& o, const Shape& n, const Ctx& ctx);
  void compare_alternatives(const Shape& o, const Shape& n, const Ctx& ctx);
  void compare_map_and_object(const Shape& o, const Shape& n, const Ctx& ctx);
  void member_diff(const gen::Node& o, const gen::Node& n, const std::string& key, const Ctx& ctx);
  void compare_unions(const Shape& o, const Shape& n, const Ctx& ctx);
  void compare_default(const gen::Node& o, const gen::Node& n, const Ctx& ctx);
  void compare_type(const std::string& file, const std::string& pointer, const std::string& name);

  void report(const Ctx& ctx, Effect effect, const std::string& rule, const std::string& change,
              const std::string& why, const std::string& old_location,
              const std::string& new_location);

  const model::Protocol& before_protocol_;
  const model::Protocol& after_protocol_;
  const gen::SchemaSet& before_;
  const gen::SchemaSet& after_;
  const CompareOptions& options_;
  Capabilities capabilities_;
  Changes& out_;
  std::set<std::string> reached_before_, reached_after_;  // file#pointer of every node walked
};

// Protocol-level comparisons (protocol_diff.cpp: protocol.json, constants, error codes) and
// the messages' (message_diff.cpp); the message payloads go through `payloads`.
void compare_protocol(const model::Protocol& before, const model::Protocol& after,
                      const CompareOptions& options, Report& report, Changes& out);
void compare_messages(const model::Protocol& before, const model::Protocol& after,
                      PayloadDiff& payloads, Changes& out);

// Shared by protocol_diff.cpp and message_diff.cpp.
std::string both_sides(const model::Protocol& protocol);  // "host and plugin"
Change protocol_change(Verdict verdict, std::string rule, std::string affected, std::string where,
                       std::string change, std::string why, std::string old_location,
                       std::string new_location, std::string direction = "");
std::optional<gen::Node> child_if(const gen::Node& node, const std::string& key);
std::string text_or_none(const std::optional<gen::Node>& n);  // its JSON, or "none"
std::string loc_or_empty(const std::optional<gen::Node>& n);

// The C++ API of both versions (lower + emit), as breaking changes ("C++ API").
void compare_api(const gen::SchemaSet& before, const gen::SchemaSet& after, Changes& out);

}  // namespace rpckit::compat
