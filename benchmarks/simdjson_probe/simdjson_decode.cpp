#include "simdjson_decode.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rpckit/codec/codec.hpp"  // check_date_time, as the generated read_json() calls it
#include "rpckit/codec/decode_error.hpp"

namespace rpckit::simdjson_probe {
namespace {

namespace od = simdjson::ondemand;
namespace dom = simdjson::dom;
namespace v1 = streamnook::v1;
using codec::DecodePath;
using simdjson::SUCCESS;

// Every overload first, so that the templates below find them all. `Value`: od::value (a
// cursor into the text) or dom::element (a node of the parsed tape).
bool read(od::value& v, std::string& out);
bool read(od::value& v, bool& out);
bool read_int64(od::value& v, std::int64_t& out);
bool is_null(od::value& v, bool& null);
bool read(dom::element& v, std::string& out);
bool read(dom::element& v, bool& out);
bool read_int64(dom::element& v, std::int64_t& out);
bool is_null(dom::element& v, bool& null);
template <class Value>
bool read(Value& v, std::int64_t& out);
template <class Value>
bool read(Value& v, std::uint32_t& out);
template <class Value, class T>
bool read(Value& v, Nullable<T>& out);
template <class Value>
bool read(Value& v, v1::Channel& out);
template <class Value>
bool read(Value& v, v1::Badge& out);
template <class Value>
bool read(Value& v, v1::ChatMessage& out);
template <class Value>
bool read(Value& v, v1::OnWatchTickParams& out);
template <class Value>
bool read(Value& v, v1::OnChatMessageParams& out);
template <class Value>
bool read(Value& v, v1::OnFollowedLiveParams& out);

// ---- on-demand primitives and containers --------------------------------------------------

bool read(od::value& v, std::string& out) {
  std::string_view s;  // unescaped into the parser's string buffer (escapes checked here)
  if (v.get_string().get(s) != SUCCESS) return false;
  out.assign(s);
  return true;
}

bool read(od::value& v, bool& out) { return v.get_bool().get(out) == SUCCESS; }

// An integer written as one (no fraction, no exponent), as codec::read_int64.
bool read_int64(od::value& v, std::int64_t& out) { return v.get_int64().get(out) == SUCCESS; }

// Consumes the value only if it is null.
bool is_null(od::value& v, bool& null) { return v.is_null().get(null) == SUCCESS; }

template <class T>
bool read(od::value& v, std::vector<T>& out) {
  od::array array;
  if (v.get_array().get(array) != SUCCESS) return false;
  out.clear();
  for (auto element : array) {
    od::value item;
    if (element.get(item) != SUCCESS) return false;
    out.emplace_back();
    if (!read(item, out.back())) return false;
  }
  return true;
}

// Calls member(key, value) for each member in order (keys unescaped, as JsonReader does);
// false at the first error. A member the callback does not read is skipped by simdjson.
template <class Member>
bool read_object(od::value& v, Member&& member) {
  od::object object;
  if (v.get_object().get(object) != SUCCESS) return false;
  for (auto field : object) {
    std::string_view key;
    if (field.unescaped_key().get(key) != SUCCESS) return false;
    od::value value;
    if (field.value().get(value) != SUCCESS) return false;
    if (!member(key, value)) return false;
  }
  return true;
}

// ---- DOM primitives and containers --------------------------------------------------------

bool read(dom::element& v, std::string& out) {
  std::string_view s;
  if (v.get_string().get(s) != SUCCESS) return false;
  out.assign(s);
  return true;
}

bool read(dom::element& v, bool& out) { return v.get_bool().get(out) == SUCCESS; }

bool read_int64(dom::element& v, std::int64_t& out) { return v.get_int64().get(out) == SUCCESS; }

bool is_null(dom::element& v, bool& null) {
  null = v.is_null();
  return true;
}

template <class T>
bool read(dom::element& v, std::vector<T>& out) {
  dom::array array;
  if (v.get_array().get(array) != SUCCESS) return false;
  out.clear();  // no reserve(array.size()): the same growth as the other decoders
  for (dom::element item : array) {
    out.emplace_back();
    if (!read(item, out.back())) return false;
  }
  return true;
}

template <class Member>
bool read_object(dom::element& v, Member&& member) {
  dom::object object;
  if (v.get_object().get(object) != SUCCESS) return false;
  for (dom::key_value_pair field : object) {
    if (!member(field.key, field.value)) return false;
  }
  return true;
}

// ---- shared -------------------------------------------------------------------------------

template <class Value>
bool read(Value& v, std::int64_t& out) {
  return read_int64(v, out);
}

template <class Value>
bool read(Value& v, std::uint32_t& out) {
  std::int64_t n = 0;
  if (!read_int64(v, n) || n < 0 || n > std::numeric_limits<std::uint32_t>::max()) return false;
  out = static_cast<std::uint32_t>(n);
  return true;
}

template <class Value, class T>
bool read(Value& v, Nullable<T>& out) {
  bool null = false;
  if (!is_null(v, null)) return false;
  if (null) {
    out.reset();
    return true;
  }
  T value{};
  if (!read(v, value)) return false;
  out = std::move(value);
  return true;
}

// Marks required member `bit` as seen; true, for chaining with &&.
bool seen_bit(std::uint32_t& seen, unsigned bit) {
  seen |= std::uint32_t{1} << bit;
  return true;
}

constexpr std::uint32_t all_bits(unsigned count) { return (std::uint32_t{1} << count) - 1; }

// ---- the structs --------------------------------------------------------------------------

template <class Value>
bool read(Value& v, v1::Channel& out) {
  std::uint32_t seen = 0;
  const bool ok = read_object(v, [&](std::string_view key, Value& value) {
    if (key == "channel_id") return seen_bit(seen, 0) && read(value, out.channel_id);
    if (key == "login") return seen_bit(seen, 1) && read(value, out.login);
    if (key == "display_name") return seen_bit(seen, 2) && read(value, out.display_name);
    if (key == "game_id") return seen_bit(seen, 3) && read(value, out.game_id);
    if (key == "game_name") return seen_bit(seen, 4) && read(value, out.game_name);
    if (key == "started_at") return seen_bit(seen, 5) && read(value, out.started_at);
    if (key == "viewer_count") return seen_bit(seen, 6) && read(value, out.viewer_count);
    return true;  // unknown: on-demand skips it unvalidated
  });
  if (!ok || seen != all_bits(7)) return false;
  DecodePath path;  // as the generated read_json(): one DecodePath per struct checked
  {
    DecodePath::Key scope(path, "started_at");
    if (out.started_at.has_value()) codec::check_date_time(*out.started_at, path);
  }
  return true;
}

template <class Value>
bool read(Value& v, v1::Badge& out) {
  std::uint32_t seen = 0;
  const bool ok = read_object(v, [&](std::string_view key, Value& value) {
    if (key == "name") return seen_bit(seen, 0) && read(value, out.name);
    if (key == "version") return seen_bit(seen, 1) && read(value, out.version);
    return true;
  });
  return ok && seen == all_bits(2);
}

template <class Value>
bool read(Value& v, v1::ChatMessage& out) {
  std::uint32_t seen = 0;
  const bool ok = read_object(v, [&](std::string_view key, Value& value) {
    if (key == "id") return seen_bit(seen, 0) && read(value, out.id);
    if (key == "user_id") return seen_bit(seen, 1) && read(value, out.user_id);
    if (key == "login") return seen_bit(seen, 2) && read(value, out.login);
    if (key == "display_name") return seen_bit(seen, 3) && read(value, out.display_name);
    if (key == "color") return seen_bit(seen, 4) && read(value, out.color);
    if (key == "badges") return seen_bit(seen, 5) && read(value, out.badges);
    if (key == "text") return seen_bit(seen, 6) && read(value, out.text);
    if (key == "is_action") return seen_bit(seen, 7) && read(value, out.is_action);
    if (key == "msg_type") return seen_bit(seen, 8) && read(value, out.msg_type);
    if (key == "system_message") return seen_bit(seen, 9) && read(value, out.system_message);
    if (key == "bits") return seen_bit(seen, 10) && read(value, out.bits);
    if (key == "ts") return seen_bit(seen, 11) && read(value, out.ts);
    return true;
  });
  if (!ok || seen != all_bits(12)) return false;
  DecodePath path;
  {
    DecodePath::Key scope(path, "ts");
    codec::check_date_time(out.ts, path);
  }
  return true;
}

template <class Value>
bool read(Value& v, v1::OnWatchTickParams& out) {
  std::uint32_t seen = 0;
  const bool ok = read_object(v, [&](std::string_view key, Value& value) {
    if (key == "active_channel_id") return seen_bit(seen, 0) && read(value, out.active_channel_id);
    if (key == "ts") return seen_bit(seen, 1) && read(value, out.ts);
    return true;
  });
  if (!ok || seen != all_bits(2)) return false;
  DecodePath path;
  {
    DecodePath::Key scope(path, "ts");
    codec::check_date_time(out.ts, path);
  }
  return true;
}

template <class Value>
bool read(Value& v, v1::OnChatMessageParams& out) {
  std::uint32_t seen = 0;
  const bool ok = read_object(v, [&](std::string_view key, Value& value) {
    if (key == "channel") return seen_bit(seen, 0) && read(value, out.channel);
    if (key == "message") return seen_bit(seen, 1) && read(value, out.message);
    return true;
  });
  return ok && seen == all_bits(2);
}

template <class Value>
bool read(Value& v, v1::OnFollowedLiveParams& out) {
  std::uint32_t seen = 0;
  const bool ok = read_object(v, [&](std::string_view key, Value& value) {
    if (key == "channels") return seen_bit(seen, 0) && read(value, out.channels);
    return true;
  });
  return ok && seen == all_bits(1);
}

// ---- documents ----------------------------------------------------------------------------

template <class T>
bool ondemand_document(od::parser& parser, const simdjson::padded_string& text, T& out) {
  try {
    od::document doc;
    if (parser.iterate(text).get(doc) != SUCCESS) return false;
    od::value root;
    if (doc.get_value().get(root) != SUCCESS) return false;
    if (!read(root, out)) return false;
    // At the end of the structurals current_location() is OUT_OF_BOUNDS: no trailing content.
    return doc.current_location().error() == simdjson::OUT_OF_BOUNDS;
  } catch (const codec::DecodeError&) {  // check_date_time()
    return false;
  }
}

template <class T>
bool dom_document(dom::parser& parser, const simdjson::padded_string& text, T& out) {
  try {
    dom::element root;  // the parse validates the whole text, trailing content included
    return parser.parse(text).get(root) == SUCCESS && read(root, out);
  } catch (const codec::DecodeError&) {
    return false;
  }
}

}  // namespace

bool decode_ondemand(od::parser& parser, const simdjson::padded_string& text,
                     v1::OnWatchTickParams& out) {
  return ondemand_document(parser, text, out);
}
bool decode_ondemand(od::parser& parser, const simdjson::padded_string& text,
                     v1::OnChatMessageParams& out) {
  return ondemand_document(parser, text, out);
}
bool decode_ondemand(od::parser& parser, const simdjson::padded_string& text,
                     v1::OnFollowedLiveParams& out) {
  return ondemand_document(parser, text, out);
}

bool decode_dom(dom::parser& parser, const simdjson::padded_string& text,
                v1::OnWatchTickParams& out) {
  return dom_document(parser, text, out);
}
bool decode_dom(dom::parser& parser, const simdjson::padded_string& text,
                v1::OnChatMessageParams& out) {
  return dom_document(parser, text, out);
}
bool decode_dom(dom::parser& parser, const simdjson::padded_string& text,
                v1::OnFollowedLiveParams& out) {
  return dom_document(parser, text, out);
}

}  // namespace rpckit::simdjson_probe
