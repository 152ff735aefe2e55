#include "tool/compat/api_diff.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <utility>

#include "ir/dump.hpp"

namespace rpckit::compat {

namespace ir = gen::ir;
namespace {

const char* kind_name(ir::TypeDecl::Kind k) {
  switch (k) {
    case ir::TypeDecl::Kind::kStruct:
      return "struct";
    case ir::TypeDecl::Kind::kEnum:
      return "enum";
    case ir::TypeDecl::Kind::kUnion:
      return "union";
    case ir::TypeDecl::Kind::kAlias:
      return "alias";
  }
  return "?";
}

std::string presence_name(ir::Message::ParamsPresence p) {
  return std::to_string(static_cast<int>(p));
}

std::string comma_joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

template <class T, class Key>
const T* find_by(const std::vector<T>& items, Key key, const std::string& wanted) {
  for (const T& item : items) {
    if (key(item) == wanted) return &item;
  }
  return nullptr;
}

class Problems {
 public:
  void add(const std::string& p) { list.push_back(p); }
  // Records "<what>: <old> -> <new>" when they differ.
  template <class T>
  void same(const std::string& what, const T& before, const T& after) {
    if (before != after) {
      std::ostringstream s;
      s << what << " changed: " << show(before) << " -> " << show(after);
      list.push_back(s.str());
    }
  }
  std::vector<std::string> list;

