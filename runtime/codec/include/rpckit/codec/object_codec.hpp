#pragma once
// A generated struct's codec, from one table of its members. The generator writes the table
// (each member's key, where it is stored, whether it is required, the constraints it must
// meet) and RPCKIT_OBJECT_CODEC, the functions types.hpp declares, each handing the table to
// a template here:
//
//   constexpr auto kSliderFieldMembers = std::tuple{
//       rpckit::codec::required("key", &SliderField::key, check_SliderField_key),
//       rpckit::codec::constant("type", "\"slider\""),
//       rpckit::codec::optional("unit", &SliderField::unit),
//   };
//   RPCKIT_OBJECT_CODEC(SliderField)
//
// The table is a constant, so each template unrolls into the code the generator used to
// write out member by member: the same calls, in the same order, with the same errors.
// Included by generated .cpp files only.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "rpckit/codec/codec.hpp"
#include "rpckit/codec/json_writer.hpp"
#include "rpckit/codec/text_decoder.hpp"

namespace rpckit::codec {

// A member the struct stores. `check`, when given, enforces the schema's constraints on a
// decoded value (on the value inside, for an optional member) by the DOM decoder's checks.
template <class Owner, class M>
struct Member {
  using Stored = M;
  std::string_view key;
  M Owner::*field;
  bool required;
  void (*check)(const M&, DecodePath&);
};

// A member whose value the schema fixes ("const"): `json` is its value as compact JSON text.
// A string without escapes is also kept as `text`, compared without parsing.
struct Constant {
  std::string_view key;
  std::string_view json;
  bool required;
  std::string_view text;  // empty unless `json` is a plain string
  bool is_string = false;
};

template <class Owner, class M>
constexpr Member<Owner, M> required(std::string_view key, M Owner::*field,
                                    void (*check)(const M&, DecodePath&) = nullptr) {
  return {key, field, true, check};
}
template <class Owner, class M>
constexpr Member<Owner, std::optional<M>> optional(
    std::string_view key, std::optional<M> Owner::*field,
    void (*check)(const std::optional<M>&, DecodePath&) = nullptr) {
  return {key, field, false, check};
}
constexpr Constant constant(std::string_view key, std::string_view json, bool required = true) {
  Constant c{key, json, required, {}, false};
  if (json.size() >= 2 && json.front() == '"' && json.back() == '"' &&
      json.find('\\') == std::string_view::npos) {
    c.text = json.substr(1, json.size() - 2);
    c.is_string = true;
  }
  return c;
}

namespace detail {

template <class T>
constexpr bool kIsConstant = std::is_same_v<std::remove_cvref_t<T>, Constant>;

template <const auto& Members>
constexpr std::size_t kCount = std::tuple_size_v<std::remove_cvref_t<decltype(Members)>>;

template <const auto& Members, class F>
constexpr void for_each_index(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::integral_constant<std::size_t, I>{}), ...);
  }(std::make_index_sequence<kCount<Members>>{});
}

// The members' indices in key order: nlohmann's object (a std::map) prints its keys so, and
// write_json must give the same bytes.
template <const auto& Members>
constexpr auto key_order() {
  constexpr std::size_t n = kCount<Members>;
  std::array<std::string_view, n> keys{};
  for_each_index<Members>([&](auto i) { keys[i] = std::get<i>(Members).key; });
  std::array<std::size_t, n> order{};
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return keys[a] < keys[b];
  });
  return order;
}

template <const auto& Members>
inline constexpr auto kKeyOrder = key_order<Members>();

// Each member's bit in the "seen" mask of read_object (required members only), or -1.
template <const auto& Members>
constexpr auto required_bits() {
  std::array<int, kCount<Members>> bits{};
  int next = 0;
  for_each_index<Members>([&](auto i) {
    bits[i] = std::get<i>(Members).required ? next++ : -1;
  });
  return std::pair{bits, next};
}

template <const auto& Members>
inline constexpr auto kRequiredBits = required_bits<Members>();

// Whether a key is written as it is between quotes (no character JSON escapes).
constexpr bool is_plain_key(std::string_view key) {
  for (char c : key) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return false;
  }
  return true;
}

// Member I's key as JSON text with its colon ("\"login\":"), made at compile time.
template <const auto& Members, std::size_t I>
constexpr auto quoted_key() {
  constexpr std::string_view key = std::get<I>(Members).key;
  std::array<char, key.size() + 3> out{};
  out[0] = '"';
  for (std::size_t k = 0; k < key.size(); ++k) out[k + 1] = key[k];
  out[key.size() + 1] = '"';
  out[key.size() + 2] = ':';
  return out;
}

// The parsed value of constant member I, parsed once.
template <const auto& Members, std::size_t I>
const nlohmann::json& constant_value() {
  static const nlohmann::json value = nlohmann::json::parse(std::get<I>(Members).json);
  return value;
}

}  // namespace detail

template <const auto& Members, class T>
void object_to_json(nlohmann::json& j, const T& value) {
  j = nlohmann::json::object();
  detail::for_each_index<Members>([&](auto i) {
    constexpr const auto& m = std::get<i>(Members);
    if constexpr (detail::kIsConstant<decltype(m)>) {
      j[std::string(m.key)] = detail::constant_value<Members, i>();
    } else if constexpr (m.required) {
      j[std::string(m.key)] = value.*m.field;
    } else {
      if ((value.*m.field).has_value()) j[std::string(m.key)] = *(value.*m.field);
    }
  });
}

