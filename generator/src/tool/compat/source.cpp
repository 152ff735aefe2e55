#include "tool/compat/source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <system_error>
#include <vector>

namespace rpckit::compat {
namespace fs = std::filesystem;

namespace {

struct Output {
  int status = -1;  // exit status; -1 if it did not exit normally
  std::string out;
  std::string err;
};

// Runs argv (no shell) in `cwd`; stdout goes to `out_file` when given, else into Output::out.
Output run(const std::vector<std::string>& argv, const fs::path& cwd,
           const fs::path& out_file = {}) {
  int out_pipe[2];
  int err_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) {
    throw SourceError(std::string("cannot run ") + argv[0] + ": pipe failed");
  }
  pid_t pid = fork();
  if (pid < 0) throw SourceError(std::string("cannot run ") + argv[0] + ": fork failed");
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0) _exit(127);
    int out_fd = out_pipe[1];
    if (!out_file.empty()) {
      out_fd = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (out_fd < 0) _exit(127);
    }
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    close(out_pipe[0]);
    close(err_pipe[0]);
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  Output result;
  std::array<pollfd, 2> fds{{{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}}};
  std::array<std::string*, 2> sinks{&result.out, &result.err};
  int open_fds = 2;
  while (open_fds > 0) {
    if (poll(fds.data(), fds.size(), -1) < 0) break;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) result.status = WEXITSTATUS(status);
  return result;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

fs::path make_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "rpckit-compat-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw SourceError("cannot create a temporary directory under " +
                      fs::temp_directory_path().string());
  }
  return pattern;
}

}  // namespace

SchemaSource::SchemaSource(SchemaSource&& other) noexcept
    : protocol_file_(std::move(other.protocol_file_)),
      label_(std::move(other.label_)),
      temp_dir_(std::move(other.temp_dir_)) {
  other.temp_dir_.clear();
}

SchemaSource::~SchemaSource() {
  if (temp_dir_.empty()) return;
  std::error_code ignored;
  fs::remove_all(temp_dir_, ignored);
}

SchemaSource SchemaSource::open(const std::string& argument, const fs::path& cwd) {
  if (argument.empty()) throw SourceError("an empty argument names no schema");
  SchemaSource source;
  // A path on disk wins over a ref of the same name.
  fs::path path = fs::path(argument).is_absolute() ? fs::path(argument) : cwd / argument;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    if (!fs::is_regular_file(path / "protocol.json", ec)) {
      throw SourceError(argument + ": a directory without protocol.json");
    }
    source.protocol_file_ = (path / "protocol.json").lexically_normal();
    source.label_ = argument;
    return source;
  }
  if (fs::is_regular_file(path, ec)) {
    source.protocol_file_ = path.lexically_normal();
    source.label_ = argument;
    return source;
  }

  // A git ref, with an optional ":<dir>" (or ":<dir>/protocol.json").
  std::string ref = argument;
  std::string dir = "schema";
  std::string file = "protocol.json";
  if (auto colon = argument.find(':'); colon != std::string::npos) {
    ref = argument.substr(0, colon);
    dir = argument.substr(colon + 1);
    while (dir.ends_with('/')) dir.pop_back();
    if (dir.ends_with(".json")) {
      auto slash = dir.rfind('/');
      file = slash == std::string::npos ? dir : dir.substr(slash + 1);
      dir = slash == std::string::npos ? "" : dir.substr(0, slash);
    }
  }
  const std::string not_found = argument +
                                ": not a directory with protocol.json, a protocol file or a git "
                                "ref (<ref> or <ref>:<dir>, e.g. streamnook-v1.0:schema)";
  if (ref.empty()) throw SourceError(not_found);
  Output top = run({"git", "rev-parse", "--show-toplevel"}, cwd);
  if (top.status != 0)
    throw SourceError(not_found + "; and " + cwd.string() + " is in no git repository");
  fs::path repo = trimmed(top.out);
  Output commit = run({"git", "rev-parse", "--verify", "--quiet", ref + "^{commit}"}, repo);
  if (commit.status != 0) throw SourceError(not_found);
  std::string sha = trimmed(commit.out);

  source.temp_dir_ = make_temp_dir();
  fs::path tar = source.temp_dir_ / "schema.tar";
  std::vector<std::string> archive = {"git", "archive", "--format=tar", sha};
  if (!dir.empty()) {
    archive.emplace_back("--");
    archive.push_back(dir);
  }
  Output a = run(archive, repo, tar);
  if (a.status != 0) {
    throw SourceError(argument + ": git archive " + ref + " " + dir + " failed: " + trimmed(a.err));
  }
  fs::path tree = source.temp_dir_ / "tree";
  fs::create_directory(tree);
  Output x = run({"tar", "-xf", tar.string(), "-C", tree.string()}, repo);
  if (x.status != 0) throw SourceError(argument + ": cannot unpack: " + trimmed(x.err));
  source.protocol_file_ = tree / dir / file;
  if (!fs::is_regular_file(source.protocol_file_, ec)) {
    throw SourceError(argument + ": " + ref + " has no " + (dir.empty() ? file : dir + "/" + file));
  }
  // A full commit id as the ref (tools/compat's fallback) reads better short.
  std::string shown = ref.size() == 40 && ref.find_first_not_of("0123456789abcdef") == ref.npos
                          ? ref.substr(0, 12)
                          : ref;
  source.label_ = shown + ":" + (dir.empty() ? file : dir) + " (" + sha.substr(0, 7) + ")";
  return source;
}

}  // namespace rpckit::compat
