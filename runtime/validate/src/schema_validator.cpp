#include "rpckit/validate/schema_validator.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "formats.hpp"
#include "rpckit/codec/pattern.hpp"

namespace rpckit::validate {
namespace {

using nlohmann::json;            // instances
using SchemaJson = model::Json;  // the loaded schema's nodes

// Deeper than any real schema's $ref chain: only a schema that refers to itself without
// consuming the instance ({"allOf": [{"$ref": "#"}]}) gets there.
constexpr int kMaxSchemaDepth = 512;

std::size_t code_points(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

template <typename J>
bool is_integer(const J& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  const double d = v.template get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

template <typename J>
bool has_type(const J& v, const std::string& type) {
  if (type == "null") return v.is_null();
  if (type == "boolean") return v.is_boolean();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "number") return v.is_number();
  if (type == "integer") return is_integer(v);
  return false;
}

template <typename J>
std::string type_name(const J& v) {
  if (v.is_number()) return is_integer(v) ? "integer" : "number";
  return v.type_name() == std::string("boolean") ? "boolean" : v.type_name();
}

std::string list(const SchemaJson& values, const char* separator = ", ") {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : separator) + describe_value(v);
  return out;
}

// JSON equality of a schema value and an instance value, as JSON Schema means it (numbers by
// value, whatever their spelling; objects whatever their member order).
bool json_equal(const SchemaJson& a, const json& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_number_float() || b.is_number_float()) return a.get<double>() == b.get<double>();
    if (a.is_number_unsigned() && b.is_number_unsigned()) {
      return a.get<std::uint64_t>() == b.get<std::uint64_t>();
    }
    if (a.is_number_unsigned() || b.is_number_unsigned()) {  // one unsigned, one signed
      const bool a_unsigned = a.is_number_unsigned();
      const std::int64_t s = a_unsigned ? b.get<std::int64_t>() : a.get<std::int64_t>();
      const std::uint64_t u = a_unsigned ? a.get<std::uint64_t>() : b.get<std::uint64_t>();
      return s >= 0 && static_cast<std::uint64_t>(s) == u;
    }
    return a.get<std::int64_t>() == b.get<std::int64_t>();
  }
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case SchemaJson::value_t::null:
      return true;
    case SchemaJson::value_t::boolean:
      return a.get<bool>() == b.get<bool>();
    case SchemaJson::value_t::string:
      return a.get_ref<const std::string&>() == b.get_ref<const std::string&>();
    case SchemaJson::value_t::array:
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!json_equal(a[i], b[i])) return false;
      }
      return true;
    case SchemaJson::value_t::object:
      if (a.size() != b.size()) return false;
      for (const auto& [key, value] : a.items()) {
        auto it = b.find(key);
        if (it == b.end() || !json_equal(value, *it)) return false;
      }
      return true;
    default:
      return false;  // binary: not JSON
  }
}

