// profile.hpp: the protocol's profile (protocol.json "x-profile") as constexpr traits, which
// is all a generic role knows of a protocol besides its descriptors and role surfaces.
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "emit/common.hpp"
#include "emit/emit.hpp"
#include "emit/preamble.hpp"

namespace rpckit::gen {
namespace {

std::string message_or_none(const std::string& cpp_name) {
  return cpp_name.empty() ? "rpckit::NoMessage" : "messages::" + cpp_name;
}

std::string error_objects(const ir::Profile& profile) {
  if (profile.missing_error_code.empty()) return "rpckit::ErrorObjects::strict()";
  return "rpckit::ErrorObjects::lenient(static_cast<int>(" + profile.missing_error_code + "), " +
         profile.missing_error_message + ")";
}

std::string flag(bool b) { return b ? "true" : "false"; }

// A C++ string literal of `text`: plain when it needs no escape, raw otherwise.
std::string literal(const std::string& text) {
  bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
  });
  return plain ? "\"" + text + "\"" : raw_literal(text);
}

constexpr const char* kIndent = "\n      ";

std::string envelope(const ir::Profile& p) {
  return std::string("{") + kIndent + ".id_match = rpckit::IdMatch::" + p.id_match + "," + kIndent +
         ".jsonrpc_optional = " + flag(p.jsonrpc_optional) + "," + kIndent +
         ".blank_method_invalid = " + flag(p.blank_method_invalid) + "," + kIndent +
         ".invalid_request_id_null = " + flag(p.invalid_request_id_null) + "," + kIndent +
         ".unknown_id_omitted = " + flag(p.unknown_id_omitted) + "}";
}

std::string cancel(const ir::Profile& p) {
  const ir::Profile::Cancel& c = p.cancel;
  if (c.method.empty()) return "{}";
  return std::string("{") + kIndent + ".method = " + literal(c.method) + "," + kIndent +
         ".id_member = " + literal(c.id_member) + "," + kIndent +
         ".reason_member = " + literal(c.reason_member) + "," + kIndent +
         ".on_timeout = " + flag(c.on_timeout) + "," + kIndent +
         ".uncancellable = " + literal(c.uncancellable) + "}";
}

std::string progress(const ir::Profile& p) {
  const ir::Profile::Progress& r = p.progress;
  if (r.method.empty()) return "{}";
  return std::string("{") + kIndent + ".method = " + literal(r.method) + "," + kIndent +
         ".token_member = " + literal(r.token_member) + "," + kIndent +
         ".request_token = " + literal(r.request_token) + "}";
}

std::string error_data(const ir::Profile& p) {
  if (p.error_data_member.empty()) return "{}";
  static constexpr std::array<const char*, 6> kFields = {
      "parse_error", "batch", "invalid_request", "method_not_found", "invalid_params",
      "internal_error"};
  std::string out = std::string("{") + kIndent + ".member = " + literal(p.error_data_member);
  for (std::size_t i = 0; i < kFields.size(); ++i) {
    out += std::string(",") + kIndent + "." + kFields[i] + " = " + literal(p.error_data_values[i]);
  }
  return out + "}";
}

std::string receives(const ir::Profile::Receive& r) {
  return std::string("{") + kIndent + ".not_json = rpckit::OnNotJson::" + r.not_json + "," +
         kIndent + ".oversize = rpckit::OnOversize::" + r.oversize + "," + kIndent +
         ".stray_response = rpckit::OnStrayResponse::" + r.stray_response + "}";
}

std::string stop(const ir::Profile& p, const std::string& q) {
  std::string out;
  for (const ir::Profile::StopStep& s : p.stop) {
    out += "      rpckit::StopStep{rpckit::StopStep::Kind::" + s.kind;
    if (!s.wait.empty()) out += ", " + q + s.wait;
    out += "},\n";
  }
  return out;
}

// "version" as an rpckit::VersionCheck initializer.
std::string version_check(const ir::Profile& profile, const std::string& q) {
  const ir::Profile::Version& v = profile.version;
  if (v.result_member.empty()) return "{}";
  return "{\"" + v.result_member + "\", " + q + v.constant + ", rpckit::VersionMatch::" + v.match +
         "}";
}

// "before_handshake_done" as rpckit::EarlyMessages over a private array of the methods.
std::string before_handshake_done(const ir::Profile& profile) {
  const char* doc =
      "  /// What the spawned role may send before it has received HandshakeDone\n"
      "  /// (\"before_handshake_done\"; not limited: anything its gates allow).\n";
  if (!profile.before_handshake_done) {
    return std::string(doc) +
           "  static constexpr rpckit::EarlyMessages kBeforeHandshakeDone = {};\n";
  }
  const std::vector<std::string>& methods = *profile.before_handshake_done;
  std::string out = "\n private:\n  static constexpr std::array<std::string_view, " +
                    std::to_string(methods.size()) + "> kBeforeHandshakeDoneMethods = {\n";
  for (const std::string& method : methods) out += "      \"" + method + "\",\n";
  out += "  };\n\n public:\n" + std::string(doc) +
         "  static constexpr rpckit::EarlyMessages kBeforeHandshakeDone = {\n"
         "      true, kBeforeHandshakeDoneMethods};\n";
  return out;
}

