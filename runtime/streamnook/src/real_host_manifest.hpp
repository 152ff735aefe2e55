#pragma once
// What the spec allows in a manifest but the real StreamNook host refuses or ignores, as
// warnings (private to the manifest loader). The facts, with where they were read, are in
// schema/README.md ("The real StreamNook host"); these checks are written from that table.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "rpckit/streamnook/manifest.hpp"

namespace rpckit::streamnook::manifest_detail {

// Warnings about the values of the manifest's JSON form (in schema order; no positions).
std::vector<ManifestIssue> real_host_warnings(const nlohmann::json& manifest);

// Warnings about files the manifest names that `dir` does not hold (runtime.entry and
// runtime.ui_entry): the real host refuses to install such a plugin. Only for relative paths
// that stay inside `dir`; the others are issues or warnings already.
std::vector<ManifestIssue> real_host_file_warnings(const nlohmann::json& manifest,
                                                   const std::filesystem::path& dir);

}  // namespace rpckit::streamnook::manifest_detail
