#include "session.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "example_values.hpp"
#include "shown.hpp"

namespace mcp_client {
namespace {

constexpr int kMaxPages = 100;

// One content block in a few words: its type and what it holds.
std::string describe_block(const nlohmann::json& block) {
  std::string type = block.value("type", "?");
  if (type == "text") return "text " + json_text(block.value("text", ""), 100);
  if (type == "image" || type == "audio") {
    return type + " (" + block.value("mimeType", "?") + ", " +
           std::to_string(block.value("data", "").size()) + " base64 chars)";
  }
  if (type == "resource_link") return "resource_link " + block.value("uri", "?");
  if (type == "resource" && block.contains("resource")) {
    return "resource " + block["resource"].value("uri", "?");
  }
  return type;
}

std::string describe_contents(const nlohmann::json& contents) {
  std::string out;
  for (const auto& c : contents) {
    out += out.empty() ? "" : "; ";
    if (c.contains("text")) {
      out += "text (" + std::to_string(c.value("text", "").size()) + " chars)";
    } else if (c.contains("blob")) {
      out += "blob (" + std::to_string(c.value("blob", "").size()) + " base64 chars)";
    } else {
      out += json_text(c, 60);
    }
  }
  return out;
}

}  // namespace

void Session::failed(const std::string& what, const rpckit::CallError& error) {
  const std::string detail = error.describe();
  if (error.kind == rpckit::CallError::Kind::kTimeout) gave_up_ = true;
  // A result the typed client could not decode: the server answered outside the schema.
  if (error.kind == rpckit::CallError::Kind::kInvalidResult) {
    outcome_.violation(what + ": " + error.error.message());
  }
  transcript_.host(what + " failed: " + detail);
}

template <class Params, class Page, class Item>
std::vector<Item> Session::list(const std::string& method, Fetch<Params, Page> fetch,
                                std::vector<Item> Page::*items) {
  std::vector<Item> all;
  std::optional<std::string> cursor;
  std::set<std::string> seen;
  int pages = 0;
  for (; pages < kMaxPages; ++pages) {
    Params params;
    params.cursor = cursor;
    rpckit::Result<Page> page = (server_.client().*fetch)(params, options_.timeout);
    if (!page.ok()) {
      failed(method, page.error());
      break;
    }
    std::vector<Item>& got = page.value().*items;
    all.insert(all.end(), std::make_move_iterator(got.begin()), std::make_move_iterator(got.end()));
    if (!page->nextCursor) break;
    if (!seen.insert(*page->nextCursor).second) {
      outcome_.violation(method + ": the cursor " + json_text(*page->nextCursor) +
                         " came back a second time");
      break;
    }
    cursor = page->nextCursor;
  }
  transcript_.host(method + ": " + std::to_string(all.size()) + " in " + std::to_string(pages + 1) +
                   " page(s)");
  return all;
}

void Session::run() {
  if (auto hello = server_.handshake_result()) hello_ = *hello;
  const mcp::ServerCapabilities& caps = hello_.capabilities;
  if (caps.logging) {
    mcp::LoggingSetLevelParams level;
    level.level = mcp::LoggingLevel::kInfo;
    auto set = server_.client().logging_setLevel(level, options_.timeout);
    if (!set.ok()) failed("logging/setLevel info", set.error());
  }
  if (caps.tools) tools();
  if (caps.prompts) prompts();
  if (caps.resources) resources();
  auto pong = server_.client().ping({}, options_.timeout);
  if (pong.ok()) {
    transcript_.host("ping answered");
  } else {
    failed("ping", pong.error());
  }
}

void Session::tools() {
  std::vector<mcp::Tool> tools =
      list("tools/list", &mcp::ServerClient::tools_list, &mcp::ToolsListResult::tools);
  for (const mcp::Tool& tool : tools) {
    transcript_.host("  tool " + tool.name +
                     (tool.description ? ": " + json_text(*tool.description, 80) : ""));
  }
  if (!options_.calls.empty()) {
    for (const auto& call : options_.calls) {
      const std::string& name = call.first;
      auto it = std::find_if(tools.begin(), tools.end(),
                             [&name](const mcp::Tool& t) { return t.name == name; });
      mcp::Tool unlisted;  // called all the same: the server answers what it does not have
      unlisted.name = name;
      const mcp::Tool& tool = it != tools.end() ? *it : unlisted;
      call_tool(tool, call.second ? *call.second : example_value(nlohmann::json(tool.inputSchema)));
    }
    return;
  }
  for (const mcp::Tool& tool : tools) {
    if (options_.skip.contains(tool.name)) {
      transcript_.host("tools/call " + tool.name + ": skipped (--skip)");
      continue;
    }
    auto given = options_.tool_arguments.find(tool.name);
    call_tool(tool, given != options_.tool_arguments.end()
                        ? given->second
                        : example_value(nlohmann::json(tool.inputSchema)));
  }
}

void Session::call_tool(const mcp::Tool& tool, const nlohmann::json& arguments) {
  const std::string what = "tools/call " + tool.name + " " + json_text(arguments, 100);
  mcp::ToolsCallParams params;
  params.name = tool.name;
  if (arguments.is_object()) {
    params.arguments.emplace();
    for (const auto& [key, value] : arguments.items())
      (*params.arguments)[key] = rpckit::JsonValue(value);
  }
  // Asks for progress: the server may report it on this call (the runtime adds the token).
  rpckit::CallOptions call_options(options_.timeout);
  call_options.on_progress(rpckit::progress_as<mcp::messages::NotificationsProgress>(
      [this, name = "tools/call " + tool.name](const mcp::NotificationsProgressParams& p) {
        handler_.progress(name, p);
      }));
  if (options_.max_total) call_options.reset_on_progress(*options_.max_total);
  rpckit::FutureResult<mcp::ToolsCallResult> call =
      server_.client().tools_call_future(params, std::move(call_options));
  if (options_.cancel_after && !call.wait_for(*options_.cancel_after) &&
      call.cancel("stopped by the user after " + std::to_string(options_.cancel_after->count()) +
                  " ms")) {
    gave_up_ = true;  // its answer may cross the cancel: no violation
  }
  auto result = call.get();
  if (!result.ok()) {
    failed(what, result.error());
    return;
  }
  const nlohmann::json content = nlohmann::json(result->content);
  std::string text;
  for (const auto& block : content) text += (text.empty() ? "" : " | ") + describe_block(block);
  transcript_.host(what + " -> " + (result->isError_or_default() ? "tool error: " : "") +
                   (text.empty() ? "(no content)" : text));
  if (result->structuredContent) {
    transcript_.host("  structured: " + json_text(nlohmann::json(*result->structuredContent)));
  } else if (tool.outputSchema && !result->isError_or_default()) {
    // tools spec: a tool with an output schema MUST return structured results.
    outcome_.violation(what + ": no structuredContent, though the tool declares an outputSchema");
  }
}

void Session::prompts() {
  std::vector<mcp::Prompt> prompts =
      list("prompts/list", &mcp::ServerClient::prompts_list, &mcp::PromptsListResult::prompts);
  for (const mcp::Prompt& prompt : prompts) {
    mcp::PromptsGetParams params;
    params.name = prompt.name;
    if (auto given = options_.prompt_arguments.find(prompt.name);
        given != options_.prompt_arguments.end() && given->second.is_object()) {
      params.arguments.emplace();
      for (const auto& [key, value] : given->second.items()) {
        (*params.arguments)[key] = value.is_string() ? value.get<std::string>() : value.dump();
      }
    } else if (prompt.arguments) {
      // Required arguments only, each "1": a text most arguments take.
      for (const mcp::PromptArgument& a : *prompt.arguments) {
        if (!a.required.value_or(false)) continue;
        if (!params.arguments) params.arguments.emplace();
        (*params.arguments)[a.name] = "1";
      }
    }
    const std::string what =
        "prompts/get " + prompt.name +
        (params.arguments ? " " + json_text(nlohmann::json(*params.arguments), 80) : "");
    auto got = server_.client().prompts_get(params, options_.timeout);
    if (!got.ok()) {
      failed(what, got.error());
      continue;
    }
    std::string roles;
    for (const auto& m : nlohmann::json(got->messages)) {
      roles += (roles.empty() ? "" : ", ") + m.value("role", "?") + " " +
               describe_block(m.value("content", nlohmann::json::object()));
    }
    transcript_.host(what + " -> " + std::to_string(got->messages.size()) +
                     " message(s): " + roles);
  }
  if (hello_.capabilities.completions) complete(prompts);
}

void Session::complete(const std::vector<mcp::Prompt>& prompts) {
  for (const mcp::Prompt& prompt : prompts) {
    if (!prompt.arguments || prompt.arguments->empty()) continue;
    const std::string argument = prompt.arguments->front().name;
    nlohmann::json params = {{"ref", {{"type", "ref/prompt"}, {"name", prompt.name}}},
                             {"argument", {{"name", argument}, {"value", ""}}}};
    const std::string what = "completion/complete " + prompt.name + "." + argument;
    auto done = server_.client().completion_complete(params.get<mcp::CompletionCompleteParams>(),
                                                     options_.timeout);
    if (!done.ok()) {
      failed(what, done.error());
      continue;
    }
    transcript_.host(what + " -> " + json_text(nlohmann::json(done->completion)));
  }
}

void Session::resources() {
  std::vector<mcp::Resource> resources = list("resources/list", &mcp::ServerClient::resources_list,
                                              &mcp::ResourcesListResult::resources);
  std::size_t reads = 0;
  for (const mcp::Resource& r : resources) {
    if (reads++ == options_.max_reads) {
      transcript_.host("resources/read: the first " + std::to_string(options_.max_reads) +
                       " read (--max-reads)");
      break;
    }
    mcp::ResourcesReadParams params;
    params.uri = r.uri;
    auto read = server_.client().resources_read(params, options_.timeout);
    if (!read.ok()) {
      failed("resources/read " + r.uri, read.error());
      continue;
    }
    transcript_.host("resources/read " + r.uri + " -> " +
                     describe_contents(nlohmann::json(read->contents)));
  }
  std::vector<mcp::ResourceTemplate> templates =
      list("resources/templates/list", &mcp::ServerClient::resources_templates_list,
           &mcp::ResourcesTemplatesListResult::resourceTemplates);
  for (const mcp::ResourceTemplate& t : templates) transcript_.host("  template " + t.uriTemplate);
  const auto& caps = hello_.capabilities.resources;
  if (caps && caps->subscribe.value_or(false) && !resources.empty()) {
    mcp::ResourcesSubscribeParams sub;
    sub.uri = resources.front().uri;
    auto subscribed = server_.client().resources_subscribe(sub, options_.timeout);
    if (!subscribed.ok()) {
      failed("resources/subscribe " + sub.uri, subscribed.error());
      return;
    }
    mcp::ResourcesUnsubscribeParams unsub;
    unsub.uri = sub.uri;
    auto unsubscribed = server_.client().resources_unsubscribe(unsub, options_.timeout);
    if (!unsubscribed.ok()) {
      failed("resources/unsubscribe " + sub.uri, unsubscribed.error());
      return;
    }
    transcript_.host("resources/subscribe and resources/unsubscribe " + sub.uri + ": answered");
  }
}

}  // namespace mcp_client
