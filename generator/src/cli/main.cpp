// rpckit-gen: JSON Schema protocol -> C++ bindings.
//   rpckit-gen schema/protocol.json --out generated          write what changed
//   rpckit-gen schema/protocol.json --out generated --check  exit 1 if generated/ is stale
//   rpckit-gen schema/protocol.json --dump-ir                print the IR
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/output.hpp"
#include "emit/emit.hpp"
#include "ir/dump.hpp"
#include "load/schema_set.hpp"
#include "lower/lower.hpp"

int main(int argc, char** argv) {
  CLI::App app{"rpckit-gen: generate typed C++ bindings from a JSON Schema protocol"};
  std::string schema;
  std::string out_dir = "generated";
  bool check = false;
  bool dump = false;
  app.add_option("schema", schema, "The protocol file (e.g. schema/protocol.json)")->required();
  app.add_option("-o,--out", out_dir, "Output directory (default: generated)");
  app.add_flag("--check", check, "Write nothing; exit 1 and list the files that are stale");
  app.add_flag("--dump-ir", dump, "Print the intermediate representation and exit");
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
