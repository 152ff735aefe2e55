#include "transcript.hpp"

#include <cstdio>

namespace demo {
namespace {

// One line per frame: method or result/error, with params shortened for reading.
std::string summarize(const nlohmann::json& message) {
  std::string out;
  if (message.contains("method")) {
    out = message["method"].get<std::string>();
    if (message.contains("id")) out += " #" + message["id"].dump();
    if (message.contains("params")) out += " " + message["params"].dump();
  } else if (message.contains("error")) {
    out = "error #" + message.value("id", nlohmann::json()).dump() + " " + message["error"].dump();
  } else {
    out = "result #" + message.value("id", nlohmann::json()).dump() + " " +
          message.value("result", nlohmann::json()).dump();
  }
  if (out.size() > 160) out = out.substr(0, 157) + "...";
  return out;
}

}  // namespace

Transcript::Transcript(bool verbose_frames) : verbose_frames_(verbose_frames) {}

bool Transcript::open_jsonl(const std::string& path, std::string* error) {
  std::lock_guard lock(mutex_);
  jsonl_.emplace(path, std::ios::trunc);
  if (!*jsonl_) {
    *error = "cannot write " + path;
    jsonl_.reset();
    return false;
  }
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
  nlohmann::json message = nlohmann::json::parse(body, nullptr, false);
  std::lock_guard lock(mutex_);
  double t = elapsed_s();
  write_line({{"t", t},
              {"type", "frame"},
              {"plugin", plugin_id},
              {"direction", outgoing ? "host_to_plugin" : "plugin_to_host"},
              {"message", message.is_discarded() ? nlohmann::json(body) : message}});
  if (!verbose_frames_) return;
  std::string text = message.is_discarded() ? std::string(body) : summarize(message);
  std::printf("%7.2fs  %s %-24.*s %s\n", t, outgoing ? "host  ->" : "host <- ",
              static_cast<int>(plugin_id.size()), plugin_id.data(), text.c_str());
  std::fflush(stdout);
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
  std::printf("%7.2fs  == %.*s %.*s%s%.*s%s%.*s\n", t, static_cast<int>(plugin_id.size()),
              plugin_id.data(), static_cast<int>(kind.size()), kind.data(),
              cause.empty() ? "" : " (", static_cast<int>(cause.size()), cause.data(),
              detail.empty() ? (cause.empty() ? "" : ")") : (cause.empty() ? ": " : "): "),
              static_cast<int>(detail.size()), detail.data());
  std::fflush(stdout);
}

void Transcript::host(std::string_view what) {
  std::lock_guard lock(mutex_);
  double t = elapsed_s();
  write_line({{"t", t}, {"type", "host"}, {"text", what}});
  std::printf("%7.2fs  ** %.*s\n", t, static_cast<int>(what.size()), what.data());
  std::fflush(stdout);
}

void Transcript::plugin_says(std::string_view plugin_id, std::string_view what) {
  std::lock_guard lock(mutex_);
  double t = elapsed_s();
  write_line({{"t", t}, {"type", "report"}, {"plugin", plugin_id}, {"text", what}});
  std::printf("%7.2fs  .. %.*s: %.*s\n", t, static_cast<int>(plugin_id.size()), plugin_id.data(),
              static_cast<int>(what.size()), what.data());
  std::fflush(stdout);
}

}  // namespace demo
