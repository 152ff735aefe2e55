// The generated direct encoders (write_json: struct -> JSON text, no DOM) against the DOM
// encoders they replace on the wire (to_json + dump with invalid UTF-8 replaced, as the
// endpoint sends): the same bytes; and the streaming decoders (decode_text: JSON text ->
// struct, no DOM unless it fails) against the DOM decoder: the same struct or the same error
// text. For every message of all five bound protocols.
//
// Values come from every valid params and result in tests/fixtures/<protocol>/ (each file's
// envelopes name the message), and from seeded random variations of them: strings made of
// quotes, backslashes, control characters, non-ASCII and invalid UTF-8; doubles from
// denormal to huge, negative zero and integral ones; integers anywhere in range; array items
// repeated or dropped; members dropped or nulled. A variation the decoder refuses is not a
// value and is skipped; the tests count the ones compared so they cannot pass empty.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "codex_metadata_v1/dispatch.hpp"
#include "codex_metadata_v1/types.hpp"
#include "core_line_v1/exchange.hpp"
#include "core_line_v1/types.hpp"
#include "desktop_v1/dispatch.hpp"
#include "desktop_v1/types.hpp"
#include "loaf_v1/dispatch.hpp"
#include "loaf_v1/types.hpp"
#include "rpckit/codec/codec.hpp"
#include "rpckit/codec/json_writer.hpp"
#include "rpckit/codec/text_decoder.hpp"
#include "streamnook_v1/dispatch.hpp"
#include "streamnook_v1/types.hpp"

namespace {

using nlohmann::json;

std::filesystem::path fixtures_dir() {
  const char* env = std::getenv("RPCKIT_SOURCE_DIR");
  std::filesystem::path root = env != nullptr && *env != '\0' ? env : RPCKIT_TEST_SOURCE_DIR;
  return root / "tests" / "fixtures";
}

json load(const std::filesystem::path& file) {
  std::ifstream in(file);
  return json::parse(in);
}

// ---- random variations --------------------------------------------------------------------

class Mutator {
 public:
  explicit Mutator(std::uint32_t seed) : rng_(seed) {}

  json vary(json value) {
    walk(value);
    return value;
  }

 private:
  bool chance(int percent) { return pick(0, 99) < percent; }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  // An index into a container of `size` items (size > 0).
  std::size_t any_of(std::size_t size) {
    return std::uniform_int_distribution<std::size_t>(0, size - 1)(rng_);
  }

  std::string text() {
    static const std::vector<std::string> pieces = {
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\r", "\b", "\f", std::string(1, '\0'),
        "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xef\xbf\xbd",
        "\xff", "\xc3", "\xed\xa0\x80", "\xe0\x80\xaf", "\xf4\x90\x80\x80", "\x80", "#1E90FF",
        "2026-11-20T23:36:52Z", "app.streamnook.x"};
    std::string out;
    for (int n = pick(0, 12); n > 0; --n) out += pieces[any_of(pieces.size())];
    return out;
  }

  double number() {
    static const std::vector<double> specials = {0.0, -0.0, 1.0, 3.0, -2.5, 0.1, 1e-300,
                                                 4.9e-324, 1.7976931348623157e308, 1e21,
                                                 123456789.125, -1e-7};
    if (chance(40)) return specials[any_of(specials.size())];
    return std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng_), pick(-1070, 1020));
  }

  void walk(json& v) {
    switch (v.type()) {
      case json::value_t::string:
        if (chance(50)) v = text();
        break;
      case json::value_t::number_float:
        if (chance(60)) v = number();
        break;
      case json::value_t::number_unsigned:
        if (chance(50)) v = std::uniform_int_distribution<std::uint64_t>(0, 0xFFFFFFFFULL)(rng_);
        break;
      case json::value_t::number_integer:
        if (chance(50)) v = std::uniform_int_distribution<std::int64_t>(INT32_MIN, INT32_MAX)(rng_);
        break;
      case json::value_t::array:
        if (!v.empty() && chance(20)) v.erase(v.begin() + static_cast<std::ptrdiff_t>(any_of(v.size())));
        if (!v.empty() && chance(20)) v.push_back(v[any_of(v.size())]);
        for (json& item : v) walk(item);
        break;
      case json::value_t::object: {
        std::vector<std::string> keys;
        for (auto it = v.begin(); it != v.end(); ++it) keys.push_back(it.key());
        for (const std::string& key : keys) {
          if (chance(8)) {
            v.erase(key);
          } else if (chance(5)) {
            v[key] = nullptr;
          } else {
            walk(v[key]);
          }
        }
        break;
      }
      default: break;
    }
  }

  std::mt19937 rng_;
};

