#include "rpckit/streamnook/host.hpp"

#include <algorithm>

#include "plugin_runner.hpp"
#include "rpckit/roles/host_role.hpp"
#include "streamnook_v1/roles.hpp"

namespace rpckit::streamnook {

supervision::Policy protocol_policy(double time_scale) {
  return roles::lifecycle_policy<sn::Protocol>(time_scale);
}

namespace {

// The grant is always a subset of the request (spec 7).
template <class E>
std::vector<E> intersect(const std::vector<E>& offered, const std::vector<E>& requested) {
  std::vector<E> out;
  for (const E& e : offered) {
    if (e.is_known() && std::find(requested.begin(), requested.end(), e) != requested.end() &&
        std::find(out.begin(), out.end(), e) == out.end()) {
      out.push_back(e);
    }
  }
  return out;
}

}  // namespace

Host::Host(HostApplication& app, HostOptions options) : app_(app), options_(std::move(options)) {}

Host::~Host() = default;  // the registry stops them all, then ends them off its lock

bool Host::add_plugin(LoadedManifest manifest, const sn::Granted& offered) {
  std::string id = manifest.manifest.id;
  if (auto issue = check_host_version(manifest.manifest, options_.host_version)) {
    app_.on_report(id, "not added: " + issue->str());
    return false;
  }
  if (manifest.manifest.runtime.kind != sn::RuntimeKind::kProcess) {
    app_.on_report(id, "not added: runtime.kind = \"" +
                           std::string(manifest.manifest.runtime.kind.wire()) +
                           "\": only \"process\" plugins run over stdio");
    return false;
  }
  sn::Granted requested = requested_capabilities(manifest.manifest);
  sn::Granted granted;
  granted.events = intersect(offered.events, requested.events);
  granted.host_methods = intersect(offered.host_methods, requested.host_methods);
  granted.credentials = intersect(offered.credentials, requested.credentials);
  granted.ui = intersect(offered.ui, requested.ui);
  if (plugins_.find(id) == nullptr &&
      plugins_.add(id, std::make_unique<PluginRunner>(app_, options_, std::move(manifest),
                                                      std::move(granted)))) {
    return true;
  }
  // Reported without the registry's lock: the application may call the Host from on_report.
  app_.on_report(id, "a plugin with this id is already loaded");
  return false;
}

std::optional<sn::Granted> Host::granted(const std::string& plugin_id) const {
  PluginRunner* p = plugins_.find(plugin_id);
  if (p == nullptr) return std::nullopt;
  return p->granted();
}

void Host::start(const std::string& plugin_id) { plugins_.start(plugin_id); }
void Host::start_all() { plugins_.start_all(); }
void Host::stop(const std::string& plugin_id) { plugins_.stop(plugin_id); }
void Host::stop_all() { plugins_.stop_all(); }

std::size_t Host::emit_raw(const roles::EncodedEvent& event) {
  std::size_t delivered = 0;
  plugins_.each([&](const std::string&, PluginRunner& plugin) {
    delivered += plugin.enqueue_event(event);
  });
  return delivered;
}

bool Host::emit_raw_to(const std::string& plugin_id, const roles::EncodedEvent& event) {
  PluginRunner* plugin = plugins_.find(plugin_id);
  return plugin != nullptr && plugin->enqueue_event(event);
}

Result<JsonValue> Host::invoke_action(const std::string& plugin_id, const std::string& action,
                                      const JsonValue& args) {
  PluginRunner* p = plugins_.find(plugin_id);
  if (p == nullptr) {
    return CallError{CallError::Kind::kLocal,
                     RpcError(jsonrpc_code::kInternalError, "no plugin " + plugin_id)};
  }
  return p->invoke_action(action, args);
}

void Host::revoke_consent(const std::string& plugin_id, const sn::CredentialKind& kind) {
  if (PluginRunner* p = plugins_.find(plugin_id)) p->revoke_consent(kind);
}

std::optional<supervision::State> Host::state(const std::string& plugin_id) const {
  PluginRunner* p = plugins_.find(plugin_id);
  if (p == nullptr) return std::nullopt;
  return p->state();
}

std::vector<std::string> Host::plugin_ids() const { return plugins_.ids(); }

std::vector<std::string> Host::hooks(const std::string& plugin_id) const {
  PluginRunner* p = plugins_.find(plugin_id);
  return p == nullptr ? std::vector<std::string>{} : p->hooks();
}

}  // namespace rpckit::streamnook
