#pragma once
// The sample server's canned world: the models it offers, its saved chat history, skills
// and tools. Fixed data, so a client can check what it gets.
#include <string>
#include <vector>

#include "loaf_v1/types.hpp"

namespace loaf_server {

const std::vector<loaf::v1::ModelOption>& model_catalog();
const loaf::v1::ModelOption* find_model(const std::string& id, const loaf::v1::AuthProvider& p);
std::vector<loaf::v1::ChatSessionRecord>& saved_history();  // newest first
loaf::v1::SkillsListResult skills();
loaf::v1::ToolsListResult tools();

}  // namespace loaf_server
