#pragma once
// Writes the inspector page: the template (HTML, CSS and JS embedded in the binary at build
// time from assets/), with the session's data streamed into it as one JSON document the page
// parses once:
//   {"events": [message | note ...], "late": [[frame, finding]...], "lanes", "methods",
//    "docs", "meta"}
// a message being [t, lane, kind, method, id, size, body, answers, parent, findings] and a
// finding [severity, instance, keyword, schema, message, text].
#include <cstddef>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tool/trace/trace_model.hpp"

namespace rpckit::trace {

struct PageFinding {
  bool error = true;
  std::string instance, keyword, schema, message, text;
};

// The template, as embedded (page.html with style.css and the scripts inlined).
std::string_view page_template();

class PageWriter {
 public:
  PageWriter(std::ostream& out, std::string_view title);
  ~PageWriter();
  PageWriter(const PageWriter&) = delete;
  PageWriter& operator=(const PageWriter&) = delete;

  void message(std::optional<double> t, const MessageRecord& record, const std::string& body,
               const std::vector<PageFinding>& findings);
  void note(const nlohmann::json& entry);
  // Findings about a frame known only later (a request never answered: its frame), or about
  // the transcript as a whole (frame 0).
  void late(std::size_t frame, const PageFinding& finding);
  void finish(const std::vector<Lane>& lanes, const std::vector<MethodInfo>& methods,
              const nlohmann::json& docs, const nlohmann::json& meta);

 private:
  void event_separator();
  void write_json(const nlohmann::json& value);

  std::ostream& out_;
  std::string tail_;
  // Late findings wait in a temporary file, not in memory: a long stream of requests never
  // answered has one each.
  std::FILE* late_ = nullptr;
  bool first_late_ = true;
  bool first_event_ = true;
};

// A JSON text made safe inside <script>: every '<' (found only in strings) as \u003c.
std::string script_safe(std::string_view json_text);
nlohmann::json finding_json(const PageFinding& f);

}  // namespace rpckit::trace
