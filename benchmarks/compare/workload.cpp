#include "workload.hpp"

#include <nlohmann/json.hpp>

#include "payloads.hpp"

namespace rpckit::compare {

std::vector<Event> events() {
  std::vector<Event> out;
  for (const bench::SizedEvent& e : bench::sized_events()) {
    out.push_back({e.size, e.method, e.params.dump()});
  }
  return out;
}

std::string events_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const bench::SizedEvent& e : bench::sized_events()) {
    out.push_back({{"size", e.size}, {"method", e.method}, {"name", e.name}, {"params", e.params}});
  }
  return out.dump();
}

std::string notification(const Event& event) {
  return nlohmann::json{{"jsonrpc", "2.0"},
                        {"method", event.method},
                        {"params", nlohmann::json::parse(event.params)}}
      .dump();
}

}  // namespace rpckit::compare
