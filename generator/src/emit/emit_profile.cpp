// profile.hpp: the protocol's profile (protocol.json "x-profile") as constexpr traits, which
// is all a generic role knows of a protocol besides its descriptors and role surfaces.
#include "emit/common.hpp"
#include "emit/emit.hpp"

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

// The lifecycle timers the protocol sets, as traits of the constants that hold them.
std::string timings(const ir::Profile& profile, const std::string& qualified) {
  if (profile.timings.empty()) return "";
  Printer out;
  out.print("  /// Lifecycle timers (\"timings\"); those not here keep the supervisor's defaults.\n");
  for (const ir::Profile::Timing& t : profile.timings) {
    const char* form = "";
    switch (t.kind) {
      case ir::Profile::Timing::Kind::kDuration:
        form = "  static constexpr std::chrono::milliseconds $trait$ = $q$$constant$;\n";
        break;
      case ir::Profile::Timing::Kind::kDurations:
        form = "  static constexpr auto $trait$ = $q$$constant$;\n";
        break;
      case ir::Profile::Timing::Kind::kCount:
        form = "  static constexpr int $trait$ = static_cast<int>($q$$constant$);\n";
        break;
    }
    out.print(form, {{"trait", t.trait}, {"q", qualified}, {"constant", t.constant}});
  }
  return out.str();
}

}  // namespace

std::string emit_profile_header(const ir::Module& m) {
  const ir::Profile& profile = *m.profile;
  Printer out;
  out.raw(banner(m, "//"));
  out.print(
      "#pragma once\n"
      "\n"
      "$chrono$"
      "#include <cstddef>\n"
      "#include <string_view>\n"
      "\n"
      "#include \"$module$/messages.hpp\"\n"
      "#include \"rpckit/descriptors/profile.hpp\"\n"
      "#include \"rpckit/framing/framing.hpp\"\n"
      "\n",
      {{"module", m.name}, {"chrono", profile.timings.empty() ? "" : "#include <chrono>\n"}});
  open_namespace(out, m);
  std::string accepted;
  for (const std::string& kind : profile.ids_accepted) {
    accepted += (accepted.empty() ? "" : " | ") + std::string("rpckit::IdKind::") + kind;
  }
  std::string qualified = "::" + m.cpp_namespace + "::";
  std::string depth = profile.max_json_depth.empty()
                          ? "rpckit::kDefaultMaxJsonDepth"
                          : "static_cast<std::size_t>(" + qualified + profile.max_json_depth + ")";
  auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  out.print(
      "/// How the protocol travels and lives (protocol.json \"x-profile\"): what the generic\n"
      "/// roles read. Lifecycle messages the protocol does not have are rpckit::NoMessage.\n"
      "struct Profile {\n"
      "  static constexpr rpckit::framing::Framing kFraming = rpckit::framing::Framing::$framing$;\n"
      "  static constexpr std::size_t kMaxFrameBytes =\n"
      "      static_cast<std::size_t>($q$$max_frame$);\n"
      "  static constexpr std::size_t kMaxJsonDepth = $depth$;\n"
      "  /// The id kind this protocol's requests carry, and the kinds a peer's may carry.\n"
      "  static constexpr rpckit::IdKind kSentIds = rpckit::IdKind::$sent$;\n"
      "  static constexpr rpckit::IdKinds kAcceptedIds = $accepted$;\n"
      "  /// The role run as a child process, and what makes it stop by itself.\n"
      "  static constexpr Role kSpawned = Role::$spawned$;\n"
      "  static constexpr bool kStopsOnStdinEof = $eof$;\n"
      "  static constexpr bool kStopsOnSigterm = $sigterm$;\n"
      "  static constexpr bool kStopsOnExit = $exit_flag$;\n"
      "  /// Stops once its answer to Shutdown is written (a protocol without an exit message).\n"
      "  static constexpr bool kStopsOnShutdown = $shutdown_flag$;\n"
      "  using Handshake = $handshake$;\n"
      "  using HandshakeDone = $handshake_done$;\n"
      "  using HealthCheck = $health_check$;\n"
      "  using Shutdown = $shutdown$;\n"
      "  using Exit = $exit$;\n"
      "  /// The member of the handshake's params that holds the grant (empty: none).\n"
      "  static constexpr std::string_view kGrantMember = \"$grant$\";\n"
      "  /// How a peer's error object without `code` is read (strict: as malformed).\n"
      "  static constexpr rpckit::ErrorObjects kErrorObjects = $error_objects$;\n"
      "$timings$"
      "};\n"
      "\n",
      {{"framing", profile.framing},
       {"q", qualified},
       {"max_frame", profile.max_frame_bytes},
       {"depth", depth},
       {"sent", profile.id_sent},
       {"accepted", accepted},
       {"spawned", m.role_enumerator(profile.spawned_role)},
       {"eof", flag(profile.stops_on_stdin_eof)},
       {"sigterm", flag(profile.stops_on_sigterm)},
       {"exit_flag", flag(profile.stops_on_exit)},
       {"shutdown_flag", flag(profile.stops_on_shutdown)},
       {"handshake", message_or_none(profile.handshake)},
       {"handshake_done", message_or_none(profile.handshake_done)},
       {"health_check", message_or_none(profile.health_check)},
       {"shutdown", message_or_none(profile.shutdown)},
       {"exit", message_or_none(profile.exit)},
       {"grant", profile.grant_member},
       {"error_objects", error_objects(profile)},
       {"timings", timings(profile, qualified)}});
  close_namespace(out, m);
  return out.str();
}

}  // namespace rpckit::gen
