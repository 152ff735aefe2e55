#pragma once
// The report of `rpckit compat`, three ways: a table for a terminal or CI log, a Markdown
// table for a pull request, and JSON for tools.
#include <string>

#include "tool/compat/compat.hpp"

namespace rpckit::compat {

struct Labels {
  std::string before;  // "streamnook-v1.0:schema (f6bdf56)"
  std::string after;   // "schema"
  std::string version_constant = "protocol_version";
};

// One line per difference (#, verdict, direction, affected side, where, change, why), each
// followed by the schema location and the payloads it travels in, then the verdict.
std::string render_table(const Report& report, const Labels& labels);
std::string render_markdown(const Report& report, const Labels& labels);
std::string render_json(const Report& report, const Labels& labels);

// The closing sentence: counts, the version, and what it means for the exit status.
std::string summary(const Report& report, const Labels& labels);

}  // namespace rpckit::compat
