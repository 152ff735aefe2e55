#include "tool/cli/output.hpp"

#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace rpckit::gen {
namespace {

std::optional<std::string> read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

std::vector<std::string> write_changed(const std::filesystem::path& out_dir,
                                       const std::vector<OutputFile>& files) {
  std::vector<std::string> written;
  for (const OutputFile& f : files) {
    std::filesystem::path path = out_dir / f.path;
    if (read(path) == f.content) continue;
    // A bare file name ("--out x.md") has no folder to make.
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    // Write beside, then rename: a reader never sees half a file.
    std::filesystem::path tmp = path;
    tmp += ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << f.content;
      if (!out.flush()) throw std::runtime_error("cannot write " + tmp.string());
    }
    std::filesystem::rename(tmp, path);
    written.push_back(f.path);
  }
  return written;
}

std::vector<std::string> check_outputs(const std::filesystem::path& out_dir,
                                       const std::vector<OutputFile>& files) {
  std::vector<std::string> problems;
  std::set<std::string> expected;
  std::set<std::filesystem::path> dirs;
  for (const OutputFile& f : files) {
    expected.insert(f.path);
    dirs.insert(std::filesystem::path(f.path).parent_path());
    std::optional<std::string> current = read(out_dir / f.path);
    if (!current) {
      problems.push_back("missing: " + f.path);
    } else if (*current != f.content) {
      problems.push_back("stale: " + f.path);
    }
  }
  // A file the generator no longer makes (a renamed artifact) is drift too.
  for (const auto& dir : dirs) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(out_dir / dir, ec)) {
      std::string rel = (dir / entry.path().filename()).generic_string();
      if (entry.is_regular_file() && expected.count(rel) == 0) {
        problems.push_back("unexpected: " + rel);
      }
    }
  }
  return problems;
}

}  // namespace rpckit::gen
