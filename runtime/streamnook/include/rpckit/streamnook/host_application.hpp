#pragma once
// HostApplication: what a host application implements to run StreamNook plugins: one typed
// function per host method it serves (sn::HostHandler), and the reports the host role sends
// it. The role checks every capability gate before calling these, so they only see calls the
// plugin was granted.
// Throw an RpcError (see make_error) to answer with a typed error, e.g.
//   throw spec_error(sn::ErrorCode::kUnknownStream, "no relay session \"" + id + "\"");
// The rules the spec puts on the host itself (notify's rate limit, shutting_down, consent
// for get_credential, `log` into plugin.log) are the host role's: they never reach here.
// Calls come from the plugins' connection threads: several plugins may call at once.
#include <functional>
#include <string>
#include <string_view>

#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/streamnook/errors.hpp"
#include "rpckit/roles/lifecycle_event.hpp"
#include "streamnook_v1/roles.hpp"

namespace rpckit::streamnook {

// The plugin a call comes from.
struct PluginContext {
  std::string plugin_id;
  sn::Granted granted;
};

// Something that happened in a plugin's life (the generic host role's report).
using LifecycleEvent = roles::LifecycleEvent;
using roles::to_string;

// The host methods are the generated sn::HostHandler's: override the ones the application
// serves; the others answer method_not_found (requests) or are ignored (notifications), so a
// host method added to the schema compiles every application unchanged.
class HostApplication : public sn::HostHandler<const PluginContext> {
 public:
  using ConsentAnswer = std::function<void(bool granted)>;

  // get_credential's consent prompt (spec 5), asked on a plugin's first call for a credential
  // kind. Call `answer` once, from any thread, within the consent timeout (120 s, scaled by
  // HostOptions::time_scale): no answer in time refuses the calls with consent_denied. The
  // answer is remembered for the plugin (Host::revoke_consent takes it back); calls that
  // arrive meanwhile wait on the same prompt. The default asks nobody and grants.
  virtual void ask_consent(const PluginContext& plugin, const sn::CredentialKind& kind,
                           ConsentAnswer answer);
  // What the user must be told (a plugin disabled, and why), in the host's own output. The
  // default writes one line to stderr.
  virtual void tell_user(std::string_view plugin_id, std::string_view message);

  virtual void on_lifecycle(const LifecycleEvent& event) { (void)event; }
  // Things worth a line in a log: an ungranted notification dropped, hooks outside the
  // grant ignored, an event dropped because the plugin is not reading, ...
  virtual void on_report(std::string_view plugin_id, std::string_view what) {
    (void)plugin_id;
    (void)what;
  }
  // What the endpoint noticed on a plugin's stdout (a frame that is not JSON, a stray
  // answer, ...), by kind; on_report gets the same as text. See conformance.hpp for the
  // spec's words.
  virtual void on_diagnostic(std::string_view plugin_id, const Diagnostic& diagnostic) {
    (void)plugin_id;
    (void)diagnostic;
  }
  // Every frame to (outgoing) or from a plugin, for transcripts.
  virtual void on_frame(std::string_view plugin_id, bool outgoing, std::string_view body) {
    (void)plugin_id;
    (void)outgoing;
    (void)body;
  }
};

}  // namespace rpckit::streamnook
