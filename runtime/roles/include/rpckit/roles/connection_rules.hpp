#pragma once
// ConnectionRules: how one side of a protocol's connection reads and writes, built once from
// a generated Profile and used by both roles (the plugin session and the host's plugin
// process): the framing and its limits, the reader's leniency, the endpoint's wire rules and,
// for the spawner, the cap on what it reads from one process.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "rpckit/descriptors/profile.hpp"
#include "rpckit/endpoint/wire_rules.hpp"
#include "rpckit/framing/framing.hpp"

namespace rpckit::roles {

struct ConnectionRules {
  framing::Framing framing = framing::Framing::kContentLength;
  std::size_t max_frame_bytes = 0;
  framing::ReaderOptions reader;  // lone-CR line ends, skipping over-long frames
  WireRules wire;
  std::uint64_t output_cap = 0;  // bytes the spawner reads from one process; 0: no cap

  std::unique_ptr<framing::FrameReader> make_reader(framing::ByteSource& source) const {
    return framing::make_reader(framing, source, max_frame_bytes, reader);
  }
  std::unique_ptr<framing::FrameWriter> make_writer(framing::ByteSink& sink) const {
    return framing::make_writer(framing, sink, max_frame_bytes);
  }
};

// Which side of the connection the rules are for: what a side receives decides how it meets
// bad input (Profile::kSpawnedReceives / kSpawnerReceives).
enum class Side { kSpawned, kSpawner };

template <class Profile>
ConnectionRules connection_rules(Side side) {
  ConnectionRules r;
  r.framing = Profile::kFraming;
  r.max_frame_bytes = Profile::kMaxFrameBytes;
  const ReceiveRules receive =
      side == Side::kSpawned ? Profile::kSpawnedReceives : Profile::kSpawnerReceives;
  r.reader.split_on_cr = Profile::kSplitOnCr;
  r.reader.resume_after_oversize = receive.oversize != OnOversize::kClose;
  r.wire.max_depth = Profile::kMaxJsonDepth;
  r.wire.sent_ids = Profile::kSentIds;
  r.wire.accepted_ids = Profile::kAcceptedIds;
  r.wire.error_objects = Profile::kErrorObjects;
  r.wire.envelope = Profile::kEnvelope;
  r.wire.error_data = Profile::kErrorData;
  r.wire.receive = receive;
  r.wire.cancel = Profile::kCancel;
  r.wire.progress = Profile::kProgress;
  if (side == Side::kSpawner) r.output_cap = Profile::kOutputCap;
  return r;
}

}  // namespace rpckit::roles
