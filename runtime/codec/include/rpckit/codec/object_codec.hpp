#pragma once
// A generated struct's codec, from one table of its members. The generator writes the table
// (each member's key, where it is stored, whether it is required, the constraints it must
// meet) and RPCKIT_OBJECT_CODEC, the functions types.hpp declares, each handing the table to
// a template here:
//
//   constexpr auto kSliderFieldMembers = rpckit::codec::members(
//       rpckit::codec::required("key", &SliderField::key, check_SliderField_key),
//       rpckit::codec::constant("type", "\"slider\""),
//       rpckit::codec::optional("unit", &SliderField::unit));
//   RPCKIT_OBJECT_CODEC(SliderField)
//
// A schema's "anyOf" of required lists beside the members (at least one alternative's members
// all present) wraps the table:
//
//   constexpr auto kResourceContentsMembers = rpckit::codec::with_any_of(
//       rpckit::codec::members(...),
//       rpckit::codec::present("text"),
//       rpckit::codec::present("blob"));
//
// Each operation is one fold over the table, calling a small helper per member kind: the same
// calls the generator used to write out member by member, in the same order, with the same
// errors. The helpers are shared by every member of one C++ type, so a module with hundreds
// of members compiles few of them. Included by generated .cpp files only.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "rpckit/codec/codec.hpp"
#include "rpckit/codec/json_writer.hpp"
#include "rpckit/codec/text_decoder.hpp"

namespace rpckit::codec {

// A member's key, also as JSON text with the comma before it and its colon
// (",\"login\":") when it needs no escaping and is short: written with one append (from the
// comma, or after it for the first member), and matched as it is on reading.
struct MemberKey {
  static constexpr std::size_t kMaxQuoted = 48;

  constexpr MemberKey(std::string_view key) : name(key) {  // NOLINT: from a literal
    if (key.size() + 4 > kMaxQuoted) return;
    for (char c : key) {
      if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return;
    }
    quoted[0] = ',';
    quoted[1] = '"';
    for (std::size_t i = 0; i < key.size(); ++i) quoted[i + 2] = key[i];
    quoted[key.size() + 2] = '"';
    quoted[key.size() + 3] = ':';
    quoted_size = key.size() + 4;
  }

  // ",\"login\":" and "\"login\":".
  constexpr std::string_view with_comma() const { return {quoted.data(), quoted_size}; }
  constexpr std::string_view without_comma() const { return {quoted.data() + 1, quoted_size - 1}; }

  std::string_view name;
  std::array<char, kMaxQuoted> quoted{};
  std::size_t quoted_size = 0;  // 0: the key must be escaped as it is written
};

// A member the struct always has. `check`, when given, enforces the schema's constraints on a
// decoded value, by the DOM decoder's checks.
template <class Owner, class M>
struct Required {
  MemberKey key;
  M Owner::*field;
  void (*check)(const M&, DecodePath&);
};

// A member that may be absent (std::optional<M>); `check` sees the value inside.
template <class Owner, class M>
struct Optional {
  MemberKey key;
  std::optional<M> Owner::*field;
  void (*check)(const std::optional<M>&, DecodePath&);
};

// A member whose value the schema fixes ("const"): `json` is its value as compact JSON text.
// A string without escapes is also kept as `text`, compared without parsing.
struct Constant {
  MemberKey key;
  std::string_view json;
  bool required;
  std::string_view text;
  bool is_string;
};

template <class Owner, class M>
constexpr Required<Owner, M> required(std::string_view key, M Owner::*field,
                                      void (*check)(const M&, DecodePath&) = nullptr) {
  return {key, field, check};
}
template <class Owner, class M>
constexpr Optional<Owner, M> optional(
    std::string_view key, std::optional<M> Owner::*field,
    void (*check)(const std::optional<M>&, DecodePath&) = nullptr) {
  return {key, field, check};
}
constexpr Constant constant(std::string_view key, std::string_view json, bool required = true) {
  const bool plain_string = json.size() >= 2 && json.front() == '"' && json.back() == '"' &&
                            json.find('\\') == std::string_view::npos;
  return {key, json, required, plain_string ? json.substr(1, json.size() - 2) : json,
          plain_string};
}

// The member table: each descriptor a base of its own (index, type), so a fold reaches the
// I-th with a cast and no std::get (a std::tuple's accessors are many small functions per
// member, and a debug build compiles every one).
template <std::size_t I, class D>
struct Slot {
  D descriptor;
};
template <class Indices, class... Ds>
struct MemberTable;
template <std::size_t... I, class... Ds>
struct MemberTable<std::index_sequence<I...>, Ds...> : Slot<I, Ds>... {};

template <class... Ds>
constexpr auto members(Ds... descriptors) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return MemberTable<std::index_sequence<I...>, Ds...>{Slot<I, Ds>{descriptors}...};
  }(std::index_sequence_for<Ds...>{});
}