// ---- comparison ---------------------------------------------------------------------------

struct Tally {
  std::size_t fixtures = 0;    // values taken from fixtures, compared
  std::size_t variations = 0;  // random variations that decoded, compared
  std::size_t decodes = 0;     // texts decoded both ways (valid or not), compared
  std::size_t rejected = 0;    // ... of which the DOM decoder rejected (same error both ways)
  std::size_t fast = 0;        // ... of which the streaming decoder took alone, no DOM
};

constexpr int kVariationsPerValue = 60;

template <class T>
bool decodes(const json& j, T& out) {
  try {
    rpckit::codec::decode_from(j, out, "value");
    return true;
  } catch (const rpckit::codec::DecodeError&) {
    return false;
  }
}

// Holds decode_text (the streaming decoder, the DOM decoder behind it for errors) to the
// DOM decoder on the text of `j`: the same struct, or the same error word for word.
template <class T>
void compare_decoders(const json& j, const std::string& where, Tally& tally) {
  const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  T dom_value{};
  std::string dom_error;
  try {
    rpckit::codec::decode_from(json::parse(text), dom_value, "params");
  } catch (const rpckit::codec::DecodeError& e) {
    dom_error = e.what();
  }
  T text_value{};
  std::string text_error;
  try {
    rpckit::codec::decode_text(text, text_value, "params");
  } catch (const rpckit::codec::DecodeError& e) {
    text_error = e.what();
  }
  ++tally.decodes;
  EXPECT_EQ(text_error, dom_error) << where << ": " << text;
  if (!dom_error.empty()) {
    ++tally.rejected;
    return;
  }
  EXPECT_TRUE(text_value == dom_value) << where << ": " << text;
  try {
    T fast_value{};
    rpckit::codec::JsonReader in(text);
    if (read_json(in, fast_value)) ++tally.fast;
  } catch (const std::exception&) {
  }
}

// Decodes `j` as T and holds write_json to to_json + dump, and decode_text to decode, on it
// and on its variations.
template <class T>
void compare(const json& j, const std::string& where, Mutator& mutator, Tally& tally) {
  compare_decoders<T>(j, where, tally);
  T value{};
  if (!decodes(j, value)) return;  // the fixture's own tests say why
  auto check = [&](const T& v, const std::string& what) {
    std::string direct = rpckit::codec::to_json_text(v);
    json dom;
    rpckit::codec::encode_into(dom, v);
    std::string expected = dom.dump(-1, ' ', false, json::error_handler_t::replace);
    EXPECT_EQ(direct, expected) << where << " " << what;
    return direct == expected;
  };
  check(value, "(fixture)");
  ++tally.fixtures;
  for (int i = 0; i < kVariationsPerValue; ++i) {
    json text = mutator.vary(j);
    compare_decoders<T>(text, where + " (variation)", tally);
    T varied{};
    if (!decodes(text, varied)) continue;
    ++tally.variations;
    if (!check(varied, "(variation " + std::to_string(i) + ")")) return;  // one report is enough
  }
}

