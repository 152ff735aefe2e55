// rpckit-gen: JSON Schema protocol -> C++ bindings.
//   rpckit-gen schema/protocol.json --out generated          write what changed
//   rpckit-gen schema/protocol.json --out generated --check  exit 1 if generated/ is stale
//   rpckit-gen schema/protocol.json --dump-ir                print the IR
//   ... --depfile FILE: also write which schema files the output depends on (Make syntax), for
//   build systems (rpckit_generate() in CMake)
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/output.hpp"
#include "emit/emit.hpp"
#include "ir/dump.hpp"
#include "load/schema_set.hpp"
#include "lower/lower.hpp"

namespace {

std::string make_escaped(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#' || c == '\\') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

// "<target>: <schema file> ..." naming the first output, as CMake's DEPFILE expects.
void write_depfile(const std::string& path, const std::string& target,
                   const rpckit::gen::SchemaSet& set) {
  std::ofstream out(path, std::ios::binary);
  out << make_escaped(target) << ":";
  for (const auto& file : set.files()) out << " \\\n  " << make_escaped(file.string());
  out << "\n";
  if (!out) throw std::runtime_error("cannot write depfile " + path);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rpckit-gen: generate typed C++ bindings from a JSON Schema protocol"};
  std::string schema;
  std::string out_dir = "generated";
  bool check = false;
  bool dump = false;
  std::string depfile;
  app.add_option("schema", schema, "The protocol file (e.g. schema/protocol.json)")->required();
  app.add_option("-o,--out", out_dir, "Output directory (default: generated)");
  app.add_flag("--check", check, "Write nothing; exit 1 and list the files that are stale");
  app.add_flag("--dump-ir", dump, "Print the intermediate representation and exit");
  app.add_option("--depfile", depfile,
                 "Write the schema files the output depends on to FILE (Make syntax)");
  app.set_version_flag("--version", std::string("rpckit-gen ") + rpckit::gen::kGeneratorVersion);
  CLI11_PARSE(app, argc, argv);

  try {
    auto set = rpckit::gen::SchemaSet::load(schema);
    auto module = rpckit::gen::lower(set);
    if (dump) {
      std::cout << rpckit::gen::dump_ir(module);
      return 0;
    }
    auto files = rpckit::gen::emit_all(module);
    if (check) {
      auto problems = rpckit::gen::check_outputs(out_dir, files);
      if (problems.empty()) {
        std::cout << "rpckit-gen: " << out_dir << " is up to date (" << files.size()
                  << " files)\n";
        return 0;
      }
      std::cerr << "rpckit-gen: " << out_dir << " does not match " << schema << ":\n";
      for (const auto& p : problems) std::cerr << "  " << p << "\n";
      std::cerr << "Regenerate with: tools/regenerate\n";
      return 1;
    }
    auto written = rpckit::gen::write_changed(out_dir, files);
    if (!depfile.empty()) write_depfile(depfile, out_dir + "/" + module.name + "/types.hpp", set);
    for (const auto& w : written) std::cout << "wrote " << out_dir << "/" << w << "\n";
    std::cout << "rpckit-gen: " << written.size() << " of " << files.size()
              << " files changed\n";
    return 0;
  } catch (const rpckit::gen::SchemaError& e) {
    std::cerr << "rpckit-gen: schema error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "rpckit-gen: " << e.what() << "\n";
    return 2;
  }
}