std::string number_text(double d) {
  if (std::floor(d) == d && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  return json(d).dump();
}

class Run {
 public:
  Run(const SchemaValidator& validator, Violations& out)
      : store_(validator.store()), options_(validator.options()), out_(&out) {}

  void check(const json& instance, const SchemaRef& schema, const std::string& at) {
    if (++depth_ > kMaxSchemaDepth) {
      fail(at, schema, "$ref", "a schema that consumes the value before referring to itself",
           "a $ref cycle");
      --depth_;
      return;
    }
    keywords(instance, schema, at);
    --depth_;
  }

 private:
  void fail(const std::string& at, const SchemaRef& schema, const std::string& keyword,
            std::string expected, std::string found,
            Violation::Severity severity = Violation::Severity::kError) {
    out_->push_back({severity, at, schema.loc().str() + "/" + pointer_token(keyword), keyword,
                     std::move(expected), std::move(found)});
  }

  // Runs `body` with violations collected apart; returns them.
  template <typename Body>
  Violations apart(Body body) {
    Violations local;
    Violations* saved = out_;
    out_ = &local;
    body();
    out_ = saved;
    return local;
  }

  bool valid(const json& instance, const SchemaRef& schema, const std::string& at) {
    return !has_errors(apart([&] { check(instance, schema, at); }));
  }

  void keywords(const json& v, const SchemaRef& s, const std::string& at) {
    const SchemaJson& node = *s.json;
    if (node.is_boolean()) {
      if (!node.get<bool>()) fail(at, s, "false", "nothing (the schema is false)", describe_value(v));
      return;
    }
    if (!node.is_object()) return;
    if (auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
      // draft-07: siblings ignored
      check(v, store_.resolve(s, ref->get<std::string>()), at);
      return;
    }
    generic(v, s, at);
    if (v.is_number()) numeric(v, s, at);
    if (v.is_string()) textual(v, s, at);
    if (v.is_array()) arrays(v, s, at);
    if (v.is_object()) objects(v, s, at);
    combinators(v, s, at);
  }

  void generic(const json& v, const SchemaRef& s, const std::string& at) {
    const SchemaJson& node = *s.json;
    if (auto t = node.find("type"); t != node.end()) {
      bool ok = false;
      if (t->is_string()) ok = has_type(v, t->get<std::string>());
      if (t->is_array()) {
        ok = std::any_of(t->begin(), t->end(), [&](const SchemaJson& name) {
          return name.is_string() && has_type(v, name.get<std::string>());
        });
      }
      if (!ok) {
        fail(at, s, "type", t->is_string() ? "a value of type " + t->get<std::string>()
                                           : "a value of type " + list(*t, " or "),
             describe_value(v) + " (" + type_name(v) + ")");
      }
    }
    if (auto e = node.find("enum"); e != node.end() && e->is_array()) {
      if (std::none_of(e->begin(), e->end(),
                       [&](const SchemaJson& known) { return json_equal(known, v); })) {
        // Open enums: a value of the listed values' JSON type is one this version does not
        // know yet, which a receiver must accept.
        const bool open = !options_.strict_enums && !e->empty() &&
                          std::all_of(e->begin(), e->end(), [&](const SchemaJson& known) {
                            return type_name(known) == type_name(v) && (v.is_string() || v.is_number());
                          });
        fail(at, s, "enum", "one of " + list(*e), describe_value(v),
             open ? Violation::Severity::kWarning : Violation::Severity::kError);
      }
    }
    if (auto c = node.find("const"); c != node.end() && !json_equal(*c, v)) {
      fail(at, s, "const", describe_value(*c), describe_value(v));
    }
    if (auto f = node.find("format"); f != node.end() && f->is_string() && v.is_string()) {
      if (!matches_format(f->get<std::string>(), v.get_ref<const std::string&>())) {
        fail(at, s, "format", "a string in format " + f->get<std::string>(), describe_value(v));
      }
    }
  }

  void numeric(const json& v, const SchemaRef& s, const std::string& at) {
    const SchemaJson& node = *s.json;
    const double x = v.get<double>();
    auto bound = [&](const char* keyword, auto violated, const char* relation) {
      auto it = node.find(keyword);
      if (it == node.end() || !it->is_number()) return;
      const double limit = it->template get<double>();
      if (violated(x, limit)) {
        fail(at, s, keyword, std::string("a number ") + relation + " " + number_text(limit),
             describe_value(v));
      }
    };
    bound("minimum", [](double a, double b) { return a < b; }, ">=");
    bound("maximum", [](double a, double b) { return a > b; }, "<=");
    bound("exclusiveMinimum", [](double a, double b) { return a <= b; }, ">");
    bound("exclusiveMaximum", [](double a, double b) { return a >= b; }, "<");
    if (auto m = node.find("multipleOf"); m != node.end() && m->is_number()) {
      const double q = x / m->get<double>();
      if (!std::isfinite(q) || std::floor(q) != q) {
        fail(at, s, "multipleOf", "a multiple of " + number_text(m->get<double>()), describe_value(v));
      }
    }
  }

  void textual(const json& v, const SchemaRef& s, const std::string& at) {
    const SchemaJson& node = *s.json;
    const auto& text = v.get_ref<const std::string&>();
    if (auto it = node.find("minLength"); it != node.end() && it->is_number()) {
      if (static_cast<double>(code_points(text)) < it->get<double>()) {
        fail(at, s, "minLength", "at least " + it->dump() + " characters",
             std::to_string(code_points(text)) + " characters");
      }
    }
    if (auto it = node.find("maxLength"); it != node.end() && it->is_number()) {
      if (static_cast<double>(code_points(text)) > it->get<double>()) {
        fail(at, s, "maxLength", "at most " + it->dump() + " characters",
             std::to_string(code_points(text)) + " characters");
      }
    }
    if (auto p = node.find("pattern"); p != node.end() && p->is_string()) {
      if (!store_.pattern(p->get<std::string>(), s.loc().str()).search(text)) {
        fail(at, s, "pattern", "a string matching " + p->dump(), describe_value(v));
      }
    }
  }

  void arrays(const json& v, const SchemaRef& s, const std::string& at) {
    const SchemaJson& node = *s.json;
    const auto size = static_cast<double>(v.size());
    if (auto it = node.find("minItems"); it != node.end() && it->is_number() && size < it->get<double>()) {
      fail(at, s, "minItems", "at least " + it->dump() + " items", std::to_string(v.size()) + " items");
    }
    if (auto it = node.find("maxItems"); it != node.end() && it->is_number() && size > it->get<double>()) {
      fail(at, s, "maxItems", "at most " + it->dump() + " items", std::to_string(v.size()) + " items");
    }
    if (auto it = node.find("uniqueItems"); it != node.end() && it->is_boolean() && it->get<bool>()) {
      std::vector<const json*> sorted;
      for (const auto& item : v) sorted.push_back(&item);
      std::sort(sorted.begin(), sorted.end(), [](const json* a, const json* b) { return *a < *b; });
      auto dup = std::adjacent_find(sorted.begin(), sorted.end(),
                                    [](const json* a, const json* b) { return *a == *b; });
      if (dup != sorted.end()) fail(at, s, "uniqueItems", "items that are all different", "a repeated " + describe_value(**dup));
    }
    if (auto items = node.find("items"); items != node.end()) {
      if (items->is_array()) {
        const SchemaRef list_ref = s.child("items");
        for (std::size_t i = 0; i < v.size() && i < items->size(); ++i) {
          check(v[i], list_ref.item(i), at + "/" + std::to_string(i));
        }
        if (auto extra = node.find("additionalItems"); extra != node.end()) {
          for (std::size_t i = items->size(); i < v.size(); ++i) {
            check(v[i], s.child("additionalItems"), at + "/" + std::to_string(i));
          }
        }
      } else {
        for (std::size_t i = 0; i < v.size(); ++i) check(v[i], s.child("items"), at + "/" + std::to_string(i));
      }
    }
    if (auto contains = node.find("contains"); contains != node.end()) {
      bool any = false;
      for (std::size_t i = 0; i < v.size() && !any; ++i) {
        any = valid(v[i], s.child("contains"), at + "/" + std::to_string(i));
      }
      if (!any)
        fail(at, s, "contains", "an item valid against " + s.child("contains").loc().str(), "none");
    }
  }

  void objects(const json& v, const SchemaRef& s, const std::string& at) {
    const SchemaJson& node = *s.json;
    const auto size = static_cast<double>(v.size());
    if (auto it = node.find("minProperties"); it != node.end() && it->is_number() && size < it->get<double>()) {
      fail(at, s, "minProperties", "at least " + it->dump() + " members", std::to_string(v.size()) + " members");
    }
    if (auto it = node.find("maxProperties"); it != node.end() && it->is_number() && size > it->get<double>()) {
      fail(at, s, "maxProperties", "at most " + it->dump() + " members", std::to_string(v.size()) + " members");
    }
    if (auto req = node.find("required"); req != node.end() && req->is_array()) {
      for (const auto& name : *req) {
        if (name.is_string() && !v.contains(name.get<std::string>())) {
          fail(at, s, "required", "member \"" + name.get<std::string>() + "\"", "an object without it");
        }
      }
    }
    const auto props = node.find("properties");
    const auto patterns = node.find("patternProperties");
    const auto additional = node.find("additionalProperties");
    for (const auto& [key, value] : v.items()) {
      const std::string here = at + "/" + pointer_token(key);
      bool matched = false;
      if (props != node.end() && props->is_object() && props->contains(key)) {
        matched = true;
        check(value, s.child("properties").child(key), here);
      }
      if (patterns != node.end() && patterns->is_object()) {
        for (const auto& [source, _] : patterns->items()) {
          if (store_.pattern(source, s.loc().str()).search(key)) {
            matched = true;
            check(value, s.child("patternProperties").child(source), here);
          }
        }
      }
      if (!matched && additional != node.end()) {
        if (additional->is_boolean() && !additional->get<bool>()) {
          fail(here, s, "additionalProperties", "no member \"" + key + "\" (the schema lists every member)",
               describe_value(value));
        } else {
          check(value, s.child("additionalProperties"), here);
        }
      }
    }
    if (auto names = node.find("propertyNames"); names != node.end()) {
      for (const auto& [key, _] : v.items()) {
        check(json(key), s.child("propertyNames"), at + "/" + pointer_token(key));
      }
    }
    if (auto deps = node.find("dependencies"); deps != node.end() && deps->is_object()) {
      for (const auto& [key, dep] : deps->items()) {
        if (!v.contains(key)) continue;
        if (dep.is_array()) {
          for (const auto& name : dep) {
            if (name.is_string() && !v.contains(name.get<std::string>())) {
              fail(at, s.child("dependencies"), key,
                   "member \"" + name.get<std::string>() + "\" (required with \"" + key + "\")",
                   "an object without it");
            }
          }
        } else {
          check(v, s.child("dependencies").child(key), at);
        }
      }
    }
  }

  void combinators(const json& v, const SchemaRef& s, const std::string& at) {
    const SchemaJson& node = *s.json;
    if (auto all = node.find("allOf"); all != node.end() && all->is_array()) {
      for (std::size_t i = 0; i < all->size(); ++i) check(v, s.child("allOf").item(i), at);
    }
    for (const char* keyword : {"anyOf", "oneOf"}) {
      auto it = node.find(keyword);
      if (it == node.end() || !it->is_array()) continue;
      std::vector<Violations> branches;
      std::vector<std::size_t> passed;
      for (std::size_t i = 0; i < it->size(); ++i) {
        branches.push_back(apart([&] { check(v, s.child(keyword).item(i), at); }));
        if (!has_errors(branches.back())) passed.push_back(i);
      }
      const bool one = std::string(keyword) == "oneOf";
      if (passed.empty()) {
        // The closest alternative (fewest errors) says most about what was meant.
        std::size_t best = 0;
        for (std::size_t i = 1; i < branches.size(); ++i) {
          if (branches[i].size() < branches[best].size()) best = i;
        }
        fail(at, s, keyword,
             std::string(one ? "exactly one" : "at least one") + " of " + std::to_string(it->size()) +
                 " alternatives to match (closest: " + keyword + "/" + std::to_string(best) + ", below)",
             "none matched");
        if (!branches.empty()) out_->insert(out_->end(), branches[best].begin(), branches[best].end());
      } else if (one && passed.size() > 1) {
        fail(at, s, keyword, "exactly one alternative to match",
             "alternatives " + std::to_string(passed[0]) + " and " + std::to_string(passed[1]) + " both matched");
      } else {
        const auto& chosen = branches[passed.front()];  // its warnings stand
        out_->insert(out_->end(), chosen.begin(), chosen.end());
      }
    }
    if (auto n = node.find("not"); n != node.end()) {
      if (valid(v, s.child("not"), at)) {
        fail(at, s, "not", "a value the schema at " + s.child("not").loc().str() + " rejects",
             describe_value(v));
      }
    }
    if (auto cond = node.find("if"); cond != node.end()) {
      const bool holds = valid(v, s.child("if"), at);
      const char* branch = holds ? "then" : "else";
      if (node.contains(branch)) check(v, s.child(branch), at);
    }
  }

  const SchemaStore& store_;
  const ValidateOptions& options_;
  Violations* out_;
  int depth_ = 0;
};

}  // namespace

