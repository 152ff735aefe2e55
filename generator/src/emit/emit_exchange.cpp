// exchange.hpp: a one-shot exchange (protocol.json "x-exchange") as constexpr traits and the
// ordered tuple of its messages' types, which is all the generic one-shot roles
// (rpckit/roles/one_shot.hpp) know of such a protocol.
#include "emit/common.hpp"
#include "emit/emit.hpp"
#include "emit/preamble.hpp"

namespace rpckit::gen {
namespace {

std::string duration_or_zero(const std::string& constant, const std::string& qualified) {
  return constant.empty() ? "std::chrono::milliseconds::zero()" : qualified + constant;
}

}  // namespace

std::string emit_exchange_header(const ir::Module& m) {
  const ir::Exchange& x = *m.exchange;
  const std::string qualified = "::" + m.cpp_namespace + "::";
  Printer out;
  open_file(out, m,
            {.standard = {"chrono", "cstddef", "string_view", "tuple"},
             .module = {"constants.hpp", "messages.hpp", "types.hpp"},
             .rpckit = {"descriptors/exchange.hpp", "framing/framing.hpp"}});
  std::string types, steps;
  for (std::size_t i = 0; i < x.steps.size(); ++i) {
    const ir::Exchange::Step& s = x.steps[i];
    types += std::string(i == 0 ? "" : ", ") + s.type;
    steps += "      {" + std::string(s.from == x.spawner_role ? "true" : "false") + ", " +
             raw_literal(s.tag) + ", " + (s.correlated ? "true" : "false") + ", " +
             std::to_string(s.answers) + ", " + duration_or_zero(s.timeout, qualified) + "},  // " +
             std::to_string(i) + ": " + s.type + ", " + s.from + "\n";
  }
  out.print(
      "/// A one-shot exchange (protocol.json \"x-exchange\"): one process per call, a fixed\n"
      "/// sequence of messages told apart by kDiscriminator and matched by kCorrelation.\n"
      "struct Exchange {\n"
      "  static constexpr rpckit::framing::Framing kFraming = rpckit::framing::Framing::$framing$;\n"
      "  static constexpr std::size_t kMaxFrameBytes =\n"
      "      static_cast<std::size_t>($q$$max_frame$);\n"
      "  /// Strict lines: a blank line is a frame (malformed, not skipped), a last line may end\n"
      "  /// at EOF.\n"
      "  static constexpr bool kStrictLines = $strict$;\n"
      "  /// The role run as a child process, one per call.\n"
      "  static constexpr Role kSpawned = Role::$spawned$;\n"
      "  static constexpr std::string_view kDiscriminator = $discriminator$;\n"
      "  static constexpr std::string_view kCorrelation = $correlation$;  // empty: none\n"
      "  /// The messages in the order they cross: step I is std::tuple_element_t<I, Steps>.\n"
      "  using Steps = std::tuple<$types$>;\n"
      "  static constexpr rpckit::ExchangeStep kSteps[] = {\n"
      "$steps$"
      "  };\n"
      "  /// After the last step the spawner closes stdin ($ends$); the process must exit 0\n"
      "  /// within kTeardownTimeout. Zero: no such deadline.\n"
      "  static constexpr std::chrono::milliseconds kInvokeTimeout = $invoke$;\n"
      "  static constexpr std::chrono::milliseconds kLaunchTimeout = $launch$;\n"
      "  static constexpr std::chrono::milliseconds kTeardownTimeout = $teardown$;\n"
      "  static constexpr std::chrono::milliseconds kReapTimeout = $reap$;\n"
      "};\n"
      "\n",
      {{"framing", x.framing},
       {"q", qualified},
       {"max_frame", x.max_frame_bytes},
       {"strict", x.strict_lines ? "true" : "false"},
       {"spawned", m.role_enumerator(x.spawned_role)},
       {"discriminator", raw_literal(x.discriminator)},
       {"correlation", raw_literal(x.correlation)},
       {"types", types},
       {"steps", steps},
       {"ends", x.ends},
       {"invoke", duration_or_zero(x.invoke_timeout, qualified)},
       {"launch", duration_or_zero(x.launch_timeout, qualified)},
       {"teardown", duration_or_zero(x.teardown_timeout, qualified)},
       {"reap", duration_or_zero(x.reap_timeout, qualified)}});
  return close_file(out, m);
}

}  // namespace rpckit::gen
