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

Host::~Host() {
  stop_all();
  std::map<std::string, std::unique_ptr<PluginRunner>> plugins;
  {
    std::lock_guard lock(mutex_);
    plugins.swap(plugins_);
  }
  plugins.clear();  // off the lock: a runner's last reports may call back into the Host
}

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
  {
    std::lock_guard lock(mutex_);
    if (plugins_.count(id) == 0) {
      plugins_[id] =
          std::make_unique<PluginRunner>(app_, options_, std::move(manifest), std::move(granted));
      return true;
    }
  }
  // Reported without the lock: the application may call the Host from on_report.
  app_.on_report(id, "a plugin with this id is already loaded");
  return false;
}

PluginRunner* Host::find(const std::string& plugin_id) const {
  std::lock_guard lock(mutex_);
  auto it = plugins_.find(plugin_id);
  return it == plugins_.end() ? nullptr : it->second.get();
}

std::optional<sn::Granted> Host::granted(const std::string& plugin_id) const {
  PluginRunner* p = find(plugin_id);
  if (p == nullptr) return std::nullopt;
  return p->granted();
}

void Host::start(const std::string& plugin_id) {
  if (PluginRunner* p = find(plugin_id)) p->start();
}

void Host::start_all() {
  for (const std::string& id : plugin_ids()) start(id);
}

void Host::stop(const std::string& plugin_id) {
  if (PluginRunner* p = find(plugin_id)) p->stop();
}

void Host::stop_all() {
  // Stop them all at once: one slow plugin's grace period must not add to another's.
  std::vector<std::thread> stoppers;
  for (const std::string& id : plugin_ids()) {
    stoppers.emplace_back([this, id] { stop(id); });
  }
  for (auto& t : stoppers) t.join();
}

std::size_t Host::emit_raw(std::string_view method, std::span<const GateClause> gate,
                           const Event& event) {
  // Runners live until ~Host, so the pointers stay valid once the lock is released (the
  // application may call the Host from the on_report an enqueue can make).
  std::vector<PluginRunner*> runners;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, plugin] : plugins_) runners.push_back(plugin.get());
  }
  std::size_t delivered = 0;
  const nlohmann::json* params = event.params ? &event.params->get() : nullptr;
  for (PluginRunner* plugin : runners) {
    delivered += plugin->enqueue_event(method, gate, event.params_json, params);
  }
  return delivered;
}

bool Host::emit_raw_to(const std::string& plugin_id, std::string_view method,
                       std::span<const GateClause> gate, const Event& event) {
  PluginRunner* plugin = find(plugin_id);
  return plugin != nullptr &&
         plugin->enqueue_event(method, gate, event.params_json,
                               event.params ? &event.params->get() : nullptr);
}

Result<JsonValue> Host::invoke_action(const std::string& plugin_id, const std::string& action,
                                      const JsonValue& args) {
  PluginRunner* p = find(plugin_id);
  if (p == nullptr) {
    return CallError{CallError::Kind::kLocal,
                     RpcError(jsonrpc_code::kInternalError, "no plugin " + plugin_id)};
  }
  return p->invoke_action(action, args);
}

void Host::revoke_consent(const std::string& plugin_id, const sn::CredentialKind& kind) {
  if (PluginRunner* p = find(plugin_id)) p->revoke_consent(kind);
}

std::optional<supervision::State> Host::state(const std::string& plugin_id) const {
  PluginRunner* p = find(plugin_id);
  if (p == nullptr) return std::nullopt;
  return p->state();
}

std::vector<std::string> Host::plugin_ids() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> ids;
  for (const auto& [id, plugin] : plugins_) ids.push_back(id);
  return ids;
}

std::vector<std::string> Host::hooks(const std::string& plugin_id) const {
  PluginRunner* p = find(plugin_id);
  return p == nullptr ? std::vector<std::string>{} : p->hooks();
}

}  // namespace rpckit::streamnook
