// What a host does with a loaded manifest: the install-time host_min gate and "grant all".
#include <string>

#include "manifest_util.hpp"
#include "rpckit/streamnook/manifest.hpp"

namespace rpckit::streamnook {

using manifest_detail::json_text;

std::optional<ManifestIssue> check_host_version(const sn::Manifest& manifest,
                                                std::string_view host_version) {
  if (!is_semver(manifest.host_min)) {
    return ManifestIssue{"host_min", json_text(manifest.host_min),
                         "is not a semantic version (SemVer 2.0.0), so this host cannot be checked"};
  }
  if (!is_semver(host_version)) {
    return ManifestIssue{"host_version", json_text(std::string(host_version)),
                         "is not a semantic version (SemVer 2.0.0), so host_min cannot be checked"};
  }
  if (compare_semver(host_version, manifest.host_min) < 0) {
    return ManifestIssue{"host_min", json_text(manifest.host_min),
                         "requires host version " + manifest.host_min + " or newer; this host is " +
                             std::string(host_version)};
  }
  return std::nullopt;
}

namespace {

template <class Name>
std::vector<Name> known_unique(const std::vector<Name>& names) {
  std::vector<Name> out;
  for (const Name& name : names) {
    if (!name.is_known()) continue;
    bool seen = false;
    for (const Name& kept : out) seen = seen || kept == name;
    if (!seen) out.push_back(name);
  }
  return out;
}

}  // namespace

sn::Granted requested_capabilities(const sn::Manifest& manifest) {
  sn::Granted granted;
  if (!manifest.capabilities) return granted;
  const sn::ManifestCapabilities& caps = *manifest.capabilities;
  granted.events = known_unique(caps.events_or_default());
  granted.host_methods = known_unique(caps.host_methods_or_default());
  granted.credentials = known_unique(caps.credentials_or_default());
  granted.ui = known_unique(caps.ui_or_default());
  return granted;
}

}  // namespace rpckit::streamnook
