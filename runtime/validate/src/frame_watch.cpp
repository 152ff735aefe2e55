#include "rpckit/validate/frame_watch.hpp"

#include <cstdlib>
#include <iostream>

namespace rpckit::validate {

FrameWatch::FrameWatch(std::shared_ptr<const ProtocolValidator> validator, std::string local_role,
                       Report report)
    : validator_(std::move(validator)),
      local_(std::move(local_role)),
      report_(std::move(report)),
      checker_(*validator_) {
  for (const auto& role : validator_->protocol().roles()) {
    if (role != local_) peer_ = role;
  }
}

void FrameWatch::observe(bool outgoing, std::string_view body) {
  std::vector<Finding> findings;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Frame frame;
    frame.number = ++frames_;
    frame.from = outgoing ? local_ : peer_;
    frame.body = std::string(body);
    findings = checker_.feed(frame);
    for (const auto& f : findings) {
      if (f.violation.severity == Violation::Severity::kError) ++violations_;
    }
  }
  for (const auto& f : findings) report_("rpckit validate: " + describe(f));
}

std::size_t FrameWatch::violations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return violations_;
}

std::shared_ptr<const ProtocolValidator> validator_from_environment() {
  static const std::shared_ptr<const ProtocolValidator> validator =
      []() -> std::shared_ptr<const ProtocolValidator> {
    const char* path = std::getenv("RPCKIT_VALIDATE");
    if (path == nullptr || *path == '\0') return nullptr;
    try {
      return std::make_shared<ProtocolValidator>(ProtocolSchema::load(path));
    } catch (const std::exception& e) {
      std::cerr << "rpckit validate: RPCKIT_VALIDATE=" << path << ": " << e.what()
                << " (frames are not validated)\n";
      return nullptr;
    }
  }();
  return validator;
}

std::string describe(const Finding& f) {
  std::string out;
  if (f.frame) out += "frame " + std::to_string(f.frame);
  if (!f.from.empty()) out += (out.empty() ? "from " : " from ") + f.from;
  if (!f.peer.empty()) out += " (" + f.peer + ")";
  if (!out.empty()) out += ": ";
  if (f.violation.severity == Violation::Severity::kWarning) out += "warning: ";
  out += (f.violation.instance.empty() ? "/" : f.violation.instance) + ": " + f.violation.message();
  if (!f.violation.schema.empty()) out += " [" + f.violation.schema + "]";
  return out;
}

}  // namespace rpckit::validate
