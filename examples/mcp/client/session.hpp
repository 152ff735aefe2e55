#pragma once
// The sample client's session with a running server, in the order a host would go: the log
// level, then every list (followed page by page), a call of each tool, a get of each prompt, a
// read of each resource (up to a bound), a subscription and a completion where the server
// offers them, and a ping. Each exchange is told in the transcript in a line or two; what the
// server got wrong is recorded in the outcome (a result that breaks the schema, a cursor that
// comes back, structured content missing where the tool declared an output schema).
#include <atomic>
#include <chrono>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "client_handler.hpp"
#include "rpckit/roles/spawned_plugin.hpp"

namespace mcp_client {

using Server = rpckit::roles::SpawnedPlugin<mcp::Protocol>;

struct SessionOptions {
  // Tools to call, in order, with their arguments (none given: made from the input schema);
  // empty: every tool the server lists.
  std::vector<std::pair<std::string, std::optional<nlohmann::json>>> calls;
  std::map<std::string, nlohmann::json> tool_arguments;    // --args NAME=JSON
  std::map<std::string, nlohmann::json> prompt_arguments;  // --prompt-args NAME=JSON
  std::set<std::string> skip;                              // tools not called
  std::chrono::milliseconds timeout{30000};                // each request
  // A tool call's progress reports each restart its deadline, up to this long in all.
  std::optional<std::chrono::milliseconds> max_total;
  // A tool call still unanswered after this long is cancelled, as a user's Stop would.
  std::optional<std::chrono::milliseconds> cancel_after;
  std::size_t max_reads = 20;                              // resources read
};

class Session {
 public:
  Session(Server& server, ClientHandler& handler, SessionOptions options,
          rpckit_examples::Transcript& transcript, rpckit::roles::SessionOutcome& outcome)
      : server_(server),
        handler_(handler),
        options_(std::move(options)),
        transcript_(transcript),
        outcome_(outcome) {}

  void run();
  // Whether a call of ours went unanswered: a late answer to it is then no violation.
  bool gave_up_on_a_call() const { return gave_up_.load(); }

 private:
  void tools();
  void call_tool(const mcp::Tool& tool, const nlohmann::json& arguments);
  void prompts();
  void resources();
  void complete(const std::vector<mcp::Prompt>& prompts);
  // Every item of a paginated list, page by page (bounded; a cursor that comes back stops it).
  // The generated client's call that asks for one page.
  template <class Params, class Page>
  using Fetch = rpckit::Result<Page> (mcp::ServerClient::*)(const Params&,
                                                            rpckit::CallOptions) const;
  template <class Params, class Page, class Item>
  std::vector<Item> list(const std::string& method, Fetch<Params, Page> fetch,
                         std::vector<Item> Page::*items);
  // A call that failed: a violation when the server's result broke the schema, a note else.
  void failed(const std::string& what, const rpckit::CallError& error);

  Server& server_;
  ClientHandler& handler_;  // tells the progress of our tool calls
  SessionOptions options_;
  rpckit_examples::Transcript& transcript_;
  rpckit::roles::SessionOutcome& outcome_;
  mcp::InitializeResult hello_;
  std::atomic<bool> gave_up_{false};  // read by the connection's diagnostic observer
};

}  // namespace mcp_client
