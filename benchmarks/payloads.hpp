#pragma once
// Realistic message payloads, modelled on tests/fixtures/examples/*.json but built here so
// that fixture edits do not silently move the numbers. Each is the params (or result) object
// as a host or plugin would put it on the wire, unknown fields included where the real peers
// send them (Channel.favorite, ChannelRef.avatar, a section's "collapsed").
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rpckit::bench {

nlohmann::json chat_message_params();                    // on_chat_message, 2 badges
nlohmann::json followed_live_params(std::size_t count);  // on_followed_live, `count` channels
nlohmann::json initialize_params();                      // initialize, full grant
nlohmann::json register_panel_params();                  // register_panel, all 8 field types
nlohmann::json get_followed_live_result();               // get_followed_live result, 3 channels
nlohmann::json watch_tick_params();                      // on_watch_tick

// The events the implementations are compared on (benchmarks/compare, the pipe benchmarks):
// one StreamNook v1 notification per size class, framed ~100 B, ~500 B and ~20 KB. They have
// no unknown fields, so a typed sender (which drops them) puts the same bytes on the wire as
// one that sends this JSON as it is.
struct SizedEvent {
  std::string size;    // "small", "medium", "large"
  std::string method;  // the notification
  std::string name;    // benchmark name: the method, plus the channel count for the large one
  nlohmann::json params;
};
std::vector<SizedEvent> sized_events();

}  // namespace rpckit::bench
