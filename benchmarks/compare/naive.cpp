// A naive JSON-RPC pair on nlohmann alone (no rpckit code): every message is built as a DOM
// and dump()ed, every message received is json::parse()d. The sender copies the params DOM
// into each envelope (what building it from the application's data costs at the least).
//   ping    {"jsonrpc","id","method":"ping","params":{}}; the child answers {"result":{}}
//   events  BATCH notifications, then a "done" request; the child, which parses and counts
//           every notification, answers the count since the last "done"
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "wire.hpp"
#include "workload.hpp"

namespace rpckit::compare {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

void end(Child& child) {
  const std::string how = finish(child);
  if (!how.empty()) throw std::runtime_error("naive: " + how);
}

// A request and its answer's result; throws unless the answer has our id and a result.
json request(Child& child, FrameReader& reader, std::int64_t id, const char* method,
             std::size_t* request_bytes = nullptr, std::size_t* response_bytes = nullptr) {
  const std::string body =
      json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", json::object()}}.dump();
  write_frame(child.to_child, body);
  const std::optional<std::string_view> reply = reader.next();
  if (!reply) throw std::runtime_error("naive: the child closed its stdout");
  json response = json::parse(*reply);
  if (response.at("id") != id || !response.contains("result")) {
    throw std::runtime_error("naive: unexpected answer " + response.dump());
  }
  if (request_bytes) *request_bytes = framed_size(body.size());
  if (response_bytes) *response_bytes = framed_size(reply->size());
  return std::move(response["result"]);
}

PingResult ping(int count, int warmup) {
  Child child = spawn_self("naive-child");
  FrameReader reader(child.from_child);
  PingResult result;
  result.samples_us.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < warmup + count; ++i) {
    const auto start = Clock::now();
    request(child, reader, i + 1, "ping", &result.request_bytes, &result.response_bytes);
    const std::chrono::duration<double, std::micro> took = Clock::now() - start;
    if (i >= warmup) result.samples_us.push_back(took.count());
  }
  end(child);
  return result;
}

EventsResult events(const Event& event, const EventsRun& run) {
  const json params = json::parse(event.params);
  Child child = spawn_self("naive-child");
  FrameReader reader(child.from_child);
  std::size_t frame_bytes = 0;
  std::int64_t id = 0;
  auto batch = [&] {
    for (int i = 0; i < run.batch; ++i) {
      const std::string body =
          json{{"jsonrpc", "2.0"}, {"method", event.method}, {"params", params}}.dump();
      write_frame(child.to_child, body);
      frame_bytes = body.size();
    }
    const json counted = request(child, reader, ++id, "done");
    if (counted != run.batch) throw std::runtime_error("naive: the child counted " + counted.dump());
  };
  batch();  // warm-up
  const auto start = Clock::now();
  for (int b = 0; b < run.batches; ++b) batch();
  const std::chrono::duration<double> took = Clock::now() - start;
  end(child);
  return {took.count(), framed_size(frame_bytes)};
}

int child() {
  FrameReader reader(STDIN_FILENO);
  std::int64_t events = 0;
  while (const std::optional<std::string_view> body = reader.next()) {
    json message = json::parse(*body);
    const json& method = message.at("method");
    if (!method.is_string()) throw std::runtime_error("naive child: method is not a string");
    const auto id = message.find("id");
    if (id == message.end()) {  // a notification
      ++events;
      continue;
    }
    json answer = {{"jsonrpc", "2.0"}, {"id", *id}};
    if (method == "ping") {
      answer["result"] = json::object();
    } else if (method == "done") {
      answer["result"] = events;
      events = 0;
    } else {
      answer["error"] = {{"code", -32601}, {"message", "method not found"}};
    }
    write_frame(STDOUT_FILENO, answer.dump());
  }
  return 0;
}

}  // namespace

Pair naive_pair() { return {"naive", "naive-child", ping, events, child}; }

}  // namespace rpckit::compare
