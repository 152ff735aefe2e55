// `rpckit compat OLD NEW`: classifies every difference between two versions of a protocol's
// schema as additive or breaking, per side of the wire, and compares the C++ API the
// generator makes of each (docs/compat.md). Exit 1 on a breaking change unless the version
// constant was bumped.
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <stdexcept>

#include "model.hpp"
#include "tool/cli/commands.hpp"
#include "tool/compat/compat.hpp"
#include "tool/compat/report.hpp"
#include "tool/compat/source.hpp"

namespace rpckit::cli {
namespace {

struct CompatOptions {
  std::string before;
  std::string after;
  bool json = false;
  bool markdown = false;
  bool no_api = false;
  std::vector<std::string> closed_enums;
  std::string version_constant = "protocol_version";
  std::string accept_file;
};

// Loads one version; a schema that does not load is reported with its file#pointer.
gen::SchemaSet load(const compat::SchemaSource& source, const char* which) {
  try {
    return gen::SchemaSet::load(source.protocol_file());
  } catch (const gen::SchemaError& e) {
    throw gen::SchemaError(which + std::string(" schema (") + source.label() + ") ", "", e.what());
  }
}

int run_compat(const CompatOptions& o) {
  try {
    compat::SchemaSource before = compat::SchemaSource::open(o.before);
    compat::SchemaSource after = compat::SchemaSource::open(o.after);
    gen::SchemaSet old_set = load(before, "old");
    gen::SchemaSet new_set = load(after, "new");
    compat::CompareOptions options;
    options.version_constant = o.version_constant;
    options.closed_enums.insert(o.closed_enums.begin(), o.closed_enums.end());
    options.compare_api = !o.no_api;
    if (!o.accept_file.empty()) {
      std::ifstream in(o.accept_file, std::ios::binary);
      if (!in) throw std::runtime_error("cannot read " + o.accept_file);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      try {
        options.accepted = compat::parse_acceptances(text);
      } catch (const std::runtime_error& e) {
        throw std::runtime_error(o.accept_file + ": " + e.what());
      }
    }
    compat::Report report = compat::compare(old_set, new_set, options);
    compat::Labels labels{before.label(), after.label(), o.version_constant};
    if (o.json) {
      std::cout << compat::render_json(report, labels);
    } else if (o.markdown) {
      std::cout << compat::render_markdown(report, labels);
    } else {
      std::cout << compat::render_table(report, labels);
    }
    return report.fails() ? kProblems : kOk;
  } catch (const compat::SourceError& e) {
    std::cerr << "rpckit compat: " << e.what() << "\n";
  } catch (const gen::SchemaError& e) {
    std::cerr << "rpckit compat: schema error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "rpckit compat: " << e.what() << "\n";
  }
  return kUsage;
}

}  // namespace

void add_compat_command(CLI::App& app, int& status) {
  auto o = std::make_shared<CompatOptions>();
  CLI::App* c =
      app.add_subcommand("compat",
                         "Classify every difference between two versions of a protocol's schema as "
                         "additive or breaking, per side of the wire");
  c->footer(
      "OLD and NEW are each a directory holding protocol.json, a protocol file, or a git ref\n"
      "of the repository around the current directory: `streamnook-v1.0`, `HEAD~1`, or\n"
      "`<ref>:<dir>` (the dir defaults to `schema`). A path on disk wins over a ref.\n"
      "\n"
      "Each payload is judged by the side that receives it: a schema that accepts less breaks\n"
      "a new receiver reading an old sender; one that accepts more breaks an old receiver,\n"
      "unless it tolerates the addition (new optional members, new values of open enums, new\n"
      "union members). Messages (removed, renamed, kind, direction, gate, deadline), error\n"
      "codes, capabilities, constants and the generated C++ API are compared too.\n"
      "\n"
      "Exit status: 0 no breaking change, or the version constant was bumped, or every breaking\n"
      "change is accepted (--accept); 1 a breaking change without a bump, or an acceptance\n"
      "that matches no change; 2 usage or input error (a bad argument, a schema that does not\n"
      "load: the message names file#/pointer).\n"
      "\n"
      "Examples:\n"
      "  rpckit compat streamnook-v1.0 schema\n"
      "  rpckit compat HEAD~1:schema schema --markdown\n"
      "  rpckit compat old/protocol.json new/protocol.json --json\n"
      "\n"
      "The rules, with examples: docs/compat.md");
  c->add_option("old", o->before, "The old version: DIR, DIR/protocol.json, REF or REF:DIR")
      ->required();
  c->add_option("new", o->after, "The new version: DIR, DIR/protocol.json, REF or REF:DIR")
      ->required();
  auto* json = c->add_flag("--json", o->json, "Print the report as JSON (one object; see docs)");
  c->add_flag("--markdown", o->markdown, "Print the report as a Markdown table (for a PR)")
      ->excludes(json);
  c->add_flag("--no-api", o->no_api, "Do not compare the generated C++ API (only the schemas)");
  c->add_option("--closed-enum", o->closed_enums,
                "An enum (type name, e.g. CredentialKind) whose receivers reject unlisted "
                "values: a new value is breaking. Repeatable. Other enums are open, as the "
                "generated decoders are")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  c->add_option("--accept", o->accept_file,
                "A file of breaking changes accepted without a version bump, one per line: "
                "`<rule> <where> -- <why>` (rule and where as the report shows them; # comments)");
  c->add_option("--version-constant", o->version_constant,
                "The protocol.json constant whose bump allows breaking changes "
                "(default: protocol_version)");
  c->callback([o, &status] { status = run_compat(*o); });
}

}  // namespace rpckit::cli
