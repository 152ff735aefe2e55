#pragma once
// The sample plugin's tools: small, real transformations of text.
//   text.transform {text, ops: ["upper"|"lower"|"reverse"|"trim"|"squeeze"]} -> {text}
//   text.stats     {text}                                                   -> {chars, words, lines}
// Characters are Unicode code points of the UTF-8 text; case mapping is ASCII only.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace core_line_sample {

inline const std::vector<std::string> kToolNames = {"text.transform", "text.stats"};

// A tool's answer: output when it ran, else a plugin error (spec section 3.2).
struct ToolResult {
  std::optional<nlohmann::json> output;
  std::string error_code;  // "invalid_input" or "not_found"
  std::string error_message;
};

ToolResult run_tool(const std::string& tool_name, const nlohmann::json& input);

}  // namespace core_line_sample
