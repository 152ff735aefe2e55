#pragma once
// Running a shell command line as the tests of a program do: its exit status,
// stdout, and stderr (through a temporary file).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace test_support {

struct Outcome {
  int status = -1;
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "rpckit_" + name + "_" + std::to_string(::getpid());
}

inline Outcome run(const std::string& command) {
  std::string err_path = temp_path("stderr");
  Outcome r;
  if (FILE* pipe = ::popen((command + " 2>" + err_path).c_str(), "r")) {
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
    int raw = ::pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  }
  r.err = slurp(err_path);
  std::remove(err_path.c_str());
  return r;
}

// Single-quoted for the shell (the paths used hold no quote).
inline std::string sh(const std::string& s) { return "'" + s + "'"; }

}  // namespace test_support