// One alternative of an "anyOf" of required lists: these members all present.
struct Present {
  static constexpr std::size_t kMaxKeys = 8;
  std::array<std::string_view, kMaxKeys> keys{};
  std::size_t count = 0;
};
template <class... Keys>
constexpr Present present(Keys... keys) {
  static_assert(sizeof...(Keys) >= 1 && sizeof...(Keys) <= Present::kMaxKeys);
  return {{std::string_view(keys)...}, sizeof...(Keys)};
}

// A member table whose object must also have one alternative present (at most
// kMaxAlternatives, each naming members of the table).
inline constexpr std::size_t kMaxAlternatives = 8;
template <class Table, std::size_t N>
struct AnyOfTable : Table {
  std::array<Present, N> any_of;
};
template <class Table, class... Alternatives>
constexpr auto with_any_of(Table table, Alternatives... alternatives) {
  static_assert(sizeof...(Alternatives) >= 1 && sizeof...(Alternatives) <= kMaxAlternatives);
  return AnyOfTable<Table, sizeof...(Alternatives)>{table, {Present(alternatives)...}};
}

// decode()'s check of the alternatives: `object` has one's members all, or a problem at `path`
// ("missing required field: \"text\" or \"blob\"").
void check_alternatives(const nlohmann::json& object, std::span<const Present> alternatives,
                        DecodePath& path);

namespace detail {

template <class Table>
constexpr std::span<const Present> alternatives_of(const Table&) {
  return {};
}
template <class Table, std::size_t N>
constexpr std::span<const Present> alternatives_of(const AnyOfTable<Table, N>& table) {
  return table.any_of;
}

// The descriptor at index K (its type deduced from the slot).
template <std::size_t K, class D>
constexpr const D& at(const Slot<K, D>& slot) {
  return slot.descriptor;
}

// Each operation below takes its member as Member<Members, K>: the descriptor is a constant
// there, so its key, field offset and check inline into the struct's function as the
// member-by-member code the generator used to write did (a descriptor passed by reference
// leaves a call per member and its key's size unknown: measured 5-14 % slower).
template <class D>
inline constexpr bool kIsOptional = false;
template <class Owner, class M>
inline constexpr bool kIsOptional<Optional<Owner, M>> = true;
template <class D>
inline constexpr bool kIsConstant = std::is_same_v<D, Constant>;

template <const auto& Members, std::size_t K>
inline constexpr const auto& kMember = at<K>(Members);

// ---- to_json ----------------------------------------------------------------------------

template <const auto& Members, std::size_t K, class T>
void member_to_json(nlohmann::json& j, const T& value) {
  constexpr const auto& m = kMember<Members, K>;
  using D = std::remove_cvref_t<decltype(m)>;
  if constexpr (kIsConstant<D>) {
    if constexpr (m.is_string) {
      j[std::string(m.key.name)] = std::string(m.text);
    } else {
      j[std::string(m.key.name)] = nlohmann::json::parse(m.json);
    }
  } else if constexpr (kIsOptional<D>) {
    if ((value.*m.field).has_value()) j[std::string(m.key.name)] = *(value.*m.field);
  } else {
    j[std::string(m.key.name)] = value.*m.field;
  }
}

// ---- decode (DOM) -----------------------------------------------------------------------

// Constraints are checked on a decoded value only (a collecting path goes on after a member
// that failed).
template <const auto& Members, std::size_t K, class T>
void decode_member(const nlohmann::json& j, T& value, DecodePath& path) {
  constexpr const auto& m = kMember<Members, K>;
  using D = std::remove_cvref_t<decltype(m)>;
  if constexpr (kIsConstant<D>) {
    if constexpr (m.is_string) {
      decode_const_string(j, m.key.name, m.text, m.json, m.required, path);
    } else {
      decode_const_text(j, m.key.name, m.json, m.required, path);
    }
  } else if constexpr (kIsOptional<D>) {
    decode_optional(j, m.key.name, value.*m.field, path);
    if constexpr (m.check != nullptr) {
      if ((value.*m.field).has_value()) {
        DecodePath::Key scope(path, m.key.name);
        m.check(value.*m.field, path);
      }
    }
  } else {
    const bool decoded = decode_required(j, m.key.name, value.*m.field, path);
    if constexpr (m.check != nullptr) {
      if (decoded) {
        DecodePath::Key scope(path, m.key.name);
        m.check(value.*m.field, path);
      }
    }
  }
}

// ---- write_json -------------------------------------------------------------------------

template <const auto& Members, std::size_t K, class T>
void write_member(ObjectWriter& object, std::string& out, const T& value) {
  constexpr const auto& m = kMember<Members, K>;
  using D = std::remove_cvref_t<decltype(m)>;
  if constexpr (kIsOptional<D>) {
    if (!(value.*m.field).has_value()) return;  // an absent member is not written
  }
  if constexpr (m.key.quoted_size != 0) {
    object.open_with_comma(m.key.with_comma());
  } else {
    object.open_escaped(m.key.name);
  }
  if constexpr (kIsConstant<D>) {
    out += m.json;
  } else if constexpr (kIsOptional<D>) {
    write_json(out, *(value.*m.field));
  } else {
    write_json(out, value.*m.field);
  }
}

// The members' indices in key order: nlohmann's object (a std::map) prints its keys so, and
// write_json must give the same bytes.
template <std::size_t... I, class... Ds>
constexpr auto key_order(const MemberTable<std::index_sequence<I...>, Ds...>& table) {
  std::array<std::string_view, sizeof...(I)> keys = {
      static_cast<const Slot<I, Ds>&>(table).descriptor.key.name...};
  std::array<std::size_t, sizeof...(I)> order = {I...};
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return keys[a] < keys[b];
  });
  return order;
}

