#pragma once
// The codec of every generated string enum: to_json, from_json, decode, write_json and
// read_json for rpckit::OpenEnum, found by argument-dependent lookup through the base class,
// so the generated code declares none of them per enum. Light, as the generated headers that
// include it: only nlohmann/json_fwd.hpp (each body calls out-of-line primitives).
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "rpckit/codec/decode_error.hpp"
#include "rpckit/codec/json_reader.hpp"
#include "rpckit/codec/value_codec.hpp"
#include "rpckit/values/open_enum.hpp"

namespace rpckit::codec {
// The string primitives (json_writer.hpp, text_decoder.hpp), without those headers' weight.
void write_json(std::string& out, std::string_view s);
bool read_json(JsonReader& in, std::string& out);
}  // namespace rpckit::codec

namespace rpckit {

// Any wire text decodes (an unlisted one is kept as unknown), unless the path is strict.
template <class Derived, class Values>
void decode(const nlohmann::json& j, OpenEnum<Derived, Values>& value,
            codec::DecodePath& path) {
  std::string wire;
  codec::decode(j, wire, path);  // "expected string" at its path
  value = Derived::from_wire(wire);
  codec::check_listed(value.is_known(), wire, Values::kWire, path);
}

template <class Derived, class Values>
void to_json(nlohmann::json& j, const OpenEnum<Derived, Values>& value) {
  codec::encode_into(j, value.wire());
}

template <class Derived, class Values>
void from_json(const nlohmann::json& j, OpenEnum<Derived, Values>& value) {  // throws DecodeError
  codec::DecodePath path;
  decode(j, value, path);
}

template <class Derived, class Values>
void write_json(std::string& out, const OpenEnum<Derived, Values>& value) {
  codec::write_json(out, value.wire());
}

template <class Derived, class Values>
bool read_json(codec::JsonReader& in, OpenEnum<Derived, Values>& value) {
  std::string wire;
  if (!codec::read_json(in, wire)) return false;
  value = Derived::from_wire(wire);
  return true;
}

}  // namespace rpckit
