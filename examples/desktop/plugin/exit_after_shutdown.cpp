#include "exit_after_shutdown.hpp"

#include <nlohmann/json.hpp>

namespace desktop_sample {

rpckit::framing::IoResult EndableSource::read(std::span<char> buffer) {
  if (ended_) return {};
  rpckit::framing::IoResult result = inner_.read(buffer);
  // The interrupt end() sent shows as operation_canceled: report it as the end it means.
  return ended_ ? rpckit::framing::IoResult{} : result;
}

void EndableSource::end() {
  ended_ = true;
  inner_.interrupt();
}

rpckit::framing::WriteResult ShutdownAnswerWatch::write(std::string_view body) {
  rpckit::framing::WriteResult result = inner_->write(body);
  if (!armed_) return result;
  // Our own frames are valid JSON; a response is an object with "result" and no "method".
  nlohmann::json frame = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (frame.is_object() && frame.contains("result") && !frame.contains("method") &&
      armed_.exchange(false)) {
    answered_();
  }
  return result;
}

}  // namespace desktop_sample
