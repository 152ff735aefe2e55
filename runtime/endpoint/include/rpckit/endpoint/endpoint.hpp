#pragma once
// Endpoint: JSON-RPC 2.0 in both directions over one framed connection.
//
// - Outgoing: call() sends a request and waits for its response (or the deadline); notify()
//   sends a notification. Ids are numbers this endpoint allocates.
// - Incoming: every request and notification goes to one Handler, in arrival order. A
//   request gets exactly one response: the handler's result, the RpcError it threw, or
//   -32603 for any other exception. A notification never gets a response, even on error.
//   Invalid JSON -> -32700 (id null); a batch array or an invalid envelope -> -32600. A
//   frame nested deeper than max_depth, or holding a number no double can hold, is valid
//   JSON this endpoint will not take: -32600 with the frame's id when it can be found. Both
//   messages say where and why ("Parse error: at byte 57: invalid UTF-8 (byte 0xFF)").
//   Responses are matched to calls by id (numbers and strings); one with an unknown id is
//   reported and dropped; one for a pending call that cannot be read fails that call. Where
//   the profile lets the peer cancel a request (WireRules::cancel), its cancel notification is
//   read on the reading thread: the request is marked (Incoming::cancellation), not run if
//   still queued, and not answered. Where the profile has a progress notification
//   (WireRules::progress), a call that asks for progress (CallOptions) carries its id as the
//   token; the reports under it go to the call's observer and may restart its deadline.
//
// The peer is a stranger: frames are validated without recursion (rpckit::codec::JsonReader)
// and wait in the queue as text; a frame's params reach the handler as that text (LazyJson),
// decoded straight into a struct by typed handlers or parsed when asked for, so memory is the
// queued text (bounded by max_queued_bytes) plus the message being handled.
//
// Threads: two endpoint threads share the work. Whichever holds the reading role reads and
// parses frames and completes calls. A request or notification that arrives while no handler
// runs and nothing is queued is run by the thread that read it, with no hand-off (a round
// trip wakes no thread but the one the peer's frame wakes); one that arrives while a handler
// runs waits in the queue. Reading goes on beside a handler: the other thread takes over at
// once when this side has calls outstanding or makes one (otherwise it resumes when the
// handler returns, as handlers run one at a time anyway). A handler may call the peer and
// wait: while it waits in call(), it keeps handling the messages that arrive meanwhile (the
// peer's nested requests), so the connection never deadlocks and arrival order holds.
// Between an application thread's calls the role may be parked for the next call(), which
// then reads its own answer (Options::reading_lease): a round trip wakes the peer's thread and
// the caller, as a hand-written blocking loop does. Whatever else that caller reads goes to
// the endpoint threads in order; only the frame observer runs on it, for the answers to
// call()s that it reads.
// call(), call_async(), notify() and close() may be used from any thread. call_async() parks
// no thread: its completion runs on whichever thread settles the call. Handlers and observers
// are set before start().
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "rpckit/codec/lazy_json.hpp"
#include "rpckit/descriptors/profile.hpp"
#include "rpckit/endpoint/async_call.hpp"
#include "rpckit/endpoint/call_options.hpp"
#include "rpckit/endpoint/call_result.hpp"
#include "rpckit/endpoint/cancellation.hpp"
#include "rpckit/endpoint/detail/pending_calls.hpp"
#include "rpckit/endpoint/envelope.hpp"
#include "rpckit/endpoint/reply.hpp"
#include "rpckit/endpoint/rpc_error.hpp"
#include "rpckit/endpoint/wire_rules.hpp"
#include "rpckit/framing/frame_reader.hpp"
#include "rpckit/framing/frame_writer.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit {

namespace detail {
class InFlightRequests;
}  // namespace detail

// One incoming request or notification, as the handler sees it.
struct Incoming {
  std::string method;
  // The params as they crossed the wire (absent when the envelope has none): typed handlers
  // decode the text; used as a `const nlohmann::json*`, it is parsed then (once).
  LazyJson params;
  std::string_view params_text;  // the same text (empty when absent)
  std::optional<JsonValue> id;             // set for requests (number or string, echoed as is)
  bool is_request() const { return id.has_value(); }
  // Requests of a protocol whose peer may cancel them (WireRules::cancel): marked when the
  // peer does, read on the reading thread while this handler runs. Null otherwise. Typed
  // handlers reach it as rpckit::this_request::cancellation().
  std::shared_ptr<const Cancellation> cancellation;
  bool cancelled() const { return cancellation != nullptr && cancellation->requested(); }
  // Requests only: takes over the answer, which the returned Reply sends, now or later, from
  // any thread; what the handler then returns (or throws) is not sent. Once per request: a
  // second call, or a call for a notification, returns a Reply that answers nothing.
  Reply defer() const { return deferrer ? deferrer() : Reply(); }
  std::function<Reply()> deferrer;  // set by the endpoint
};

