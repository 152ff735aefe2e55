#include "session_script.hpp"

#include <nlohmann/json.hpp>

#include "loaf_v1/constants.hpp"
#include "loaf_v1/roles.hpp"

namespace loaf_client {

namespace v1 = loaf::v1;
namespace msg = loaf::v1::messages;

template <class M>
typename M::Result SessionScript::call(const typename M::Params& params) {
  auto r = client_.call<M>(params, timeout_);
  if (r.ok()) return r.value();
  const rpckit::CallError& e = r.error();
  std::string what = std::string(M::kMethod) + ": " + e.describe();
  switch (e.kind) {
    case rpckit::CallError::Kind::kTimeout: throw Failure("request_timeout", what);
    case rpckit::CallError::Kind::kDisconnected:
    case rpckit::CallError::Kind::kSendFailed: throw Failure("server_exited", what);
    case rpckit::CallError::Kind::kLocal:  // its shape
    case rpckit::CallError::Kind::kInvalidResult:
      throw Failure("invalid_response", what);
    case rpckit::CallError::Kind::kCancelled:
    case rpckit::CallError::Kind::kRemote: break;
  }
  throw Failure("unexpected_error", what);
}

template <class M>
rpckit::RpcError SessionScript::call_fails(const typename M::Params& params, int code) {
  auto r = client_.call<M>(params, timeout_);
  if (r.ok()) throw Failure("invalid_response", std::string(M::kMethod) + " should have failed");
  if (r.error().kind == rpckit::CallError::Kind::kTimeout) {
    throw Failure("request_timeout", r.error().describe());
  }
  check(r.error().error.code() == code,
        std::string(M::kMethod) + " fails with " + std::to_string(code));
  return r.error().error;
}

void SessionScript::check(bool ok, const std::string& what) {
  if (!ok) throw Failure("invalid_response", what);
  out_.host("ok: " + what);
}

void SessionScript::wait_turn(const std::string& turn_id, const std::string& what) {
  auto ends = [&](const rpckit::loaf::Event& e) { return rpckit::loaf::is_turn_end(e, turn_id); };
  if (!events_.wait_for(ends, timeout_)) {
    throw Failure("turn_incomplete", what + ": no session.status ready for turn " + turn_id);
  }
  out_.host("ok: " + what + " ended with session.status ready");
}

void SessionScript::run() {
  lifecycle_and_account();
  v1::SessionCreateParams create;
  create.title = std::string("loaf-client demo");
  auto created = call<msg::SessionCreate>(create);
  check(!created.session_id.empty() && created.state.id == created.session_id &&
            !created.state.pending,
        "session.create: an idle session");
  check(events_.wait_for(
            [&](const rpckit::loaf::Event& e) {
              auto* s = e.as<v1::StateChangedEvent>();
              return s && s->payload.reason == "session_created" &&
                     s->payload.session_id == created.session_id;
            },
            timeout_),
        "state.changed session_created");
  session_turns(created.session_id);
  commands_and_history(created.session_id);
}

void SessionScript::lifecycle_and_account() {
  auto ping = call<msg::SystemPing>({});
  check(ping.time.size() == 24 && ping.time.back() == 'Z', "system.ping: UTC time " + ping.time);
  auto state = call<msg::StateGet>({});
  check(state.sessions.count == static_cast<std::int64_t>(state.sessions.ids.size()),
        "state.get: a snapshot");
  call<msg::OnboardingStatus>({});
  call<msg::OnboardingComplete>({});
  check(call<msg::OnboardingStatus>({}).completed, "onboarding completed");
  auto auth = call<msg::AuthStatus>({});
  check(auth.enabled_providers.size() <= 3, "auth.status");
  v1::AuthSetOpenrouterKeyParams key;
  key.api_key = "sk-or-demo";
  call<msg::AuthSetOpenrouterKey>(key);
  v1::AuthSetExaKeyParams exa;
  exa.api_key = "SKIP";
  auto skipped = call<msg::AuthSetExaKey>(exa);
  check(skipped.skipped && !skipped.configured, "auth.set.exa_key skip");
  v1::AuthConnectOpenaiParams openai;
  openai.mode = std::string("device_code");
  auto connected = call<msg::AuthConnectOpenai>(openai);
  check(connected.login_method.wire() == "device_code", "auth.connect.openai (device code)");
  auto antigravity = call<msg::AuthConnectAntigravity>({});
  check(antigravity.profile.has_value(), "auth.connect.antigravity");
  check(call<msg::AuthStatus>({}).has_openai_token, "auth.status after sign-in");

  auto models = call<msg::ModelList>({});
  check(!models.models.empty(), "model.list: " + std::to_string(models.models.size()) +
                                    " models");
  v1::ModelOpenrouterProvidersParams routing;
  routing.model_id = "anthropic/claude-sonnet-4";
  check(!call<msg::ModelOpenrouterProviders>(routing).providers.empty(),
        "model.openrouter.providers");
  auto limits = call<msg::LimitsGet>({});
  check(limits.openai.has_value(), "limits.get");
}

void SessionScript::session_turns(const std::string& sid) {
  v1::SessionGetParams get;
  get.session_id = sid;
  check(call<msg::SessionGet>(get).id == sid, "session.get");
  v1::SessionGetParams unknown;
  unknown.session_id = "no-such-session";
  call_fails<msg::SessionGet>(unknown, rpckit::jsonrpc_code::kInternalError);

  v1::DebugSetParams debug;
  debug.super_debug = true;
  check(call<msg::DebugSet>(debug).super_debug, "debug.set true");

  // A streamed turn with a tool round.
  v1::SessionSendParams send;
  send.session_id = sid;
  send.text = std::string("please use a tool to read the README");
  auto first = call<msg::SessionSend>(send);
  check(!first.queued, "session.send runs at once");
  wait_turn(first.turn_id, "the first turn");
  check(events_.count("session.stream.chunk") > 0 && events_.count("session.completed") == 1,
        "stream chunks and session.completed were streamed");

  // A slow turn: steered, a prompt queued behind it and cleared, then interrupted.
  send.text = std::string("a slow answer please");
  auto slow = call<msg::SessionSend>(send);
  v1::SessionSteerParams steer;
  steer.session_id = sid;
  steer.text = "shorter, please";
  check(call<msg::SessionSteer>(steer).accepted, "session.steer while the turn runs");
  send.text = std::string("and then this");
  send.enqueue = true;
  auto queued = call<msg::SessionSend>(send);
  check(queued.queued, "session.send with enqueue: queued");
  v1::SessionQueueListParams list;
  list.session_id = sid;
  auto queue = call<msg::SessionQueueList>(list);
  check(queue.queue.size() == 1 && queue.queue[0].id == queued.turn_id, "session.queue.list");
  v1::SessionQueueClearParams clear;
  clear.session_id = sid;
  check(call<msg::SessionQueueClear>(clear).cleared_count == 1, "session.queue.clear");
  v1::SessionInterruptParams interrupt;
  interrupt.session_id = sid;
  check(call<msg::SessionInterrupt>(interrupt).interrupted, "session.interrupt");
  wait_turn(slow.turn_id, "the interrupted turn");
  check(events_.count("session.interrupted") == 1, "session.interrupted was streamed");
  check(!call<msg::SessionInterrupt>(interrupt).interrupted, "nothing left to interrupt");
  check(events_.wait_count("auth.flow.completed", 2, timeout_), "auth.flow.* events arrived");
  check(!call<msg::SessionSteer>(steer).accepted, "no turn to steer");

  // A turn the model fails.
  send.text = std::string("make this fail");
  send.enqueue = std::nullopt;
  auto failed = call<msg::SessionSend>(send);
  wait_turn(failed.turn_id, "the failed turn");
  check(events_.count("session.error") >= 1, "session.error was streamed");

  // Switch models, compressing at once: the compaction events.
  v1::ModelSelectParams select;
  select.model_id = "anthropic/claude-sonnet-4";
  select.provider = v1::AuthProvider::kOpenrouter;
  select.thinking_level = "XHIGH";
  select.session_id = sid;
  select.compress_immediately = true;
  auto selected = call<msg::ModelSelect>(select);
  check(selected.selected_thinking == v1::ThinkingLevel::kOff && selected.compression,
        "model.select: thinking level replaced, context compressed");
  check(events_.wait_count("compaction.completed", 1, timeout_), "compaction events were streamed");
}

void SessionScript::commands_and_history(const std::string& sid) {
  v1::CommandExecuteParams command;
  command.session_id = sid;
  command.raw_command = "hello";
  check(!call<msg::CommandExecute>(command).handled, "command.execute: not a command");
  for (const char* raw : {"/help", "/model", "/tools", "/compress", "/bogus"}) {
    command.raw_command = raw;
    auto r = call<msg::CommandExecute>(command);
    check(r.handled && r.output.has_value(), std::string("command.execute ") + raw);
  }
  auto page = call<msg::HistoryList>({});
  v1::HistoryListParams paged;
  paged.limit = 2.0;
  auto first = call<msg::HistoryList>(paged);
  check(first.sessions.size() <= 2 && first.total == page.total, "history.list page");
  // Decision 8.10: paged until a short page, next_cursor not trusted.
  auto all = client_.list_history({.page_size = 2, .deadline = timeout_});
  check(all.ok() && all->size() == page.sessions.size(),
        "history.list paged by twos: " + std::to_string(all.ok() ? all->size() : 0) + " sessions");
  v1::HistoryGetParams last;
  last.last = true;
  auto record = call<msg::HistoryGet>(last);
  check(!record.id.empty(), "history.get last");
  v1::HistoryClearSessionParams clear;
  clear.session_id = sid;
  call<msg::HistoryClearSession>(clear);
  auto skills = call<msg::SkillsList>({});
  check(true, "skills.list: " + std::to_string(skills.skills.size()) + " skills");
  check(!call<msg::ToolsList>({}).tools.empty(), "tools.list");
}

}  // namespace loaf_client