// "gate_on_receipt" as an rpckit::GateOnReceipt initializer.
std::string gate_on_receipt(const ir::Profile& profile) {
  const ir::Profile::GateOnReceipt& g = profile.gate_on_receipt;
  if (g.capability.empty() && g.keyed.empty() && g.param.empty()) return "{}";
  std::string out;
  for (const auto& [field, code] : {std::pair{"capability", &g.capability},
                                    std::pair{"keyed", &g.keyed}, std::pair{"param", &g.param}}) {
    out += std::string(out.empty() ? "" : ",") + kIndent + "." + field + " = " +
           (code->empty() ? "std::nullopt" : "static_cast<int>(" + *code + ")");
  }
  return "{" + out + "}";
}

// Every lifecycle timer, as a trait of the constant that holds it or as none.
std::string timings(const ir::Profile& profile, const std::string& q) {
  Printer out;
  for (const ir::Profile::Timing& t : profile.timings) {
    const bool none = t.constant.empty();
    const char* form = "";
    switch (t.kind) {
      case ir::Profile::Timing::Kind::kDuration:
        form = none ? "  static constexpr rpckit::Timer $trait$ = std::nullopt;\n"
                    : "  static constexpr rpckit::Timer $trait$ = $q$$constant$;\n";
        break;
      case ir::Profile::Timing::Kind::kDurations:
        form = none ? "  static constexpr std::array<std::chrono::milliseconds, 0> $trait$ = {};\n"
                    : "  static constexpr auto $trait$ = $q$$constant$;\n";
        break;
      case ir::Profile::Timing::Kind::kCount:
        form = none ? "  static constexpr int $trait$ = 0;\n"
                    : "  static constexpr int $trait$ = static_cast<int>($q$$constant$);\n";
        break;
    }
    out.print(form, {{"trait", t.trait}, {"q", q}, {"constant", t.constant}});
  }
  return out.str();
}

}  // namespace

