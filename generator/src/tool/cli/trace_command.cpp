// `rpckit trace`: a transcript as one self-contained HTML page (the inspector: timeline,
// messages paired and nested, schema documentation, the findings of `rpckit validate`,
// per-method latency). The page needs no network: its scripts and styles are inline.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "rpckit/validate/protocol.hpp"
#include "rpckit/validate/transcript.hpp"
#include "tool/cli/commands.hpp"
#include "tool/trace/trace.hpp"

namespace rpckit::cli {
namespace {

namespace v = rpckit::validate;

struct TraceOptions {
  std::string schema;
  std::string transcript;
  std::string output;  // default: the transcript's name with .html
  std::string format;
  std::string from;
  std::string title;
  bool strict = false;
};

std::string default_output(const std::string& transcript) {
  if (transcript == "-") return "trace.html";
  return std::filesystem::path(transcript).replace_extension(".html").string();
}

int run_trace(const TraceOptions& o) {
  try {
    auto protocol = v::ProtocolSchema::load(o.schema);
    v::ProtocolValidator validator(protocol, {o.strict});
    trace::TraceInput input{o.transcript, std::nullopt, o.from, o.schema, o.title};
    if (!o.format.empty()) {
      input.format = v::parse_transcript_format(o.format);
      if (!input.format) {
        std::cerr << "rpckit trace: --format is content-length, ndjson or jsonl\n";
        return kUsage;
      }
    }
    const auto& roles = protocol->roles();
    if (!o.from.empty() && std::find(roles.begin(), roles.end(), o.from) == roles.end()) {
      std::cerr << "rpckit trace: --from " << o.from << ": the protocol's roles are "
                << nlohmann::json(roles).dump() << "\n";
      return kUsage;
    }
    std::ifstream file;
    if (o.transcript != "-") {
      file.open(o.transcript, std::ios::binary);
      if (!file) {
        std::cerr << "rpckit trace: cannot read " << o.transcript << "\n";
        return kUsage;
      }
    }
    const std::string output = o.output.empty() ? default_output(o.transcript) : o.output;
    std::ofstream page(output, std::ios::binary | std::ios::trunc);
    if (!page) {
      std::cerr << "rpckit trace: cannot write " << output << "\n";
      return kUsage;
    }
    const trace::TraceSummary s = trace::write_trace(
        validator, o.transcript == "-" ? std::cin : static_cast<std::istream&>(file), input, page);
    page.close();
    if (!page) {
      std::cerr << "rpckit trace: cannot write " << output << "\n";
      return kUsage;
    }
    std::cout << output << ": " << s.frames << " frame" << (s.frames == 1 ? "" : "s") << " ("
              << v::to_string(s.format) << "), " << s.errors << " error"
              << (s.errors == 1 ? "" : "s") << ", " << s.warnings << " warning"
              << (s.warnings == 1 ? "" : "s") << "\n";
    return kOk;
  } catch (const v::SchemaLoadError& e) {
    std::cerr << "rpckit trace: schema error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "rpckit trace: " << e.what() << "\n";
  }
  return kUsage;
}

}  // namespace

void add_trace_command(CLI::App& app, int& status) {
  auto o = std::make_shared<TraceOptions>();
  CLI::App* c = app.add_subcommand(
      "trace",
      "Write a transcript as one self-contained HTML page to inspect in a browser: a timeline, "
      "the messages with requests paired to their answers and nested under their cause, each "
      "payload with its schema documentation, every `rpckit validate` finding on its message, "
      "per-method latency. Exit 0 when the page is written (findings are in it), 2 on a usage "
      "or input error");
  c->add_option("--schema", o->schema, "The protocol file (e.g. schema/protocol.json)")->required();
  c->add_option("transcript", o->transcript,
                "A host's JSON-lines transcript (--transcript of the sample hosts), or a raw "
                "Content-Length or NDJSON byte stream of one side (- for stdin)")
      ->required();
  c->add_option("-o,--output", o->output, "The page to write (default: the transcript's name "
                                          "with .html)");
  c->add_option("--format", o->format,
                "The transcript's form: content-length, ndjson or jsonl (default: detected)");
  c->add_option("--from", o->from, "Who sent a raw stream's frames (a role, e.g. host)");
  c->add_option("--title", o->title, "The page's title (default: the transcript's name)");
  c->add_flag("--strict", o->strict,
              "Enum values the schema does not list are errors, not warnings (as in validate)");
  c->callback([o, &status] { status = run_trace(*o); });
}

}  // namespace rpckit::cli
