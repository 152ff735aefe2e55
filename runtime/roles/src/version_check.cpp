#include "rpckit/roles/version_check.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace rpckit::roles {

namespace {

std::string_view major_of(std::string_view version) { return version.substr(0, version.find('.')); }

}  // namespace

std::optional<HandshakeOutcome> check_version(const VersionCheck& check,
                                              const nlohmann::json& answer) {
  if (check.member.empty()) return std::nullopt;
  const std::string member(check.member);
  const auto it = answer.is_object() ? answer.find(member) : answer.end();
  const std::string spoken = "; this side speaks \"" + std::string(check.spoken) + "\"";
  if (it == answer.end() || !it->is_string()) {
    return HandshakeOutcome{HandshakeOutcome::Kind::kRefused,
                            "the handshake answer names no " + member + spoken, true};
  }
  const auto& version = it->get_ref<const std::string&>();
  const bool spoken_here = check.match == VersionMatch::kExact
                               ? version == check.spoken
                               : major_of(version) == major_of(check.spoken);
  if (spoken_here) return std::nullopt;
  return HandshakeOutcome{HandshakeOutcome::Kind::kRefused,
                          "the handshake answer's " + member + " is \"" + version + "\"" + spoken,
                          true};
}

}  // namespace rpckit::roles