// ---- read_json --------------------------------------------------------------------------

template <const auto& Members, std::size_t K, class T>
bool read_member_value(JsonReader& in, T& value) {
  constexpr const auto& m = kMember<Members, K>;
  if constexpr (kIsConstant<std::remove_cvref_t<decltype(m)>>) {
    if constexpr (m.is_string) {
      return read_const_string(in, m.text);
    } else {
      return read_const_json(in, m.json);
    }
  } else {
    return read_member(in, value.*m.field);
  }
}

// Whether `key` is member K's: its length first, then its bytes (a constant count, which the
// compiler compares inline).
template <const auto& Members, std::size_t K>
bool is_key_of(std::string_view key) {
  constexpr std::string_view name = kMember<Members, K>.key.name;
  return key.size() == name.size() && std::memcmp(key.data(), name.data(), name.size()) == 0;
}

template <class Owner, class M>
constexpr bool is_required(const Required<Owner, M>&) { return true; }
template <class Owner, class M>
constexpr bool is_required(const Optional<Owner, M>&) { return false; }
constexpr bool is_required(const Constant& c) { return c.required; }

// Each member's bit in read_object's "seen" mask (0 for a member that may be absent and no
// alternative names), the mask of the required ones, each alternative's mask, and whether they
// fit in 64 bits.
template <std::size_t N>
struct RequiredBits {
  std::array<std::uint64_t, N> bits{};
  std::uint64_t all = 0;
  std::array<std::uint64_t, kMaxAlternatives> alternatives{};
  std::size_t alternative_count = 0;
  bool fits = true;
};
template <std::size_t... I, class... Ds>
constexpr auto required_bits(const MemberTable<std::index_sequence<I...>, Ds...>& table,
                             std::span<const Present> alternatives) {
  std::array<bool, sizeof...(I)> required = {
      is_required(static_cast<const Slot<I, Ds>&>(table).descriptor)...};
  std::array<std::string_view, sizeof...(I)> keys = {
      static_cast<const Slot<I, Ds>&>(table).descriptor.key.name...};
  auto index_of = [&](std::string_view key) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == key) return i;
    }
    throw "an alternative names a member the table does not have";  // a compile error
  };
  std::array<bool, sizeof...(I)> tracked = required;
  for (const Present& alternative : alternatives) {
    for (std::size_t k = 0; k < alternative.count; ++k)
      tracked[index_of(alternative.keys[k])] = true;
  }
  RequiredBits<sizeof...(I)> out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < sizeof...(I); ++i) {
    if (!tracked[i]) continue;
    if (next == 64) {
      out.fits = false;
      return out;
    }
    out.bits[i] = std::uint64_t{1} << next++;
    if (required[i]) out.all |= out.bits[i];
  }
  for (const Present& alternative : alternatives) {
    for (std::size_t k = 0; k < alternative.count; ++k) {
      out.alternatives[out.alternative_count] |= out.bits[index_of(alternative.keys[k])];
    }
    ++out.alternative_count;
  }
  return out;
}

