// The protocol's vocabulary: error codes, capabilities and constants.
#include "tool/docs/sections.hpp"

namespace rpckit::docs {
namespace {

std::string file_description(const Context& ctx, const std::string& file) {
  const gen::Json& root = *ctx.schema.file(file).json;
  return root.is_object() && root.contains("description") && root["description"].is_string()
             ? root["description"].get<std::string>()
             : "";
}

// Messages whose gate a capability value opens: "[`get_credential`](...) (by `kind`)".
std::string gated_by(const Context& ctx, const std::string& enum_name, const std::string& value) {
  std::vector<std::string> out;
  for (const ir::Message& m : ctx.module.messages) {
    for (const ir::GateClause& g : m.gate) {
      if (g.kind == ir::GateClause::Kind::kDeclaredParam ||
          g.kind == ir::GateClause::Kind::kCapability ||
          g.kind == ir::GateClause::Kind::kParamCapability ||
          g.kind == ir::GateClause::Kind::kSenderCapability ||
          g.kind == ir::GateClause::Kind::kKeyedCapability ||
          ctx.grant_list_enum(g.list) != enum_name) {
        continue;
      }
      if (g.kind == ir::GateClause::Kind::kGrantedValue && g.value == value) {
        out.push_back(ctx.message_link(m.method));
      } else if (g.kind == ir::GateClause::Kind::kGrantedParam) {
        out.push_back(ctx.message_link(m.method) + " (by " + md::code("params." + g.param) + ")");
      }
    }
  }
  return join(out, [](const std::string& s) { return s; });
}

}  // namespace

void render_errors(const Context& ctx, md::Document& doc) {
  const ir::TypeDecl* e = ctx.error_enum();
  if (!e) return;
  doc.heading(2, "Error codes", {kErrorsKey, type_key(e->name)});
  doc.paragraph(md::prose(e->doc));
  std::string about = file_description(ctx, e->loc.file);
  if (about != e->doc) doc.paragraph(md::prose(about));
  // x-error-data: a column of error.data's type when some code has one.
  const bool typed_data = !ctx.module.error_data.empty();
  std::vector<std::vector<std::string>> rows;
  for (const ir::EnumValue& v : e->enum_.values) {
    std::vector<std::string> by;
    for (const ir::Message& m : ctx.module.messages) {
      for (const std::string& name : m.errors) {
        if (name == v.cpp_name) by.push_back(ctx.message_link(m.method));
      }
    }
    rows.push_back({md::code(v.wire), md::code(v.label), md::prose(v.doc),
                    join(by, [](const std::string& s) { return s; })});
    if (typed_data) {
      std::string data;
      for (const ir::ErrorData& d : ctx.module.error_data) {
        if (d.enumerator == v.cpp_name) data = ctx.type_text(d.type);
      }
      rows.back().push_back(data);
    }
  }
  std::vector<std::string> header = {"code", "name", "meaning", "listed by"};
  if (typed_data) header.emplace_back("error.data");
  doc.raw(md::table(header, rows) + "\n");
  std::vector<std::string> beside;
  for (const ir::TypeDecl& t : ctx.module.types) {
    if (&t != e && t.loc.file == e->loc.file) beside.push_back(ctx.type_link(t.name));
  }
  if (!beside.empty()) {
    doc.paragraph("Defined with them in " + md::code(e->loc.file) + ": " +
                  join(beside, [](const std::string& s) { return s; }) + ".");
  }
}

void render_capabilities(const Context& ctx, md::Document& doc) {
  const std::string& file = ctx.capabilities_file();
  if (file.empty()) return;
  doc.heading(2, "Capabilities", {kCapabilitiesKey});
  doc.paragraph(md::prose(file_description(ctx, file)));
  for (const ir::TypeDecl& t : ctx.module.types) {
    if (t.loc.file != file) continue;
    doc.heading(3, md::code(t.name), {type_key(t.name)});
    if (t.kind != ir::TypeDecl::Kind::kEnum || t.enum_.integer) {
      doc.raw(type_body(ctx, t) + "\n");
      continue;
    }
    doc.paragraph(md::prose(t.doc));
    std::vector<std::vector<std::string>> rows;
    bool gates = false;
    for (const ir::EnumValue& v : t.enum_.values) {
      std::string by = gated_by(ctx, t.name, v.wire);
      gates = gates || !by.empty();
      rows.push_back({md::code(v.wire), md::prose(v.doc), by});
    }
    if (!gates) {
      for (auto& r : rows) r.pop_back();
    }
    doc.raw(gates ? md::table({"value", "description", "opens the gate of"}, rows)
                  : md::table({"value", "description"}, rows));
    doc.raw("\n");
  }
}

void render_constants(const Context& ctx, md::Document& doc) {
  if (ctx.module.constants.empty()) return;
  doc.heading(2, "Constants", {kConstantsKey});
  std::vector<std::vector<std::string>> rows;
  for (const ir::Constant& c : ctx.module.constants) {
    rows.push_back({md::code(c.wire_name), ctx.constant_value(c), md::prose(c.doc)});
  }
  doc.raw(md::table({"name", "value", "description"}, rows) + "\n");
}

}  // namespace rpckit::docs
