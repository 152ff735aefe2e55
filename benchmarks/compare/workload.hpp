#pragma once
// What the C++ comparison pairs run and send, and what they measure. The Node pair
// (vscode_parent.mjs) runs the same workloads on the events `rpckit_compare events` prints.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rpckit::compare {

// The ping every pair sends and its answer (JSON-RPC 2.0, as rpckit's endpoint writes them;
// the raw pair sends these bytes without ever parsing them).
inline constexpr std::string_view kPingRequest = R"({"id":1,"jsonrpc":"2.0","method":"ping","params":{}})";
inline constexpr std::string_view kPingResponse = R"({"id":1,"jsonrpc":"2.0","result":{}})";

// One of the sized events (payloads.hpp: sized_events()), its params as JSON text.
struct Event {
  std::string size;  // small, medium, large
  std::string method;
  std::string params;
};
std::vector<Event> events();            // workload.cpp
std::string events_json();              // the same as a JSON array, for the Node pair
std::string notification(const Event&);  // the notification's body, as nlohmann dumps it

// --events SIZE:BATCHESxBATCH: BATCHES timed batches of BATCH events, each batch followed by a
// "done" request whose answer is the count the child received; one untimed batch first.
struct EventsRun {
  std::string size;
  int batches = 0;
  int batch = 0;
};

struct PingResult {
  std::vector<double> samples_us;  // every timed round trip, in order
  std::size_t request_bytes = 0;   // framed, the last request
  std::size_t response_bytes = 0;  // framed, the last response
};

struct EventsResult {
  double seconds = 0;            // the timed batches, first event to the last "done" answer
  std::size_t frame_bytes = 0;   // one event, framed
};

// One implementation: the parent side of the two workloads (each spawns its own child) and
// the child. They throw std::exception on any failure, a wrong count included.
struct Pair {
  const char* name;
  const char* child_mode;  // the argument that makes this executable the child
  PingResult (*ping)(int count, int warmup);
  EventsResult (*events)(const Event& event, const EventsRun& run);
  int (*child)();
};
Pair raw_pair();    // raw.cpp
Pair naive_pair();  // naive.cpp

}  // namespace rpckit::compare
