#pragma once
// The plugin manifest (<plugin dir>/plugin.toml, spec section 7): loading, then every rule
// checked with all violations collected while decoding into the generated
// streamnook::v1::Manifest. Also the install-time host_min gate and SemVer precedence.
//
// The rules are schema/manifest.json's, run by the generated decoder (collect mode, strict
// enums); the texts of its pattern rules are the schema's x-error-messages. This layer adds
// only what a schema cannot say: TOML loading and positions, hints for reserved values
// ("wasm", "socket"), for host methods gated elsewhere and for padded values, and SemVer order.
//
// Choices where the spec leaves room (each one deliberate):
// - Unknown keys are ignored, at the top level and inside [runtime], [capabilities] and
//   [contributes] (spec 8 and 9.6: both sides ignore unknown fields). A misspelled
//   capability list therefore requests nothing, which fails safe. Capability *values* are not
//   forward-compatible: an unknown string in a list is rejected (fail closed).
// - runtime.kind = "ui" passes the manifest check and produces no issue: the spec allows it
//   ("not a stdio plugin"), and whether a host runs ui plugins is the host's decision, not
//   the manifest's. A host that only runs process plugins checks manifest.runtime.kind itself.
// - runtime.entry is checked lexically (not empty, no leading / or \, no drive letter "C:",
//   no ".." segment with / or \ as separators, no NUL character). Whether the entry exists is
//   for the host to find out at spawn; load_manifest only warns when the directory lacks it.
// - Lengths (id, name, description) count Unicode code points, as JSON Schema does.
// - A value that is none of the expected kinds (args = "x", events = "on_x", a null) is one
//   issue naming the expected kind, in TOML words (table, float); the members of a list are
//   checked one by one, and every repeat in a list is reported.
// - TOML values with no JSON form (dates, times, date-times, non-finite floats) are issues
//   wherever they appear, even under keys that would otherwise be ignored: the manifest must
//   have a faithful JSON form (LoadedManifest::json).
//
// The spec is the contract: what it allows loads. What it allows but the real StreamNook host
// refuses or ignores (a plugin id part starting with "-", a ".." inside an entry name, a ui
// plugin that requests capabilities, runtime.ui_entry, an entry missing from the directory,
// ...) is a warning (ManifestResult::warnings), never an issue. schema/README.md ("The real
// StreamNook host") records each of the real host's rules, where it was read, and what rpckit
// does with it.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rpckit/values/json_value.hpp"
#include "streamnook_v1/types.hpp"

namespace rpckit::streamnook {

namespace sn = ::streamnook::v1;

// One violated rule.
struct ManifestIssue {
  // Dotted path of the offending field: "id", "runtime.kind", "capabilities.events[2]";
  // "plugin.toml" for a file that is missing, unreadable or not valid TOML; "(root)" for a
  // manifest that is not an object.
  std::string field;
  // The offending value as JSON text ("\"wasm\"", "[\"x\"]", "3"); empty when it is missing.
  std::string value;
  // What is wrong, as the decoder says it: "expected one of \"process\", \"ui\", got \"wasm\";
  // \"wasm\" is reserved and not supported (use \"process\")", "missing required field".
  std::string rule;
  // Where in plugin.toml, 1-based: the offending value, or for a missing one the table that
  // should hold it (1:1 for the top level). 0 when there is no position: the manifest was
  // checked as JSON (check_manifest), or the file itself is the problem (not found).
  std::size_t line = 0;
  std::size_t column = 0;
  // A warning (ManifestResult::warnings): the spec allows it, the real StreamNook host refuses
  // or ignores it.
  bool warning = false;

  // "runtime.kind = \"wasm\": expected one of ...", or "<field>: <rule>" when value is empty.
  std::string str() const;
  // "<file>:4:8: " + str(), or "<file>: " + str() without a position: the form compilers and
  // editors read; "<file>:4:8: warning: " + str() for a warning.
  std::string located(std::string_view file = "plugin.toml") const;

  friend bool operator==(const ManifestIssue&, const ManifestIssue&) = default;
};

struct LoadedManifest {
  sn::Manifest manifest;        // decoded; defaults NOT filled in (use the *_or_default())
  JsonValue json;               // the manifest as JSON (TOML converted), unknown keys kept
  std::filesystem::path dir;    // the plugin directory (absolute for load_manifest())
};

struct ManifestResult {
  std::optional<LoadedManifest> loaded;  // set only when issues is empty
  std::vector<ManifestIssue> issues;     // every violation found: in the order of the file
                                         // (load/parse_manifest), else of the schema
  // What the spec allows but the real StreamNook host refuses or ignores: the manifest still
  // loads (ok() does not look at these), but would not install or work there. Found with or
  // without issues, placed and ordered as they are; each has `warning` set.
  std::vector<ManifestIssue> warnings;
  bool ok() const { return issues.empty(); }
};

// Largest plugin.toml load_manifest() reads.
inline constexpr std::size_t kMaxManifestBytes = 1 << 20;

// Reads <plugin_dir>/plugin.toml, converts it to JSON and runs check_manifest(), locating each
// issue and warning in the file (ManifestIssue::line, column); also warns about runtime.entry
// (and runtime.ui_entry) when <plugin_dir> does not hold it. Never throws
// for a bad plugin: a missing, unreadable or oversized file, TOML syntax errors and nesting
// beyond the limits (dotted keys of more than 32 parts, JSON deeper than 256 levels) are
// issues with field "plugin.toml" (syntax errors say "line:column").
ManifestResult load_manifest(const std::filesystem::path& plugin_dir);

// The same for plugin.toml text already in memory (`dir` becomes LoadedManifest::dir).
ManifestResult parse_manifest(std::string_view toml_text, const std::filesystem::path& dir = {});

// Checks every rule of spec section 7 on the JSON form of a manifest, collecting all
// violations; when there are none, sets `loaded` to the decoded manifest.
ManifestResult check_manifest(const nlohmann::json& manifest, const std::filesystem::path& dir = {});

// The host_min gate (install is blocked on older hosts): an issue on "host_min" when
// host_version is older than manifest.host_min (SemVer precedence: a pre-release is older
// than its release). An invalid host_version (field "host_version") or host_min is an issue
// too: the gate fails closed.
std::optional<ManifestIssue> check_host_version(const sn::Manifest& manifest,
                                                std::string_view host_version);

// SemVer 2.0.0: -1, 0 or 1 as `a` has lower, equal or higher precedence than `b` (build
// metadata ignored; numeric identifiers of any length); nullopt if either is not a valid
// SemVer 2.0.0 version. No "v" prefix, no leading zeros, all three numbers required.
std::optional<int> compare_semver(std::string_view a, std::string_view b);

// Whether `version` is a valid SemVer 2.0.0 version.
bool is_semver(std::string_view version);

// Everything the manifest requests, as a Granted ("grant all"). Unknown and repeated values
// are left out (a checked manifest has none), so the result is always a valid grant.
sn::Granted requested_capabilities(const sn::Manifest& manifest);

}  // namespace rpckit::streamnook