// Every message file of a protocol's fixture directory, each through its descriptor.
template <class... Directions>
Tally compare_protocol(const std::string& dir, std::uint32_t seed) {
  Tally tally;
  Mutator mutator(seed);
  for (const auto& entry : std::filesystem::directory_iterator(fixtures_dir() / dir)) {
    if (entry.path().extension() != ".json") continue;
    json file = load(entry.path());
    if (!file.contains("envelopes")) continue;
    std::string file_name = entry.path().filename().string();
    for (const json& envelope : file["envelopes"]) {
      if (!envelope.contains("method")) continue;
      std::string method = envelope["method"].get<std::string>();
      auto visit_one = [&]<class M>() {
        if (envelope.contains("params") && !envelope["params"].is_null()) {
          compare<typename M::Params>(envelope["params"], file_name + " params", mutator, tally);
        }
        if constexpr (requires { typename M::Result; }) {
          for (const json& result : file.value("results", json::array())) {
            compare<typename M::Result>(result, file_name + " result", mutator, tally);
          }
        }
      };
      (Directions::visit(method, visit_one) || ...);
    }
  }
  return tally;
}

void expect_compared(const Tally& tally, std::size_t fixtures, std::size_t variations) {
  std::cout << "encoders: " << tally.fixtures << " fixture values and " << tally.variations
            << " variations; decoders: " << tally.decodes << " texts, " << tally.rejected
            << " rejected, " << tally.fast << " of the valid ones without a DOM\n";
  EXPECT_GE(tally.fixtures, fixtures);
  EXPECT_GE(tally.variations, variations);
  EXPECT_GT(tally.rejected, tally.decodes / 20);  // the error paths are compared too
  // Every valid text but the few a DOM must decide (integral floats in integer members,
  // untagged unions) takes the streaming path alone.
  EXPECT_GE(tally.fast * 10, (tally.decodes - tally.rejected) * 9);
}

TEST(DirectCodec, StreamNookMatchesTheDomCodec) {
  namespace p = streamnook::v1;
  expect_compared(compare_protocol<p::HostToPlugin, p::PluginToHost>("examples", 1), 100, 4000);
}

TEST(DirectCodec, DesktopMatchesTheDomCodec) {
  namespace p = desktop::v1;
  expect_compared(compare_protocol<p::HostToPlugin, p::PluginToHost>("desktop_v1", 2), 40, 2000);
}

TEST(DirectCodec, CodexMetadataMatchesTheDomCodec) {
  namespace p = codex_metadata::v1;
  expect_compared(compare_protocol<p::HostToPlugin>("codex_metadata_v1", 3), 35, 900);
}

TEST(DirectCodec, LoafMatchesTheDomCodec) {
  namespace p = loaf::v1;
  expect_compared(compare_protocol<p::ClientToServer, p::ServerToClient>("loaf_v1", 4), 200, 6000);
}

// Core line plugins are not JSON-RPC: their messages are the exchange's steps, one fixture
// file per type (tests/fixtures/core_line_v1/types/<type>.json, "valid" values).
TEST(DirectCodec, CoreLineMatchesTheDomCodec) {
  namespace p = core_line::v1;
  Tally tally;
  Mutator mutator(5);
  auto each = [&]<class T>(const char* file) {
    json values = load(fixtures_dir() / "core_line_v1" / "types" / file)["valid"];
    for (const json& value : values) compare<T>(value, file, mutator, tally);
  };
  each.operator()<p::HandshakeRequest>("handshake_request.json");
  each.operator()<p::HandshakeResponse>("handshake_response.json");
  each.operator()<p::ExecuteRequest>("execute_request.json");
  each.operator()<p::ExecuteResponse>("execute_response.json");
  static_assert(std::tuple_size_v<p::Exchange::Steps> == 4, "a new step needs its fixtures here");
  expect_compared(tally, 8, 100);
}

// Strings are where the two encoders could part: every byte value alone, and the shortest
// invalid sequences, as one string member.
TEST(DirectCodec, EveryByteOfAStringMatchesTheDomEncoder) {
  for (int b = 0; b < 256; ++b) {
    for (const std::string& s : {std::string(1, static_cast<char>(b)),
                                 "x" + std::string(1, static_cast<char>(b)) + "\xc3\xa9y"}) {
      std::string direct;
      rpckit::codec::write_json(direct, s);
      EXPECT_EQ(direct, json(s).dump(-1, ' ', false, json::error_handler_t::replace)) << "byte " << b;
    }
  }
}

