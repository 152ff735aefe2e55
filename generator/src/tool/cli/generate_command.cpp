// `rpckit generate` writes the bindings a schema makes (only the files that changed);
// `rpckit check` writes nothing and exits 1 when a folder of bindings is stale. Both print
// the schema's convention warnings (lower/conventions.hpp); --strict makes them errors.
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "emit/emit.hpp"
#include "ir/dump.hpp"
#include "lower/conventions.hpp"
#include "lower/lower.hpp"
#include "model.hpp"
#include "tool/cli/commands.hpp"
#include "tool/cli/output.hpp"
#include "tool/cli/schema_errors.hpp"

namespace rpckit::cli {
namespace {

struct GenerateOptions {
  std::string schema;
  std::string out_dir = "generated";
  std::string depfile;
  bool dump_ir = false;
  bool json_output = false;
  bool strict = false;
};

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
                   const gen::SchemaSet& set) {
  std::ofstream out(path, std::ios::binary);
  out << make_escaped(target) << ":";
  for (const auto& file : set.files()) out << " \\\n  " << make_escaped(file.string());
  out << "\n";
  if (!out) throw std::runtime_error("cannot write depfile " + path);
}

// Runs `body`; a schema that does not load or lower is an input error (exit 2).
template <typename Body>
int guarded(const std::string& schema, Body body) {
  try {
    return body();
  } catch (const gen::SchemaError& e) {
    print_schema_error(std::cerr, e, schema);
    return kUsage;
  } catch (const std::exception& e) {
    std::cerr << "rpckit: " << e.what() << "\n";
    return kUsage;
  }
}

// Prints the convention warnings to stderr; false when --strict makes them errors (the
// caller then writes nothing and exits 2, as for a schema error).
bool warnings_allow(const gen::SchemaSet& set, const gen::ir::Module& module,
                    const GenerateOptions& o) {
  const auto warnings = gen::convention_warnings(set, module);
  for (const auto& w : warnings) print_schema_warning(std::cerr, w, o.schema, o.strict);
  if (!o.strict || warnings.empty()) return true;
  std::cerr << "rpckit: " << warnings.size() << " convention warning"
            << (warnings.size() == 1 ? " is an error" : "s are errors") << " with --strict\n";
  return false;
}

int run_generate(const GenerateOptions& o) {
  return guarded(o.schema, [&] {
    auto set = gen::SchemaSet::load(o.schema);
    auto module = gen::lower(set);
    if (!warnings_allow(set, module, o)) return int{kUsage};
    if (o.dump_ir) {
      std::cout << gen::dump_ir(module);
      return int{kOk};
    }
    auto files = gen::emit_all(module);
    auto written = gen::write_changed(o.out_dir, files);
    if (!o.depfile.empty()) {
      write_depfile(o.depfile, o.out_dir + "/" + module.name + "/types.hpp", set);
    }
    if (o.json_output) {
      std::cout << nlohmann::json{{"out", o.out_dir}, {"files", files.size()}, {"written", written}}
                       .dump(2)
                << "\n";
      return int{kOk};
    }
    for (const auto& w : written) std::cout << "wrote " << o.out_dir << "/" << w << "\n";
    std::cout << "rpckit: " << written.size() << " of " << files.size() << " files changed\n";
    return int{kOk};
  });
}

int run_check(const GenerateOptions& o) {
  return guarded(o.schema, [&] {
    auto set = gen::SchemaSet::load(o.schema);
    auto module = gen::lower(set);
    if (!warnings_allow(set, module, o)) return int{kUsage};
    auto files = gen::emit_all(module);
    auto problems = gen::check_outputs(o.out_dir, files);
    if (o.json_output) {
      // "stale: a/b.hpp" -> {"problem": "stale", "file": "a/b.hpp"}
      nlohmann::json listed = nlohmann::json::array();
      for (const auto& p : problems) {
        const auto colon = p.find(": ");
        listed.push_back({{"problem", p.substr(0, colon)}, {"file", p.substr(colon + 2)}});
      }
      std::cout << nlohmann::json{{"out", o.out_dir}, {"up_to_date", problems.empty()},
                                  {"problems", listed}}
                       .dump(2)
                << "\n";
      return int{problems.empty() ? kOk : kProblems};
    }
    if (problems.empty()) {
      std::cout << "rpckit: " << o.out_dir << " is up to date (" << files.size() << " files)\n";
      return int{kOk};
    }
    std::cerr << "rpckit: " << o.out_dir << " does not match " << o.schema << ":\n";
    for (const auto& p : problems) std::cerr << "  " << p << "\n";
    std::cerr << "Regenerate with: rpckit generate " << o.schema << " --out " << o.out_dir
              << "\n";
    return int{kProblems};
  });
}

}  // namespace

void add_generate_commands(CLI::App& app, int& status) {
  auto generate = std::make_shared<GenerateOptions>();
  CLI::App* g = app.add_subcommand(
      "generate", "Write the C++ bindings of a protocol (only the files whose text changed)");
  g->add_option("schema", generate->schema, "The protocol file (e.g. schema/protocol.json)")
      ->required();
  g->add_option("-o,--out", generate->out_dir, "Output directory (default: generated)");
  g->add_option("--depfile", generate->depfile,
                "Also write the schema files the output depends on to FILE (Make syntax)");
  g->add_flag("--dump-ir", generate->dump_ir,
              "Print the intermediate representation instead of writing files");
  g->add_flag("--json", generate->json_output, "Print what was written as JSON");
  g->add_flag("--strict", generate->strict,
              "Treat convention warnings (params not named after the method, a title that is "
              "not the method, an unlisted message file) as errors: exit 2, write nothing");
  g->callback([generate, &status] { status = run_generate(*generate); });

  auto check = std::make_shared<GenerateOptions>();
  CLI::App* c = app.add_subcommand(
      "check", "Write nothing; exit 1 and list the files of --out that the schema would change");
  c->add_option("schema", check->schema, "The protocol file (e.g. schema/protocol.json)")
      ->required();
  c->add_option("-o,--out", check->out_dir, "Folder of generated bindings (default: generated)");
  c->add_flag("--json", check->json_output, "Print the problems as JSON (exit status as without)");
  c->add_flag("--strict", check->strict, "Treat convention warnings as errors (exit 2)");
  c->callback([check, &status] { status = run_check(*check); });
}

}  // namespace rpckit::cli
