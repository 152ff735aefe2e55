#pragma once
// The codec of an open struct: one whose schema has `additionalProperties` beside its
// `properties`, so the members it does not declare are part of its value. They are kept in a
// map member (`additional_properties`), decoded by the additionalProperties schema and
// written back in key order among the declared ones, so the struct re-encodes what it read:
//
//   constexpr auto kToolInputSchemaMembers = rpckit::codec::members(...);
//   constexpr auto kToolInputSchemaRest =
//       rpckit::codec::rest(&ToolInputSchema::additional_properties);
//   RPCKIT_OPEN_OBJECT_CODEC(ToolInputSchema)
//
// A map entry whose key is a declared member's is never written: the member is the value.
// Included by generated .cpp files only.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "rpckit/codec/object_codec.hpp"

namespace rpckit::codec {

// Where a struct keeps its undeclared members, and the check each value must pass (the
// additionalProperties schema's constraints), if any.
template <class Owner, class M>
struct Rest {
  using Value = M;
  std::map<std::string, M> Owner::*field;
  void (*check)(const M&, DecodePath&);
};

template <class Owner, class M>
constexpr Rest<Owner, M> rest(std::map<std::string, M> Owner::*field,
                              void (*check)(const M&, DecodePath&) = nullptr) {
  return {field, check};
}

namespace detail {

template <const auto& Members, std::size_t... I>
bool is_declared(std::string_view key, std::index_sequence<I...>) {
  return (is_key_of<Members, I>(key) || ... || false);
}
template <const auto& Members>
bool is_declared(std::string_view key) {
  return is_declared<Members>(key, MemberIndices<Members>{});
}

template <const auto& Rest>
using RestValue = typename std::remove_cvref_t<decltype(Rest)>::Value;

// One undeclared member, decoded at its own path with its constraints.
template <const auto& Rest>
bool decode_rest_value(const nlohmann::json& j, RestValue<Rest>& out, DecodePath& path) {
  return contained(path, [&] {
    decode(j, out, path);
    if constexpr (Rest.check != nullptr) Rest.check(out, path);
  });
}

template <const auto& Members, const auto& Rest, class T>
void decode_open(const nlohmann::json& j, T& value, DecodePath& path) {
  decode<Members>(j, value, path, MemberIndices<Members>{});  // an object, or it threw
  auto& rest = value.*Rest.field;
  rest.clear();
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    if (is_declared<Members>(key)) continue;
    DecodePath::Key scope(path, key);
    RestValue<Rest> v{};
    if (decode_rest_value<Rest>(*it, v, path)) rest.insert_or_assign(key, std::move(v));
  }
}

// read()'s policy for an open struct: undeclared members are read into the map (a repeated
// key: the last one wins, as in the DOM), then checked.
template <const auto& Members, const auto& Rest>
struct KeepUnknown {
  template <class T>
  static void begin(T& value) {
    (value.*Rest.field).clear();
  }
  template <class T>
  static bool take(JsonReader& in, T& value, std::string_view key) {
    std::string name(key);  // the view lasts until the next read
    RestValue<Rest> v{};
    if (!read_json(in, v)) return false;
    (value.*Rest.field).insert_or_assign(std::move(name), std::move(v));
    return true;
  }
  template <class T>
  static void decode_whole(const nlohmann::json& j, T& value, DecodePath& path) {
    decode_open<Members, Rest>(j, value, path);
  }
  template <class T>
  static void check(const T& value) {
    if constexpr (Rest.check != nullptr) {
      DecodePath path;  // a broken constraint throws DecodeError; decode() reports it
      for (const auto& [key, v] : value.*Rest.field) {
        DecodePath::Key scope(path, key);
        Rest.check(v, path);
      }
    }
  }
};

template <class Map>
void write_rest_member(ObjectWriter& object, std::string& out,
                       const typename Map::value_type& entry) {
  object.open_escaped(entry.first);
  write_json(out, entry.second);
}

// Writes the map's entries that sort before declared member K (one equal to its key is
// skipped: the member is the value).
template <const auto& Members, std::size_t K, class Map>
void write_rest_before(ObjectWriter& object, std::string& out, typename Map::const_iterator& next,
                       typename Map::const_iterator end) {
  constexpr std::string_view name = kMember<Members, K>.key.name;
  for (; next != end && std::string_view(next->first) <= name; ++next) {
    if (std::string_view(next->first) != name) write_rest_member<Map>(object, out, *next);
  }
}

template <const auto& Members, const auto& Rest, class T, std::size_t... I>
void write_open(std::string& out, const T& value, std::index_sequence<I...>) {
  using Map = std::remove_cvref_t<decltype(value.*Rest.field)>;
  const Map& rest = value.*Rest.field;
  ObjectWriter object(out);
  auto next = rest.begin();
  ((write_rest_before<Members, kKeyOrder<Members>[I], Map>(object, out, next, rest.end()),
    write_member<Members, kKeyOrder<Members>[I]>(object, out, value)),
   ...);
  for (; next != rest.end(); ++next) write_rest_member<Map>(object, out, *next);
}

}  // namespace detail

// to_json(): the declared members, then each undeclared one.
template <const auto& Members, const auto& Rest, class T>
void open_object_to_json(nlohmann::json& j, const T& value) {
  object_to_json<Members>(j, value);
  for (const auto& [key, v] : value.*Rest.field) {
    if (!detail::is_declared<Members>(key)) j[key] = v;
  }
}

template <const auto& Members, const auto& Rest, class T>
void decode_open_object(const nlohmann::json& j, T& value, DecodePath& path) {
  detail::decode_open<Members, Rest>(j, value, path);
}

// write_json(): every member in key order, the declared and the kept ones merged (the bytes
// nlohmann's dump of to_json() gives).
template <const auto& Members, const auto& Rest, class T>
void write_open_object(std::string& out, const T& value) {
  if ((value.*Rest.field).empty()) {
    write_object<Members>(out, value);
    return;
  }
  detail::write_open<Members, Rest>(out, value, detail::MemberIndices<Members>{});
}

template <const auto& Members, const auto& Rest, class T>
bool read_open_object(JsonReader& in, T& value) {
  return detail::read<Members, detail::KeepUnknown<Members, Rest>>(in, value, Members);
}

}  // namespace rpckit::codec

// RPCKIT_OBJECT_CODEC of an open struct, over k<Type>Members and k<Type>Rest.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define RPCKIT_OPEN_OBJECT_CODEC(Type)                                                    \
  void to_json(nlohmann::json& j, const Type& value) {                                    \
    ::rpckit::codec::open_object_to_json<k##Type##Members, k##Type##Rest>(j, value);      \
  }                                                                                       \
  void decode(const nlohmann::json& j, Type& value, ::rpckit::codec::DecodePath& path) {  \
    ::rpckit::codec::decode_open_object<k##Type##Members, k##Type##Rest>(j, value, path); \
  }                                                                                       \
  void write_json(std::string& out, const Type& value) {                                  \
    ::rpckit::codec::write_open_object<k##Type##Members, k##Type##Rest>(out, value);      \
  }                                                                                       \
  bool read_json(::rpckit::codec::JsonReader& in, Type& value) {                          \
    return ::rpckit::codec::read_open_object<k##Type##Members, k##Type##Rest>(in, value); \
  }                                                                                       \
  void from_json(const nlohmann::json& j, Type& value) {                                  \
    ::rpckit::codec::decode_from(j, value, {});                                           \
  }
// NOLINTEND(bugprone-macro-parentheses)
