#pragma once
// Router<Direction>: one typed handler per message of a generated direction (e.g.
// streamnook::v1::HostToPlugin), and route(), which turns (method, params JSON) into a
// decoded, typed handler call and an encoded result in one step.
//
//   rpckit::Router<HostToPlugin> router;
//   router.on<messages::Ping>([](const PingParams&) { return PingResult{}; });
//   router.on<messages::OnStreamStart>([](const OnStreamStartParams& p) { ... });
//   RouteResult r = router.route("ping", &params_json);
//
// Handlers registered for a message outside the direction, or with the wrong signature, do
// not compile. Exceptions thrown by a handler (e.g. a typed rpckit::RpcError) propagate to
// the caller, which owns the error policy. Not thread-safe for registration; route() is
// const and may run concurrently once registration is done.
#include <array>
#include <cstddef>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "rpckit/codec/decode_error.hpp"
#include "rpckit/codec/json_writer.hpp"
#include "rpckit/codec/lazy_json.hpp"
#include "rpckit/codec/text_decoder.hpp"
#include "rpckit/codec/value_codec.hpp"
#include "rpckit/descriptors/message.hpp"
#include "rpckit/values/json_value.hpp"

namespace rpckit {

struct RouteResult {
  enum class Status {
    kOk,             // handled; `result` holds the encoded result (null for notifications)
    kUnknownMethod,  // no such message in this direction
    kNoHandler,      // a known message nobody registered a handler for
    kInvalidParams,  // params failed to decode; `error` says where and why
  };
  Status status = Status::kOk;
  bool request = false;  // the message is a request (it expects a response)
  JsonValue result;
  std::string error;
};

namespace detail {

// The index of M in the list, or of the message M derives from: a descriptor of x-result-when
// (messages::ToolsCallWithTask : ToolsCall) routes through its message's slot.
template <class M, class List>
struct IndexOf;
template <class M, class... Ms>
struct IndexOf<M, MessageList<Ms...>> {
  static constexpr std::size_t find() {
    constexpr bool matches[] = {(std::is_same_v<M, Ms> || std::is_base_of_v<Ms, M>)...};
    for (std::size_t i = 0; i < sizeof...(Ms); ++i) {
      if (matches[i]) return i;
    }
    return sizeof...(Ms);
  }
  static constexpr std::size_t value = find();
};

template <std::size_t I, class List>
struct MessageAt;
template <std::size_t I, class... Ms>
struct MessageAt<I, MessageList<Ms...>> {
  using type = std::tuple_element_t<I, std::tuple<Ms...>>;
};

// A request whose result a param chooses (x-result-when): its descriptor says which.
template <class M>
concept ChoosesResult = requires(const typename M::Params& params) {
  M::answered_by(params);
};

}  // namespace detail

// Decodes the params of message M as its descriptor says: absent or null params are the
// default object when the message allows it. Throws codec::DecodeError ("params.x: ...").
// Required params that are absent are "params: missing required field"; present but null,
// "params: expected object, got null" (the codec's distinction for every other field).
// Params that are wire text are decoded from it with no DOM (codec::decode_text, the same
// values and errors).
template <class M>
typename M::Params decode_params(const LazyJson& params) {
  typename M::Params out{};
  if (!params.present()) {
    if (M::kParamsPresence != ParamsPresence::kRequired) return out;
    throw codec::DecodeError("params", "missing required field");
  }
  if (std::optional<std::string_view> text = params.text()) {
    if (M::kParamsPresence != ParamsPresence::kRequired && codec::is_null_text(*text)) return out;
    codec::decode_text(*text, out, "params");
    return out;
  }
  if (codec::is_null(*params) && M::kParamsPresence != ParamsPresence::kRequired) return out;
  codec::decode_from(*params, out, "params");
  return out;
}

// Whether params of M are left out: optional ones that say nothing (every member unset). Params
// with a member set always go (MCP's tools/list with a cursor).
template <class M>
bool omits_params(const typename M::Params& params) {
  return M::kParamsPresence == ParamsPresence::kOptionalOmit && params == typename M::Params{};
}

// Params JSON to send for message M: nullptr when the descriptor says to omit them.
template <class M>
std::optional<JsonValue> encode_params(const typename M::Params& params) {
  if (omits_params<M>(params)) return std::nullopt;
  return codec::encode(params);
}

// The same params as JSON text, written by the generated direct encoder (no DOM): what
// the typed calls send. Byte for byte the dump() of encode_params<M>.
template <class M>
std::optional<std::string> encode_params_text(const typename M::Params& params) {
  if (omits_params<M>(params)) return std::nullopt;
  return codec::to_json_text(params);
}

template <class Direction>
class Router {
  using Messages = typename Direction::Messages;
  // Decodes params and calls the typed handler; on a decode failure it sets *decode_error
  // and does not call the handler (a handler's own exceptions pass through untouched).
  // Nothing when no handler answers these params (route() says kNoHandler).
  using Erased =
      std::function<std::optional<JsonValue>(const LazyJson&, std::string* decode_error)>;