// Something the endpoint noticed about the peer that has no caller to return to: a response
// with an unknown id, an error answering a notification, a frame it could not parse...
struct Diagnostic {
  enum class Kind {
    kUnknownResponseId,   // response to no pending call (late, duplicate, or invented)
    kInvalidResponse,     // response that cannot be used (neither result nor error, too deep)
    kParseError,          // frame body is not JSON (answered -32700, or logged and dropped as
                          // the profile says; a flood is logged at a falling rate)
    kInvalidRequest,      // envelope is not a valid request (answered with -32600)
    kOversize,            // a frame over the cap, skipped (answered -32600 if the profile says)
    kLenientEnvelope,     // taken though JSON-RPC would refuse it (no "jsonrpc", a response id
                          // in the other form than sent, matched by ids.match string_form)
    kNotificationFailed,  // a notification's handler threw (no response is sent)
    kWriteFailed,         // a frame could not be written
    kObserverFailed,      // an observer, a call_async() completion, or a handler after
                          // deferring its reply threw; the endpoint carries on
    kUndeclared,          // a request for what this side did not declare of itself in the
                          // handshake, refused before its handler (profile gate_on_receipt)
  };
  Kind kind;
  std::string detail;
};

// Why the connection ended, once it has.
struct CloseReason {
  enum class Kind {
    kEof,        // the peer closed its end between frames
    kMalformed,  // a malformed frame (see framing::ReadStatus)
    kOversize,   // a frame over the size limit
    kIoError,    // reading failed
    kLocal,      // close() was called
  };
  Kind kind = Kind::kLocal;
  framing::ReadStatus read_status = framing::ReadStatus::kOk;
  std::string detail;
};

class Endpoint {
  using TimePoint = std::chrono::steady_clock::time_point;

 public:
  // A request's result (ignored for a notification), or throws an RpcError.
  using Handler = std::function<JsonValue(const Incoming&)>;

  struct Options {
    // The deadline of a call that names none (typed calls name their message's). None by
    // default: JSON-RPC sets no deadline, so such a call waits for its answer, the end of the
    // connection or close().
    std::optional<std::chrono::milliseconds> default_deadline;
    // Incoming messages waiting for the handler, by count and by frame bytes; when full the
    // reader stops reading, which pushes back on the peer through the pipe instead of growing
    // memory. A frame larger than max_queued_bytes is still taken when the queue is empty.
    std::size_t max_queued = 4096;
    std::size_t max_queued_bytes = std::size_t{8} << 20U;
    // How long a handler may run on the thread that read its message, with no calls
    // outstanding, before the other endpoint thread takes over reading (so read-ahead,
    // back-pressure and the end of the stream do not wait for it; responses never wait, as a
    // call hands reading over at once). Shorter costs a wake-up of the idle thread per period
    // while messages keep arriving: at 2 ms, events to 10 plugins on one core ran ~25% slower.
    std::chrono::milliseconds reading_takeover{50};
    // After a call() from a thread of the application, how long the endpoint threads leave
    // reading to the next such call(), which then reads its own answer (a round trip wakes two
    // threads, not three). Meanwhile what the peer sends waits in the pipe until a call reads
    // it (and hands it to the endpoint threads) or the lease ends; call_async(), a handler
    // running, or close() end the lease at once. Only where the reader can give up at a
    // deadline (framing::FrameReader::set_deadline: InterruptibleFdSource, MemoryPipeSource)
    // and interrupt_reader is set. 0: off.
    std::chrono::microseconds reading_lease{1000};
    // Unblocks the reading thread's read() (e.g. framing::InterruptibleFdSource::interrupt or
    // MemoryPipeSource::close). Without it, close() still fails pending calls at once, but the
    // destructor waits for the peer to close its end.
    std::function<void()> interrupt_reader;
    // The protocol's rules for this side (ids, leniency, what bad input gets): a generated
    // profile's, through rpckit::roles::connection_rules(); JSON-RPC's own by default.
    WireRules rules;
  };