// The writer scans strings eight bytes at a time: a byte it must escape or check, at every
// position of a word, still comes out as the DOM encoder writes it.
TEST(DirectCodec, EveryBytePositionOfAStringMatchesTheDomEncoder) {
  for (std::size_t at = 0; at < 20; ++at) {
    for (std::string_view special : {"\"", "\\", "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xff"}) {
      std::string s(20, 'x');
      s.insert(at, special);
      std::string direct;
      rpckit::codec::write_json(direct, s);
      EXPECT_EQ(direct, json(s).dump(-1, ' ', false, json::error_handler_t::replace))
          << "at " << at << ": " << json(s).dump(-1, ' ', true, json::error_handler_t::replace);
    }
  }
}

// Texts no fixture spells: what only the streaming decoder sees as text (escaped keys,
// repeated keys, white space, number spellings) must come out as the DOM decoder's value.
TEST(DirectCodec, TextSpellingsDecodeAsTheDom) {
  namespace p = streamnook::v1;
  const std::string chat =
      R"({"id":"m1","user_id":"1","login":"a","display_name":"A","color":null,"badges":[],)"
      R"("text":"hi","is_action":false,"msg_type":null,"system_message":null,"bits":%BITS%,)"
      R"("ts":"2026-11-20T23:36:52Z"})";
  auto with_bits = [&](const std::string& bits) {
    std::string text = chat;
    text.replace(text.find("%BITS%"), 6, bits);
    return text;
  };
  const std::vector<std::string> texts = {
      with_bits("12"), with_bits("null"), with_bits("12.0"), with_bits("1.2e1"), with_bits("-0"),
      with_bits("4294967295"), with_bits("4294967296"), with_bits("-1"),
      with_bits("18446744073709551616"), with_bits("\"12\""),
      " \n" + with_bits("1") + " \t",
      R"({"\u0069d":"m1","id":"m2","user_id":"1","login":"a","display_name":"A","color":"#fff",)"
      R"("badges":[{"name":"b","version":"1","x":[1,{"y":null}]}],"text":"\ud83d\ude00\n",)"
      R"("is_action":true,"msg_type":"sub","system_message":"s","bits":7,"unknown":{"a":[]},)"
      R"("ts":"2026-11-20T23:36:52.5+01:00"})",
      R"({"id":"m1"})", "[]", "null", "{", R"({"id":"m1",})", "", "1 2",
      with_bits("1").substr(0, 40) + "\xff\"}"};
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    p::OnChatMessageParams dom_value{};
    std::string dom_error;
    try {
      json j = json::parse("{\"message\":" + text + "}");
      rpckit::codec::decode_from(j, dom_value, "params");
    } catch (const rpckit::codec::DecodeError& e) {
      dom_error = e.what();
    } catch (const json::exception&) {
      dom_error = "not JSON";
    }
    p::OnChatMessageParams text_value{};
    std::string text_error;
    try {
      rpckit::codec::decode_text("{\"message\":" + text + "}", text_value, "params");
    } catch (const rpckit::codec::DecodeError& e) {
      text_error = dom_error == "not JSON" ? "not JSON" : e.what();
      if (dom_error == "not JSON") {  // says where and why instead of nlohmann's exception
        EXPECT_NE(std::string(e.what()).find("params: invalid JSON: at byte"), std::string::npos)
            << e.what();
      }
    }
    EXPECT_EQ(text_error, dom_error);
    if (dom_error.empty()) {
      EXPECT_TRUE(text_value == dom_value);
    }
  }
  // A number no double holds is not JSON the reader takes (as every frame the endpoint
  // reads), where nlohmann alone would make it infinity.
  p::OnChatMessageParams v{};
  try {
    rpckit::codec::decode_text("{\"message\":" + with_bits("1e400") + "}", v, "params");
    ADD_FAILURE() << "1e400 decoded";
  } catch (const rpckit::codec::DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("params: invalid JSON: at byte"), std::string::npos) << e.what();
  }
}

}  // namespace
