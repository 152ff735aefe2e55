#include "tool/trace/page_writer.hpp"

#include <stdexcept>

namespace rpckit::trace {

using nlohmann::json;

// page_asset.cpp, written by embed_assets.cmake at build time.
extern const unsigned char kPageTemplate[];
extern const std::size_t kPageTemplateSize;

namespace {

constexpr std::string_view kDataMark = "@DATA@";
constexpr std::string_view kTitleMark = "@TITLE@";

std::string html_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string dump(const json& value) {
  return script_safe(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

}  // namespace

std::string_view page_template() {
  return {reinterpret_cast<const char*>(kPageTemplate), kPageTemplateSize};
}

std::string script_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

json finding_json(const PageFinding& f) {
  return json::array({f.error ? 1 : 0, f.instance, f.keyword, f.schema, f.message, f.text});
}

PageWriter::PageWriter(std::ostream& out, std::string_view title) : out_(out) {
  const std::string_view page = page_template();
  const auto data = page.find(kDataMark);
  if (data == std::string_view::npos) throw std::logic_error("page template without @DATA@");
  std::string head(page.substr(0, data));
  for (auto at = head.find(kTitleMark); at != std::string::npos; at = head.find(kTitleMark)) {
    head.replace(at, kTitleMark.size(), html_escape(title));
  }
  tail_ = page.substr(data + kDataMark.size());
  out_ << head << "{\"events\":[";
}

void PageWriter::event_separator() {
  if (!first_event_) out_ << ",\n";
  first_event_ = false;
}

void PageWriter::write_json(const json& value) { out_ << dump(value); }

void PageWriter::message(std::optional<double> t, const MessageRecord& r, const std::string& body,
                         const std::vector<PageFinding>& findings) {
  event_separator();
  json row = json::array({t ? json(*t) : json(), r.lane, static_cast<int>(r.kind), r.method, r.id,
                          body.size(), body, r.answers, r.parent});
  if (!findings.empty()) {
    json list = json::array();
    for (const auto& f : findings) list.push_back(finding_json(f));
    row.push_back(std::move(list));
  }
  write_json(row);
}

void PageWriter::note(const json& entry) {
  event_separator();
  write_json(entry);
}

PageWriter::~PageWriter() {
  if (late_ != nullptr) std::fclose(late_);
}

void PageWriter::late(std::size_t frame, const PageFinding& finding) {
  if (late_ == nullptr && (late_ = std::tmpfile()) == nullptr) {
    throw std::runtime_error("cannot create a temporary file");
  }
  const std::string text = (first_late_ ? "" : ",\n") + dump(json::array({frame, finding_json(finding)}));
  first_late_ = false;
  std::fwrite(text.data(), 1, text.size(), late_);
}

void PageWriter::finish(const std::vector<Lane>& lanes, const std::vector<MethodInfo>& methods,
                        const json& docs, const json& meta) {
  out_ << "],\n\"late\":[";
  if (late_ != nullptr) {
    std::rewind(late_);
    char buffer[65536];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, late_)) > 0;) {
      out_.write(buffer, static_cast<std::streamsize>(n));
    }
  }
  json lane_list = json::array();
  for (const auto& l : lanes) lane_list.push_back({{"peer", l.peer}, {"from", l.from}, {"to", l.to}});
  json method_list = json::array();
  for (const auto& m : methods) method_list.push_back({{"name", m.name}, {"known", m.known}});
  out_ << "],\n\"lanes\":" << dump(lane_list) << ",\n\"methods\":" << dump(method_list)
       << ",\n\"docs\":" << dump(docs) << ",\n\"meta\":" << dump(meta) << "}" << tail_;
  out_.flush();
}

}  // namespace rpckit::trace
