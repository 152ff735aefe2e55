// `rpckit validate`: one payload, one envelope or a whole transcript against a protocol's
// schema. Each problem is printed as `file:line:column: error: <instance pointer>: expected ...,
// found ... [schema file#/pointer]` (or with the frame number in a transcript), or as JSON.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <tuple>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "rpckit/codec/json_reader.hpp"
#include "rpckit/validate/json_position.hpp"
#include "rpckit/validate/protocol.hpp"
#include "rpckit/validate/transcript.hpp"
#include "tool/cli/commands.hpp"
#include "tool/trace/finding_text.hpp"

namespace rpckit::cli {
namespace {

using nlohmann::json;
namespace v = rpckit::validate;

struct ValidateOptions {
  std::string schema;
  std::string message;
  std::string part;
  std::string request_with;  // the x-result-when member the answered request's params carried
  std::string payload;     // --message/--part FILE
  std::string envelope;    // --envelope FILE
  std::string transcript;  // --transcript FILE
  std::string format;      // content-length | ndjson | jsonl
  std::string from;        // sender of a raw stream
  bool strict = false;
  bool json_output = false;
};

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string read_input(const std::string& path) {
  if (path == "-") return {std::istreambuf_iterator<char>(std::cin), {}};
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

json parse_json(const std::string& text, const std::string& name) {
  try {
    codec::validate_json(text);
    return json::parse(text);
  } catch (const codec::JsonError& e) {
    const auto p = v::position_of(text, e.offset());
    throw InputError(name + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) +
                     ": not JSON: " + e.what());
  }
}

// One reported problem, wherever it came from.
struct Report {
  std::string file;
  std::size_t line = 0, column = 0, frame = 0;
  std::string peer, from;
  v::Violation violation;
};

class Printer {
 public:
  explicit Printer(bool as_json) : json_(as_json) {}

  void add(Report r) {
    (r.violation.severity == v::Violation::Severity::kError ? errors_ : warnings_)++;
    reports_.push_back(std::move(r));
  }

  int finish(const std::string& what, std::size_t frames) {
    // In the order of the input: a request never answered is found at the end, but said where
    // it was sent.
    std::stable_sort(reports_.begin(), reports_.end(), [](const Report& a, const Report& b) {
      return std::tie(a.frame, a.line) < std::tie(b.frame, b.line);
    });
    if (json_) {
      json out = {{"valid", errors_ == 0}, {"errors", errors_}, {"warnings", warnings_},
                  {"findings", json::array()}};
      if (frames) out["frames"] = frames;
      for (const auto& r : reports_) {
        json f = {{"severity", r.violation.severity == v::Violation::Severity::kError ? "error" : "warning"},
                  {"instance", r.violation.instance}, {"schema", r.violation.schema},
                  {"keyword", r.violation.keyword}, {"expected", r.violation.expected},
                  {"found", r.violation.found}, {"message", r.violation.message()},
                  {"file", r.file}};
        if (r.line) f["line"] = r.line;
        if (r.column) f["column"] = r.column;
        if (r.frame) f["frame"] = r.frame;
        if (!r.peer.empty()) f["peer"] = r.peer;
        if (!r.from.empty()) f["from"] = r.from;
        out["findings"].push_back(std::move(f));
      }
      std::cout << out.dump(2) << "\n";
    } else {
      for (const auto& r : reports_) std::cout << render(r) << "\n";
      std::cout << what << ": " << (errors_ ? "invalid" : "valid") << " (" << errors_ << " error"
                << (errors_ == 1 ? "" : "s") << ", " << warnings_ << " warning"
                << (warnings_ == 1 ? "" : "s");
      if (frames) std::cout << ", " << frames << " frames";
      std::cout << ")\n";
    }
    return errors_ ? kProblems : kOk;
  }

 private:
  static std::string render(const Report& r) {
    return trace::finding_text({r.file, r.line, r.column, r.frame, r.peer, r.from}, r.violation);
  }

