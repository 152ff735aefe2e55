#include "support.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "lower/lower.hpp"
#include "model.hpp"

namespace rpckit::gen::test {

fs::path source_dir() {
  if (const char* env = std::getenv("RPCKIT_SOURCE_DIR"); env != nullptr && *env != '\0') {
    return fs::path(env);
  }
  return fs::path(RPCKIT_DEFAULT_SOURCE_DIR);
}

fs::path fixtures_dir() { return source_dir() / "tests" / "generator" / "fixtures"; }

std::vector<std::string> fixture_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fixtures_dir(), ec)) {
    if (fs::exists(entry.path() / "schema" / "protocol.json")) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string rpckit_exe() { return RPCKIT_GEN_EXE; }

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void write_file(const fs::path& path, std::string_view content) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

std::vector<std::string> list_files(const fs::path& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file()) {
      files.push_back(entry.path().lexically_relative(dir).generic_string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

void copy_tree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

ir::Module lower_file(const fs::path& protocol_file) {
  return lower(SchemaSet::load(protocol_file));
}

Generated generate(const fs::path& protocol_file) {
  Generated g;
  g.module = lower_file(protocol_file);
  g.files = emit_all(g.module);
  return g;
}

// ---- goldens ----------------------------------------------------------------------------

bool update_goldens() {
  const char* env = std::getenv("RPCKIT_UPDATE_GOLDENS");
  return env != nullptr && std::string_view(env) == "1";
}

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    auto nl = text.find('\n');
    if (nl == std::string_view::npos) {
      lines.push_back(text);
      break;
    }
    lines.push_back(text.substr(0, nl + 1));  // keeps '\n' so a missing final newline shows
    text.remove_prefix(nl + 1);
  }
  return lines;
}

std::string show(std::string_view line) {
  std::string out;
  for (char c : line) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string first_difference(std::string_view expected, std::string_view actual) {
  if (expected == actual) return "";
  auto e = split_lines(expected);
  auto a = split_lines(actual);
  std::size_t i = 0;
  while (i < e.size() && i < a.size() && e[i] == a[i]) ++i;
  std::string out = "line " + std::to_string(i + 1) + ":\n";
  out += "  expected: " + (i < e.size() ? show(e[i]) : std::string("<end of file>")) + "\n";
  out += "  actual:   " + (i < a.size() ? show(a[i]) : std::string("<end of file>")) + "\n";
  return out;
}

::testing::AssertionResult matches_golden(const fs::path& expected, const std::string& actual) {
  std::string name = expected.lexically_relative(source_dir()).generic_string();
  if (name.empty() || name.rfind("..", 0) == 0) name = expected.generic_string();
  bool exists = fs::exists(expected);
  std::string current = exists ? read_file(expected) : std::string();
  if (update_goldens()) {
    if (!exists || current != actual) {
      write_file(expected, actual);
      std::cout << "[ refresh  ] rewrote " << name << "\n";
    }
    return ::testing::AssertionSuccess();
  }
  if (!exists) {
    return ::testing::AssertionFailure()
           << name << " is missing.\nRefresh the goldens with: " << kRefreshCommand;
  }
  if (current == actual) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << name << " differs from the generated output at " << first_difference(current, actual)
         << "If the change is intended, refresh the goldens with: " << kRefreshCommand;
}

// ---- temp dirs and processes ------------------------------------------------------------

TempDir::TempDir(std::string_view tag) {
  static std::atomic<int> counter{0};
  path_ = fs::temp_directory_path() / ("rpckit-test-" + std::to_string(::getpid()) + "-" +
                                       std::to_string(counter++) + "-" + std::string(tag));
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

RunResult run(const std::vector<std::string>& argv, const fs::path& cwd) {
  TempDir capture("capture");
  fs::path out_file = capture.path() / "stdout";
  fs::path err_file = capture.path() / "stderr";
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    int out = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(126);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) throw std::runtime_error("waitpid failed");
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = fs::exists(out_file) ? read_file(out_file) : "";
  r.err = fs::exists(err_file) ? read_file(err_file) : "";
  return r;
}

}  // namespace rpckit::gen::test
