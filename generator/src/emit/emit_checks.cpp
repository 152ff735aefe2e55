#include "emit/emit_checks.hpp"

#include <sstream>
#include <utility>
#include <vector>

#include "emit/common.hpp"

namespace rpckit::gen {
namespace {

std::string number_literal(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  std::string s = out.str();
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

template <class T>
std::string optional_size(const std::optional<T>& v) {
  return v ? "std::size_t{" + std::to_string(*v) + "}" : "std::nullopt";
}

// The schema's x-error-messages text for a pattern check, as a last argument on its own line.
std::string message_arg(const ir::Pattern& pattern) {
  return pattern.message.empty() ? std::string() : ",\n    " + raw_literal(pattern.message);
}

std::string optional_number(const std::optional<double>& v) {
  return v ? number_literal(*v) : "std::nullopt";
}

}  // namespace

std::string Patterns::use(const ir::Pattern& pattern) {
  auto [it, inserted] = index_.emplace(pattern.re2, Entry{index_.size(), pattern.source});
  return "pattern_" + std::to_string(it->second.index) + "()";
}

void Patterns::emit(Printer& p) const {
  std::vector<std::pair<const std::string*, const Entry*>> ordered(index_.size());
  for (const auto& [re2, entry] : index_) ordered[entry.index] = {&re2, &entry};
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    p.print(
        "const rpckit::codec::Pattern& pattern_$i$() {\n"
        "  static const rpckit::codec::Pattern re(\n"
        "      $re2$,\n"
        "      $source$);\n"
        "  return re;\n"
        "}\n",
        {{"i", std::to_string(i)},
         {"re2", raw_literal(*ordered[i].first)},
         {"source", raw_literal(ordered[i].second->source)}});
  }
}

namespace {

// The schema's spelling of an unsigned 32-bit integer: its range is the C++ type's, which the
// primitive decoder checks.
bool range_is_the_type(const ir::TypeRef& t) {
  return t.kind == ir::TypeRef::Kind::kPrimitive && t.primitive == ir::Primitive::kUInt32 &&
         t.constraints.minimum == 0.0 && t.constraints.maximum == 4294967295.0;
}

}  // namespace

bool has_checks(const ir::TypeRef& t) {
  ir::Constraints c = t.constraints;
  if (range_is_the_type(t)) c.minimum = c.maximum = std::nullopt;
  if (!c.empty()) return true;
  return t.element && has_checks(*t.element);
}

void emit_checks(Printer& p, Patterns& patterns, const ir::TypeRef& t, const std::string& expr,
                 int depth) {
  if (!has_checks(t)) return;
  if (t.nullable) {
    p.print("if ($expr$.has_value()) {\n", {{"expr", expr}});
    Printer::Indent in(p);
    ir::TypeRef inner = t;
    inner.nullable = false;
    emit_checks(p, patterns, inner, "(*" + expr + ")", depth);
    p.print("}\n");
    return;
  }
  const ir::Constraints& c = t.constraints;
  if (c.min_length || c.max_length) {
    p.print("rpckit::codec::check_length($expr$, $min$, $max$, path);\n",
            {{"expr", expr}, {"min", optional_size(c.min_length)}, {"max", optional_size(c.max_length)}});
  }
  if (c.pattern) {
    p.print("rpckit::codec::check_pattern($expr$, $re$, path$message$);\n",
            {{"expr", expr}, {"re", patterns.use(*c.pattern)}, {"message", message_arg(*c.pattern)}});
  }
  if (c.not_pattern) {
    p.print("rpckit::codec::check_not_pattern($expr$, $re$, path$message$);\n",
            {{"expr", expr},
             {"re", patterns.use(*c.not_pattern)},
             {"message", message_arg(*c.not_pattern)}});
  }
  if (c.date_time) p.print("rpckit::codec::check_date_time($expr$, path);\n", {{"expr", expr}});
  if (c.object) p.print("rpckit::codec::check_object($expr$.get(), path);\n", {{"expr", expr}});
  if ((c.minimum || c.maximum) && !range_is_the_type(t)) {
    p.print("rpckit::codec::check_range(static_cast<double>($expr$), $min$, $max$, path);\n",
            {{"expr", expr}, {"min", optional_number(c.minimum)}, {"max", optional_number(c.maximum)}});
  }
  if (c.min_items || c.max_items) {
    p.print("rpckit::codec::check_items($expr$.size(), $min$, $max$, path);\n",
            {{"expr", expr}, {"min", optional_size(c.min_items)}, {"max", optional_size(c.max_items)}});
  }
  if (c.unique_items) p.print("rpckit::codec::check_unique($expr$, path);\n", {{"expr", expr}});
  if (!t.element || !has_checks(*t.element)) return;
  std::string var = "i" + std::to_string(depth);
  if (t.kind == ir::TypeRef::Kind::kArray) {
    p.print(
        "for (std::size_t $i$ = 0; $i$ < $expr$.size(); ++$i$) {\n"
        "  rpckit::codec::DecodePath::Index scope$d$(path, $i$);\n",
        {{"i", var}, {"expr", expr}, {"d", std::to_string(depth)}});
    Printer::Indent in(p);
    emit_checks(p, patterns, *t.element, expr + "[" + var + "]", depth + 1);
  } else {
    p.print(
        "for (const auto& [key$d$, $i$] : $expr$) {\n"
        "  rpckit::codec::DecodePath::Key scope$d$(path, key$d$);\n",
        {{"i", var}, {"expr", expr}, {"d", std::to_string(depth)}});
    Printer::Indent in(p);
    emit_checks(p, patterns, *t.element, var, depth + 1);
  }
  p.print("}\n");
}

}  // namespace rpckit::gen
