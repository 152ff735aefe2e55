#include "rpckit/streamnook/host_application.hpp"

#include <cstdio>
#include <string>

namespace rpckit::streamnook {

// `answer` by value: an override keeps it until the user has answered.
void HostApplication::ask_consent(const PluginContext&, const sn::CredentialKind&,
                                  // NOLINTNEXTLINE(performance-unnecessary-value-param)
                                  ConsentAnswer answer) {
  answer(true);
}

void HostApplication::tell_user(std::string_view plugin_id, std::string_view message) {
  std::string line = "plugin " + std::string(plugin_id) + ": " + std::string(message) + "\n";
  std::fputs(line.c_str(), stderr);
}

}  // namespace rpckit::streamnook
