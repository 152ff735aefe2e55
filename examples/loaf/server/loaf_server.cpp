#include "loaf_server.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>

#include "catalog.hpp"
#include "handler_util.hpp"
#include "loaf_v1/constants.hpp"
#include "loaf_v1/errors.hpp"

namespace loaf_server {

namespace {

[[noreturn]] void invalid(const std::string& field, const std::string& why) {
  v1::ErrorData data;
  data.reason = v1::ErrorReason::kInvalidParams;
  data.field = field;
  throw v1::make_error(v1::ErrorCode::kInvalidParams, "Invalid params: " + field + " " + why, data);
}

std::string trim(const std::string& s) {
  auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// Required strings are non-empty after trimming and used trimmed.
std::string required(const std::string& value, const std::string& field) {
  std::string t = trim(value);
  if (t.empty()) invalid(field, "must not be empty");
  return t;
}

std::string uuid() {
  static std::mutex mutex;
  static std::mt19937_64 random{std::random_device{}()};
  std::lock_guard lock(mutex);
  auto a = random(), b = random();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xfff),
                static_cast<unsigned>(0x8000 | (b >> 48 & 0x3fff)),
                static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

}  // namespace

LoafServer::LoafServer(const v1::ClientClient& client) : events_(client) {}

// ---- lifecycle ----------------------------------------------------------------------------

v1::RpcHandshakeResult LoafServer::rpc_handshake(Peer&, const v1::RpcHandshakeParams& p) {
  auto version = given(p.protocol_version);
  auto strict = given(p.strict);
  if (strict.value_or(false) && version.value_or("") != v1::kProtocolVersion) {
    v1::ErrorData data;
    data.reason = v1::ErrorReason::kUnsupportedProtocolVersion;
    data.supported = std::string(v1::kProtocolVersion);
    throw v1::make_error(v1::ErrorCode::kInvalidParams,
                         "unsupported protocol_version " + version.value_or("(none)"), data);
  }
  v1::RpcHandshakeResult r;
  r.protocol_version = std::string(v1::kProtocolVersion);
  r.capabilities = {true, true, true, {v1::ImageInputKind::from_wire("path"),
                                       v1::ImageInputKind::from_wire("data_url")}};
  r.methods.assign(v1::ClientToServer::kMethods.begin(), v1::ClientToServer::kMethods.end());
  std::sort(r.methods.begin(), r.methods.end());
  return r;
}

v1::SystemPingResult LoafServer::system_ping(Peer&, const v1::SystemPingParams&) {
  v1::SystemPingResult r;
  r.time = now_iso();
  return r;
}

v1::SystemShutdownResult LoafServer::system_shutdown(Peer&, const v1::SystemShutdownParams& p) {
  auto reason = given(p.reason);
  abort_turns();
  changed(reason.value_or("shutdown"));
  v1::SystemShutdownResult r;
  r.reason = reason;
  return r;
}

void LoafServer::on_signal(const std::string& reason) {
  abort_turns();
  changed(reason);
}

void LoafServer::abort_turns() {
  std::lock_guard lock(mutex_);
  for (auto& [id, s] : sessions_) s->abort_all();
}

void LoafServer::end_sessions() {
  std::map<std::string, std::unique_ptr<FakeSession>> ended;
  {
    std::lock_guard lock(mutex_);
    ended.swap(sessions_);
  }
  ended.clear();  // joins the turns (aborted)
}

// ---- state ------------------------------------------------------------------------------

v1::AuthStatus LoafServer::auth() {
  v1::AuthStatus a;
  if (openai_) a.enabled_providers.emplace_back(v1::AuthProvider::kOpenai);
  if (openrouter_) a.enabled_providers.emplace_back(v1::AuthProvider::kOpenrouter);
  if (antigravity_) a.enabled_providers.emplace_back(v1::AuthProvider::kAntigravity);
  a.has_openai_token = openai_;
  a.has_openrouter_key = openrouter_;
  a.has_antigravity_token = antigravity_.has_value();
  if (antigravity_) a.antigravity_profile = *antigravity_;
  return a;
}

v1::Snapshot LoafServer::snapshot() {
  v1::AuthStatus a = auth();
  v1::Snapshot s;
  s.auth = {a.enabled_providers, a.has_openai_token, a.has_openrouter_key,
            a.has_antigravity_token, a.antigravity_profile};
  s.onboarding.completed = onboarded_;
  s.model.selectedModel = model_;
  s.model.selectedThinking = thinking_;
  s.model.selectedOpenRouterProvider = openrouter_provider_;
  if (provider_) s.model.selectedProvider = *provider_;
  for (const auto& [id, session] : sessions_) s.sessions.ids.push_back(id);
  s.sessions.count = static_cast<std::int64_t>(s.sessions.ids.size());
  s.skills.count = static_cast<std::int64_t>(skills().skills.size());
  s.skills.directories = skills().directories;
  return s;
}

void LoafServer::changed(const std::string& reason, std::optional<std::string> session_id) {
  v1::StateChangedEvent e;
  {
    std::lock_guard lock(mutex_);
    e.payload.snapshot = snapshot();
  }
  e.payload.reason = reason;
  e.payload.session_id = std::move(session_id);
  events_.emit(e);
}

v1::Snapshot LoafServer::state_get(Peer&, const v1::StateGetParams&) {
  std::lock_guard lock(mutex_);
  return snapshot();
}

// ---- sessions ---------------------------------------------------------------------------

FakeSession& LoafServer::session(const std::string& raw_id) {
  std::string id = required(raw_id, "session_id");
  std::lock_guard lock(mutex_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) fail("unknown session: " + id);
  return *it->second;  // sessions live until the process ends
}

v1::SessionCreateResult LoafServer::session_create(Peer&, const v1::SessionCreateParams&) {
  std::string id = uuid();
  v1::SessionCreateResult r;
  {
    std::lock_guard lock(mutex_);
    auto s = std::make_unique<FakeSession>(id, events_, debug_);
    r.state = s->state();
    sessions_.emplace(id, std::move(s));
  }
  r.session_id = id;
  changed("session_created", id);
  return r;
}

v1::SessionState LoafServer::session_get(Peer&, const v1::SessionGetParams& p) {
  return session(p.session_id).state();
}

v1::SessionSendResult LoafServer::session_send(Peer&, const v1::SessionSendParams& p) {
  FakeSession& s = session(p.session_id);
  Prompt prompt;
  prompt.turn_id = uuid();
  prompt.text = trim(given(p.text).value_or(""));
  prompt.enqueued_at = now_iso();
  std::vector<std::string> image_errors;
  for (const v1::ImageInput& in : given(p.images).value_or(std::vector<v1::ImageInput>{})) {
    auto path = given(in.path);
    auto url = given(in.data_url) ? given(in.data_url) : given(in.dataUrl);
    if (!path && !url) continue;  // neither: the entry is skipped
    std::string mime = given(in.mime_type).value_or(given(in.mimeType).value_or(""));
    if (url && url->rfind("data:", 0) == 0) mime = url->substr(5, url->find(';') - 5);
    const auto& ok = v1::kSupportedImageMimeTypes;
    if (std::find(ok.begin(), ok.end(), mime) == ok.end()) {
      image_errors.push_back("unsupported image type: " + (mime.empty() ? "unknown" : mime));
      continue;
    }
    prompt.images.push_back({path.value_or(""), mime, url});
  }
  if (prompt.text.empty() && prompt.images.empty()) invalid("text", "or an image is required");
  bool queued = s.submit(prompt, given(p.enqueue).value_or(false));
  for (const auto& e : image_errors) s.note_error(prompt.turn_id, e);
  return {s.id(), prompt.turn_id, queued};
}

v1::SessionSteerResult LoafServer::session_steer(Peer&, const v1::SessionSteerParams& p) {
  FakeSession& s = session(p.session_id);
  return {s.id(), s.steer(required(p.text, "text"))};
}

v1::SessionInterruptResult LoafServer::session_interrupt(Peer&,
                                                         const v1::SessionInterruptParams& p) {
  FakeSession& s = session(p.session_id);
  return {s.id(), s.interrupt()};
}

v1::SessionQueueListResult LoafServer::session_queue_list(Peer&,
                                                          const v1::SessionQueueListParams& p) {
  FakeSession& s = session(p.session_id);
  return {s.id(), s.queue()};
}

v1::SessionQueueClearResult LoafServer::session_queue_clear(
    Peer&, const v1::SessionQueueClearParams& p) {
  FakeSession& s = session(p.session_id);
  return {s.id(), s.clear_queue()};
}

v1::DebugSetResult LoafServer::debug_set(Peer&, const v1::DebugSetParams& p) {
  debug_ = p.super_debug;
  return {p.super_debug};
}

// ---- auth and onboarding ----------------------------------------------------------------

v1::AuthStatus LoafServer::auth_status(Peer&, const v1::AuthStatusParams&) {
  std::lock_guard lock(mutex_);
  return auth();
}

v1::AuthConnectOpenaiResult LoafServer::auth_connect_openai(Peer&,
                                                            const v1::AuthConnectOpenaiParams& p) {
  // The fake OAuth flow: the URL or device code as events, then at once "signed in".
  bool device = given(p.mode).value_or("auto") == "device_code";
  v1::AuthFlowStartedEvent started;
  started.payload.provider = v1::OAuthProvider::kOpenai;
  events_.emit(started);
  if (given(p.originator).value_or("") == "fail") {
    v1::AuthFlowFailedEvent failed;
    failed.payload = {v1::OAuthProvider::kOpenai, "the scripted OAuth flow was refused"};
    events_.emit(failed);
    fail("OpenAI sign-in failed: the scripted OAuth flow was refused");
  }
  if (device) {
    v1::AuthFlowDeviceCodeEvent code;
    code.payload = {"https://auth.openai.com/codex/device", "LOAF-1234", 5, 900};
    events_.emit(code);
  } else {
    v1::AuthFlowUrlEvent url;
    url.payload = {v1::OAuthProvider::kOpenai, "https://auth.openai.com/oauth/authorize?fake=1"};
    events_.emit(url);
  }
  v1::AuthConnectOpenaiResult r;
  r.login_method = device ? v1::OpenaiLoginMethod::from_wire("device_code")
                          : v1::OpenaiLoginMethod::from_wire("browser");
  r.account_id = std::string("acct_fake_0001");
  v1::AuthFlowCompletedEvent done;
  done.payload.value = r;
  events_.emit(done);
  {
    std::lock_guard lock(mutex_);
    openai_ = true;
    if (!provider_) provider_ = v1::AuthProvider::kOpenai;
  }
  changed("auth_openai_connected");
  return r;
}

v1::AuthConnectAntigravityResult LoafServer::auth_connect_antigravity(
    Peer&, const v1::AuthConnectAntigravityParams&) {
  v1::AuthFlowStartedEvent started;
  started.payload.provider = v1::OAuthProvider::kAntigravity;
  events_.emit(started);
  v1::AuthFlowUrlEvent url;
  url.payload = {v1::OAuthProvider::kAntigravity, "https://accounts.google.com/o/oauth2/fake"};
  events_.emit(url);
  v1::AuthConnectAntigravityResult r;
  r.profile = v1::AntigravityProfile{"dev@example.com", "Dev Example", std::nullopt};
  v1::AuthFlowCompletedEvent done;
  done.payload.value = r;
  events_.emit(done);
  {
    std::lock_guard lock(mutex_);
    antigravity_ = *r.profile;
  }
  changed("auth_antigravity_connected");
  return r;
}

v1::AuthSetOpenrouterKeyResult LoafServer::auth_set_openrouter_key(
    Peer&, const v1::AuthSetOpenrouterKeyParams& p) {
  required(p.api_key, "api_key");
  {
    std::lock_guard lock(mutex_);
    openrouter_ = true;
  }
  changed("openrouter_key_updated");
  v1::AuthSetOpenrouterKeyResult r;
  r.model_count = 1;
  r.source = v1::ModelListSource::kFallback;  // no network: the built-in list
  return r;
}

v1::AuthSetExaKeyResult LoafServer::auth_set_exa_key(Peer&, const v1::AuthSetExaKeyParams& p) {
  std::string key = required(p.api_key, "api_key");
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  bool skip = key == "skip";
  {
    std::lock_guard lock(mutex_);
    exa_ = !skip;
    exa_skipped_ = skip;
  }
  changed(skip ? "exa_key_skipped" : "exa_key_updated");
  return {!skip, skip};
}

v1::OnboardingStatusResult LoafServer::onboarding_status(Peer&,
                                                         const v1::OnboardingStatusParams&) {
  std::lock_guard lock(mutex_);
  return {onboarded_};
}

v1::OnboardingCompleteResult LoafServer::onboarding_complete(Peer&,
                                                             const v1::OnboardingCompleteParams&) {
  {
    std::lock_guard lock(mutex_);
    onboarded_ = true;
  }
  changed("onboarding_complete");
  return {};
}

}  // namespace loaf_server
