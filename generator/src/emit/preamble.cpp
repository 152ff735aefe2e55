#include "emit/preamble.hpp"

#include "emit/common.hpp"
#include "emit/wrap.hpp"

namespace rpckit::gen {
namespace {

// One group of #include lines and the blank line after it (nothing for an empty group).
void includes(Printer& p, const std::vector<std::string>& names, const std::string& open,
              const std::string& prefix, const std::string& close) {
  if (names.empty()) return;
  for (const std::string& name : names) {
    p.print("#include $open$$prefix$$name$$close$\n",
            {{"open", open}, {"prefix", prefix}, {"name", name}, {"close", close}});
  }
  p.print("\n");
}

}  // namespace

void open_file(Printer& p, const ir::Module& m, const Preamble& preamble) {
  p.raw(banner(m, "//"));
  if (preamble.implements.empty()) {
    p.print("#pragma once\n\n");
  } else {
    includes(p, {preamble.implements}, "\"", m.name + "/", "\"");
  }
  includes(p, preamble.standard, "<", "", ">");
  includes(p, preamble.third_party, "<", "", ">");
  // The module's headers and rpckit's are one group.
  std::vector<std::string> project;
  for (const std::string& name : preamble.module) project.push_back(m.name + "/" + name);
  for (const std::string& name : preamble.rpckit) project.push_back("rpckit/" + name);
  includes(p, project, "\"", "", "\"");
  p.print("namespace $ns$ {\n\n", {{"ns", m.cpp_namespace}});
}

std::string close_file(Printer& p, const ir::Module& m) {
  p.print("}  // namespace $ns$\n", {{"ns", m.cpp_namespace}});
  return wrap_lines(p.str(), kLineWidth);
}

}  // namespace rpckit::gen
