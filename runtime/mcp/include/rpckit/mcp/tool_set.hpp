#pragma once
// rpckit::mcp::ToolSet: the tools an MCP server offers, added, replaced and removed while it
// runs, and the answers to tools/list and tools/call made from them. A tool is a function: of
// the call's params (free JSON arguments), or of a typed argument struct decoded by rpckit's
// codec (a struct generated from the tool's input schema), returning a ToolsCallResult or a
// struct sent as structured content. Every change is reported to on_change(), where a server
// sends notifications/tools/list_changed (tools spec, "List Changed Notification").
//
//   rpckit::mcp::ToolSet tools;
//   tools.add(echo_tool, [](const mcp::ToolsCallParams& p) { ... });
//   tools.add<WordCountArgs>(count_tool, [](const WordCountArgs& a) { return WordCount{...}; });
//
// Thread-safe: tools may be added or removed from any thread, a tool's own run included (it
// runs with no lock held). A tool may run on several threads at once (calls run as tasks each
// have one): its function must allow that.
#include <atomic>
#include <concepts>
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "mcp_2025_11_25/types.hpp"
#include "rpckit/codec/decode_error.hpp"
#include "rpckit/codec/value_codec.hpp"
#include "rpckit/mcp/catalog.hpp"
#include "rpckit/mcp/tool_results.hpp"

namespace rpckit::mcp {

class TaskStore;  // task_store.hpp

// A type generated with x-type-schemas: its JSON Schema, found by ADL.
template <class T>
concept HasJsonSchema = requires(const T* type) {
  { json_schema(type) } -> std::convertible_to<std::string_view>;
};

// A schema's text as the generated struct that holds it (ToolInputSchema, ToolOutputSchema).
template <class Schema>
Schema schema_as(std::string_view text) {
  return nlohmann::json::parse(text).get<Schema>();
}

class ToolSet
    : private Catalog<m::Tool, std::function<m::ToolsCallResult(const m::ToolsCallParams&)>,
                      &m::Tool::name> {
 public:
  // A tool's work, from the call's params to its result. An RpcError it throws is the call's
  // protocol error; any other exception is a tool error naming it.
  using Call = Catalog::Handler;

  // add(tool, call) adds `tool`, or replaces the tool of that name (its place in the list
  // kept), and says whether the name is new; remove(name) says whether there was one.
  using Catalog::add;
  using Catalog::contains;
  using Catalog::remove;
  using Catalog::size;

  // A typed tool's function: fn(args), or fn(args, params) for one that reads more of the call
  // (its _meta: a progress token).
  template <class Args, class Fn>
  struct TypedCall {
    static constexpr bool kWithParams =
        std::is_invocable_v<Fn&, const Args&, const m::ToolsCallParams&>;
    static auto run(Fn& fn, const Args& args, const m::ToolsCallParams& params) {
      if constexpr (kWithParams) {
        return fn(args, params);
      } else {
        return fn(args);
      }
    }
    using Out = decltype(run(std::declval<Fn&>(), std::declval<const Args&>(),
                             std::declval<const m::ToolsCallParams&>()));
  };

  // A typed tool: the arguments decoded into Args (a mismatch is a tool error that says where:
  // "arguments.text: expected a string"), then `fn(args)` (or `fn(args, params)`), which
  // returns a ToolsCallResult as is, or any codec type (a generated struct) sent as structured
  // content. Args and the result
  // generated with x-type-schemas give the tool its inputSchema and outputSchema when `tool`
  // has none (the whole schema: ToolInputSchema keeps every keyword).
  template <class Args, class Fn>
  bool add(m::Tool tool, Fn fn) {
    using Out = typename TypedCall<Args, Fn>::Out;
    if constexpr (HasJsonSchema<Args>) {
      if (tool.inputSchema == m::ToolInputSchema{}) {
        tool.inputSchema =
            schema_as<m::ToolInputSchema>(json_schema(static_cast<const Args*>(nullptr)));
      }
    }
    if constexpr (!std::is_same_v<Out, m::ToolsCallResult> && HasJsonSchema<Out>) {
      if (!tool.outputSchema) {
        tool.outputSchema =
            schema_as<m::ToolOutputSchema>(json_schema(static_cast<const Out*>(nullptr)));
      }
    }
    return add(std::move(tool), [fn = std::move(fn)](const m::ToolsCallParams& p) mutable {
      Args args{};
      try {
        codec::decode_from(arguments_of(p), args, "arguments");
      } catch (const codec::DecodeError& e) {
        return tool_error(std::string("invalid arguments: ") + e.what());
      }
      if constexpr (std::is_same_v<Out, m::ToolsCallResult>) {
        return TypedCall<Args, Fn>::run(fn, args, p);
      } else {
        return structured_result(codec::encode(TypedCall<Args, Fn>::run(fn, args, p)).get());
      }
    });
  }

  // The same, named and described: the rest of the tool (its schemas) comes from the types.
  template <class Args, class Fn>
  bool add(std::string name, std::string description, Fn fn) {
    m::Tool tool;
    tool.name = std::move(name);
    tool.description = std::move(description);
    return add<Args>(std::move(tool), std::move(fn));
  }

  // tools/list: the tools in the order they were first added, at most page_size per page (0,
  // the default: all at once), nextCursor naming where the next page starts. A cursor this set
  // did not give is -32602 (pagination spec); one given before tools were removed still works.
  m::ToolsListResult list(const m::ToolsListParams& params) const;
  // tools/call: the tool's result; a tool this set does not have is -32602 (tools spec). Once
  // declare_tasks(true), one whose execution.taskSupport is "required" is -32601 (tasks spec:
  // it MUST be called as a task).
  m::ToolsCallResult call(const m::ToolsCallParams& params) const;
  // Whether the server declared tasks.requests.tools.call: only then does a tool's
  // execution.taskSupport bind (tasks spec, "Tool-Level Negotiation"). Without it (the
  // default) a call is served plainly whatever the tool says, `task` ignored, as a server that
  // did not declare tasks MUST.
  void declare_tasks(bool declared) { tasks_declared_ = declared; }
  // tools/call whose params carry `task` (messages::ToolsCallWithTask), run as a task of
  // `tasks`: the CreateTaskResult, and later, through tasks/result, the tool's result (isError:
  // the task failed). A tool whose execution.taskSupport is absent or "forbidden" is -32601 (the
  // tasks spec's SHOULD), an unknown tool -32602. The tool runs on the task's thread after this
  // returns, so what it uses must outlive `tasks`.
  m::CreateTaskResult call_as_task(const m::ToolsCallParams& params, TaskStore& tasks) const;

  // set_page_size(n); on_change(fn): run after every add, replace and remove, on the thread that
  // made it, with no lock held.
  using Catalog::on_change;
  using Catalog::set_page_size;

  // The call's arguments as one JSON object ({} when it has none).
  static nlohmann::json arguments_of(const m::ToolsCallParams& params);

 private:
  static m::ToolsCallResult run(const Entry& tool, const m::ToolsCallParams& params);

  std::atomic<bool> tasks_declared_{false};
};

}  // namespace rpckit::mcp
