#pragma once
// The debug option: every frame of a live connection checked against the protocol's schema,
// in both directions, and each violation reported, without changing what the connection does.
//
// Set RPCKIT_VALIDATE=<path to protocol.json> in the environment of a host or a plugin built
// on the generic roles: every connection they open is watched, and violations are reported
// (the host: through its report channel, which StreamNook writes to the plugin's log; a
// plugin: on stderr, which its host keeps). An endpoint of your own: pass
// FrameWatch::observe to Endpoint::on_frame.
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "rpckit/validate/protocol.hpp"
#include "rpckit/validate/transcript.hpp"

namespace rpckit::validate {

class FrameWatch {
 public:
  using Report = std::function<void(const std::string& line)>;

  // `local_role`: the side this process plays ("host"): outgoing frames are sent by it.
  FrameWatch(std::shared_ptr<const ProtocolValidator> validator, std::string local_role,
             Report report);

  // Thread-safe: an endpoint observes frames from its reader and its writers.
  void observe(bool outgoing, std::string_view body);
  std::size_t violations() const;

 private:
  std::shared_ptr<const ProtocolValidator> validator_;
  std::string local_, peer_;
  Report report_;
  mutable std::mutex mutex_;
  TranscriptChecker checker_;
  std::size_t frames_ = 0;
  std::size_t violations_ = 0;
};

// The validator RPCKIT_VALIDATE names, loaded once per process; nullptr when unset. A schema
// that does not load is said once on stderr, and validation stays off.
std::shared_ptr<const ProtocolValidator> validator_from_environment();

// "frame 3 from plugin: /params/level: expected ..., found ... [messages/notify.json#/...]"
std::string describe(const Finding& finding);

}  // namespace rpckit::validate
