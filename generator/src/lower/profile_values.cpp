#include "lower/profile_values.hpp"

namespace rpckit::gen {

std::string string_of(const Node& n) {
  if (!n.json->is_string()) n.fail("expected a string");
  return n.json->get<std::string>();
}

// `value` must be one of `allowed`; returns its index.
std::size_t one_of(const Node& n, std::initializer_list<std::string_view> allowed) {
  std::string value = string_of(n);
  std::size_t i = 0;
  std::string list;
  for (std::string_view a : allowed) {
    if (a == value) return i;
    list += (list.empty() ? "\"" : ", \"") + std::string(a) + "\"";
    ++i;
  }
  n.fail("expected one of " + list);
}

std::string integer_constant(const Node& n, const ir::Module& m) {
  std::string name = string_of(n);
  for (const ir::Constant& c : m.constants) {
    if (c.wire_name == name && c.kind == ir::Constant::Kind::kInteger && !c.array) return c.cpp_name;
  }
  n.fail("\"" + name + "\" is not an integer constant of the protocol");
}

// A constant of the kind a timing needs: a duration (x-unit "ms"), a list of them, or a
// plain integer count.
std::string timing_constant(const Node& n, ir::Profile::Timing::Kind kind, const ir::Module& m) {
  using TimingKind = ir::Profile::Timing::Kind;
  std::string name = string_of(n);
  for (const ir::Constant& c : m.constants) {
    if (c.wire_name != name) continue;
    bool duration = c.kind == ir::Constant::Kind::kDurationMs;
    bool fits = kind == TimingKind::kCount ? c.kind == ir::Constant::Kind::kInteger && !c.array
                : kind == TimingKind::kDuration ? duration && !c.array
                                                : duration && c.array;
    if (fits) return c.cpp_name;
  }
  const char* expected = kind == TimingKind::kCount      ? "an integer constant"
                         : kind == TimingKind::kDuration ? "a duration constant (x-unit \"ms\")"
                                                         : "an array of durations (x-unit \"ms\")";
  n.fail("\"" + name + "\" is not " + expected + " of the protocol");
}

}  // namespace rpckit::gen
