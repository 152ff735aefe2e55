// Helpers of the manifest tests: the fixture file, a base manifest to mutate, temp plugin
// directories holding real plugin.toml files, and issue lookups.
#pragma once

#include <gtest/gtest.h>

#include <stdlib.h>  // mkdtemp

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/streamnook/manifest.hpp"

namespace manifest_test {

using nlohmann::json;
namespace rs = rpckit::streamnook;
namespace sn = ::streamnook::v1;

inline std::filesystem::path source_dir() {
  if (const char* env = std::getenv("RPCKIT_SOURCE_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return RPCKIT_TEST_SOURCE_DIR;
}

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline const json& fixtures() {
  static const json doc =
      json::parse(read_text(source_dir() / "tests" / "fixtures" / "examples" / "manifest.json"));
  return doc;
}

// The first valid fixture: every field present (the invalid fixtures are mutations of it).
inline json full_manifest() { return fixtures().at("valid").at(0); }

// A minimal valid manifest.
inline json minimal_manifest() {
  return json{{"id", "dev.example.hello"},   {"name", "Hello"},
              {"version", "1.0.0"},          {"author", "me"},
              {"tier", "C"},                 {"description", ""},
              {"host_min", "7.0.0"},         {"runtime", {{"kind", "process"}, {"entry", "hello"}}}};
}

inline std::vector<std::string> strs(const std::vector<rs::ManifestIssue>& issues) {
  std::vector<std::string> out;
  for (const auto& issue : issues) out.push_back(issue.str());
  return out;
}

inline std::vector<std::string> fields(const std::vector<rs::ManifestIssue>& issues) {
  std::vector<std::string> out;
  for (const auto& issue : issues) out.push_back(issue.field);
  return out;
}

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rpckit-manifest-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Writes <dir>/<name> (a real file) and returns the directory.
  const std::filesystem::path& write(const std::string& name, std::string_view text) const {
    std::ofstream out(path_ / name, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write " + (path_ / name).string());
    return path_;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace manifest_test
