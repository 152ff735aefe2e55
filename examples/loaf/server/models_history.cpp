// LoafServer: models, usage limits, saved history, skills and tools.
#include <cmath>

#include "catalog.hpp"
#include "handler_util.hpp"
#include "loaf_server.hpp"
#include "loaf_v1/constants.hpp"
#include "loaf_v1/errors.hpp"

namespace loaf_server {

namespace {

void check_provider(const v1::AuthProvider& p) {
  if (!p.is_known()) {
    v1::ErrorData data;
    data.reason = v1::ErrorReason::kInvalidParams;
    data.field = "provider";
    throw v1::make_error(v1::ErrorCode::kInvalidParams,
                         "Invalid params: unknown provider " + std::string(p.wire()), data);
  }
}

}  // namespace

v1::ModelListResult LoafServer::models(const std::optional<v1::AuthProvider>& only) {
  v1::ModelListResult r;
  r.providers = auth().enabled_providers;
  for (const auto& m : model_catalog()) {
    if (!only || m.provider == *only) r.models.push_back(m);
  }
  r.selected_model = model_;
  r.selected_thinking = thinking_;
  if (provider_) r.selected_provider = *provider_;
  r.selected_openrouter_provider = openrouter_provider_;
  return r;
}

v1::ModelListResult LoafServer::model_list(Peer&, const v1::ModelListParams& p) {
  auto only = given(p.provider);
  if (only) check_provider(*only);
  std::lock_guard lock(mutex_);
  return models(only);
}

v1::ModelSelectResult LoafServer::model_select(Peer&, const v1::ModelSelectParams& p) {
  check_provider(p.provider);
  auto session_id = given(p.session_id);
  bool compress = given(p.compress_immediately).value_or(false);
  if (compress && !session_id) fail("compress_immediately requires session_id");
  FakeSession* s = session_id ? &session(*session_id) : nullptr;
  const v1::ModelOption* model = find_model(p.model_id, p.provider);
  if (model == nullptr) {
    fail("unknown model " + p.model_id + " for provider " + std::string(p.provider.wire()));
  }
  // An unsupported thinking level is replaced by one the model supports.
  auto level = v1::ThinkingLevel::from_wire(p.thinking_level);
  const auto& levels = *model->supportedThinkingLevels;
  if (std::find(levels.begin(), levels.end(), level) == levels.end()) {
    level = *model->defaultThinkingLevel;
  }
  v1::ModelSelectResult r;
  {
    std::lock_guard lock(mutex_);
    model_ = model->id;
    provider_ = model->provider;
    thinking_ = level;
    openrouter_provider_ = given(p.openrouter_provider).value_or("");
    r = {model_, model->provider, thinking_, openrouter_provider_, std::nullopt};
  }
  changed("model_selected");
  if (compress && s != nullptr) {
    v1::CompressCommandOutput c = compact(*s, v1::CompactionReason::kProviderSwitch);
    v1::Compression out;
    out.applied = c.compressed;
    out.reason = v1::CompressionReason::from_wire(c.reason);
    out.estimated_tokens_before = c.estimated_tokens_before;
    out.estimated_tokens_after = c.estimated_tokens_after;
    out.model_context_window = c.model_context_window;
    out.target_limit = c.target_limit;
    out.anchor_event_index_before = c.anchor_event_index_before;
    out.anchor_event_index_after = c.anchor_event_index_after;
    r.compression = out;
  }
  return r;
}

// The fake compaction: the whole event sequence, summarizing the session so far.
v1::CompressCommandOutput LoafServer::compact(FakeSession& s, const v1::CompactionReason& reason) {
  v1::SessionState st = s.state();
  auto events = static_cast<std::int64_t>(st.messages.size());
  std::int64_t window = 272000, before = st.contextTokenEstimate, after = before / 2;
  v1::CompactionStartedEvent started;
  started.payload = {s.id(), std::nullopt, reason, 0, events, window};
  events_.emit(started);
  v1::CompactionAnchorSelectedEvent anchor;
  anchor.payload = {s.id(), std::nullopt, reason, 0, events, events};
  events_.emit(anchor);
  v1::CompactionSummaryMergedEvent merged;
  merged.payload = {s.id(), std::nullopt, now_iso(), events};
  events_.emit(merged);
  v1::CompactionCompletedEvent done;
  done.payload = {s.id(), std::nullopt, true, reason, before, after, window,
                  window * 8 / 10, window * 9 / 10, 0, events};
  events_.emit(done);
  v1::SessionContextEstimateEvent estimate;
  estimate.payload.session_id = s.id();
  estimate.payload.provider = nullptr;
  estimate.payload.source = v1::ContextTokenSource::kCompaction;
  estimate.payload.total_tokens_estimate = after;
  estimate.payload.breakdown.conversation_tokens = after;
  events_.emit(estimate);
  v1::CompressCommandOutput out;
  out.compressed = true;
  out.reason = reason == v1::CompactionReason::kManual ? "none" : std::string(reason.wire());
  out.estimated_tokens_before = before;
  out.estimated_tokens_after = after;
  out.model_context_window = window;
  out.target_limit = window * 8 / 10;
  out.anchor_event_index_before = 0;
  out.anchor_event_index_after = events;
  return out;
}

v1::ModelOpenrouterProvidersResult LoafServer::model_openrouter_providers(
    Peer&, const v1::ModelOpenrouterProvidersParams& p) {
  {
    std::lock_guard lock(mutex_);
    if (!openrouter_) fail("no OpenRouter key is configured");
  }
  const v1::ModelOption* m = find_model(p.model_id, v1::AuthProvider::kOpenrouter);
  if (m == nullptr) fail("unknown OpenRouter model " + p.model_id);
  return {m->id, *m->routingProviders};
}

v1::LimitsGetResult LoafServer::limits_get(Peer&, const v1::LimitsGetParams&) {
  std::lock_guard lock(mutex_);
  if (!openai_ && !antigravity_) fail("no OAuth provider (openai, antigravity) is connected");
  v1::LimitsGetResult r;
  if (openai_) {
    v1::OpenaiUsageSnapshot snap;
    snap.planType = std::string("plus");
    snap.primary = v1::UsageWindow{12.5, 87.5, 18000.0, 1767225600.0};
    snap.secondary = nullptr;
    r.openai = v1::OpenaiUsageResult{true, snap, std::nullopt};
  }
  if (antigravity_) {
    v1::AntigravityUsageSnapshot snap;
    snap.models = {{"gemini-3-pro", 64.0, nullptr}};
    r.antigravity = v1::AntigravityUsageResult{true, snap, std::nullopt};
  }
  return r;
}

v1::HistoryListResult LoafServer::history_list(Peer&, const v1::HistoryListParams& p) {
  // Decision 8.10: the real total and a correct next_cursor.
  double limit_in = std::floor(given(p.limit).value_or(0));
  auto limit = limit_in <= 0 ? v1::kHistoryListDefaultLimit : static_cast<std::int64_t>(limit_in);
  auto cursor = std::max<std::int64_t>(0, static_cast<std::int64_t>(
                                              std::floor(given(p.cursor).value_or(0))));
  const auto& all = saved_history();
  v1::HistoryListResult r;
  r.total = static_cast<std::int64_t>(all.size());
  r.cursor = cursor;
  r.limit = limit;
  for (std::int64_t i = cursor; i < r.total && i < cursor + limit; ++i) {
    const auto& rec = all[static_cast<std::size_t>(i)];
    r.sessions.push_back({rec.id, rec.title, rec.provider, rec.model, rec.thinkingLevel,
                          rec.openRouterProvider, rec.createdAt, rec.updatedAt,
                          rec.messageCount, rec.rolloutPath});
  }
  if (cursor + limit < r.total) r.next_cursor = cursor + limit;
  return r;
}

v1::ChatSessionRecord LoafServer::history_get(Peer&, const v1::HistoryGetParams& p) {
  const auto& all = saved_history();
  if (given(p.last).value_or(false)) {
    if (all.empty()) fail("no saved sessions");
    return all.front();
  }
  auto path = given(p.rollout_path);
  auto id = given(p.id);
  for (const auto& rec : all) {
    if ((path && rec.rolloutPath == *path) || (!path && id && rec.id == *id)) return rec;
  }
  if (!path && !id) fail("history.get needs id, last or rollout_path");
  fail("no saved session " + (path ? *path : *id));
}

v1::HistoryClearSessionResult LoafServer::history_clear_session(
    Peer&, const v1::HistoryClearSessionParams& p) {
  FakeSession& s = session(p.session_id);
  s.clear_history();
  return {s.id()};
}

v1::SkillsListResult LoafServer::skills_list(Peer&, const v1::SkillsListParams&) {
  return skills();
}

v1::ToolsListResult LoafServer::tools_list(Peer&, const v1::ToolsListParams&) { return tools(); }

}  // namespace loaf_server
