// tasks-worker: the worker of the tasks protocol (tests/generator/fixtures/tasks), written
// with nothing but the generated role surfaces and the generic plugin role: NDJSON framing,
// string ids, the lifecycle (health.check, session/shutdown, session/exit) and the grant all
// come from the generated Profile. Only the application's handlers are here.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <string>

#include "demo_tasks/roles.hpp"
#include "rpckit/roles/plugin_role.hpp"
#include "light_header_checks.hpp"  // the generic role headers stay light

namespace tasks = demo::tasks;

namespace {

struct Session {
  std::atomic<int> docs_seen{0};
};

class Worker : public tasks::WorkerHandler<Session> {
 public:
  explicit Worker(const tasks::EditorClient& editor) : editor_(editor) {}

  tasks::SessionOpenResult session_open(Session&, const tasks::SessionOpenParams& p) override {
    if (p.protocol_version != tasks::kProtocolVersion) {
      throw rpckit::RpcError(rpckit::jsonrpc_code::kInvalidRequest,
                             "protocol_version " + std::to_string(p.protocol_version) +
                                 " is not supported");
    }
    tasks::SessionOpenResult result;
    result.worker = "tasks-worker for " + p.editor;
    return result;
  }

  void doc_changed(Session& session, const tasks::DocChangedParams& p) override {
    ++session.docs_seen;
    tasks::LogLineParams line;
    line.text = "doc " + p.uri + " v" + std::to_string(p.version) + " (" +
                std::to_string(session.docs_seen.load()) + " seen)";
    editor_.log_line(line);
  }

  tasks::TextTransformResult text_transform(Session&, const tasks::TextTransformParams& p) override {
    tasks::TextTransformResult result;
    if (p.confirm_or_default()) {
      // A call to the editor while the editor waits on this request: the endpoint keeps
      // serving, so neither side deadlocks.
      tasks::EditorConfirmParams question;
      question.question = "apply " + std::string(p.operation.wire()) + "?";
      auto answer = editor_.editor_confirm(question);
      if (!answer.ok()) throw rpckit::RpcError(answer.error().error);
      result.confirmed = answer->yes;
      if (!answer->yes) {
        result.text = p.text;
        return result;
      }
    }
    if (p.operation == tasks::Operation::kUpper) {
      result.text = p.text;
      std::transform(result.text.begin(), result.text.end(), result.text.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    } else if (p.operation == tasks::Operation::kReverse) {
      result.text.assign(p.text.rbegin(), p.text.rend());
    } else if (p.operation == tasks::Operation::kWords) {
      int words = 0;
      bool in_word = false;
      for (char c : p.text) {
        bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
        if (!space && !in_word) ++words;
        in_word = !space;
      }
      result.text = std::to_string(words);
    } else {
      throw rpckit::RpcError(rpckit::jsonrpc_code::kInvalidParams,
                             "unknown operation " + std::string(p.operation.wire()));
    }
    return result;
  }

 private:
  const tasks::EditorClient& editor_;
};

}  // namespace

int main() {
  rpckit::roles::PluginRole<tasks::Protocol> role;
  Session session;
  Worker worker(role.client());
  role.bind(worker, session);
  role.session().on_shutdown(
      [&] { std::fprintf(stderr, "tasks-worker: shutdown after %d docs\n", session.docs_seen.load()); });
  return role.run();
}
