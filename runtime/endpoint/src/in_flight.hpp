#pragma once
// The requests a peer has sent this side and not yet seen answered, by id, for a protocol
// that lets the peer cancel them (WireRules::cancel): from the moment a request is read
// (queued or running) until its answer goes out, is dropped or is withdrawn. Shared by the
// endpoint (its reading thread marks them, its handler thread answers) and its deferred
// replies; thread-safe.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "rpckit/endpoint/cancellation.hpp"

namespace rpckit::detail {

class InFlightRequests {
 public:
  // A request read, under the JSON text of its id (77 and "77" are two ids).
  std::shared_ptr<Cancellation> open(const std::string& id_text);
  // The peer cancels the request with that id: false when none is in flight (finished,
  // never sent, or cancelled with an id of the other kind), which the protocol ignores.
  bool cancel(const std::string& id_text, std::string reason);
  // The request is over (answered, dropped, withdrawn). Only `which` is removed: a peer that
  // reused an id while the first request ran keeps the later one cancellable.
  void close(const std::string& id_text, const Cancellation* which);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Cancellation>> requests_;
};

}  // namespace rpckit::detail
