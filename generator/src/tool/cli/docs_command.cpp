// `rpckit docs` writes the Markdown reference of a protocol (only when its text changed);
// with --check it writes nothing and exits 1 when the checked-in reference is stale.
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "lower/lower.hpp"
#include "model.hpp"
#include "tool/cli/commands.hpp"
#include "tool/cli/output.hpp"
#include "tool/cli/schema_errors.hpp"
#include "tool/docs/docs.hpp"

namespace rpckit::cli {
namespace {

struct DocsOptions {
  std::string schema;
  std::string out;  // "" = standard output
  std::string examples;
  bool check = false;
};

std::optional<std::string> read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The command that rewrites `o.out`, for the --check message.
std::string fix_command(const DocsOptions& o) {
  std::string cmd = "rpckit docs " + o.schema;
  if (!o.examples.empty()) cmd += " --examples " + o.examples;
  return cmd + " --out " + o.out;
}

int run_docs(const DocsOptions& o) {
  if (o.check && o.out.empty()) {
    std::cerr << "rpckit: docs --check needs --out FILE (the reference to compare)\n";
    return kUsage;
  }
  std::string text;
  try {
    auto set = gen::SchemaSet::load(o.schema);
    auto module = gen::lower(set);
    docs::Examples examples;
    if (!o.examples.empty()) examples = docs::load_examples(o.examples, module);
    text = docs::render_markdown(set, module, examples);
  } catch (const gen::SchemaError& e) {
    print_schema_error(std::cerr, e, o.schema);
    return kUsage;
  } catch (const std::exception& e) {
    std::cerr << "rpckit: " << e.what() << "\n";
    return kUsage;
  }
  if (o.out.empty()) {
    std::cout << text;
    return kOk;
  }
  std::filesystem::path out(o.out);
  if (o.check) {
    std::optional<std::string> current = read(out);
    if (current == text) {
      std::cout << "rpckit: " << o.out << " is up to date\n";
      return kOk;
    }
    std::cerr << "rpckit: " << o.out
              << (current ? " is stale: it does not match " : " is missing: ")
              << (current ? o.schema : "no such file") << "\n"
              << "Regenerate with: " << fix_command(o) << "\n";
    return kProblems;
  }
  try {
    auto written = gen::write_changed(out.parent_path(), {{out.filename().string(), text}});
    std::cout << "rpckit: " << o.out << (written.empty() ? " is unchanged" : " written") << "\n";
  } catch (const std::exception& e) {
    std::cerr << "rpckit: " << e.what() << "\n";
    return kUsage;
  }
  return kOk;
}

}  // namespace

void add_docs_command(CLI::App& app, int& status) {
  auto o = std::make_shared<DocsOptions>();
  CLI::App* d = app.add_subcommand(
      "docs",
      "Write the Markdown reference of a protocol: profile, every message (kind, direction, "
      "gate, deadline, errors, params and result tables, examples), types, error codes, "
      "capabilities and constants");
  d->add_option("schema", o->schema, "The protocol file (e.g. schema/protocol.json)")->required();
  d->add_option("-o,--out", o->out,
                "The Markdown file to write (only when its text changes); without it, the "
                "reference goes to standard output")
      ->type_name("FILE");
  d->add_option("--examples", o->examples,
                "Folder of example payloads, <method>.json each ({\"envelopes\": [...], "
                "\"results\": [...], \"invalid\": [{\"envelope\": ..., \"why\": ...}]}); "
                "shown under their messages")
      ->type_name("DIR");
  d->add_flag("--check", o->check,
              "Write nothing; exit 1 when --out is missing or differs from what the schema "
              "makes, naming the command that regenerates it");
  d->footer(
      "Exit status: 0 ok, 1 --check found the file stale, 2 usage or input error (a schema "
      "that does not load, an unreadable example).\n"
      "Example: rpckit docs schema/protocol.json --examples tests/fixtures/examples "
      "--out docs/reference/streamnook_v1.md");
  d->callback([o, &status] { status = run_docs(*o); });
}

}  // namespace rpckit::cli
