// The profile: how the protocol travels and lives (protocol.json "x-profile"), in wire names.
#include <array>
#include <utility>

#include "tool/docs/sections.hpp"

namespace rpckit::docs {
namespace {

// "handshake_timeout" -> "Handshake timeout".
std::string label(std::string key) {
  for (char& c : key) {
    if (c == '_') c = ' ';
  }
  if (!key.empty() && key[0] >= 'a' && key[0] <= 'z') key[0] = static_cast<char>(key[0] - 32);
  return key;
}

std::string text_or_json(const gen::Json& j) {
  return md::code(j.is_string() ? j.get<std::string>() : json_inline(j));
}

// A constant the profile names: its value and a link to it.
std::string constant(const Context& ctx, const gen::Json& name) {
  if (!name.is_string()) return text_or_json(name);
  const ir::Constant* c = ctx.constant_by_wire(name.get<std::string>());
  return c ? ctx.constant_reference(c->cpp_name) : text_or_json(name);
}

std::string message(const Context& ctx, const gen::Json& method) {
  if (!method.is_string() || !ctx.message(method.get<std::string>())) return text_or_json(method);
  return ctx.message_link(method.get<std::string>());
}

std::string list(const gen::Json& j) {
  if (!j.is_array()) return text_or_json(j);
  return join(j, [](const gen::Json& item) { return text_or_json(item); });
}

// A setting given for both sides, or per receiving role: "host: log · plugin: answer".
std::string per_role(const gen::Json& v) {
  if (!v.is_object()) return text_or_json(v);
  std::string out;
  for (auto it = v.begin(); it != v.end(); ++it) {
    out += (out.empty() ? "" : " · ") + md::code(it.key()) + ": " + text_or_json(it.value());
  }
  return out;
}

// The stop sequence, steps in order; waits link their constant.
std::string stop_steps(const Context& ctx, const gen::Json& v) {
  if (!v.is_array()) return text_or_json(v);
  std::string out;
  for (const gen::Json& step : v) {
    std::string text = step.is_object() && step.contains("wait")
                           ? "wait " + constant(ctx, step["wait"]) + " for the exit"
                           : text_or_json(step);
    out += (out.empty() ? "" : " → ") + text;
  }
  return out;
}

// What each wire-rule key means, for the table's first column.
const char* wire_label(const std::string& key) {
  if (key == "jsonrpc_member") return "The `jsonrpc` member";
  if (key == "blank_method") return "A blank `method`";
  if (key == "invalid_request_id") return "Id of a -32600 answer";
  if (key == "unknown_id") return "An answer's id that could not be read";
  if (key == "cancel") return "How a peer cancels a request it sent";
  if (key == "progress") return "How a peer reports progress on a request";
  if (key == "line_breaks") return "Line breaks";
  if (key == "not_json") return "A frame that is not JSON, by receiving role";
  if (key == "oversize") return "A frame over the cap, by receiving role";
  if (key == "stray_response") return "A response to no request, by receiving role";
  if (key == "output_cap") return "Output the spawner reads from one process (bytes)";
  if (key == "after_shutdown") return "After answering shutdown, the spawned role";
  return nullptr;
}

}  // namespace

void render_profile(const Context& ctx, md::Document& doc) {
  const std::optional<gen::Node>& profile = ctx.protocol.profile();
  if (!profile || !profile->json->is_object() || !ctx.module.profile) return;
  const gen::Json& p = *profile->json;  // its settings in the order written
  const ir::Profile& ip = *ctx.module.profile;
  doc.heading(2, "Profile", {kProfileKey});
  doc.paragraph("How the protocol travels and lives: what the generic roles of both sides read.");
  std::vector<std::vector<std::string>> rows;
  std::vector<std::vector<std::string>> timers;
  for (auto it = p.begin(); it != p.end(); ++it) {
    const std::string& key = it.key();
    const gen::Json& v = it.value();
    if (key == "max_frame_bytes") {
      rows.push_back({"Frame cap (bytes)", constant(ctx, v)});
    } else if (key == "max_json_depth") {
      rows.push_back({"Deepest JSON nesting", constant(ctx, v)});
    } else if (key == "ids" && v.is_object()) {
      if (v.contains("send")) rows.push_back({"Request ids sent", list(v["send"])});
      if (v.contains("accept")) rows.push_back({"Request ids accepted", list(v["accept"])});
      if (v.contains("match")) rows.push_back({"Answers matched to requests by", list(v["match"])});
    } else if (key == "stop") {
      rows.push_back({"How the spawner stops the process", stop_steps(ctx, v)});
    } else if (key == "output_cap") {
      rows.push_back({wire_label(key), constant(ctx, v)});
    } else if (key == "error_data" && v.is_object()) {
      std::string text = "`{" + v.value("member", std::string()) + ": ...}`";
      if (v.contains("values") && v["values"].is_object()) text += ": " + per_role(v["values"]);
      rows.push_back({"Data of the errors the runtime makes", text});
    } else if (const char* wire = wire_label(key)) {
      rows.push_back({wire, per_role(v)});
    } else if (key == "spawned") {
      rows.push_back({"Spawned role", md::code(ip.spawned_role) + " (a child process of " +
                                          md::code(ip.spawner_role) + ", over its stdin/stdout)"});
    } else if (key == "lifecycle" && v.is_object()) {
      for (auto m = v.begin(); m != v.end(); ++m) {
        rows.push_back({"Lifecycle: " + label(m.key()), message(ctx, m.value())});
      }
    } else if (key == "grant") {
      std::string where = text_or_json(v);
      if (const ir::Message* h = ctx.message_by_descriptor(ip.handshake)) {
        where += " of the " + ctx.message_link(h->method) + " params";
      }
      if (ctx.grant_type()) where += " (" + ctx.type_link(ctx.grant_type()->name) + ")";
      rows.push_back({"Grant", where});
    } else if (key == "result_grant") {
      std::string where = text_or_json(v);
      if (const ir::Message* h = ctx.message_by_descriptor(ip.handshake)) {
        where += " of the " + ctx.message_link(h->method) + " result";
      }
      rows.push_back({"Grant of the spawner's gated messages", where});
    } else if (key == "version" && v.is_object()) {
      std::string where = md::code(v.value("result", std::string()));
      if (const ir::Message* h = ctx.message_by_descriptor(ip.handshake)) {
        where += " of the " + ctx.message_link(h->method) + " result";
      }
      const bool exact = v.value("accepts", std::string()) == "exact";
      rows.push_back({"Version check", "the spawner leaves a session whose " + where + " is " +
                                           (exact ? "not " : "not of the major version of ") +
                                           constant(ctx, v.value("constant", gen::Json()))});
    } else if (key == "before_handshake_done" && v.is_array()) {
      std::string done = md::code("handshake_done");
      if (const ir::Message* d = ctx.message_by_descriptor(ip.handshake_done)) {
        done = ctx.message_link(d->method);
      }
      std::string sent = join(v, [&](const gen::Json& method) { return message(ctx, method); });
      rows.push_back({"Sent by the spawned role before " + done,
                      (sent.empty() ? std::string("nothing") : sent) +
                          " (its typed sender refuses anything else until then)"});
    } else if (key == "gate_on_receipt" && v.is_object()) {
      static constexpr std::array<std::pair<const char*, const char*>, 3> kKinds = {{
          {"capability", "a method that needs a capability it did not declare"},
          {"keyed", "a param naming a member of a capability that it did not declare"},
          {"param", "a params field that needs a capability it did not declare"},
      }};
      std::string text;
      for (const auto& [kind, what] : kKinds) {
        if (!v.contains(kind)) continue;
        text += std::string(text.empty() ? "" : "; ") + what + ": " + text_or_json(v[kind]);
      }
      rows.push_back({"A receiver refuses, by its own handshake declarations", text});
    } else if (key == "error_objects") {
      std::string text = "strict: an error object without `code` is malformed";
      if (v.is_object()) {
        text = "an error object without `code` reads as " +
               text_or_json(v.value("missing_code", gen::Json())) + "; without `message`, as " +
               text_or_json(v.value("missing_message", gen::Json()));
      }
      rows.push_back({"Error objects", text});
    } else if (key == "stops_on") {
      rows.push_back({"The spawned role stops on", list(v)});
    } else if (key == "timings" && v.is_object()) {
      for (auto t = v.begin(); t != v.end(); ++t) {
        std::string value = t.value() == "none" ? std::string("none")
                            : t.value() == "stop"
                                ? std::string("the stop sequence (its steps that send nothing)")
                                : constant(ctx, t.value());
        timers.push_back({label(t.key()), std::move(value)});
      }
    } else {
      rows.push_back({label(key), v.is_array() ? list(v) : text_or_json(v)});
    }
  }
  doc.raw(md::table({"setting", "value"}, rows) + "\n");
  if (!timers.empty()) {
    doc.paragraph("Lifecycle timers (none: the protocol sets no such limit):");
    doc.raw(md::table({"timer", "value"}, timers) + "\n");
  }
}

}  // namespace rpckit::docs
