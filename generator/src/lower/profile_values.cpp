#include "lower/profile_values.hpp"

#include <algorithm>
#include <vector>

#include "lower/names.hpp"
#include "model.hpp"

namespace rpckit::gen {

std::string string_of(const Node& n) {
  if (!n.json->is_string()) n.reject("expected a string");
  return n.json->get<std::string>();
}

// `value` must be one of `allowed`; returns its index.
std::size_t one_of(const Node& n, std::initializer_list<std::string_view> allowed) {
  if (!n.json->is_string()) n.reject("expected one of " + quoted_list(allowed));
  std::string value = n.json->get<std::string>();
  std::size_t i = 0;
  for (std::string_view a : allowed) {
    if (a == value) return i;
    ++i;
  }
  n.reject("expected one of " + quoted_list(allowed));
}

void only_keys(const Node& n, std::span<const std::string_view> keys, const char* what) {
  if (!n.json->is_object()) n.reject("expected an object");
  for (const auto& item : n.json->items()) {
    if (std::find(keys.begin(), keys.end(), item.key()) == keys.end()) {
      n.child(item.key()).fail(std::string("unknown ") + what);
    }
  }
}

namespace {

// " (the protocol has: \"a\", \"b\")", or " (the protocol has none)": the names that fit.
std::string fitting(const std::vector<std::string>& names) {
  return names.empty() ? " (the protocol has none)" : " (the protocol has " + quoted_list(names) + ")";
}

}  // namespace

std::string integer_constant(const Node& n, const ir::Module& m) {
  std::string name = string_of(n);
  std::vector<std::string> names;
  for (const ir::Constant& c : m.constants) {
    if (c.kind != ir::Constant::Kind::kInteger || c.array) continue;
    if (c.wire_name == name) return c.cpp_name;
    names.push_back(c.wire_name);
  }
  n.fail("\"" + name + "\" is not an integer constant of the protocol" + fitting(names));
}

// A constant of the kind a timing needs: a duration (x-unit "ms"), a list of them, or a
// plain integer count.
std::string timing_constant(const Node& n, ir::Profile::Timing::Kind kind, const ir::Module& m) {
  using Timing = ir::Profile::Timing;
  std::string name = string_of(n);
  std::vector<std::string> names;
  for (const ir::Constant& c : m.constants) {
    bool duration = c.kind == ir::Constant::Kind::kDurationMs;
    bool fits = kind == Timing::Kind::kCount ? c.kind == ir::Constant::Kind::kInteger && !c.array
                : kind == Timing::Kind::kDuration ? duration && !c.array
                                                : duration && c.array;
    if (!fits) continue;
    if (c.wire_name == name) return c.cpp_name;
    names.push_back(c.wire_name);
  }
  const char* expected = kind == Timing::Kind::kCount      ? "an integer constant"
                         : kind == Timing::Kind::kDuration ? "a duration constant (x-unit \"ms\")"
                                                         : "an array of durations (x-unit \"ms\")";
  n.fail("\"" + name + "\" is not " + expected + " of the protocol" + fitting(names));
}

std::string error_enumerator(const Node& n, const ir::TypeDecl& codes) {
  std::string name = string_of(n);
  std::string cpp = constant_name(name);
  std::vector<std::string> names;
  for (const ir::EnumValue& v : codes.enum_.values) {
    if (v.cpp_name == cpp) return cpp;
    names.push_back(v.label);
  }
  n.fail("unknown error name \"" + name + "\"" + fitting(names));
}

}  // namespace rpckit::gen
