#pragma once
// One process generation of a PluginProcess: the child, its pipes, its endpoint and the thread
// that waits for its exit. Torn down whole: killed if alive, endpoint closed, waiter joined.
#include <cstdint>
#include <memory>
#include <thread>

#include "rpckit/endpoint/endpoint.hpp"
#include "rpckit/framing/capped_source.hpp"
#include "rpckit/framing/fd_io.hpp"
#include "rpckit/framing/interruptible_fd_source.hpp"
#include "rpckit/process/child_process.hpp"
#include "rpckit/roles/plugin_process.hpp"

namespace rpckit::roles {

struct PluginProcess::Connection {
  ~Connection() {
    if (child) child->kill();
    if (endpoint) endpoint->close();
    if (waiter.joinable()) waiter.join();
    endpoint.reset();
    child.reset();
  }
  std::uint64_t generation = 0;
  std::unique_ptr<process::ChildProcess> child;
  std::unique_ptr<framing::InterruptibleFdSource> source;
  std::unique_ptr<framing::CappedSource> capped;  // the profile's output cap over `source`
  std::unique_ptr<framing::FdSink> sink;
  std::shared_ptr<Endpoint> endpoint;
  std::thread waiter;
};

}  // namespace rpckit::roles
