// consumer-validate: the validator as a C++ API, on the installed StreamNook schema: checks
// the frames given as arguments, as one conversation between a host and a plugin (odd
// arguments sent by the host, even ones by the plugin), and prints each problem.
//   consumer-validate <protocol.json> <frame>...   exit 0 when all are valid, 1 otherwise
#include <iostream>

#include "rpckit/validate/frame_watch.hpp"
#include "rpckit/validate/transcript.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: consumer-validate <protocol.json> <frame>...\n";
    return 2;
  }
  namespace v = rpckit::validate;
  v::ProtocolValidator validator(v::ProtocolSchema::load(argv[1]));
  v::TranscriptChecker checker(validator);
  std::size_t errors = 0;
  auto print = [&](const std::vector<v::Finding>& findings) {
    for (const auto& f : findings) {
      std::cout << v::describe(f) << "\n";
      if (f.violation.severity == v::Violation::Severity::kError) ++errors;
    }
  };
  for (int i = 2; i < argc; ++i) {
    print(checker.feed({static_cast<std::size_t>(i - 1), 0, "", i % 2 == 0 ? "host" : "plugin", argv[i]}));
  }
  print(checker.finish());
  std::cout << (errors ? "invalid" : "valid") << "\n";
  return errors ? 1 : 0;
}
