#include "rpckit/roles/transcript.hpp"

#include <cstdarg>
#include <cstdio>
#include <utility>

#include <nlohmann/json.hpp>

#include "rpckit/codec/json_reader.hpp"

namespace rpckit::roles {
namespace {

constexpr std::size_t kLineChars = 160;  // a frame's summary on the terminal
constexpr std::size_t kTextChars = 2000;  // a plugin's report or log line on the terminal

// Text a plugin controls, made safe to print: control characters (terminal escapes
// included) become '?', and it is cut at `max` bytes on a character boundary.
std::string printable(std::string_view text, std::size_t max) {
  std::string out;
  std::size_t n = text.size();
  if (n > max) {
    n = max - 3;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0U) == 0x80U) --n;
  }
  out.reserve(n + 3);
  for (std::size_t i = 0; i < n; ++i) {
    auto b = static_cast<unsigned char>(text[i]);
    out += (b < 0x20 || b == 0x7F) ? '?' : text[i];
  }
  if (n < text.size()) out += "...";
  return out;
}

// A frame as JSON, when it is JSON the runtime would take: validated first (depth, UTF-8,
// numbers), so nothing below recurses without bound or throws on a plugin's bytes.
std::optional<nlohmann::json> parse_frame(std::string_view body) {
  try {
    rpckit::codec::validate_json(body);
  } catch (const rpckit::codec::JsonError&) {
    return std::nullopt;
  }
  nlohmann::json message = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return std::nullopt;
  return message;
}

std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// One line per frame: method or result/error, with params shortened for reading.
std::string summarize(const nlohmann::json& message) {
  if (!message.is_object()) return dump(message);
  auto member = [&](const char* key) -> const nlohmann::json* {
    auto it = message.find(key);
    return it == message.end() ? nullptr : &*it;
  };
  std::string out;
  const nlohmann::json* id = member("id");
  std::string id_text = id != nullptr ? " #" + dump(*id) : "";
  if (const nlohmann::json* method = member("method")) {
    out = (method->is_string() ? method->get<std::string>() : dump(*method)) + id_text;
    if (const nlohmann::json* params = member("params")) out += " " + dump(*params);
  } else if (const nlohmann::json* error = member("error")) {
    out = "error" + id_text + " " + dump(*error);
  } else if (const nlohmann::json* result = member("result")) {
    out = "result" + id_text + " " + dump(*result);
  } else {
    out = dump(message);
  }
  return out;
}

}  // namespace

Transcript::Transcript() : Transcript(Options{}) {}

Transcript::Transcript(Options options) : options_(std::move(options)) {}

Transcript::~Transcript() = default;

void Transcript::print(const char* format, ...) const {
  if (options_.readable == nullptr) return;
  va_list args;
  va_start(args, format);
  std::vfprintf(options_.readable, format, args);
  va_end(args);
  std::fflush(options_.readable);
}

bool Transcript::open_jsonl(const std::string& path, std::string* error) {
  std::lock_guard lock(mutex_);
  jsonl_.emplace(path, std::ios::trunc);
  if (!*jsonl_) {
    *error = "cannot write " + path;
    jsonl_.reset();
    return false;
  }
  jsonl_path_ = path;
  return true;
}

double Transcript::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Transcript::write_line(const nlohmann::json& entry) {
  if (!jsonl_) return;
  *jsonl_ << entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  jsonl_->flush();
}

void Transcript::frame(std::string_view plugin_id, bool outgoing, std::string_view body) {
  // On the endpoint's reading thread: a frame is parsed only for the readable account, and
  // goes into the JSON lines as its own text when it is valid JSON.
  bool to_file = false;
  {
    std::lock_guard lock(mutex_);
    to_file = jsonl_.has_value();
    if (!to_file && !options_.readable_frames) return;  // nothing would be written
  }
  bool valid = true;
  try {
    rpckit::codec::validate_json(body);
  } catch (const rpckit::codec::JsonError&) {
    valid = false;
  }
  // A frame's text spliced in as it is must hold no line break (JSON allows them between
  // tokens): such a frame is parsed and written again on one line.
  const bool one_line = valid && body.find_first_of("\r\n") == std::string_view::npos;
  std::optional<nlohmann::json> message;
  if (valid && (options_.readable_frames || !one_line)) message = parse_frame(body);
  std::lock_guard lock(mutex_);
  double t = elapsed_s();
  if (jsonl_) {
    const std::string direction = outgoing ? options_.local_role + "_to_" + options_.peer_role
                                           : options_.peer_role + "_to_" + options_.local_role;
    nlohmann::json entry = {
        {"t", t}, {"type", "frame"}, {"plugin", plugin_id}, {"direction", direction}};
    if (!one_line) entry["message"] = message ? *message : nlohmann::json(std::string(body));
    std::string line = dump(entry);
    if (one_line) {  // {"direction":..,"t":..} + ,"message":<body>}
      line.pop_back();
      line.append(",\"message\":").append(body).push_back('}');
    }
    *jsonl_ << line << "\n";
    jsonl_->flush();
  }
  if (!options_.readable_frames) return;
  std::string text = printable(message ? summarize(*message) : std::string(body), kLineChars);
  print("%7.2fs  %-6s %s %-24.*s %s\n", t, options_.local_role.c_str(), outgoing ? "->" : "<-",
              static_cast<int>(plugin_id.size()), plugin_id.data(), text.c_str());
}

void Transcript::lifecycle(std::string_view plugin_id, std::string_view kind,
                           std::string_view cause, std::string_view detail) {
  std::lock_guard lock(mutex_);
  double t = elapsed_s();
  write_line({{"t", t},
              {"type", "lifecycle"},
              {"plugin", plugin_id},
              {"event", kind},
              {"cause", cause},
              {"detail", detail}});
  std::string shown = printable(detail, kTextChars);
  print("%7.2fs  == %.*s %.*s%s%.*s%s%s\n", t, static_cast<int>(plugin_id.size()),
              plugin_id.data(), static_cast<int>(kind.size()), kind.data(),
              cause.empty() ? "" : " (", static_cast<int>(cause.size()), cause.data(),
              detail.empty() ? (cause.empty() ? "" : ")") : (cause.empty() ? ": " : "): "),
              shown.c_str());
}

void Transcript::lifecycle(const LifecycleEvent& e) {
  const bool has_cause = e.kind == LifecycleEvent::Kind::kStopped ||
                         e.kind == LifecycleEvent::Kind::kDisabled ||
                         e.kind == LifecycleEvent::Kind::kRestartScheduled;
  lifecycle(e.plugin_id, to_string(e.kind), has_cause ? supervision::to_string(e.cause) : "",
            e.detail);
}

void Transcript::host(std::string_view what) {
  std::lock_guard lock(mutex_);
  double t = elapsed_s();
  write_line({{"t", t}, {"type", "host"}, {"text", what}});
  std::string text = printable(what, kTextChars);
  print("%7.2fs  ** %s\n", t, text.c_str());
}

void Transcript::plugin_says(std::string_view plugin_id, std::string_view what) {
  std::lock_guard lock(mutex_);
  double t = elapsed_s();
  write_line({{"t", t}, {"type", "report"}, {"plugin", plugin_id}, {"text", what}});
  std::string text = printable(what, kTextChars);
  print("%7.2fs  .. %.*s: %s\n", t, static_cast<int>(plugin_id.size()), plugin_id.data(),
              text.c_str());
}

}  // namespace rpckit::roles
