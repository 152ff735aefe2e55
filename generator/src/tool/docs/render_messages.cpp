// Messages, grouped by direction: what each is, its gate, deadline, errors, params, result and
// examples.
#include "tool/docs/sections.hpp"

namespace rpckit::docs {
namespace {

std::string params_presence(const ir::Message& m) {
  switch (m.params_presence) {
    case ir::Message::ParamsPresence::kRequired:
      return "required";
    case ir::Message::ParamsPresence::kOptionalSendEmpty:
      return "may be absent or `null` on receipt; senders send `{}`";
    case ir::Message::ParamsPresence::kOptionalOmit:
      break;
  }
  return "may be absent or `null` on receipt; senders leave them out";
}

std::string facts(const Context& ctx, const ir::Message& m) {
  std::string out;
  out += "- **Kind:** " +
         std::string(m.request ? "request (answered with a result or an error)"
                               : "notification (never answered)") +
         "\n";
  out += "- **Direction:** ";
  for (std::size_t i = 0; i < m.routes.size(); ++i) {
    out += (i == 0 ? "" : "; ") + md::code(m.routes[i].from) + " to " + md::code(m.routes[i].to);
  }
  out += "\n";
  out += "- **Gate:** ";
  out += m.gate.empty()
             ? "none"
             : join(
                   m.gate, [&](const ir::GateClause& g) { return ctx.gate_text(g); }, "; and ");
  out += "\n";
  if (m.request) {
    out += "- **Deadline:** " + (m.deadline ? ctx.constant_reference(*m.deadline) : "none") + "\n";
    out += "- **Errors:** ";
    out += m.errors.empty()
               ? "none listed"
               : join(m.errors, [&](const std::string& e) { return ctx.error_reference(e); });
    out += "\n";
    for (const ir::Message::ResultWhen& r : m.results_when) {
      out += "- **Answered instead with** " + ctx.type_text(r.result) + " **when params carry** " +
             md::code(r.member) + " (" + md::code("messages::" + r.cpp_name) + ")\n";
    }
  }
  out += "- **Params:** " + params_presence(m) + "\n";
  return out + "\n";
}

// "**Params** ([`X`](...)): doc" and the members table.
std::string struct_part(const Context& ctx, const char* label, const std::string& type_name) {
  const ir::TypeDecl* t = ctx.type(type_name);
  std::string name =
      ctx.shown_in_message(type_name) ? md::code(type_name) : ctx.type_link(type_name);
  std::string out = "**" + std::string(label) + "** (" + name + ")";
  if (!t) return out + "\n\n";
  if (!t->doc.empty()) out += ": " + md::prose(t->doc);
  out += "\n\n";
  if (t->kind == ir::TypeDecl::Kind::kStruct) {
    out += fields_table(ctx, t->struct_) + "\n";
  }
  return out;
}

std::string result_part(const Context& ctx, const ir::TypeRef& r) {
  std::string null = r.nullable ? " or `null`" : "";
  if (r.kind == ir::TypeRef::Kind::kNamed && r.alias.empty()) {
    const ir::TypeDecl* t = ctx.type(r.name);
    if (t && t->kind == ir::TypeDecl::Kind::kStruct) {
      std::string out = struct_part(ctx, "Result", r.name);
      if (!null.empty()) out = "The result may also be `null`.\n\n" + out;
      return out;
    }
  }
  if (r.kind == ir::TypeRef::Kind::kPrimitive && r.primitive == ir::Primitive::kNull) {
    return "**Result:** `null`\n\n";
  }
  if (r.kind == ir::TypeRef::Kind::kPrimitive && r.primitive == ir::Primitive::kAny) {
    return "**Result:** any JSON value\n\n";
  }
  std::string constraints = ctx.constraints_text(r);
  return "**Result:** " + ctx.type_text(r) + null +
         (constraints.empty() ? "" : " (" + constraints + ")") + "\n\n";
}

std::string json_fence(const gen::Json& j) { return "```json\n" + json_block(j) + "\n```\n\n"; }

// One or two valid envelopes, a response, and one envelope that is not valid.
std::string examples_part(const ir::Message& m, const MessageExamples& ex) {
  std::string out;
  std::size_t shown = std::min<std::size_t>(ex.envelopes.size(), 2);
  if (shown > 0) {
    out += "**Example" + std::string(shown > 1 ? "s" : "") + "**\n\n";
    for (std::size_t i = 0; i < shown; ++i) out += json_fence(ex.envelopes[i]);
  }
  if (m.request && !ex.results.empty()) {
    gen::Json response = gen::Json::object();
    response["jsonrpc"] = "2.0";
    const gen::Json* first = ex.envelopes.empty() ? nullptr : &ex.envelopes.front();
    response["id"] =
        first && first->is_object() && first->contains("id") ? first->at("id") : gen::Json(1);
    response["result"] = ex.results.front();
    out += "**Response**\n\n" + json_fence(response);
  }
  if (!ex.invalid.empty()) {
    out += "**Not valid** (" + md::prose(ex.invalid.front().why) + ")\n\n" +
           json_fence(ex.invalid.front().envelope);
  }
  return out;
}

void render_message(const Context& ctx, md::Document& doc, const ir::Message& m) {
  std::vector<std::string> keys = {message_key(m.method)};
  if (ctx.shown_in_message(m.params_type) == &m) keys.push_back(type_key(m.params_type));
  if (m.result && m.result->kind == ir::TypeRef::Kind::kNamed &&
      ctx.shown_in_message(m.result->name) == &m) {
    keys.push_back(type_key(m.result->name));
  }
  doc.heading(3, md::code(m.method), keys);
  doc.paragraph(md::prose(m.doc));
  doc.raw(facts(ctx, m));
  doc.raw(struct_part(ctx, "Params", m.params_type));
  if (m.result) doc.raw(result_part(ctx, *m.result));
  auto ex = ctx.examples.find(m.method);
  if (ex != ctx.examples.end()) doc.raw(examples_part(m, ex->second));
}

}  // namespace

void render_messages(const Context& ctx, md::Document& doc) {
  for (const ir::Direction& d : ctx.module.directions) {
    doc.heading(2, "Messages from " + d.from + " to " + d.to);
    for (const ir::Message& m : ctx.module.messages) {
      if (!m.goes(d.from, d.to)) continue;
      // A message both sides send is written out once, under its first direction.
      const ir::Message::Route& first = m.routes.front();
      if (first.from == d.from && first.to == d.to) {
        render_message(ctx, doc, m);
      } else {
        doc.raw("`" + m.method + "` goes this way too: see it under " + first.from + " to " +
                first.to + ".\n\n");
      }
    }
  }
}

}  // namespace rpckit::docs
