// The static version check (rpckit/descriptors/runtime_version.hpp): generated code compiled
// against a runtime of another major.minor is a compile error that names both versions. The
// compiler of this build is run on the real streamnook_v1/types.hpp, as generated and as a
// generator one minor release ahead would have written it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "rpckit/version.hpp"
#include "run_command.hpp"
#include "support.hpp"

namespace bindings_test {
namespace version_check_test {

namespace fs = std::filesystem;
using test_support::Outcome;
using test_support::sh;

std::string generator_version(int major, int minor) {
  return "GeneratorVersion<" + std::to_string(major) + ", " + std::to_string(minor) + ">";
}

// `-I` for every include directory of rpckit::streamnook_v1 (written by CMake, one a line).
std::string include_flags() {
  std::ifstream in(RPCKIT_VERSION_CHECK_INCLUDES);
  std::string flags;
  for (std::string dir; std::getline(in, dir);) {
    if (!dir.empty()) flags += " -I" + sh(dir);
  }
  return flags;
}

// Compiles (syntax only) a translation unit that includes streamnook_v1/types.hpp, looked up
// first in `first` when given.
Outcome compile_types_header(const fs::path& work, const fs::path& first = {}) {
  fs::path tu = work / "includes_types.cpp";
  std::ofstream(tu) << "#include \"streamnook_v1/types.hpp\"\n";
  std::string command = sh(RPCKIT_CXX_COMPILER) + " -std=c++20 -fsyntax-only";
  if (!first.empty()) command += " -I" + sh(first.string());
  return test_support::run(command + include_flags() + " " + sh(tu.string()));
}

class VersionCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    work_ = fs::path(test_support::temp_path("version_check"));
    fs::create_directories(work_ / "ahead" / "streamnook_v1");
  }
  void TearDown() override { fs::remove_all(work_); }

  fs::path work_;
};

TEST_F(VersionCheck, GeneratedCodeCompilesWithTheRuntimeItWasGeneratedFor) {
  Outcome r = compile_types_header(work_);
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST_F(VersionCheck, AnotherMinorIsACompileErrorNamingBothVersions) {
  std::ifstream in(source_dir() / "generated" / "streamnook_v1" / "types.hpp");
  std::stringstream text;
  text << in.rdbuf();
  std::string header = text.str();
  const std::string ours = generator_version(RPCKIT_VERSION_MAJOR, RPCKIT_VERSION_MINOR);
  const std::string ahead = generator_version(RPCKIT_VERSION_MAJOR, RPCKIT_VERSION_MINOR + 1);
  std::size_t at = header.find(ours);
  ASSERT_NE(at, std::string::npos) << "types.hpp does not state the version it was generated for";
  header.replace(at, ours.size(), ahead);
  std::ofstream(work_ / "ahead" / "streamnook_v1" / "types.hpp") << header;

  Outcome r = compile_types_header(work_, work_ / "ahead");
  EXPECT_NE(r.status, 0);
  const std::string runtime = "RuntimeVersion<" + std::to_string(RPCKIT_VERSION_MAJOR) + ", " +
                              std::to_string(RPCKIT_VERSION_MINOR) + ">";
  EXPECT_NE(r.err.find(ahead), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(runtime), std::string::npos) << r.err;
}

}  // namespace version_check_test
}  // namespace bindings_test
