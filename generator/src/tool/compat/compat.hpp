#pragma once
// rpckit_compat: compares two versions of a protocol's schema and classifies every difference
// as additive or breaking, per side of the wire (docs/compat.md has the rules).
//
//   gen::SchemaSet before = gen::SchemaSet::load("old/protocol.json");
//   gen::SchemaSet after = gen::SchemaSet::load("schema/protocol.json");
//   compat::Report report = compat::compare(before, after);
//   if (report.fails()) std::cout << compat::render_table(report);
//
// Nothing here knows StreamNook: roles come from x-roles, directions from x-direction, the
// version constant from CompareOptions.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model.hpp"

namespace rpckit::compat {

enum class Verdict { kAdditive, kBreaking };
const char* verdict_name(Verdict v);  // "additive", "breaking"

// One difference between the two versions.
struct Change {
  Verdict verdict = Verdict::kBreaking;
  // A stable name of the rule that classified it ("member.required_added"), for tools and tests.
  std::string rule;
  // "host_to_plugin" for a payload on the wire; "" for the protocol itself, for a type no
  // message carries (read and written by applications: the manifest) and for the C++ API.
  std::string direction;
  // Who is affected, in words: "plugin (new) <- host (old)": a new plugin receiving from an
  // old host; "plugin (old) <- host (new)"; "host and plugin"; "C++ API".
  std::string affected;
  // The message or type, then a JSON path inside it: "Channel.login", "notify params.level",
  // "message set_status", "constant ping_interval_ms".
  std::string where;
  std::string change;  // what changed: "new required member", "maximum 10 -> 5"
  std::string why;     // why that verdict, for this side
  // file#pointer in the new schema, and in the old one ("" where the node does not exist).
  std::string new_location;
  std::string old_location;
  // The message payloads that carry the changed type ("on_stream_start params", ...).
  std::vector<std::string> via;
  // Why this breaking change was accepted without a version bump (an Acceptance that names
  // it); "" when it was not.
  std::string accepted;

  const std::string& location() const { return new_location.empty() ? old_location : new_location; }
};

// A breaking change recorded as accepted without a version bump (`rpckit compat --accept
// FILE`): a correction no released peer can depend on, say. It names the change by rule and
// where, exactly as the report shows them, and says why.
struct Acceptance {
  std::string rule;
  std::string where;
  std::string why;
};

// Reads an acceptance file: one `<rule> <where> -- <why>` per line; blank lines and lines
// starting with # are skipped. Throws std::runtime_error naming the line of a malformed one.
std::vector<Acceptance> parse_acceptances(const std::string& text);

struct CompareOptions {
  // The protocol.json constant whose bump allows breaking changes.
  std::string version_constant = "protocol_version";
  // Enums (by type name: "CredentialKind", or file#pointer) whose receivers reject values they
  // do not list. Every other enum is open, as the generated decoders are: an unknown value
  // decodes to kUnknown and re-encodes unchanged.
  std::set<std::string> closed_enums;
  // Also compare the C++ API the generator makes of each version (lower + emit).
  bool compare_api = true;
  // Breaking changes that do not need a version bump.
  std::vector<Acceptance> accepted;
};

struct Report {
  std::vector<Change> changes;  // schema order: protocol, messages, payloads, types, C++ API
  // The version constant's JSON text in each version (nullopt: no such constant).
  std::optional<std::string> old_version, new_version;
  bool version_bumped = false;  // new_version is greater than old_version

  // Acceptances that named no change: stale, so they fail the check until removed (an
  // acceptance must not outlive its change and silently cover a later one).
  std::vector<Acceptance> unused_acceptances;

  std::size_t count(Verdict v) const;
  bool breaking() const { return count(Verdict::kBreaking) != 0; }
  // Breaking changes an Acceptance covers.
  std::size_t accepted() const;
  // The check's outcome: a breaking change neither accepted nor allowed by a version bump, or
  // an acceptance that matches nothing.
  bool fails() const {
    return (count(Verdict::kBreaking) > accepted() && !version_bumped) ||
           !unused_acceptances.empty();
  }
};

// Throws gen::SchemaError when a version cannot be lowered (compare_api) and std::exception
// for anything else that stops the comparison.
Report compare(const gen::SchemaSet& before, const gen::SchemaSet& after,
               const CompareOptions& options = {});

}  // namespace rpckit::compat
