#include "rpckit/mcp/tool_set.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "rpckit/endpoint/rpc_error.hpp"

namespace rpckit::mcp {

bool ToolSet::add(m::Tool tool, Call call) {
  bool added = false;
  {
    std::lock_guard lock(mutex_);
    auto it = tools_.find(tool.name);
    if (it == tools_.end()) {
      std::string name = tool.name;
      tools_.emplace(std::move(name), Entry{next_order_++, std::move(tool),
                                            std::make_shared<Call>(std::move(call))});
      added = true;
    } else {
      it->second.tool = std::move(tool);
      it->second.call = std::make_shared<Call>(std::move(call));
    }
  }
  changed();
  return added;
}

bool ToolSet::remove(std::string_view name) {
  {
    std::lock_guard lock(mutex_);
    auto it = tools_.find(name);
    if (it == tools_.end()) return false;
    tools_.erase(it);
  }
  changed();
  return true;
}

bool ToolSet::contains(std::string_view name) const {
  std::lock_guard lock(mutex_);
  return tools_.find(name) != tools_.end();
}

std::size_t ToolSet::size() const {
  std::lock_guard lock(mutex_);
  return tools_.size();
}

void ToolSet::set_page_size(std::size_t page_size) {
  std::lock_guard lock(mutex_);
  page_size_ = page_size;
}

void ToolSet::on_change(std::function<void()> changed) {
  std::lock_guard lock(mutex_);
  on_change_ = std::move(changed);
}

void ToolSet::changed() const {
  std::function<void()> observer;
  {
    std::lock_guard lock(mutex_);
    observer = on_change_;
  }
  if (observer) observer();
}

m::ToolsListResult ToolSet::list(const m::ToolsListParams& params) const {
  std::lock_guard lock(mutex_);
  // A cursor is the order of the last tool of the page before: the next page is what came
  // after it, whatever was removed meanwhile.
  std::uint64_t after = 0;
  if (params.cursor) {
    const std::string& cursor = *params.cursor;
    auto [end, error] = std::from_chars(cursor.data(), cursor.data() + cursor.size(), after);
    if (error != std::errc() || end != cursor.data() + cursor.size() || after == 0 ||
        after >= next_order_) {
      throw RpcError(jsonrpc_code::kInvalidParams, "Invalid cursor: " + cursor);
    }
  }
  std::vector<const Entry*> listed;
  for (const auto& [name, entry] : tools_) {
    if (entry.order > after) listed.push_back(&entry);
  }
  std::sort(listed.begin(), listed.end(),
            [](const Entry* a, const Entry* b) { return a->order < b->order; });
  m::ToolsListResult r;
  const std::size_t count = page_size_ == 0 ? listed.size() : std::min(page_size_, listed.size());
  for (std::size_t i = 0; i < count; ++i) r.tools.push_back(listed[i]->tool);
  if (count < listed.size()) r.nextCursor = std::to_string(listed[count - 1]->order);
  return r;
}

m::ToolsCallResult ToolSet::call(const m::ToolsCallParams& params) const {
  std::shared_ptr<Call> call;
  {
    std::lock_guard lock(mutex_);
    auto it = tools_.find(params.name);
    // tools spec, "Error Handling": an unknown tool is a protocol error, -32602.
    if (it == tools_.end()) {
      throw RpcError(jsonrpc_code::kInvalidParams, "Unknown tool: " + params.name);
    }
    call = it->second.call;
  }
  try {
    return (*call)(params);
  } catch (const RpcError&) {
    throw;
  } catch (const std::exception& e) {
    return tool_error(params.name + " failed: " + e.what());
  }
}

nlohmann::json ToolSet::arguments_of(const m::ToolsCallParams& params) {
  nlohmann::json arguments = nlohmann::json::object();
  if (params.arguments) {
    for (const auto& [key, value] : *params.arguments) arguments[key] = value.get();
  }
  return arguments;
}

}  // namespace rpckit::mcp