  Endpoint(std::unique_ptr<framing::FrameReader> reader,
           std::unique_ptr<framing::FrameWriter> writer, Options options);
  Endpoint(std::unique_ptr<framing::FrameReader> reader,
           std::unique_ptr<framing::FrameWriter> writer);
  ~Endpoint();  // close() and join
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  void set_handler(Handler handler);
  void on_diagnostic(std::function<void(const Diagnostic&)> observer);
  // A diagnostic a layer above found in what the peer sent (a role that refuses a request on
  // receipt: Diagnostic::Kind::kUndeclared), to the same observer at the falling rate of the
  // endpoint's own (the first ten, then the 100th, 1000th, ... of all reported), so a peer's
  // flood cannot flood the log. Any thread.
  void report(Diagnostic::Kind kind, const std::string& detail);
  // Called once, from the endpoint thread that was reading, when the connection ends.
  void on_close(std::function<void(const CloseReason&)> observer);
  // Every frame read or written (body text), for transcripts and debugging, in the order the
  // frames crossed the pipe: an outgoing frame is observed just before it is written (writes
  // in observation order), so a peer's answer is never observed ahead of what it answers. The
  // observer must not send on this endpoint. It runs on the reading thread: an endpoint
  // thread, or a thread in call() that reads its own answer (Options::reading_lease).
  void on_frame(std::function<void(bool outgoing, std::string_view body)> observer);

  void start();

  // Sends a request and waits for the response or the deadline (default_deadline if none;
  // with neither, until the answer or the end of the connection). `options` may also ask the
  // peer for progress reports (CallOptions: a deadline converts to it).
  CallResult call(std::string_view method, const std::optional<JsonValue>& params,
                  const CallOptions& options = {});
  // Sends a request and returns at once: no thread waits for the answer. `done` runs exactly
  // once: on the endpoint thread that read the response, on an endpoint thread at the deadline
  // (late while both are busy with a handler that does not wait on the peer), on the thread
  // that closes the connection, on the thread that cancels the call (AsyncCall::cancel), or
  // here at once when the request cannot be sent. It must not block: it may call
  // call_async(), notify(), cancel and close(), not call().
  using Completion = std::function<void(CallResult)>;
  AsyncCall call_async(std::string_view method, const std::optional<JsonValue>& params,
                       Completion done, const CallOptions& options = {});
  // Sends a notification; false when it could not be written.
  bool notify(std::string_view method, const std::optional<JsonValue>& params);

  // call(), call_async() and notify() with the params already encoded: `params_json` is the
  // text of one JSON value, spliced into the envelope as it is (the typed layer writes it
  // with the generated direct encoders, so no DOM is built). The caller vouches that it is
  // JSON; the frames are byte for byte what the JsonValue overloads send for the same value.
  CallResult call_encoded(std::string_view method, std::optional<std::string_view> params_json,
                          const CallOptions& options = {});
  AsyncCall call_async_encoded(std::string_view method, std::optional<std::string_view> params_json,
                               Completion done, const CallOptions& options = {});
  bool notify_encoded(std::string_view method, std::optional<std::string_view> params_json);
  // Several notifications in order, written together (one writev): what a sender draining
  // its queue sends. False when any could not be written.
  struct EncodedNotification {
    std::string_view method;
    std::optional<std::string_view> params_json;
  };
  bool notify_encoded_many(std::span<const EncodedNotification> notifications);

  // Stops reading, fails pending calls with kDisconnected, lets the running handler finish.
  // Safe from any thread, including a handler; idempotent.
  void close();
  // Blocks until the connection has ended (peer EOF, bad frame, or close()) and what was
  // queued has been handled.
  CloseReason wait();
  bool closed() const { return closed_.load(); }
  // From now on every frame read is dropped unanswered (requests, non-JSON, over-long ones
  // alike) and reading goes on to the end of the stream: a spawned side that ignores input
  // after answering shutdown. Calls and replies already under way still complete.
  void ignore_input() { ignoring_input_.store(true); }
  // Waits at most `timeout` for reading to end (the peer's end of stream, a bad frame, or
  // close()); whether it has.
  bool wait_done_reading(std::chrono::milliseconds timeout);
  // Waits while messages already read are still being handled (queued, or a handler running),
  // for as long as that makes progress: returns once all are handled or the connection is
  // closed (true), or when no handler has finished for `stall` (one is blocked, on the
  // application say) or `bound` has passed (false). What a peer sent before it went away is
  // then served before the connection is torn down, and a blocked handler holds that up for
  // `stall` at most.
  bool wait_handled(std::chrono::milliseconds stall, std::chrono::milliseconds bound);

 private:
  using Received = detail::ReceivedFrame;
  using Completions = std::vector<std::pair<Completion, CallResult>>;