  bool json_;
  std::vector<Report> reports_;
  std::size_t errors_ = 0, warnings_ = 0;
};

// Positions a violation of a value read from `text` (a file, or one line of a transcript),
// whose instance pointer is `within` (e.g. "/message" in a JSON-lines entry) + the violation's.
void place(Report& r, std::string_view text, std::size_t first_line,
           const std::string& within = "") {
  trace::FindingPlace p;
  trace::place_in(p, text, first_line, r.violation.instance, within);
  if (p.line) {
    r.line = p.line;
    r.column = p.column;
  }
}

// --request-with MEMBER: a member the message's x-result-when names (a typo would otherwise
// check the result against x-result, quietly).
void check_request_with(const ValidateOptions& o, const v::MessageSchema& message) {
  if (o.request_with.empty()) return;
  std::string named;
  for (const auto& [member, schema] : message.results_when) {
    if (member == o.request_with) return;
    named += (named.empty() ? "" : ", ") + member;
  }
  throw InputError("--request-with " + o.request_with + ": " + message.method +
                   (named.empty() ? " has no x-result-when" : "'s x-result-when names " + named));
}

int run_payload(const ValidateOptions& o, const v::ProtocolValidator& validator, Printer& printer) {
  static const std::map<std::string, v::Part> kParts = {
      {"params", v::Part::kParams}, {"result", v::Part::kResult}, {"error", v::Part::kError}};
  auto part = kParts.find(o.part);
  if (part == kParts.end()) throw InputError("--part is params, result or error");
  const v::MessageSchema* message = validator.protocol().find(o.message);
  if (message == nullptr) {
    throw InputError("--message " + o.message + ": the protocol has no such method");
  }
  if (!o.request_with.empty() && part->second != v::Part::kResult) {
    throw InputError("--request-with goes with --part result");
  }
  check_request_with(o, *message);
  const std::string text = read_input(o.payload);
  for (auto& violation :
       validator.payload(o.message, part->second, parse_json(text, o.payload), o.request_with)) {
    Report r{o.payload, 0, 0, 0, "", "", std::move(violation)};
    place(r, text, 1);
    printer.add(std::move(r));
  }
  return printer.finish(o.payload, 0);
}

int run_envelope(const ValidateOptions& o, const v::ProtocolValidator& validator, Printer& printer) {
  const std::string text = read_input(o.envelope);
  const json envelope = parse_json(text, o.envelope);
  std::optional<std::string_view> response_to;
  if (!o.message.empty()) {
    const v::MessageSchema* message = validator.protocol().find(o.message);
    if (message == nullptr) {
      throw InputError("--message " + o.message + ": the protocol has no such method");
    }
    check_request_with(o, *message);
    response_to = o.message;
  } else if (envelope.is_object() && envelope.contains("result")) {
    throw InputError(o.envelope + ": a response does not name its method: give --message");
  }
  if (!o.request_with.empty() && !(envelope.is_object() && envelope.contains("result"))) {
    throw InputError("--request-with goes with a result: " + o.envelope + " is not one");
  }
  for (auto& violation : validator.envelope(envelope, response_to, o.request_with)) {
    Report r{o.envelope, 0, 0, 0, "", "", std::move(violation)};
    place(r, text, 1);
    printer.add(std::move(r));
  }
  return printer.finish(o.envelope, 0);
}

int run_transcript(const ValidateOptions& o, const v::ProtocolValidator& validator, Printer& printer) {
  const std::string bytes = read_input(o.transcript);
  v::TranscriptFormat format = v::detect_transcript_format(bytes);
  if (!o.format.empty()) {
    auto named = v::parse_transcript_format(o.format);
    if (!named) throw InputError("--format is content-length, ndjson or jsonl");
    format = *named;
  }
  const auto& roles = validator.protocol().roles();
  if (!o.from.empty() && std::find(roles.begin(), roles.end(), o.from) == roles.end()) {
    throw InputError("--from " + o.from + ": the protocol's roles are " +
                     json(roles).dump());
  }
  std::vector<v::Finding> problems;
  const auto frames = v::read_transcript(bytes, format, o.from, problems);
  v::TranscriptChecker checker(validator);
  checker.set_one_sided(!o.from.empty() && format != v::TranscriptFormat::kJsonLines);
  std::map<std::size_t, const v::Frame*> by_number;
  std::set<std::size_t> frames_found;  // frames with a finding
  auto report = [&](v::Finding f) {
    if (f.frame != 0) frames_found.insert(f.frame);
    Report r{o.transcript, f.line, 0, f.frame, f.peer, f.from, std::move(f.violation)};
    auto it = by_number.find(f.frame);
    if (it != by_number.end() && it->second->line) {
      // The frame's line in the input; a JSON-lines entry holds the frame as its "message".
      const std::string_view rest = std::string_view(bytes).substr(it->second->offset);
      place(r, rest.substr(0, rest.find('\n')), it->second->line,
            format == v::TranscriptFormat::kJsonLines ? "/message" : "");
    }
    printer.add(std::move(r));
  };
  for (const auto& frame : frames) {
    by_number[frame.number] = &frame;
    for (auto& f : checker.feed(frame)) report(std::move(f));
  }
  for (auto& f : checker.finish()) {
    if (auto it = by_number.find(f.frame); it != by_number.end()) f.line = it->second->line;
    report(std::move(f));
  }
  for (auto& f : problems) report(std::move(f));
  const int status =
      printer.finish(o.transcript + " (" + std::string(v::to_string(format)) + ")", frames.size());
  const bool every_frame = !frames.empty() && frames_found.size() == frames.size();
  if (!o.json_output && every_frame && o.format.empty()) {
    // A file read in the wrong form fails on every line: say which one was tried.
    std::fprintf(stderr,
                 "rpckit validate: read as %s, the form detected from the first line; if it is "
                 "another, say so: --format content-length, ndjson or jsonl\n",
                 std::string(v::to_string(format)).c_str());
  }
  if (!o.json_output && !o.from.empty() && format != v::TranscriptFormat::kJsonLines) {
    std::fprintf(stderr,
                 "rpckit validate: --from %s: one side's stream: its answers were not matched to "
                 "requests, which are in the other side's\n",
                 o.from.c_str());
  }
  return status;
}

int run_validate(const ValidateOptions& o) {
  const int modes = !o.payload.empty() + !o.envelope.empty() + !o.transcript.empty();
  try {
    if (modes != 1) throw InputError("give one of FILE (with --message and --part), --envelope or --transcript");
    if (!o.payload.empty() && (o.message.empty() || o.part.empty())) {
      throw InputError("a payload FILE needs --message METHOD and --part params|result|error");
    }
    if (!o.transcript.empty() && !o.request_with.empty()) {
      throw InputError("--request-with is for a lone result: a transcript's requests say it");
    }
    auto protocol = v::ProtocolSchema::load(o.schema);
    v::ProtocolValidator validator(protocol, {o.strict});
    Printer printer(o.json_output);
    if (!o.payload.empty()) return run_payload(o, validator, printer);
    if (!o.envelope.empty()) return run_envelope(o, validator, printer);
    return run_transcript(o, validator, printer);
  } catch (const v::SchemaLoadError& e) {
    std::cerr << "rpckit validate: schema error: " << e.what() << "\n";
  } catch (const InputError& e) {
    std::cerr << "rpckit validate: " << e.what() << "\n";
  }
  return kUsage;
}

}  // namespace

void add_validate_command(CLI::App& app, int& status) {
  auto o = std::make_shared<ValidateOptions>();
  CLI::App* c = app.add_subcommand(
      "validate",
      "Check a payload, an envelope or a transcript against a protocol's schema (JSON Schema "
      "draft-07). Exit 0 valid, 1 invalid, 2 usage or input error");
  c->add_option("--schema", o->schema, "The protocol file (e.g. schema/protocol.json)")
      ->required();
  c->add_option("payload", o->payload, "A payload file (- for stdin), with --message and --part");
  c->add_option("--message", o->message,
                "The method the payload belongs to (or that a response --envelope answers)");
  c->add_option("--part", o->part, "Which payload: params, result or error");
  c->add_option("--request-with", o->request_with,
                "A result answers a request whose params carried this member, which the "
                "message's x-result-when answers with another result (MCP: task)");
  c->add_option("--envelope", o->envelope,
                "A whole request, notification or response (- for stdin)");
  c->add_option("--transcript", o->transcript,
                "A conversation: a raw Content-Length or NDJSON byte stream, or the demo host's "
                "JSON-lines transcript (- for stdin)");
  c->add_option("--format", o->format,
                "The transcript's form: content-length, ndjson or jsonl (default: detected)");
  c->add_option("--from", o->from,
                "Who sent a raw stream's frames (a role, e.g. host); checks each message's "
                "direction");
  c->add_flag("--strict", o->strict,
              "Reject enum values the schema does not list (by default they are warnings: the "
              "protocol's enums are open)");
  c->add_flag("--json", o->json_output, "Print the findings as JSON");
  c->callback([o, &status] { status = run_validate(*o); });
}

}  // namespace rpckit::cli
