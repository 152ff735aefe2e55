#pragma once
// Writing generated files: only when they changed (so builds stay incremental), and the
// --check comparison that drift tests and CI rely on.
#include <filesystem>
#include <string>
#include <vector>

#include "emit/emit.hpp"

namespace rpckit::gen {

// Writes each file whose content differs from what is on disk; returns their paths.
std::vector<std::string> write_changed(const std::filesystem::path& out_dir,
                                       const std::vector<OutputFile>& files);

// Files that differ from, are missing from, or are left over in `out_dir`, one line each:
// "stale: streamnook_v1/types.hpp", "missing: ...", "unexpected: ...".
std::vector<std::string> check_outputs(const std::filesystem::path& out_dir,
                                       const std::vector<OutputFile>& files);

}  // namespace rpckit::gen