  // ---- the two endpoint threads (reading.cpp): who reads, who runs handlers -------------
  // Both run work(): take the reading role when it is free, read while holding it (running
  // inline what needs no hand-off), keep call_async() deadlines and watch long handlers when
  // idle.
  void work(int worker);
  // Reads until reading ends or the role passes to the other thread; lock held on both ends.
  void read_while_holding(int worker, std::unique_lock<std::mutex>& lock);
  // A request or notification read by `worker`: run now on this thread (nothing running,
  // nothing queued), or queued for the thread running handlers.
  void accept_incoming(int worker, Received message);
  // Runs `message` on the thread that read it, then what was queued meanwhile; lock held on
  // both ends, released while handlers run.
  void run_in_place(int worker, std::unique_lock<std::mutex>& lock, Received& message);
  // Someone needs frames read (a call waits, or may soon) while the holder of the reading role
  // runs a handler instead: the idle endpoint thread takes the role now. Under mutex_.
  void need_reader();
  // Runs one queued message if there is one; the lock is released while the handler runs.
  bool dispatch_one(std::unique_lock<std::mutex>& lock);
  // A handler has finished: counted for wait_handled(). Under mutex_.
  void note_handled();
  // Reading has ended: every call learns it, the close observer is told.
  void finish(const CloseReason& reason);

  // ---- a thread in call() reading its own answer (caller_reading.cpp) -------------------
  // The reading role may be left to call(): a lease is running, and nothing else needs an
  // endpoint thread to read (no call_async() call, no handler, nothing queued). Under mutex_.
  bool leased(TimePoint now) const;
  // The calling thread may read for itself (not an endpoint thread; the reader can time out).
  bool caller_may_read() const;
  // Reads one frame as the caller, until `until`, lock held on both ends: a response to a
  // call() is taken here; anything else goes to the endpoint threads (handed_), in order.
  void read_as_caller(std::unique_lock<std::mutex>& lock, TimePoint until);
  // A response to a call() (not call_async()) still waiting: recorded and settled (kYes).
  // kRecordedOnly: its call ended between the look and the settling.
  enum class Taken { kNo, kYes, kRecordedOnly };
  Taken take_response(std::string& body);
  // The calling thread stops reading: the role is parked again or goes to an endpoint thread.
  void release_as_caller();
  // The role, parked or held by a caller, goes to the endpoint threads; the lease ends. Under
  // mutex_.
  void give_role_to_workers();

  // ---- what arrives (incoming.cpp): JSON-RPC's rules and the profile's ------------------
  ScanRules scan_rules() const;  // the profile's, for scan_envelope()
  void handle_frame(int worker, std::string body);
  void handle_response(Received response);
  void fail_pending(const nlohmann::json& id, const std::string& reason);
  void handle_incoming(Received& message);
  // The profile's cancel notification, read: the request it names is marked (WireRules::cancel).
  void note_cancel(const Received& notification);
  // The profile's progress notification, read: the call it names has its deadline restarted
  // and its observer attached to the notification, when the call asked (WireRules::progress).
  void note_progress(Received& notification);
  // Tells the peer that this side gave up its call `id` (the profile's cancel notification;
  // nothing when it has none or `method` is the one never cancelled).
  void send_cancel(std::int64_t id, std::string_view method, std::string_view reason);
  // A call given up at its deadline: cancelled where the profile says so (on_timeout).
  void cancel_overdue(std::int64_t id, std::string_view method, std::chrono::milliseconds timeout);
  // AsyncCall::cancel(): call `id` taken out of the pending calls, the peer told; its
  // completion and the error it ends with, or nothing when it is over already.
  std::optional<std::pair<Completion, CallResult>> give_up(std::int64_t id,
                                                           std::string_view reason);
  // The one response to a request: its result or its error (a short -32603 in its place
  // when it cannot be written, e.g. a result over the frame cap).
  bool respond(const nlohmann::json& id, const std::string& method,
               const nlohmann::json* result, const RpcError* error);
  bool send_error(const nlohmann::json& id, const RpcError& error);
  // The profile's data on an error that has none (ErrorReasons); `batch` for a batch array.
  RpcError with_reason(const RpcError& error, bool batch = false) const;
  // -32600 with a null id, for input that has no id to answer with.
  void answer_invalid(const std::string& reason, bool batch = false);
  // Input the profile drops: counted, and logged at a falling rate (the first ten, then
  // the 100th, 1000th, ...), so a flood cannot flood the log.
  void diagnose_dropped(Diagnostic::Kind kind, std::uint64_t& count, const std::string& what);
  // A settled call's outcome, parsed on the thread that takes it.
  CallResult resolve(std::string_view method, const detail::PendingCall& done) const;