// decode(): the JSON kind, each member in table order, then its constraints (only on a value
// that decoded: a collecting path goes on after a member that failed).
template <const auto& Members, class T>
void decode_object(const nlohmann::json& j, T& value, DecodePath& path) {
  expect_object(j, path);
  detail::for_each_index<Members>([&](auto i) {
    constexpr const auto& m = std::get<i>(Members);
    if constexpr (detail::kIsConstant<decltype(m)>) {
      decode_const(j, m.key, detail::constant_value<Members, i>(), m.required, path);
    } else if constexpr (m.required) {
      if (decode_required(j, m.key, value.*m.field, path) && m.check != nullptr) {
        DecodePath::Key scope(path, m.key);
        m.check(value.*m.field, path);
      }
    } else {
      decode_optional(j, m.key, value.*m.field, path);
      if (m.check != nullptr && (value.*m.field).has_value()) {
        DecodePath::Key scope(path, m.key);
        m.check(value.*m.field, path);
      }
    }
  });
}

// write_json(): the members in key order, an absent optional member left out.
template <const auto& Members, class T>
void write_object(std::string& out, const T& value) {
  ObjectWriter object(out);
  detail::for_each_index<Members>([&](auto i) {
    constexpr std::size_t index = detail::kKeyOrder<Members>[i];
    constexpr const auto& m = std::get<index>(Members);
    if constexpr (!detail::kIsConstant<decltype(m)>) {
      if constexpr (!m.required) {
        if (!(value.*m.field).has_value()) return;
      }
    }
    if constexpr (detail::is_plain_key(m.key)) {
      static constexpr auto key = detail::quoted_key<Members, index>();
      object.open(std::string_view(key.data(), key.size()));
    } else {
      object.open_escaped(m.key);
    }
    if constexpr (detail::kIsConstant<decltype(m)>) {
      out += m.json;
    } else if constexpr (m.required) {
      write_json(out, value.*m.field);
    } else {
      write_json(out, *(value.*m.field));
    }
  });
}

// One known member of read_object, its bit set in `seen` when required.
template <const auto& Members, std::size_t I, class T>
bool read_one(JsonReader& in, T& value, std::uint64_t& seen) {
  constexpr const auto& m = std::get<I>(Members);
  if constexpr (detail::kIsConstant<decltype(m)>) {
    if (m.is_string ? !read_const_string(in, m.text) : !read_const_json(in, m.json)) return false;
  } else {
    if (!read_member(in, value.*m.field)) return false;
  }
  constexpr int bit = detail::kRequiredBits<Members>.first[I];
  if constexpr (bit >= 0) seen |= std::uint64_t{1} << bit;
  return true;
}

// read_json(): members decoded in place as they come, unknown ones skipped whole (and still
// validated), then every required member present and every constraint met. False (or a
// DecodeError) leaves the error to decode().
template <const auto& Members, class T>
bool read_object(JsonReader& in, T& value) {
  constexpr auto bits = detail::kRequiredBits<Members>;
  static_assert(bits.second <= 64, "read_object: more than 64 required members");
  if (in.peek() != JsonKind::kObject) return false;
  in.begin_object();
  std::uint64_t seen = 0;
  std::string key;
  while (in.next_member(key)) {
    bool known = false;
    bool ok = true;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (void)((key == std::get<I>(Members).key
                  ? (known = true, ok = read_one<Members, I>(in, value, seen), true)
                  : false) ||
             ...);
    }(std::make_index_sequence<detail::kCount<Members>>{});
    if (!ok) return false;
    if (!known) in.skip_value();
  }
  constexpr std::uint64_t all =
      bits.second == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits.second) - 1;
  if (seen != all) return false;  // a required member is missing
  DecodePath path;
  detail::for_each_index<Members>([&](auto i) {
    constexpr const auto& m = std::get<i>(Members);
    if constexpr (!detail::kIsConstant<decltype(m)>) {
      if constexpr (m.check != nullptr) {
        if constexpr (!m.required) {
          if (!(value.*m.field).has_value()) return;
        }
        DecodePath::Key scope(path, m.key);
        m.check(value.*m.field, path);
      }
    }
  });
  return true;
}

}  // namespace rpckit::codec

// to_json, decode, write_json, read_json and from_json of struct `Type`, over its member table
// k<Type>Members (declared before, in the same namespace).
#define RPCKIT_OBJECT_CODEC(Type)                                                         \
  void to_json(nlohmann::json& j, const Type& value) {                                    \
    ::rpckit::codec::object_to_json<k##Type##Members>(j, value);                          \
  }                                                                                       \
  void decode(const nlohmann::json& j, Type& value, ::rpckit::codec::DecodePath& path) {  \
    ::rpckit::codec::decode_object<k##Type##Members>(j, value, path);                     \
  }                                                                                       \
  void write_json(std::string& out, const Type& value) {                                  \
    ::rpckit::codec::write_object<k##Type##Members>(out, value);                          \
  }                                                                                       \
  bool read_json(::rpckit::codec::JsonReader& in, Type& value) {                          \
    return ::rpckit::codec::read_object<k##Type##Members>(in, value);                     \
  }                                                                                       \
  void from_json(const nlohmann::json& j, Type& value) {                                  \
    ::rpckit::codec::decode_from(j, value, {});                                           \
  }