 private:
  static std::string show(const std::string& s) { return "\"" + s + "\""; }
  static std::string show(bool b) { return b ? "true" : "false"; }
  static std::string show(const std::optional<std::string>& s) {
    return s ? show(*s) : std::string("(none)");
  }
  static std::string show(std::size_t n) { return std::to_string(n); }
};

// A type as the C++ declaration spells it: constraints are checks in the decoder, not part of
// the declaration (the schema comparison judges them on the wire).
std::string cpp_type(const ir::TypeRef& t) {
  using K = ir::TypeRef::Kind;
  if (t.alias.empty() && (t.kind == K::kArray || t.kind == K::kMap)) {
    std::string s = (t.kind == K::kArray ? "array<" : "map<") + cpp_type(*t.element) + ">";
    return t.nullable ? "nullable<" + s + ">" : s;
  }
  ir::TypeRef bare = t;
  bare.constraints = {};
  return gen::describe(bare);
}

void compare_struct(Problems& p, const ir::TypeDecl& a, const ir::TypeDecl& b) {
  for (const ir::Field& f : a.struct_.fields) {
    std::string where = "struct " + a.name + " field " + f.wire_name;
    const ir::Field* g = find_by(
        b.struct_.fields, [](const ir::Field& x) { return x.wire_name; }, f.wire_name);
    if (g == nullptr) {
      p.add(where + " is gone");
      continue;
    }
    p.same(where + " C++ name", f.cpp_name, g->cpp_name);
    p.same(where + " type", f.const_json ? std::string() : cpp_type(f.type),
           g->const_json ? std::string() : cpp_type(g->type));
    p.same(where + " required", f.required, g->required);
    p.same(where + " const", f.const_json, g->const_json);
    p.same(where + " default", f.default_cpp, g->default_cpp);
  }
  if (a.struct_.rest) {  // an open struct's map of its other members
    std::string where = "struct " + a.name + " " + ir::kRestMember;
    if (!b.struct_.rest) {
      p.add(where + " is gone");
    } else {
      p.same(where + " type", cpp_type(*a.struct_.rest), cpp_type(*b.struct_.rest));
    }
  }
}

void compare_enum(Problems& p, const ir::TypeDecl& a, const ir::TypeDecl& b) {
  p.same("enum " + a.name + " integer", a.enum_.integer, b.enum_.integer);
  for (std::size_t i = 0; i < a.enum_.values.size(); ++i) {
    const ir::EnumValue& v = a.enum_.values[i];
    std::string where = "enum " + a.name + " value \"" + v.wire + "\"";
    auto it = std::find_if(b.enum_.values.begin(), b.enum_.values.end(),
                           [&](const ir::EnumValue& w) { return w.wire == v.wire; });
    if (it == b.enum_.values.end()) {
      p.add(where + " is gone");
      continue;
    }
    p.same(where + " C++ name", v.cpp_name, it->cpp_name);
    p.same(where + " label", v.label, it->label);
    // A string enum's C++ value is its position (types.hpp numbers them 1, 2, ...).
    if (!a.enum_.integer) {
      p.same(where + " position", i, static_cast<std::size_t>(it - b.enum_.values.begin()));
    }
  }
}

void compare_union(Problems& p, const ir::TypeDecl& a, const ir::TypeDecl& b) {
  p.same("union " + a.name + " discriminator", a.union_.discriminator, b.union_.discriminator);
  for (std::size_t i = 0; i < a.union_.members.size(); ++i) {
    std::string where = "union " + a.name + " member " + std::to_string(i);
    if (i >= b.union_.members.size()) {
      p.add(where + " is gone");
      continue;
    }
    const ir::UnionMember& m = a.union_.members[i];
    const ir::UnionMember& n = b.union_.members[i];
    p.same(where + " type", cpp_type(m.type), cpp_type(n.type));
    p.same(where + " tag", m.tag, n.tag);
    p.same(where + " match", m.match, n.match);
  }
}

}  // namespace

std::vector<std::string> ir_additive_problems(const ir::Module& a, const ir::Module& b) {
  Problems p;
  p.same("module name", a.name, b.name);
  p.same("namespace", a.cpp_namespace, b.cpp_namespace);
  p.same("roles", comma_joined(a.roles), comma_joined(b.roles));
  p.same("error code type", a.error_code_type, b.error_code_type);

  for (const ir::Constant& c : a.constants) {
    std::string where = "constant " + c.wire_name;
    const ir::Constant* d = find_by(
        b.constants, [](const ir::Constant& x) { return x.wire_name; }, c.wire_name);
    if (d == nullptr) {
      p.add(where + " is gone");
      continue;
    }
    p.same(where + " C++ name", c.cpp_name, d->cpp_name);
    p.same(where + " kind", std::to_string(static_cast<int>(c.kind)),
           std::to_string(static_cast<int>(d->kind)));
    p.same(where + " array", c.array, d->array);
    p.same(where + " values", comma_joined(c.values), comma_joined(d->values));
  }

  for (const ir::TypeDecl& d : a.types) {
    const ir::TypeDecl* e = find_by(
        b.types, [](const ir::TypeDecl& x) { return x.name; }, d.name);
    if (e == nullptr) {
      p.add(std::string(kind_name(d.kind)) + " " + d.name + " is gone");
      continue;
    }
    if (d.kind != e->kind) {
      p.add("type " + d.name + " changed kind: " + kind_name(d.kind) + " -> " + kind_name(e->kind));
      continue;
    }
    switch (d.kind) {
      case ir::TypeDecl::Kind::kStruct:
        compare_struct(p, d, *e);
        break;
      case ir::TypeDecl::Kind::kEnum:
        compare_enum(p, d, *e);
        break;
      case ir::TypeDecl::Kind::kUnion:
        compare_union(p, d, *e);
        break;
      case ir::TypeDecl::Kind::kAlias:
        p.same("alias " + d.name, gen::describe(d.alias_), gen::describe(e->alias_));
        break;
    }
  }

  for (const ir::Message& m : a.messages) {
    std::string where = "message " + m.method;
    const ir::Message* n = find_by(
        b.messages, [](const ir::Message& x) { return x.method; }, m.method);
    if (n == nullptr) {
      p.add(where + " is gone");
      continue;
    }
    p.same(where + " descriptor", m.cpp_name, n->cpp_name);
    p.same(where + " request", m.request, n->request);
    auto routes = [](const ir::Message& x) {
      std::string out;
      for (const ir::Message::Route& r : x.routes)
        out += (out.empty() ? "" : ", ") + r.from + "->" + r.to;
      return out;
    };
    p.same(where + " direction", routes(m), routes(*n));
    p.same(where + " params", m.params_type, n->params_type);
    p.same(where + " params presence", presence_name(m.params_presence),
           presence_name(n->params_presence));
    p.same(where + " result", m.result ? gen::describe(*m.result) : std::string("(none)"),
           n->result ? gen::describe(*n->result) : std::string("(none)"));
    p.same(where + " deadline", m.deadline, n->deadline);
    // The gate and the errors are views (kGate, kErrors) whose types do not change: what they
    // hold is the wire's business (gate.*, errors.*), and a removed error's enumerator is the
    // error code enum's.
  }
  return p.list;
}

// ---- declaration level --------------------------------------------------------------------

std::vector<std::string> api_surface_problems(const std::vector<gen::ApiFact>& before,
                                              const std::vector<gen::ApiFact>& after) {
  std::map<std::pair<std::string, std::string>, const gen::ApiFact*> declared;
  for (const gen::ApiFact& f : after) declared[{f.scope, f.symbol}] = &f;
  std::vector<std::string> problems;
  for (const gen::ApiFact& f : before) {
    const std::string where = f.scope + "::" + f.symbol;
    auto it = declared.find({f.scope, f.symbol});
    if (it == declared.end()) {
      problems.push_back(where + " is gone");
    } else if (it->second->spelling != f.spelling) {
      problems.push_back(where + " changed: `" + f.spelling + "` -> `" + it->second->spelling +
                         "`");
    }
  }
  return problems;
}

}  // namespace rpckit::compat
