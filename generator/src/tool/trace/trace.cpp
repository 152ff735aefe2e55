#include "tool/trace/trace.hpp"

#include <map>

#include <nlohmann/json.hpp>

#include "rpckit/validate/transcript.hpp"
#include "rpckit/validate/transcript_stream.hpp"
#include "tool/trace/finding_text.hpp"
#include "tool/trace/page_writer.hpp"
#include "tool/trace/schema_docs.hpp"
#include "tool/trace/trace_model.hpp"

namespace rpckit::trace {

using nlohmann::json;
namespace v = rpckit::validate;

namespace {

// Where a request's "/id" is in its line, kept until it is answered: a request never answered
// is reported at the end, at that place (as `rpckit validate` does).
struct RequestPlaces {
  std::map<std::size_t, std::pair<std::size_t, std::size_t>> by_frame;  // line, column
  void remember(std::size_t frame, const FindingPlace& p) {
    by_frame[frame] = {p.line, p.column};
    if (by_frame.size() > TraceModel::kDefaultMaxTracked) by_frame.erase(by_frame.begin());
  }
};

}  // namespace

TraceSummary write_trace(const v::ProtocolValidator& validator, std::istream& transcript,
                         const TraceInput& input, std::ostream& page) {
  TraceSummary summary;
  v::TranscriptStream stream(transcript, input.format, input.from);
  summary.format = stream.format();
  const bool json_lines = summary.format == v::TranscriptFormat::kJsonLines;
  const std::string within = json_lines ? "/message" : "";
  v::TranscriptChecker checker(validator);
  checker.set_one_sided(!input.from.empty() && !json_lines);
  TraceModel model(validator.protocol());
  PageWriter writer(page, input.title.empty() ? input.name : input.title);
  RequestPlaces places;
  bool timed = false;

  auto to_page = [&](const v::Finding& f, const FindingPlace& place) {
    (f.violation.severity == v::Violation::Severity::kError ? summary.errors : summary.warnings)++;
    return PageFinding{f.violation.severity == v::Violation::Severity::kError, f.violation.instance,
                       f.violation.keyword, f.violation.schema, f.violation.message(),
                       finding_text(place, f.violation)};
  };
  auto late = [&](const v::Finding& f) {
    FindingPlace place{input.name, f.line, 0, f.frame, f.peer, f.from};
    if (auto it = places.by_frame.find(f.frame); it != places.by_frame.end()) {
      place.line = it->second.first;
      if (f.violation.instance == "/id") place.column = it->second.second;
    }
    writer.late(f.frame, to_page(f, place));
  };

  v::TranscriptEntry entry;
  std::vector<v::Finding> problems;
  while (stream.next(entry, problems)) {
    if (!entry.is_frame) {
      ++summary.notes;
      writer.note(entry.entry);
      continue;
    }
    const v::Frame& frame = entry.frame;
    ++summary.frames;
    std::optional<double> t;
    if (json_lines) {
      if (auto it = entry.entry.find("t"); it != entry.entry.end() && it->is_number()) {
        t = it->get<double>();
        timed = true;
      }
    }
    const MessageRecord record = model.add(frame);
    std::vector<PageFinding> findings;
    for (const v::Finding& f : checker.feed(frame)) {
      if (f.frame != frame.number) {
        late(f);
        continue;
      }
      FindingPlace place{input.name, f.line, 0, f.frame, f.peer, f.from};
      if (frame.line) place_in(place, entry.line, frame.line, f.violation.instance, within);
      findings.push_back(to_page(f, place));
    }
    if (record.kind == Kind::kRequest && frame.line) {
      FindingPlace place;
      place_in(place, entry.line, frame.line, "/id", within);
      places.remember(frame.number, place);
    }
    if (record.answers) places.by_frame.erase(record.answers);
    writer.message(t, record, frame.body, findings);
  }
  for (const v::Finding& f : checker.finish()) late(f);
  for (const v::Finding& f : problems) late(f);

  const auto& protocol = validator.protocol();
  json meta = {{"file", input.name},
               {"schema", input.schema_name},
               {"format", std::string(v::to_string(summary.format))},
               {"from", input.from},
               {"roles", protocol.roles()},
               {"spawned", protocol.spawned_role()},
               {"exchange", protocol.exchange().has_value()},
               {"timed", timed},
               {"frames", summary.frames},
               {"notes", summary.notes},
               {"errors", summary.errors},
               {"warnings", summary.warnings},
               {"strict", validator.schemas().options().strict_enums}};
  writer.finish(model.lanes(), model.methods(), schema_docs(protocol), meta);
  return summary;
}

}  // namespace rpckit::trace
