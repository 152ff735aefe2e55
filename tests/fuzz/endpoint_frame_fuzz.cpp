// Fuzz target: one incoming frame, any bytes, through a real rpckit::Endpoint (its two
// threads, over in-memory pipes) that lives for the whole run, as a long
// connection does. After each frame a sync request proves the endpoint still serves; every
// frame it wrote meanwhile must be a JSON-RPC 2.0 response (never anything else).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/framing/content_length_reader.hpp"
#include "rpckit/framing/content_length_writer.hpp"
#include "rpckit/framing/memory_pipe.hpp"

namespace {

constexpr std::size_t kMaxBody = 4 << 20;

void check(bool condition) {
  if (!condition) std::abort();
}

struct Connection {
  Connection() {
    auto in = rpckit::framing::make_memory_pipe(SIZE_MAX);
    auto out = rpckit::framing::make_memory_pipe(SIZE_MAX);
    to_endpoint = std::move(in.sink);
    endpoint_in = std::move(in.source);
    endpoint_out = std::move(out.sink);
    from_endpoint = std::move(out.source);
    responses = std::make_unique<rpckit::framing::ContentLengthReader>(*from_endpoint, kMaxBody);
    rpckit::Endpoint::Options options;
    options.interrupt_reader = [source = endpoint_in.get()] { source->close(); };
    endpoint = std::make_unique<rpckit::Endpoint>(
        std::make_unique<rpckit::framing::ContentLengthReader>(*endpoint_in, kMaxBody),
        std::make_unique<rpckit::framing::ContentLengthWriter>(*endpoint_out, kMaxBody),
        std::move(options));
    // Answers with its params (so params travel back out), throws for "throw".
    endpoint->set_handler([](const rpckit::Incoming& incoming) -> nlohmann::json {
      if (incoming.method == "throw") throw std::runtime_error("asked to");
      return incoming.params != nullptr ? *incoming.params : nlohmann::json();
    });
    endpoint->start();
  }
  void send(std::string_view body) {
    std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    frame.append(body);
    check(!to_endpoint->write_all(frame));
  }

  std::unique_ptr<rpckit::framing::MemoryPipeSink> to_endpoint;
  std::unique_ptr<rpckit::framing::MemoryPipeSource> endpoint_in;
  std::unique_ptr<rpckit::framing::MemoryPipeSink> endpoint_out;
  std::unique_ptr<rpckit::framing::MemoryPipeSource> from_endpoint;
  std::unique_ptr<rpckit::framing::ContentLengthReader> responses;
  std::unique_ptr<rpckit::Endpoint> endpoint;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Connection* connection = new Connection();  // lives as long as the process
  static std::uint64_t syncs = 0;
  if (size > (1 << 20)) return 0;
  connection->send(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string sync_id = "\x01sync-" + std::to_string(++syncs);
  connection->send(nlohmann::json{{"jsonrpc", "2.0"}, {"id", sync_id}, {"method", "s"}}.dump());
  for (;;) {
    rpckit::framing::ReadResult frame = connection->responses->read();
    check(frame.ok());
    nlohmann::json response = nlohmann::json::parse(frame.body, nullptr, false);
    check(response.is_object());
    check(response.value("jsonrpc", "") == "2.0");
    check(response.contains("id"));
    check(response.contains("result") != response.contains("error"));
    check(!response.contains("method"));
    if (response["id"] == sync_id && response.contains("result")) break;
  }
  return 0;
}
