#include "consent.hpp"

#include "rpckit/streamnook/errors.hpp"

namespace rpckit::streamnook {

ConsentBook::ConsentBook(Serve serve) : serve_(std::move(serve)) {}

ConsentBook::Admission ConsentBook::admit(const sn::GetCredentialParams& params,
                                          const std::function<Reply()>& defer) {
  std::string kind(params.kind.wire());
  std::lock_guard lock(mutex_);
  if (auto it = decided_.find(kind); it != decided_.end()) {
    return {it->second ? Decision::kGranted : Decision::kDenied};
  }
  Admission admission;
  auto [it, opened] = open_.try_emplace(kind);
  if (opened) it->second.id = ++last_prompt_;
  admission.prompt = it->second.id;
  admission.opened = opened;
  it->second.waiting.push_back(Waiting{defer(), params});
  return admission;
}

void ConsentBook::answer(const std::string& kind, std::uint64_t prompt, bool granted) {
  std::lock_guard lock(mutex_);
  if (closed_) return;
  decided_[kind] = granted;
  auto it = open_.find(kind);
  if (it == open_.end() || it->second.id != prompt) return;  // it expired; remembered anyway
  std::vector<Waiting> waiting = std::move(it->second.waiting);
  open_.erase(it);
  if (!granted) return refuse(waiting, "the user declined to share " + kind);
  for (Waiting& w : waiting) serve_(w);
}

void ConsentBook::expire(const std::string& kind, std::uint64_t prompt) {
  std::lock_guard lock(mutex_);
  auto it = open_.find(kind);
  if (closed_ || it == open_.end() || it->second.id != prompt) return;
  std::vector<Waiting> waiting = std::move(it->second.waiting);
  open_.erase(it);
  refuse(waiting, "the consent prompt for " + kind + " was not answered in time");
}

void ConsentBook::revoke(const std::string& kind) {
  std::lock_guard lock(mutex_);
  decided_[kind] = false;
}

void ConsentBook::close() {
  std::map<std::string, Prompt> dropped;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    dropped.swap(open_);
  }
}

void ConsentBook::refuse(std::vector<Waiting>& waiting, const std::string& why) {
  for (Waiting& w : waiting) w.reply.error(spec_error(sn::ErrorCode::kConsentDenied, "get_credential: " + why));
}

}  // namespace rpckit::streamnook
