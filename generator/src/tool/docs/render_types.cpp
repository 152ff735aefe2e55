// Types: structs (member tables), enums (value tables), unions (members) and named maps.
#include "rpckit/model/required_alternatives.hpp"
#include "tool/docs/sections.hpp"

namespace rpckit::docs {
namespace {

std::string enum_table(const ir::Enum& e) {
  std::vector<std::vector<std::string>> rows;
  for (const ir::EnumValue& v : e.values) {
    if (e.integer) {
      rows.push_back({md::code(v.wire), md::code(v.label), md::prose(v.doc)});
    } else {
      rows.push_back({md::code(v.wire), md::prose(v.doc)});
    }
  }
  return e.integer ? md::table({"value", "name", "description"}, rows)
                   : md::table({"value", "description"}, rows);
}

std::string union_table(const Context& ctx, const ir::Union& u) {
  std::vector<std::vector<std::string>> rows;
  for (const ir::UnionMember& m : u.members) {
    rows.push_back({md::code(u.discriminator ? m.tag : m.match), ctx.type_text(m.type)});
  }
  std::string intro =
      u.discriminator
          ? "One of the following, chosen by the member " + md::code(*u.discriminator) + ":\n\n"
          : "One of the following, chosen by the JSON kind of the value:\n\n";
  return intro +
         md::table({u.discriminator ? md::code(*u.discriminator) : "JSON kind", "type"}, rows) +
         "\nAnything else (from a newer peer) is accepted and kept as it is.\n";
}

}  // namespace

std::string fields_table(const Context& ctx, const ir::Struct& s) {
  std::string rest;
  if (s.rest) {
    std::string constraints = ctx.constraints_text(*s.rest);
    rest = "\nOther members (any name) are allowed and kept as they are; each value: " +
           std::string(s.rest->nullable ? "nullable " : "") + ctx.type_text(*s.rest) +
           (constraints.empty() ? "" : " (" + constraints + ")") + ".\n";
  }
  if (!s.required_any_of.empty()) {
    const std::string rule = model::describe_alternatives(
        s.required_any_of, [](const std::string& name) { return md::code(name); });
    rest += "\nOf the optional members, " + rule +
            " must be present (the schema's anyOf of required lists).\n";
  }
  if (s.fields.empty()) return "An empty object: no members.\n" + rest;
  std::vector<std::vector<std::string>> rows;
  for (const ir::Field& f : s.fields) {
    std::string type = f.const_json ? md::code(*f.const_json) + " (const)" : ctx.type_text(f.type);
    rows.push_back({md::code(f.wire_name), type, f.required ? "required" : "optional",
                    f.type.nullable ? "yes" : "no", f.default_json ? md::code(*f.default_json) : "",
                    ctx.field_constraints(f), md::prose(f.doc)});
  }
  return md::table(
             {"member", "type", "presence", "nullable", "default", "constraints", "description"},
             rows) +
         rest;
}

std::string type_body(const Context& ctx, const ir::TypeDecl& t) {
  std::string out;
  if (!t.doc.empty()) out += md::prose(t.doc) + "\n\n";
  out += "Defined in " + md::code(t.loc.pointer.empty() ? t.loc.file : t.loc.str()) + ".\n\n";
  switch (t.kind) {
    case ir::TypeDecl::Kind::kStruct:
      out += fields_table(ctx, t.struct_);
      break;
    case ir::TypeDecl::Kind::kEnum:
      out += (t.enum_.integer ? "An integer" : "A string");
      out += ", one of the following; other values (from a newer peer) are kept as they are.\n\n";
      out += enum_table(t.enum_);
      break;
    case ir::TypeDecl::Kind::kUnion:
      out += union_table(ctx, t.union_);
      break;
    case ir::TypeDecl::Kind::kAlias: {
      const ir::TypeRef& values = *t.alias_.element;
      out += "An object with any member names; each value: ";
      out += values.nullable ? "nullable " : "";
      out += ctx.type_text(values);
      std::string constraints = ctx.constraints_text(values);
      if (!constraints.empty()) out += " (" + constraints + ")";
      out += ".\n";
      break;
    }
  }
  return out;
}

void render_types(const Context& ctx, md::Document& doc) {
  std::vector<const ir::TypeDecl*> listed;
  for (const ir::TypeDecl& t : ctx.module.types) {
    // Shown elsewhere: the error codes, the capability vocabulary, a message's own params
    // and result.
    if (&t == ctx.error_enum() || ctx.shown_in_message(t.name)) continue;
    if (!ctx.capabilities_file().empty() && t.loc.file == ctx.capabilities_file()) continue;
    listed.push_back(&t);
  }
  if (listed.empty()) return;
  doc.heading(2, "Types", {kTypesKey});
  doc.paragraph(
      "The types the messages use, in dependency order (a type comes after the types "
      "it holds).");
  for (const ir::TypeDecl* t : listed) {
    doc.heading(3, md::code(t->name), {type_key(t->name)});
    doc.raw(type_body(ctx, *t) + "\n");
  }
}

}  // namespace rpckit::docs