 public:
  // Registers the handler of message M: `Result(const Params&)` for a request,
  // `void(const Params&)` for a notification. Replaces an earlier handler.
  //
  // M may also be a descriptor of x-result-when (messages::ToolsCallWithTask): the handler of
  // the params that carry its member, returning its Result, or std::optional of it where the
  // receiver may decline (nullopt: the request's own handler answers, as MCP's receiver that
  // does not take task-augmented requests processes them normally).
  template <class M, class F>
  void on(F&& handler) {
    constexpr std::size_t index = detail::IndexOf<M, Messages>::value;
    static_assert(index < Messages::kSize, "message M is not in this direction");
    using Params = typename M::Params;
    if constexpr (M::kKind == MessageKind::kRequest) {
      using Result = typename M::Result;
      if constexpr (detail::ChoosesResult<M>) {
        using Own = typename detail::MessageAt<index, Messages>::type;
        Choices<Own>& choices = choices_of<Own>(index);
        if constexpr (std::is_same_v<M, Own>) {
          static_assert(std::is_invocable_r_v<Result, F&, const Params&>,
                        "a request handler takes const Params& and returns M::Result");
          choices.own = std::forward<F>(handler);
        } else {
          static_assert(std::is_invocable_r_v<Result, F&, const Params&> ||
                            std::is_invocable_r_v<std::optional<Result>, F&, const Params&>,
                        "an x-result-when handler takes const Params& and returns M::Result "
                        "or std::optional of it");
          choices.set(M::answered_by, std::forward<F>(handler), std::type_identity<Result>());
        }
      } else {
        static_assert(std::is_invocable_r_v<Result, F&, const Params&>,
                      "a request handler takes const Params& and returns M::Result");
        handlers_[index] = [h = std::forward<F>(handler)](
                               const LazyJson& params,
                               std::string* decode_error) mutable -> std::optional<JsonValue> {
          std::optional<Params> decoded = try_decode<M>(params, decode_error);
          if (!decoded) return JsonValue();
          return codec::encode(static_cast<Result>(h(*decoded)));
        };
      }
    } else {
      static_assert(std::is_invocable_v<F&, const Params&>,
                    "a notification handler takes const Params&");
      handlers_[index] = [h = std::forward<F>(handler)](
                             const LazyJson& params,
                             std::string* decode_error) mutable -> std::optional<JsonValue> {
        std::optional<Params> decoded = try_decode<M>(params, decode_error);
        if (decoded) h(*decoded);
        return JsonValue();
      };
    }
  }

  bool has_handler(std::string_view method) const {
    auto index = Direction::find(method);
    return index && static_cast<bool>(handlers_[*index]);
  }

  // Routes one incoming message. `params` is absent (null) when the envelope has none; wire
  // text (Incoming::params) is decoded straight into the typed params.
  RouteResult route(std::string_view method, const LazyJson& params) const {
    RouteResult out;
    auto index = Direction::find(method);
    if (!index) {
      out.status = RouteResult::Status::kUnknownMethod;
      out.error = "unknown method \"" + std::string(method) + "\"";
      return out;
    }
    Direction::visit(method, [&out]<class M>() { out.request = M::kKind == MessageKind::kRequest; });
    const Erased& handler = handlers_[*index];
    if (!handler) {
      out.status = RouteResult::Status::kNoHandler;
      out.error = "no handler for \"" + std::string(method) + "\"";
      return out;
    }
    std::string decode_error;
    std::optional<JsonValue> result = handler(params, &decode_error);
    if (!decode_error.empty()) {
      out.status = RouteResult::Status::kInvalidParams;
      out.error = std::string(method) + ": " + decode_error;
    } else if (!result) {
      out.status = RouteResult::Status::kNoHandler;
      out.error = "no handler for \"" + std::string(method) + "\" with these params";
    } else {
      out.result = std::move(*result);
    }
    return out;
  }

 private:
  // The handlers of a request whose result a param chooses: its own, and one per x-result-when
  // descriptor (each knows, by its answered_by(), which params are its). Held by value in the
  // erased slot, so a copy of the router copies them.
  template <class M>
  struct Choices {
    using Params = typename M::Params;
    using Chooser = std::string_view (*)(const Params&) noexcept;
    struct Other {
      Chooser answered_by;  // "" for the params this handler answers
      std::function<std::optional<JsonValue>(const Params&)> run;
    };
    std::function<typename M::Result(const Params&)> own;
    std::vector<Other> others;

    template <class F, class Result>
    void set(Chooser answered_by, F&& handler, std::type_identity<Result>) {
      std::function<std::optional<JsonValue>(const Params&)> run =
          [h = std::forward<F>(handler)](const Params& params) mutable -> std::optional<JsonValue> {
        if constexpr (std::is_invocable_r_v<Result, decltype(h)&, const Params&>) {
          return codec::encode(static_cast<Result>(h(params)));
        } else {
          std::optional<Result> answered = h(params);
          if (!answered) return std::nullopt;
          return codec::encode(*answered);
        }
      };
      for (Other& other : others) {
        if (other.answered_by == answered_by) {
          other.run = std::move(run);
          return;
        }
      }
      others.push_back({answered_by, std::move(run)});
    }

    std::optional<JsonValue> operator()(const LazyJson& params, std::string* decode_error) {
      std::optional<Params> decoded = try_decode<M>(params, decode_error);
      if (!decoded) return JsonValue();
      for (Other& other : others) {
        if (other.answered_by(*decoded).empty()) {
          if (std::optional<JsonValue> answered = other.run(*decoded)) return answered;
          break;  // declined: answered as if the member were not there
        }
      }
      if (!own) return std::nullopt;
      return codec::encode(own(*decoded));
    }
  };

  template <class M>
  Choices<M>& choices_of(std::size_t index) {
    if (Choices<M>* held = handlers_[index].template target<Choices<M>>()) return *held;
    handlers_[index] = Choices<M>();
    return *handlers_[index].template target<Choices<M>>();
  }

  template <class M>
  static std::optional<typename M::Params> try_decode(const LazyJson& params,
                                                      std::string* decode_error) {
    try {
      return decode_params<M>(params);
    } catch (const codec::DecodeError& e) {
      *decode_error = e.what();
      return std::nullopt;
    }
  }

  std::array<Erased, Messages::kSize> handlers_{};
};

}  // namespace rpckit
