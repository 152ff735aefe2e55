#pragma once
// The decoders fuzz targets' work, for any protocol's generated bindings: the first byte picks a
// message of either direction; the rest is JSON text, decoded as that message's params (and,
// for a request, as its result) the way the endpoint hands them over: validated by JsonReader
// first, then parsed. Whatever decodes must encode and decode back to an equal value
// (absent/null/value, open enums and unions included), and a collecting decode agrees with the
// strict one. The text codecs agree with the DOM codecs: the streaming decoder gives the same
// value or the same error, and the direct encoder the same bytes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rpckit/codec/json_reader.hpp"
#include "rpckit/codec/lazy_json.hpp"
#include "rpckit/dispatch/router.hpp"

namespace decoders_fuzz {

inline void check(bool condition) {
  if (!condition) std::abort();
}

// A collecting decode finds the strict decode's error first (then maybe more), and nothing
// when the strict decode succeeds, with the same value.
template <class T>
void compare_collecting(const nlohmann::json& j) {
  using rpckit::codec::decode;
  std::optional<std::string> first;
  T strict{};
  try {
    rpckit::codec::DecodePath path("result");
    decode(j, strict, path);
  } catch (const rpckit::codec::DecodeError& e) {
    first = e.what();
  }
  std::vector<rpckit::codec::DecodeError> problems;
  T collected{};
  rpckit::codec::DecodePath path("result");
  path.collect_into(&problems);
  try {
    decode(j, collected, path);
  } catch (const rpckit::codec::DecodeError& e) {
    check(problems.empty());  // only the root's own kind still throws, before anything else
    problems.push_back(e);
  }
  check(first.has_value() == !problems.empty());
  if (first) {
    check(*first == problems.front().what());
  } else {
    check(collected == strict);
  }
}

// decode_text (the endpoint's path: the params' wire text) against decode on the DOM.
template <class M>
void compare_text_decoder(const nlohmann::json& j, std::string_view text) {
  std::optional<typename M::Params> from_dom;
  std::string dom_error;
  try {
    from_dom = rpckit::decode_params<M>(&j);
  } catch (const rpckit::codec::DecodeError& e) {
    dom_error = e.what();
  }
  std::optional<typename M::Params> from_text;
  std::string text_error;
  try {
    from_text = rpckit::decode_params<M>(rpckit::LazyJson::of_text(text));
  } catch (const rpckit::codec::DecodeError& e) {
    text_error = e.what();
  }
  check(text_error == dom_error);
  check(from_dom.has_value() == from_text.has_value());
  if (!from_dom) return;
  check(*from_text == *from_dom);
  // The direct encoder writes what to_json + dump writes.
  if (std::optional<std::string> direct = rpckit::encode_params_text<M>(*from_dom)) {
    nlohmann::json dom;
    rpckit::codec::encode_into(dom, *from_dom);
    check(*direct == dom.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
}

template <class M>
void exercise(const nlohmann::json& j, std::string_view text) {
  compare_text_decoder<M>(j, text);
  try {
    typename M::Params params = rpckit::decode_params<M>(&j);
    std::optional<nlohmann::json> encoded = rpckit::encode_params<M>(params);
    typename M::Params again = rpckit::decode_params<M>(encoded ? &*encoded : nullptr);
    check(again == params);
  } catch (const rpckit::codec::DecodeError&) {
  }
  if constexpr (M::kKind == rpckit::MessageKind::kRequest) {
    compare_collecting<typename M::Result>(j);
    using rpckit::codec::decode;  // generated types by ADL
    try {
      typename M::Result result{};
      rpckit::codec::DecodePath path("result");
      decode(j, result, path);
      nlohmann::json encoded = result;
      typename M::Result again{};
      rpckit::codec::DecodePath path_again("result");
      decode(encoded, again, path_again);
      check(again == result);
    } catch (const rpckit::codec::DecodeError&) {
    }
  }
}

using Exercise = void (*)(const nlohmann::json&, std::string_view);

// Every message of both directions, in dispatch-table order: the first byte's choices.
template <class... As, class... Bs>
constexpr auto tables(rpckit::MessageList<As...>, rpckit::MessageList<Bs...>) {
  return std::array<Exercise, sizeof...(As) + sizeof...(Bs)>{&exercise<As>..., &exercise<Bs>...};
}

template <std::size_t N>
int run(const std::array<Exercise, N>& table, const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    rpckit::codec::validate_json(text);
  } catch (const rpckit::codec::JsonError&) {
    return 0;
  }
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  check(!j.is_discarded());
  table[data[0] % N](j, text);
  return 0;
}

}  // namespace decoders_fuzz
