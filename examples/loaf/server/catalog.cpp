#include "catalog.hpp"

#include <nlohmann/json.hpp>

namespace loaf_server {

namespace v1 = loaf::v1;
using L = v1::ThinkingLevel;

const std::vector<v1::ModelOption>& model_catalog() {
  static const std::vector<v1::ModelOption> models = [] {
    std::vector<v1::ModelOption> m(3);
    m[0].id = "gpt-5.1-codex";
    m[0].provider = v1::AuthProvider::kOpenai;
    m[0].label = "GPT-5.1 Codex";
    m[0].description = "OpenAI coding model";
    m[0].supportedThinkingLevels = std::vector<L>{L::kLow, L::kMedium, L::kHigh};
    m[0].defaultThinkingLevel = L::kMedium;
    m[0].contextWindowTokens = 272000;
    m[1].id = "anthropic/claude-sonnet-4";
    m[1].provider = v1::AuthProvider::kOpenrouter;
    m[1].displayProvider = "Anthropic";
    m[1].label = "Claude Sonnet 4";
    m[1].description = "via OpenRouter";
    m[1].supportedThinkingLevels = std::vector<L>{L::kOff, L::kLow, L::kMedium, L::kHigh};
    m[1].defaultThinkingLevel = L::kOff;
    m[1].routingProviders = std::vector<std::string>{"anthropic", "google-vertex"};
    m[1].contextWindowTokens = 200000;
    m[2].id = "gemini-3-pro";
    m[2].provider = v1::AuthProvider::kAntigravity;
    m[2].label = "Gemini 3 Pro";
    m[2].description = "via Antigravity";
    m[2].supportedThinkingLevels = std::vector<L>{L::kLow, L::kHigh};
    m[2].defaultThinkingLevel = L::kHigh;
    m[2].contextWindowTokens = 1000000;
    return m;
  }();
  return models;
}

const v1::ModelOption* find_model(const std::string& id, const v1::AuthProvider& p) {
  for (const auto& m : model_catalog()) {
    if (m.id == id && m.provider == p) return &m;
  }
  return nullptr;
}

std::vector<v1::ChatSessionRecord>& saved_history() {
  static std::vector<v1::ChatSessionRecord> records = [] {
    std::vector<v1::ChatSessionRecord> r;
    const char* titles[] = {"Fix the flaky test", "Explain the build", "Rename a module"};
    for (int i = 0; i < 3; ++i) {
      v1::ChatSessionRecord rec;
      rec.id = "9b1d6f1e-0000-4000-8000-00000000000" + std::to_string(3 - i);
      rec.title = titles[i];
      rec.provider = v1::AuthProvider::kOpenai;
      rec.model = "gpt-5.1-codex";
      rec.thinkingLevel = L::kMedium;
      rec.createdAt = "2025-06-0" + std::to_string(3 - i) + "T10:00:00.000Z";
      rec.updatedAt = "2025-06-0" + std::to_string(3 - i) + "T10:05:00.000Z";
      rec.rolloutPath = "/home/user/.loaf/sessions/" + rec.id + ".jsonl";
      v1::ChatMessage q{v1::ChatRole::kUser, std::string(titles[i]) + "?", std::nullopt};
      v1::ChatMessage a{v1::ChatRole::kAssistant, "Done.", std::nullopt};
      rec.messages = {q, a};
      rec.messageCount = 2;
      r.push_back(rec);
    }
    return r;
  }();
  return records;
}

v1::SkillsListResult skills() {
  v1::SkillsListResult r;
  r.directories = {"/home/user/.loaf/skills"};
  r.skills = {{"commit-message", "Writes a conventional commit message from the staged diff.",
               "Writes a conventional commit message...",
               "/home/user/.loaf/skills/commit-message/SKILL.md"}};
  return r;
}

v1::ToolsListResult tools() {
  v1::ToolsListResult r;
  v1::ToolInfo read;
  read.name = "read_file";
  read.description = "Reads a file of the workspace.";
  read.input_schema = std::map<std::string, rpckit::JsonValue>{
      {"type", rpckit::JsonValue(nlohmann::json("object"))},
      {"properties", rpckit::JsonValue(nlohmann::json{{"path", {{"type", "string"}}}})}};
  v1::ToolInfo search;
  search.name = "web_search";
  search.description = "Searches the web (needs an Exa key).";
  r.tools = {read, search};
  return r;
}

}  // namespace loaf_server