std::string Violation::message() const {
  if (found.empty()) return "expected " + expected;
  return "expected " + expected + ", found " + found;
}

bool has_errors(const Violations& violations) {
  return std::any_of(violations.begin(), violations.end(),
                     [](const Violation& v) { return v.severity == Violation::Severity::kError; });
}

std::string describe_value(const nlohmann::json& value) {
  if (value.is_object()) return value.empty() ? "{}" : "an object";
  if (value.is_array()) {
    if (value.empty()) return "[]";
    return "an array of " + std::to_string(value.size()) + (value.size() == 1 ? " item" : " items");
  }
  // A long string is cut before it is written out: a 4 MiB value is not copied per message.
  if (value.is_string() && value.get_ref<const std::string&>().size() > 72) {
    const auto& text = value.get_ref<const std::string&>();
    std::size_t cut = 64;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
    return nlohmann::json(text.substr(0, cut))
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
           "... (" + std::to_string(text.size()) + " bytes)";
  }
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string describe_value(const nlohmann::ordered_json& value) {
  return describe_value(nlohmann::json(value));
}

SchemaValidator::SchemaValidator(std::shared_ptr<const SchemaStore> store, ValidateOptions options)
    : store_(std::move(store)), options_(options) {}

Violations SchemaValidator::validate(const nlohmann::json& instance, const SchemaRef& schema,
                                     const std::string& instance_prefix) const {
  Violations out;
  Run(*this, out).check(instance, schema, instance_prefix);
  return out;
}

}  // namespace rpckit::validate
