#pragma once
// Shared helpers of the generator tests: where things are, running the pipeline in-process,
// golden comparison with the refresh switch, temp dirs, and running the rpckit binary.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "emit/emit.hpp"
#include "ir/ir.hpp"

namespace rpckit::gen::test {

namespace fs = std::filesystem;

// The project root: $RPCKIT_SOURCE_DIR (set by ctest), else the path compiled in.
fs::path source_dir();
fs::path fixtures_dir();  // tests/generator/fixtures
// Names of the fixtures (folders with schema/protocol.json), sorted.
std::vector<std::string> fixture_names();
// The rpckit binary (passed from CMake).
std::string rpckit_exe();

std::string read_file(const fs::path& path);
void write_file(const fs::path& path, std::string_view content);
// Every regular file under `dir`, as '/'-separated paths relative to it, sorted.
std::vector<std::string> list_files(const fs::path& dir);
void copy_tree(const fs::path& from, const fs::path& to);

// load -> lower -> emit_all, in-process.
struct Generated {
  ir::Module module;
  std::vector<OutputFile> files;
};
ir::Module lower_file(const fs::path& protocol_file);
Generated generate(const fs::path& protocol_file);

// ---- goldens ----------------------------------------------------------------------------

// RPCKIT_UPDATE_GOLDENS=1: golden checks rewrite the expected files instead of failing.
bool update_goldens();
inline constexpr const char* kRefreshCommand =
    "RPCKIT_UPDATE_GOLDENS=1 ctest --test-dir build/dev -R generator.Golden";
// "line 12:\n  expected: ...\n  actual:   ..." for the first line that differs ("" if equal).
std::string first_difference(std::string_view expected, std::string_view actual);
// Compares `actual` with the file `expected` byte for byte; names the file (relative to the
// source dir), the first differing line and the refresh command. Rewrites it when updating.
::testing::AssertionResult matches_golden(const fs::path& expected, const std::string& actual);

// ---- temp dirs and processes ------------------------------------------------------------

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class TempDir {
 public:
  explicit TempDir(std::string_view tag);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct RunResult {
  int exit_code = -1;  // -1: did not exit normally
  std::string out;
  std::string err;
};
// Runs `argv[0]` with `argv` (no shell) in `cwd` (empty = current), capturing its output.
RunResult run(const std::vector<std::string>& argv, const fs::path& cwd = {});

}  // namespace rpckit::gen::test