// Every required member seen, and one alternative's members all.
template <std::size_t N>
constexpr bool complete(const RequiredBits<N>& bits, std::uint64_t seen) {
  if ((seen & bits.all) != bits.all) return false;
  if (bits.alternative_count == 0) return true;
  for (std::size_t a = 0; a < bits.alternative_count; ++a) {
    if ((seen & bits.alternatives[a]) == bits.alternatives[a]) return true;
  }
  return false;
}

// read()'s checks: a failure only sends decode_text to the DOM decoder, which names the path,
// so no segment is pushed here (each would cost the path an allocation per struct read).
template <class Owner, class M>
void check_field(const Owner& value, DecodePath& path, const Required<Owner, M>& m) {
  if (m.check == nullptr) return;
  m.check(value.*m.field, path);
}
template <class Owner, class M>
void check_field(const Owner& value, DecodePath& path, const Optional<Owner, M>& m) {
  if (m.check == nullptr || !(value.*m.field).has_value()) return;
  m.check(value.*m.field, path);
}
template <class Owner>
void check_field(const Owner&, DecodePath&, const Constant&) {}

template <class Owner, class M>
constexpr bool has_check(const Required<Owner, M>& m) { return m.check != nullptr; }
template <class Owner, class M>
constexpr bool has_check(const Optional<Owner, M>& m) { return m.check != nullptr; }
constexpr bool has_check(const Constant&) { return false; }

template <std::size_t... I, class... Ds>
constexpr bool has_checks(const MemberTable<std::index_sequence<I...>, Ds...>& table) {
  return (has_check(static_cast<const Slot<I, Ds>&>(table).descriptor) || ... || false);
}

template <const auto& Members>
inline constexpr auto kKeyOrder = key_order(Members);
template <const auto& Members>
inline constexpr auto kRequiredBits = required_bits(Members, alternatives_of(Members));

// Each member's place in key order (kKeyOrder's inverse).
template <const auto& Members>
inline constexpr auto kKeyPosition = [] {
  auto position = kKeyOrder<Members>;
  for (std::size_t p = 0; p < position.size(); ++p) position[kKeyOrder<Members>[p]] = p;
  return position;
}();

// read()'s guess: the member at key-order place P, when the next key is written as its own
// (compact text, no escape), is read with no scan of the key and no lookup. Writers that sort
// their keys (ours, nlohmann's, any canonical JSON) send members in this order.
template <const auto& Members, std::size_t P, class T>
bool read_expected(JsonReader& in, T& value, std::uint64_t& seen, bool& ok) {
  constexpr std::size_t K = kKeyOrder<Members>[P];
  constexpr const MemberKey& key = kMember<Members, K>.key;
  if constexpr (key.quoted_size == 0) {
    return false;
  } else {
    if (!in.next_member_is(key.without_comma())) return false;
    ok = read_member_value<Members, K>(in, value);
    seen |= kRequiredBits<Members>.bits[K];
    return true;
  }
}

template <const auto& Members, class T, std::size_t... I>
void to_json(nlohmann::json& j, const T& value, std::index_sequence<I...>) {
  j = nlohmann::json::object();
  (member_to_json<Members, I>(j, value), ...);
}

template <const auto& Members, class T, std::size_t... I>
void decode(const nlohmann::json& j, T& value, DecodePath& path, std::index_sequence<I...>) {
  expect_object(j, path);
  (decode_member<Members, I>(j, value, path), ...);
  if constexpr (!alternatives_of(Members).empty()) {
    check_alternatives(j, alternatives_of(Members), path);
  }
}