  // ---- what goes out (outgoing.cpp) ------------------------------------------------------
  std::string request_frame(std::int64_t id, std::string_view method,
                            std::optional<std::string_view> params_json) const;
  // The request frame of a call that asks for progress (its id as the token), or not.
  std::string call_frame(std::int64_t id, std::string_view method,
                         std::optional<std::string_view> params_json,
                         const CallOptions& options) const;
  // A new pending call's progress wishes (under mutex_), `sent` when its deadline started.
  void arm_progress(std::int64_t id, const CallOptions& options,
                    std::chrono::steady_clock::time_point sent);
  bool send_text(std::string_view body);
  bool send_texts(std::span<const std::string_view> bodies);
  // call_async() deadlines: completes the overdue calls (lock released meanwhile).
  void expire_async(std::unique_lock<std::mutex>& lock);
  Completions take_async_all();  // under mutex_: the connection ended
  void complete(Completions&& completions);

  void diagnose(Diagnostic::Kind kind, std::string detail);
  bool runs_handlers() const { return handler_thread_ == std::this_thread::get_id(); }
  void record_frame(bool outgoing, std::string_view body);

  std::unique_ptr<framing::FrameReader> reader_;
  std::unique_ptr<framing::FrameWriter> writer_;
  Options options_;
  Handler handler_;
  std::function<void(const Diagnostic&)> diagnostic_observer_;
  std::function<void(const CloseReason&)> close_observer_;
  std::function<void(bool, std::string_view)> frame_observer_;
  std::mutex observed_write_mutex_;  // an observed frame and its write, as one step

  static constexpr int kNoWorker = -1;
  static constexpr int kParked =
      -2;  // free for a call(); an endpoint thread takes it at the lease's end
  static constexpr int kCaller = -3;  // a thread in call() reads

  std::mutex mutex_;  // guards everything below
  // Waited on by the idle endpoint thread: the reading role free, reading over, closing, an
  // earlier call_async() deadline than the one it sleeps until (idle_until_).
  std::condition_variable workers_changed_;
  // Waited on in call() and wait_done_reading(): a response, the end of the connection, a
  // message queued for the thread running handlers (it keeps serving while it waits).
  std::condition_variable callers_changed_;
  // Waited on by a reader whose queue is full: room in it, or closing.
  std::condition_variable room_changed_;
  // Waited on in wait_handled(): a handler finished (handled_count_), or closing.
  std::condition_variable handled_;
  std::uint64_t handled_count_ = 0;  // messages handled by the thread running handlers
  detail::PendingCalls pending_;
  std::deque<Received> queue_;
  std::size_t queued_bytes_ = 0;
  int reading_holder_ = kNoWorker;  // the endpoint thread reading; none: the idle one takes it
  bool reading_suspended_ = false;  // the holder runs a handler it read instead of reading
  std::uint64_t suspensions_ = 0;   // how many times it has (the idle thread watches them)
  bool idle_armed_ = false;  // the idle thread looks every Options::reading_takeover
  std::thread::id handler_thread_;  // the thread running handlers now (at most one)
  // Each endpoint thread's wake-up while idle (min: it is not idle).
  TimePoint idle_until_[2] = {TimePoint::min(), TimePoint::min()};
  TimePoint lease_until_ = TimePoint::min();   // Options::reading_lease, from the last call()
  int lease_watcher_ = kNoWorker;              // the endpoint thread that parked the role
  TimePoint lease_watch_ = TimePoint::max();   // when it looks again at the lease
  struct Handed {
    framing::ReadResult frame;
    bool recorded = false;  // the frame observer has seen it
  };
  std::optional<Handed> handed_;               // read by a caller, for the next holder
  bool reader_times_out_ = false;              // FrameReader::set_deadline works
  bool reading_done_ = false;
  std::optional<CloseReason> close_reason_;
  // Reading thread only: frames not JSON and over the cap so far (their log falls off), and
  // whether a lenient envelope was logged.
  std::uint64_t dropped_not_json_ = 0;
  std::uint64_t dropped_oversize_ = 0;
  std::uint64_t stray_responses_ = 0;
  std::uint64_t other_form_ids_ = 0;
  bool lenient_logged_ = false;
  std::atomic<std::uint64_t> reported_{0};  // report()'s, from any thread

  std::shared_ptr<detail::ReplyOutbox> outbox_;  // deferred replies send through it
  std::shared_ptr<detail::CallCanceller> canceller_;  // AsyncCall handles cancel through it
  // The peer's requests not yet answered, when the profile lets it cancel them (else null).
  std::shared_ptr<detail::InFlightRequests> in_flight_;
  std::atomic<bool> closed_{false};
  std::atomic<bool> ignoring_input_{false};
  std::atomic<bool> started_{false};
  std::thread workers_[2];
};

}  // namespace rpckit