std::string emit_profile_header(const ir::Module& m) {
  const ir::Profile& profile = *m.profile;
  Printer out;
  open_file(out, m,
            {.standard = {"array", "chrono", "cstddef", "cstdint", "optional", "string_view"},
             .module = {"messages.hpp"},
             .rpckit = {"descriptors/profile.hpp", "framing/framing.hpp"}});
  std::string accepted;
  for (const std::string& kind : profile.ids_accepted) {
    accepted += (accepted.empty() ? "" : " | ") + std::string("rpckit::IdKind::") + kind;
  }
  std::string qualified = "::" + m.cpp_namespace + "::";
  std::string depth = profile.max_json_depth.empty()
                          ? "rpckit::kDefaultMaxJsonDepth"
                          : "static_cast<std::size_t>(" + qualified + profile.max_json_depth + ")";
  std::string cap = profile.output_cap.empty()
                        ? "0"
                        : "static_cast<std::uint64_t>(" + qualified + profile.output_cap + ")";
  out.print(
      "/// How the protocol travels and lives (protocol.json \"x-profile\"): what the generic\n"
      "/// roles read. Lifecycle messages the protocol does not have are rpckit::NoMessage.\n"
      "struct Profile {\n"
      "  static constexpr rpckit::framing::Framing kFraming = "
      "rpckit::framing::Framing::$framing$;\n"
      "  static constexpr std::size_t kMaxFrameBytes =\n"
      "      static_cast<std::size_t>($q$$max_frame$);\n"
      "  static constexpr std::size_t kMaxJsonDepth = $depth$;\n"
      "  /// NDJSON lines also end at a lone CR (\"line_breaks\": \"any\").\n"
      "  static constexpr bool kSplitOnCr = $split_on_cr$;\n"
      "  /// The id kind this protocol's requests carry, and the kinds a peer's may carry.\n"
      "  static constexpr rpckit::IdKind kSentIds = rpckit::IdKind::$sent$;\n"
      "  static constexpr rpckit::IdKinds kAcceptedIds = $accepted$;\n"
      "  /// How envelopes are read beyond JSON-RPC's letter.\n"
      "  static constexpr rpckit::EnvelopeRules kEnvelope = $envelope$;\n"
      "  /// How a peer cancels a request (\"cancel\"; no method: it cannot).\n"
      "  static constexpr rpckit::CancelRules kCancel = $cancel$;\n"
      "  /// How a peer reports progress on a request (\"progress\"; no method: it cannot).\n"
      "  static constexpr rpckit::ProgressRules kProgress = $progress$;\n"
      "  /// The data the runtime puts on the errors it makes itself (\"error_data\").\n"
      "  static constexpr rpckit::ErrorReasons kErrorData = $error_data$;\n"
      "  /// What each side does with input its peer should not have sent.\n"
      "  static constexpr rpckit::ReceiveRules kSpawnedReceives = $spawned_receives$;\n"
      "  static constexpr rpckit::ReceiveRules kSpawnerReceives = $spawner_receives$;\n"
      "  /// Bytes the spawner reads from one process before it restarts it (0: no cap).\n"
      "  static constexpr std::uint64_t kOutputCap = $cap$;\n"
      "  /// The role run as a child process, and what makes it stop by itself.\n"
      "  static constexpr Role kSpawned = Role::$spawned$;\n"
      "  static constexpr bool kStopsOnStdinEof = $eof$;\n"
      "  static constexpr bool kStopsOnSigterm = $sigterm$;\n"
      "  static constexpr bool kStopsOnExit = $exit_flag$;\n"
      "  /// What the spawned role does once it has answered Shutdown.\n"
      "  static constexpr rpckit::AfterShutdown kAfterShutdown = rpckit::AfterShutdown::$after$;\n"
      "  using Handshake = $handshake$;\n"
      "  using HandshakeDone = $handshake_done$;\n"
      "  using HealthCheck = $health_check$;\n"
      "  using Shutdown = $shutdown$;\n"
      "  using Exit = $exit$;\n"
      "  /// The member of the handshake's params that holds the grant (empty: none).\n"
      "  static constexpr std::string_view kGrantMember = \"$grant$\";\n"
      "  /// The member of the handshake's result that holds what the spawner's own gated\n"
      "  /// messages are checked against (empty: the grant the spawner was given).\n"
      "  static constexpr std::string_view kResultGrantMember = \"$result_grant$\";\n"
      "  /// What the spawner checks of the handshake's answer (\"version\"): the member holding\n"
      "  /// the version the spawned side will speak, which must match the one spoken here (an\n"
      "  /// empty member: no check).\n"
      "  static constexpr rpckit::VersionCheck kVersionCheck = $version$;\n"
      "$before_handshake_done$"
      "  /// What a receiver refuses of a message its own handshake declarations do not allow\n"
      "  /// (\"gate_on_receipt\"), and the error code per kind of gate clause (none: served).\n"
      "  static constexpr rpckit::GateOnReceipt kGateOnReceipt = $gate_on_receipt$;\n"
      "  /// How a peer's error object without `code` is read (strict: as malformed).\n"
      "  static constexpr rpckit::ErrorObjects kErrorObjects = $error_objects$;\n"
      "  /// How the spawner stops the process (\"stop\"): in order, until it has exited.\n"
      "  static constexpr std::array<rpckit::StopStep, $stop_size$> kStop = {\n"
      "$stop$"
      "  };\n"
      "  /// Lifecycle timers (\"timings\"): every one, std::nullopt (or 0) where there is none.\n"
      "$timings$"
      "  /// After a refused handshake: the stop sequence's steps that send nothing of the\n"
      "  /// protocol (true), or kHandshakeFailureExitWait with nothing sent, then a kill.\n"
      "  static constexpr bool kHandshakeFailureStops = $handshake_failure_stops$;\n"
      "};\n"
      "\n",
      {{"framing", profile.framing},
       {"q", qualified},
       {"max_frame", profile.max_frame_bytes},
       {"depth", depth},
       {"split_on_cr", flag(profile.split_on_cr)},
       {"sent", profile.id_sent},
       {"accepted", accepted},
       {"envelope", envelope(profile)},
       {"cancel", cancel(profile)},
       {"progress", progress(profile)},
       {"error_data", error_data(profile)},
       {"spawned_receives", receives(profile.spawned_receives)},
       {"spawner_receives", receives(profile.spawner_receives)},
       {"cap", cap},
       {"spawned", m.role_enumerator(profile.spawned_role)},
       {"eof", flag(profile.stops_on_stdin_eof)},
       {"sigterm", flag(profile.stops_on_sigterm)},
       {"exit_flag", flag(profile.stops_on_exit)},
       {"after", profile.after_shutdown},
       {"handshake", message_or_none(profile.handshake)},
       {"handshake_done", message_or_none(profile.handshake_done)},
       {"health_check", message_or_none(profile.health_check)},
       {"shutdown", message_or_none(profile.shutdown)},
       {"exit", message_or_none(profile.exit)},
       {"grant", profile.grant_member},
       {"result_grant", profile.result_grant_member},
       {"version", version_check(profile, qualified)},
       {"before_handshake_done", before_handshake_done(profile)},
       {"gate_on_receipt", gate_on_receipt(profile)},
       {"error_objects", error_objects(profile)},
       {"stop_size", std::to_string(profile.stop.size())},
       {"stop", stop(profile, qualified)},
       {"timings", timings(profile, qualified)},
       {"handshake_failure_stops", flag(profile.handshake_failure_stops)}});
  return close_file(out, m);
}

}  // namespace rpckit::gen
