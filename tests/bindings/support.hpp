// Helpers shared by the bindings and dispatch tests: fixture loading, decoding the way the
// generated code and the router do, and a JSON comparison that tells dropped unknown fields
// apart from real differences.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rpckit/codec/codec.hpp"
#include "rpckit/codec/decode_error.hpp"
#include "rpckit/dispatch/router.hpp"
#include "streamnook_v1/dispatch.hpp"

namespace bindings_test {

using nlohmann::json;

// ---- files --------------------------------------------------------------------------------

inline std::filesystem::path source_dir() {
  if (const char* env = std::getenv("RPCKIT_SOURCE_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return RPCKIT_TEST_SOURCE_DIR;
}

inline std::filesystem::path examples_dir() {
  return source_dir() / "tests" / "fixtures" / "examples";
}

inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline json load_json(const std::filesystem::path& file) { return json::parse(read_text(file)); }

// The per-message fixture files (<method>.json), sorted; manifest.json and types/ have shapes
// of their own and are not included.
inline std::vector<std::filesystem::path> message_fixture_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(examples_dir())) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    if (entry.path().filename() == "manifest.json") continue;
    out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ---- decoding -----------------------------------------------------------------------------

// Decodes `j` as T the way generated code decodes a member, with `root` as the path root
// ("value.channel.login: ..."). Throws rpckit::codec::DecodeError.
template <class T>
T decode_as(const json& j, std::string_view root = "value") {
  T out{};
  rpckit::codec::DecodePath path(root);
  using rpckit::codec::decode;
  decode(j, out, path);
  return out;
}

// what() of the DecodeError that decoding `j` as T throws, or nullopt when it decodes.
template <class T>
std::optional<std::string> decode_error(const json& j, std::string_view root = "value") {
  try {
    (void)decode_as<T>(j, root);
    return std::nullopt;
  } catch (const rpckit::codec::DecodeError& e) {
    return std::string(e.what());
  }
}

// Same for the params of message M, as the router decodes them (nullptr = params absent).
template <class M>
std::optional<std::string> params_error(const json* params) {
  try {
    (void)rpckit::decode_params<M>(params);
    return std::nullopt;
  } catch (const rpckit::codec::DecodeError& e) {
    return std::string(e.what());
  }
}

template <class M>
std::optional<std::string> params_error(const json& params) {
  return params_error<M>(&params);
}

// rpckit::decode_params<M> of params that are present.
template <class M>
typename M::Params params_of(const json& params) {
  return rpckit::decode_params<M>(&params);
}

template <class T>
json encode(const T& value) {
  json j = value;
  return j;
}

// ---- messages -----------------------------------------------------------------------------

// Calls fn.template operator()<M>() with the descriptor of `method` in whichever direction
// has it; false when neither does.
template <class Fn>
bool visit_message(std::string_view method, Fn&& fn) {
  return streamnook::v1::HostToPlugin::visit(method, fn) ||
         streamnook::v1::PluginToHost::visit(method, fn);
}

template <class... Ms, class Fn>
void for_each_in(rpckit::MessageList<Ms...>, Fn& fn) {
  (fn.template operator()<Ms>(), ...);
}

// Every message of the protocol, host->plugin first, in schema order.
template <class Fn>
void for_each_message(Fn&& fn) {
  for_each_in(streamnook::v1::HostToPlugin::Messages{}, fn);
  for_each_in(streamnook::v1::PluginToHost::Messages{}, fn);
}

// ---- JSON comparison ----------------------------------------------------------------------

// How a re-encoded value differs from the JSON it was decoded from. Members of `input`
// missing from `output` are `dropped` (unknown fields: expected, and checked by the callers);
// anything else (a changed value, an added member, a resized array) is a `mismatch`. Numbers
// compare by value (3 and 3.0 are equal), as JSON defines them.
struct JsonDiff {
  std::vector<std::string> dropped;
  std::vector<std::string> mismatches;
};

inline void diff_into(const json& input, const json& output, const std::string& path,
                      JsonDiff& diff) {
  if (input.is_object() && output.is_object()) {
    for (auto it = output.begin(); it != output.end(); ++it) {
      if (!input.contains(it.key())) {
        diff.mismatches.push_back(path + "." + it.key() + ": added by the encoder (" +
                                  it.value().dump() + ")");
      }
    }
    for (auto it = input.begin(); it != input.end(); ++it) {
      auto found = output.find(it.key());
      if (found == output.end()) {
        diff.dropped.push_back(path + "." + it.key());
      } else {
        diff_into(it.value(), *found, path + "." + it.key(), diff);
      }
    }
    return;
  }
  if (input.is_array() && output.is_array() && input.size() == output.size()) {
    for (std::size_t i = 0; i < input.size(); ++i) {
      diff_into(input[i], output[i], path + "[" + std::to_string(i) + "]", diff);
    }
    return;
  }
  if (input != output) {
    diff.mismatches.push_back(path + ": " + input.dump() + " re-encoded as " + output.dump());
  }
}

inline JsonDiff diff_json(const json& input, const json& output, const std::string& root) {
  JsonDiff diff;
  diff_into(input, output, root, diff);
  return diff;
}

inline std::string join(const std::vector<std::string>& items, std::string_view sep = "\n  ") {
  std::ostringstream out;
  for (std::size_t i = 0; i < items.size(); ++i) out << (i ? sep : "") << items[i];
  return out.str();
}

}  // namespace bindings_test
