// dispatch.hpp: per direction, the list of messages and a method-name lookup that hands the
// typed descriptor to a visitor, so a role routes an envelope to its typed handler in one step.
#include "emit/common.hpp"
#include "emit/emit.hpp"

namespace rpckit::gen {

std::string emit_dispatch_header(const ir::Module& m) {
  Printer p;
  p.raw(banner(m, "//"));
  p.print(
      "#pragma once\n"
      "\n"
      "#include <array>\n"
      "#include <cstddef>\n"
      "#include <optional>\n"
      "#include <string_view>\n"
      "\n"
      "#include \"$module$/messages.hpp\"\n"
      "\n",
      {{"module", m.name}});
  open_namespace(p, m);
  for (const ir::Direction& direction : m.directions) {
    const std::string& from = direction.from;
    const std::string& to = direction.to;
    std::vector<const ir::Message*> list;
    for (const ir::Message& msg : m.messages) {
      if (msg.from == from && msg.to == to) list.push_back(&msg);
    }
    std::string types;
    std::string methods;
    for (const ir::Message* msg : list) {
      types += (types.empty() ? "\n      messages::" : ",\n      messages::") + msg->cpp_name;
      methods += "\n      \"" + msg->method + "\",";
    }
    // Vars holds string_views: every value must outlive `vars`, so none is a temporary.
    const std::string& name = direction.cpp_name;
    const std::string& from_enumerator = m.role_enumerator(from);
    const std::string& to_enumerator = m.role_enumerator(to);
    std::string count = std::to_string(list.size());
    Printer::Vars vars = {{"name", name},
                          {"from", from},
                          {"to", to},
                          {"From", from_enumerator},
                          {"To", to_enumerator},
                          {"types", types},
                          {"methods", methods},
                          {"n", count}};
    p.print(
        "/// The messages $from$ sends to $to$: what a $to$ receives.\n"
        "struct $name$ {\n"
        "  static constexpr Role kFrom = Role::$From$;\n"
        "  static constexpr Role kTo = Role::$To$;\n"
        "  using Messages = rpckit::MessageList<$types$>;\n"
        "  static constexpr std::array<std::string_view, $n$> kMethods = {$methods$\n"
        "  };\n"
        "\n"
        "  /// Position of `method` in Messages, or nullopt when this direction has no such "
        "method.\n"
        "  static constexpr std::optional<std::size_t> find(std::string_view method) noexcept {\n"
        "    for (std::size_t i = 0; i < kMethods.size(); ++i) {\n"
        "      if (kMethods[i] == method) return i;\n"
        "    }\n"
        "    return std::nullopt;\n"
        "  }\n"
        "\n"
        "  /// Calls `fn.template operator()<M>()` with the descriptor of `method` and returns "
        "true,\n"
        "  /// or returns false when the method is unknown in this direction.\n"
        "  template <class Fn>\n"
        "  static constexpr bool visit(std::string_view method, Fn&& fn) {\n"
        "    switch (find(method).value_or(kMethods.size())) {\n",
        vars);
    for (std::size_t i = 0; i < list.size(); ++i) {
      p.print(
          "      case $i$:\n"
          "        fn.template operator()<messages::$name$>();\n"
          "        return true;\n",
          {{"i", std::to_string(i)}, {"name", list[i]->cpp_name}});
    }
    p.print(
        "      default:\n"
        "        return false;\n"
        "    }\n"
        "  }\n"
        "};\n"
        "\n");
  }
  close_namespace(p, m);
  return p.str();
}

}  // namespace rpckit::gen
