// The tasks protocol (NDJSON, string ids, methods with / and .) end to end on the generic
// roles, as real processes on real pipes: tasks-editor runs tasks-worker through its whole
// session; a stranger's editor (Python, from the schema alone) drives tasks-worker.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

struct Outcome {
  int status = -1;
  std::string output;
};

Outcome run(const std::string& command) {
  Outcome r;
  if (FILE* pipe = ::popen((command + " 2>&1").c_str(), "r")) {
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
    int raw = ::pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  }
  return r;
}

// The frames of a transcript: lines "> {json}" (editor to worker) and "< {json}".
std::vector<std::pair<bool, nlohmann::json>> frames(const std::string& output) {
  std::vector<std::pair<bool, nlohmann::json>> out;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() < 3 || (line[0] != '>' && line[0] != '<') || line[1] != ' ') continue;
    out.emplace_back(line[0] == '>', nlohmann::json::parse(line.substr(2)));
  }
  return out;
}

TEST(TasksProtocol, EditorRunsTheWorkerThroughItsWholeSession) {
  Outcome r = run(std::string("'") + TASKS_EDITOR_EXE + "' '" + TASKS_WORKER_EXE + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("session complete"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("FAIL"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Content-Length"), std::string::npos) << r.output;

  auto transcript = frames(r.output);
  std::vector<std::string> methods;
  for (const auto& [outgoing, frame] : transcript) {
    ASSERT_EQ(frame.value("jsonrpc", ""), "2.0") << frame;
    if (frame.contains("method")) methods.push_back(frame["method"]);
    if (frame.contains("method") && frame.contains("id")) {
      // Both sides send string ids, as the profile says.
      EXPECT_TRUE(frame["id"].is_string()) << frame;
    }
  }
  for (const char* m : {"session/open", "session/ready", "health.check", "doc.changed",
                        "log.line", "text/transform", "editor/confirm", "session/shutdown",
                        "session/exit"}) {
    EXPECT_NE(std::find(methods.begin(), methods.end(), m), methods.end()) << m << "\n" << r.output;
  }
  // The lifecycle in the order the profile gives it.
  ASSERT_FALSE(methods.empty());
  EXPECT_EQ(methods.front(), "session/open");
  EXPECT_EQ(methods.back(), "session/exit");
}

TEST(TasksProtocol, WorkerAnswersAStrangersEditor) {
  Outcome r = run(std::string("python3 '") + TASKS_STRANGER_EDITOR + "' '" + TASKS_WORKER_EXE + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("FAIL"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the worker exits 0 after session/exit"), std::string::npos) << r.output;
}

}  // namespace
