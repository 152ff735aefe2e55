// The one-shot exchange (protocol.json "x-exchange"): the messages in the order they cross,
// how they are told apart and matched, and the deadlines, in wire names.
#include "tool/docs/sections.hpp"

namespace rpckit::docs {
namespace {

std::string constant_or_none(const Context& ctx, const std::string& cpp_name) {
  return cpp_name.empty() ? "none" : ctx.constant_reference(cpp_name);
}

}  // namespace

void render_exchange(const Context& ctx, md::Document& doc) {
  if (!ctx.module.exchange) return;
  const ir::Exchange& x = *ctx.module.exchange;
  doc.heading(2, "Exchange", {kExchangeKey});
  const std::string description =
      ctx.protocol.exchange() ? model::Protocol::text(ctx.protocol.exchange()->node, "description")
                              : "";
  doc.paragraph(description.empty()
                    ? "Not JSON-RPC: one process per call and a fixed sequence of messages."
                    : description);
  std::vector<std::vector<std::string>> rows = {
      {"Framing", md::code(x.framing == "kContentLength" ? "content-length" : "ndjson") +
                      (x.strict_lines ? " (strict lines: a blank line is malformed, a last line may end at EOF)"
                                      : "")},
      {"Frame cap (bytes)", ctx.constant_reference(x.max_frame_bytes)},
      {"Spawned role", md::code(x.spawned_role) + " (a child process of " + md::code(x.spawner_role) +
                           ", one per call, over its stdin/stdout)"},
      {"Discriminator", "the member " + md::code(x.discriminator) + " (each message's const)"},
      {"Correlation", x.correlation.empty() ? "by order"
                                            : "the member " + md::code(x.correlation) +
                                                  " where a message has it; by order otherwise"},
      {"After the last step", x.ends == "stdin_eof" ? "the spawner closes stdin; the process exits 0"
                                                    : md::code(x.ends)},
      {"Invoke timeout (the whole call)", constant_or_none(ctx, x.invoke_timeout)},
      {"Launch timeout (the spawn)", constant_or_none(ctx, x.launch_timeout)},
      {"Teardown timeout (exit after the last step)", constant_or_none(ctx, x.teardown_timeout)},
      {"Reap timeout (after a kill)", constant_or_none(ctx, x.reap_timeout)},
  };
  doc.raw(md::table({"setting", "value"}, rows) + "\n");
  std::vector<std::vector<std::string>> steps;
  for (std::size_t i = 0; i < x.steps.size(); ++i) {
    const ir::Exchange::Step& s = x.steps[i];
    std::string answers = s.answers < 0 ? "-"
                          : std::to_string(s.answers) +
                                (s.correlated ? " (same " + md::code(x.correlation) + ")" : " (by order)");
    steps.push_back({std::to_string(i), md::code(s.from), ctx.type_link(s.type),
                     md::code(x.discriminator + ": \"" + s.tag + "\""), answers,
                     s.timeout.empty() ? "-" : ctx.constant_reference(s.timeout)});
  }
  doc.raw(md::table({"step", "from", "message", "discriminator", "answers step", "within"}, steps) + "\n");
}

}  // namespace rpckit::docs