template <const auto& Members, class T, std::size_t... I>
void write(std::string& out, const T& value, std::index_sequence<I...>) {
  ObjectWriter object(out);
  (write_member<Members, kKeyOrder<Members>[I]>(object, out, value), ...);
}

template <const auto& Members>
using MemberIndices = std::make_index_sequence<kKeyOrder<Members>.size()>;

// What read() does with the members the table does not declare: a closed struct skips them
// whole (still validated); an open one keeps them (open_object_codec.hpp).
template <const auto& Members>
struct SkipUnknown {
  template <class T>
  static void begin(T&) {}
  template <class T>
  static bool take(JsonReader& in, T&, std::string_view) {
    in.skip_value();
    return true;
  }
  template <class T>
  static void decode_whole(const nlohmann::json& j, T& value, DecodePath& path) {
    decode<Members>(j, value, path, MemberIndices<Members>{});
  }
  template <class T>
  static void check(const T&) {}
};

template <const auto& Members, class Unknown, class T, std::size_t... I, class... Ds>
bool read(JsonReader& in, T& value, const MemberTable<std::index_sequence<I...>, Ds...>& table) {
  constexpr auto bits = kRequiredBits<Members>;
  if constexpr (!bits.fits) {
    // More required members than the mask has bits: the value is read whole and decoded as
    // decode() would (a failure throws DecodeError, reported by decode_text at its path).
    JsonValue dom;
    read_json(in, dom);
    DecodePath path;
    Unknown::decode_whole(dom.get(), value, path);
    return true;
  }
  if (in.peek() != JsonKind::kObject) return false;
  in.begin_object();
  Unknown::begin(value);
  std::uint64_t seen = 0;
  std::string_view key;
  std::size_t expected = 0;  // key-order place of the member guessed next
  for (;;) {
    bool ok = true;
    // I... doubles as the key-order places 0..N-1.
    if (((expected == I && read_expected<Members, I>(in, value, seen, ok)) || ...)) {
      if (!ok) return false;
      ++expected;
      continue;
    }
    if (!in.next_member(key)) break;
    bool known = false;
    // The first member with this key reads it (keys are unique within a struct).
    (void)((is_key_of<Members, I>(key)
                ? (known = true, ok = read_member_value<Members, I>(in, value),
                   seen |= bits.bits[I], expected = kKeyPosition<Members>[I] + 1, true)
                : false) ||
           ...);
    if (!ok || (!known && !Unknown::take(in, value, key))) return false;
  }
  if (!complete(bits, seen)) return false;  // a required member is missing
  if constexpr (has_checks(Members)) {
    DecodePath path;  // a broken constraint throws DecodeError; decode() reports it
    (check_field(value, path, static_cast<const Slot<I, Ds>&>(table).descriptor), ...);
  }
  Unknown::check(value);
  return true;
}

}  // namespace detail

// to_json(): every member present (a const always), as nlohmann's object.
template <const auto& Members, class T>
void object_to_json(nlohmann::json& j, const T& value) {
  detail::to_json<Members>(j, value, detail::MemberIndices<Members>{});
}

// decode(): the JSON kind, then each member in table order with its constraints.
template <const auto& Members, class T>
void decode_object(const nlohmann::json& j, T& value, DecodePath& path) {
  detail::decode<Members>(j, value, path, detail::MemberIndices<Members>{});
}

// write_json(): the members in key order, an absent optional member left out.
template <const auto& Members, class T>
void write_object(std::string& out, const T& value) {
  detail::write<Members>(out, value, detail::MemberIndices<Members>{});
}

// read_json(): members decoded in place as they come, unknown ones skipped whole (and still
// validated), then every required member present and every constraint met. False (or a
// DecodeError) leaves the error to decode().
template <const auto& Members, class T>
bool read_object(JsonReader& in, T& value) {
  return detail::read<Members, detail::SkipUnknown<Members>>(in, value, Members);
}

}  // namespace rpckit::codec

// to_json, decode, write_json, read_json and from_json of struct `Type`, over its member table
// k<Type>Members (declared before, in the same namespace). Type names a type: no parentheses.
// NOLINTBEGIN(bugprone-macro-parentheses)
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
// NOLINTEND(bugprone-macro-parentheses)
