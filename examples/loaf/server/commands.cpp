// LoafServer: command.execute, the slash commands of spec section 4.1.
#include <algorithm>
#include <cctype>

#include "catalog.hpp"
#include "loaf_server.hpp"

namespace loaf_server {

namespace {

template <class T>
nlohmann::json json_of(const T& value) {
  nlohmann::json j;
  to_json(j, value);
  return j;
}

}  // namespace

v1::CommandExecuteResult LoafServer::command_execute(Peer& peer,
                                                     const v1::CommandExecuteParams& p) {
  FakeSession& s = session(p.session_id);
  std::string raw = p.raw_command;
  raw.erase(0, raw.find_first_not_of(" \t"));
  if (raw.empty() || raw[0] != '/') return {false, std::nullopt};
  auto space = raw.find_first_of(" \t");
  std::string command = raw.substr(0, space);
  std::transform(command.begin(), command.end(), command.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string arg = space == std::string::npos ? "" : raw.substr(space + 1);
  arg.erase(0, arg.find_first_not_of(" \t"));
  arg.erase(arg.find_last_not_of(" \t") + 1);
  v1::CommandExecuteResult r;
  r.handled = true;
  if (command == "/limits") {
    r.output = json_of(limits_get(peer, {}));
  } else if (command == "/history" && (arg.empty() || arg == "list" || arg == "all")) {
    r.output = json_of(history_list(peer, {}));
  } else {
    r.output = run_command(s, command, arg);
  }
  return r;
}

nlohmann::json LoafServer::run_command(FakeSession& s, const std::string& command,
                                       const std::string& arg) {
  if (command == "/auth") {
    std::lock_guard lock(mutex_);
    return json_of(v1::AuthCommandOutput{auth(), "use auth.connect.* or auth.set.* to sign in"});
  }
  if (command == "/onboarding") {
    std::lock_guard lock(mutex_);
    return {{"completed", onboarded_}};
  }
  if (command == "/forgeteverything") {
    {
      std::lock_guard lock(mutex_);
      openai_ = openrouter_ = exa_ = exa_skipped_ = onboarded_ = false;
      antigravity_.reset();
    }
    changed("forgeteverything");
    return json_of(v1::ClearedCommandOutput{});
  }
  if (command == "/model") {
    std::lock_guard lock(mutex_);
    v1::ModelCommandOutput out;
    out.available = models(std::nullopt);
    out.selected_model = model_;
    if (provider_) out.selected_provider = *provider_;
    out.selected_thinking = thinking_;
    out.selected_openrouter_provider = openrouter_provider_;
    return json_of(out);
  }
  if (command == "/history") {  // last or <id>: resumes a saved session
    const auto& all = saved_history();
    auto it = std::find_if(all.begin(), all.end(), [&](const auto& rec) {
      return arg == "last" ? &rec == &all.front() : rec.id == arg;
    });
    if (it == all.end()) return json_of(v1::UnknownCommandOutput{"no saved session: " + arg});
    changed("session_resumed", s.id());
    return json_of(v1::ResumedCommandOutput{it->id});
  }
  if (command == "/clear") {
    s.clear_history();
    return json_of(v1::ClearedCommandOutput{});
  }
  if (command == "/compress") return json_of(compact(s, v1::CompactionReason::kManual));
  if (command == "/skills") return json_of(skills());
  if (command == "/tools") return json_of(tools());
  if (command == "/help") {
    v1::HelpCommandOutput help;
    for (const char* name : {"/auth", "/onboarding", "/forgeteverything", "/model", "/limits",
                             "/history", "/clear", "/compress", "/skills", "/tools", "/help",
                             "/quit", "/exit"}) {
      help.commands.push_back({name, std::string("runs ") + name});
    }
    return json_of(help);
  }
  if (command == "/quit" || command == "/exit") {
    // Shuts the runtime down; unlike system.shutdown, input processing goes on.
    abort_turns();
    changed("quit_command");
    return json_of(v1::QuitCommandOutput{});
  }
  return json_of(v1::UnknownCommandOutput{"unknown command: " + command});
}

}  // namespace loaf_server
