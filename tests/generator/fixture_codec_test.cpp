// The golden output of the fixtures, compiled as libraries by this folder's CMakeLists.txt
// (demo_calc, demo_relay): the generated code for protocols other than StreamNook builds
// warning-free and does what the schema says.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "demo_calc/dispatch.hpp"
#include "demo_calc/errors.hpp"
#include "demo_calc/profile.hpp"
#include "demo_relay/dispatch.hpp"
#include "rpckit/codec/json_writer.hpp"
#include "rpckit/codec/text_decoder.hpp"

namespace {

using nlohmann::json;

// ---- calculator: the field shapes -------------------------------------------------------

namespace calc = demo::calc;

static_assert(std::is_same_v<decltype(calc::Expression::comment), std::optional<std::string>>);
static_assert(std::is_same_v<decltype(calc::Expression::label), rpckit::Nullable<std::string>>);
static_assert(
    std::is_same_v<decltype(calc::Expression::note), std::optional<rpckit::Nullable<std::string>>>);
static_assert(std::is_same_v<decltype(calc::Expression::weight), std::uint32_t>);
static_assert(std::is_same_v<decltype(calc::Expression::class_), calc::Feature>);
static_assert(std::is_same_v<decltype(calc::Expression::default_), std::optional<double>>);
static_assert(std::is_same_v<calc::Variables, std::map<std::string, double>>);
static_assert(std::is_same_v<calc::messages::Evaluate::Params, calc::EvaluateParams>);
static_assert(std::is_same_v<calc::messages::Ping::Result, std::nullptr_t>);
static_assert(calc::messages::Evaluate::kDeadline == calc::kEvaluateTimeoutMs);
// Its peers may omit an error's code: read as internal (-32603), the message "unknown error".
static_assert(calc::Profile::kErrorObjects.code_optional);
static_assert(calc::Profile::kErrorObjects.missing_code == -32603);
static_assert(calc::Profile::kErrorObjects.missing_message == "unknown error");
static_assert(calc::messages::Cancel::kParamsPresence == rpckit::ParamsPresence::kOptionalOmit);
static_assert(calc::messages::Ping::kParamsPresence == rpckit::ParamsPresence::kOptionalSendEmpty);
static_assert(calc::ClientToServer::find("cancel") == 2);
static_assert(!calc::ServerToClient::find("evaluate").has_value());
static_assert(calc::kRegisterOffsets[0] == -1);
static_assert(calc::kServerName == "calc \"pro\" \\ edition");

json expression_json() {
  return json::parse(R"({
    "id": "e1", "text": "1 + x", "label": null, "note": null, "class": "arithmetic",
    "default": 0.5, "weight": 4294967295, "tags": ["a", "b"], "data-key": "k", "2fa": true,
    "hint": 3, "shape": {"kind": "rect", "width": 2, "height": 3}, "extra": {"any": [1, "x"]}
  })");
}

TEST(FixtureCalculator, ExpressionRoundTripsAbsentNullAndValue) {
  calc::Expression e = expression_json().get<calc::Expression>();
  EXPECT_EQ(e.id, "e1");
  EXPECT_TRUE(e.label.is_null());
  ASSERT_TRUE(e.note.has_value());  // present...
  EXPECT_TRUE(e.note->is_null());   // ...and null
  EXPECT_FALSE(e.comment.has_value());
  EXPECT_EQ(e.class_, calc::Feature::kArithmetic);
  EXPECT_EQ(e.default_, 0.5);
  EXPECT_EQ(e.weight, 4294967295u);
  EXPECT_EQ(e.data_key, "k");
  EXPECT_EQ(e._2fa, true);
  ASSERT_TRUE(e.hint.has_value() && e.hint->has_value());
  EXPECT_EQ(std::get<std::int64_t>((**e.hint).value), 3);
  ASSERT_TRUE(e.shape.has_value());
  EXPECT_EQ(std::get<calc::Rect>(e.shape->value).height, 3.0);
  EXPECT_EQ(e.limit_or_default(), 10);
  EXPECT_EQ(e.mode_or_default(), calc::ExpressionMode::kExact);
  EXPECT_EQ(e.name_or_default(), "anon");

  json back = e;
  EXPECT_EQ(back, expression_json());
  EXPECT_FALSE(back.contains("comment"));
  EXPECT_TRUE(back.at("note").is_null());
}

TEST(FixtureCalculator, ConstraintsAreChecked) {
  auto error_of = [](json j) -> std::string {
    try {
      j.get<calc::Expression>();
    } catch (const rpckit::codec::DecodeError& e) {
      return e.path();
    }
    return "(no error)";
  };
  json j = expression_json();
  j["weight"] = -1;
  EXPECT_EQ(error_of(j), "weight");
  j = expression_json();
  j["tags"] = json::array({"a", "b", "a"});
  EXPECT_EQ(error_of(j), "tags[2]");
  j = expression_json();
  j["text"] = "   ";
  EXPECT_EQ(error_of(j), "text");
  j = expression_json();
  j["id"] = "Bad";
  EXPECT_EQ(error_of(j), "id");
  j = expression_json();
  j["created_at"] = "yesterday";
  EXPECT_EQ(error_of(j), "created_at");
  j = expression_json();
  j["score"] = 11;
  EXPECT_EQ(error_of(j), "score");
  j = expression_json();
  j["bindings"] = json::parse(R"({"k": ["ok", "toolong"]})");
  EXPECT_EQ(error_of(j), "bindings.k[1]");
  j = expression_json();
  j.erase("label");
  EXPECT_EQ(error_of(j), "label");
  j = expression_json();
  j["shape"] = json::parse(R"({"kind": "circle", "radius": -1})");
  EXPECT_EQ(error_of(j), "shape.radius");
}

TEST(FixtureCalculator, OpenEnumsAndUnionsKeepUnknownValues) {
  json j = expression_json();
  j["class"] = "quantum";
  j["shape"] = json::parse(R"({"kind": "hexagon", "side": 1})");
  calc::Expression e = j.get<calc::Expression>();
  EXPECT_FALSE(e.class_.is_known());
  EXPECT_EQ(e.class_.wire(), "quantum");
  EXPECT_TRUE(std::holds_alternative<rpckit::JsonValue>(e.shape->value));
  EXPECT_EQ(json(e), j);

  EXPECT_EQ(calc::to_string(calc::CalcError::kDivisionByZero), "division_by_zero");
  EXPECT_EQ(calc::calc_error_from_string("overflow"), calc::CalcError::kOverflow);
  auto unknown = json(99).get<calc::CalcError>();
  EXPECT_FALSE(calc::is_known(unknown));
  EXPECT_EQ(json(unknown), json(99));
}

// ---- calculator: open structs (additionalProperties beside properties) ------------------

static_assert(std::is_same_v<decltype(calc::Settings::additional_properties),
                             std::map<std::string, std::string>>);
static_assert(std::is_same_v<decltype(calc::EvaluateResult::additional_properties),
                             std::map<std::string, rpckit::JsonValue>>);

// decode_text's error for `text` as a T at `root`, or "(no error)".
template <class T>
std::string decode_error_of(std::string_view text, std::string_view root) {
  T value;
  try {
    rpckit::codec::decode_text(text, value, root);
  } catch (const rpckit::codec::DecodeError& e) {
    return e.what();
  }
  return "(no error)";
}

// Through the streaming reader alone: true only when it decoded the text itself.
template <class T>
bool read_fast(std::string_view text, T& out) {
  using rpckit::codec::read_json;  // and the generated one, by ADL
  rpckit::codec::JsonReader in(text);
  return read_json(in, out);
}

TEST(FixtureCalculator, OpenStructKeepsUndeclaredMembersInKeyOrder) {
  const std::string text = R"({"b":"x","digits":2,"a":"y","zone":"utc","zz":""})";
  calc::Settings dom = json::parse(text).get<calc::Settings>();
  calc::Settings fast;
  ASSERT_TRUE(read_fast(text, fast));
  EXPECT_EQ(fast, dom);
  EXPECT_EQ(dom.zone, "utc");
  EXPECT_EQ(dom.digits, 2u);
  const std::map<std::string, std::string> rest = {{"a", "y"}, {"b", "x"}, {"zz", ""}};
  EXPECT_EQ(dom.additional_properties, rest);
  // Written back merged with the declared members in key order: nlohmann's bytes.
  const std::string expected = R"({"a":"y","b":"x","digits":2,"zone":"utc","zz":""})";
  EXPECT_EQ(rpckit::codec::to_json_text(dom), expected);
  EXPECT_EQ(json(dom).dump(), expected);
  // Closed structs stay closed: the calculator's Expression drops what it does not declare.
  json e = expression_json();
  e["unheard_of"] = 1;
  EXPECT_FALSE(json(e.get<calc::Expression>()).contains("unheard_of"));
}

TEST(FixtureCalculator, OpenStructChecksUndeclaredMembersBySchema) {
  auto error_of = [](std::string_view text) {
    return decode_error_of<calc::Settings>(text, "settings");
  };
  EXPECT_EQ(error_of(R"({"zone":"utc","a":1})"), "settings.a: expected string, got integer");
  EXPECT_NE(error_of(R"({"a":"123456789"})").find("settings.a: "), std::string::npos);
  EXPECT_EQ(error_of(R"({"a":"12345678"})"), "(no error)");
  // A declared member is checked by its own schema, not additionalProperties'.
  EXPECT_EQ(error_of(R"({"digits":-1})").rfind("settings.digits: ", 0), 0u);
  EXPECT_EQ(error_of(R"({"zone":"a long zone name"})"), "(no error)");
  calc::Settings fast;
  EXPECT_FALSE(read_fast(R"({"a":1})", fast));  // left to decode() for its error
}

TEST(FixtureCalculator, OpenStructNeverWritesAMemberTwice) {
  calc::Settings s;
  s.zone = "utc";
  s.additional_properties = {{"zone", "other"}, {"digits", "9"}, {"a", "y"}};
  // "zone" is the member's value; "digits" is a declared member (absent here): not written.
  EXPECT_EQ(rpckit::codec::to_json_text(s), R"({"a":"y","zone":"utc"})");
  EXPECT_EQ(json(s).dump(), R"({"a":"y","zone":"utc"})");
}

// Drawing: a union of JSON kinds whose object member is the tagged union Shape, and whose
// array member holds Shapes. Each value is chosen by kind, then by tag.
TEST(FixtureCalculator, TaggedUnionInsideAUnionOfKinds) {
  auto decoded = [](std::string_view text) {
    calc::Drawing d;
    rpckit::codec::decode_text(text, d, "drawing");
    EXPECT_EQ(json::parse(rpckit::codec::to_json_text(d)), json::parse(text));  // round trip
    EXPECT_EQ(json::parse(text).get<calc::Drawing>(), d);                       // both decoders
    return d;
  };
  calc::Drawing one = decoded(R"({"kind":"circle","radius":2})");
  ASSERT_TRUE(std::holds_alternative<calc::Shape>(one.value));
  const auto* circle = std::get_if<calc::Circle>(&std::get<calc::Shape>(one.value).value);
  ASSERT_NE(circle, nullptr);
  EXPECT_EQ(circle->radius, 2);

  calc::Drawing many = decoded(R"([{"kind":"dot"},{"kind":"rect","width":1,"height":3},)"
                               R"({"kind":"hexagon","side":1}])");
  const auto* shapes = std::get_if<std::vector<calc::Shape>>(&many.value);
  ASSERT_NE(shapes, nullptr);
  ASSERT_EQ(shapes->size(), 3u);
  EXPECT_TRUE(std::holds_alternative<calc::Dot>((*shapes)[0].value));
  EXPECT_TRUE(std::holds_alternative<calc::Rect>((*shapes)[1].value));
  EXPECT_TRUE(std::holds_alternative<rpckit::JsonValue>((*shapes)[2].value));  // a newer tag
  EXPECT_TRUE(std::holds_alternative<std::vector<calc::Shape>>(decoded("[]").value));
  // Another kind altogether is kept whole, as by any union.
  EXPECT_TRUE(std::holds_alternative<rpckit::JsonValue>(decoded(R"("square")").value));

  // A member's own rules hold, at its full path.
  auto error_of = [](std::string_view text) {
    return decode_error_of<calc::Drawing>(text, "drawing");
  };
  EXPECT_EQ(error_of(R"({"kind":"circle","radius":-1})").rfind("drawing.radius: ", 0), 0u);
  EXPECT_EQ(error_of(R"([{"kind":"dot"},{"kind":"circle"}])"),
            "drawing[1].radius: missing required field");
  EXPECT_EQ(error_of(R"([{"kind":"dot"},{"radius":1}])"),
            "drawing[1].kind: missing required field");
}

// Source's anyOf of required lists: "text", or "path" and "revision" together.
TEST(FixtureCalculator, AnyOfRequiredListsNeedsOneAlternativeAllPresentInBothDecoders) {
  auto error_of = [](std::string_view text) {
    return decode_error_of<calc::Source>(text, "source");
  };
  auto fast_reads = [](std::string_view text) {
    calc::Source s;
    return read_fast(text, s);
  };
  const std::string missing =
      R"(source: missing required field: "text" or ("path" and "revision"))";
  for (const char* ok : {R"({"id":"a","text":"1+1"})", R"({"id":"a","path":"p","revision":0})",
                         R"({"id":"a","path":"p","revision":3,"text":""})"}) {
    SCOPED_TRACE(ok);
    EXPECT_EQ(error_of(ok), "(no error)");
    EXPECT_TRUE(fast_reads(ok));  // the streaming reader decides alone
    calc::Source dom = json::parse(ok).get<calc::Source>();
    calc::Source fast;
    ASSERT_TRUE(read_fast(ok, fast));
    EXPECT_EQ(fast, dom);
    EXPECT_EQ(rpckit::codec::to_json_text(dom), json::parse(ok).dump());
  }
  for (const char* bad : {R"({"id":"a"})", R"({"id":"a","path":"p"})", R"({"id":"a","revision":1})",
                          R"({"revision":1,"id":"a","other":true})"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(error_of(bad), missing);
    EXPECT_FALSE(fast_reads(bad));  // left to decode() for its error
  }
  // A present member's own rules still hold, and come first.
  EXPECT_EQ(error_of(R"({"id":"a","path":"p","revision":-1})").rfind("source.revision: ", 0), 0u);
  EXPECT_EQ(error_of(R"({"id":"a","text":7})"), "source.text: expected string, got integer");
  // Collecting, every problem is reported: the required member and the alternatives.
  calc::Source s;
  std::vector<rpckit::codec::DecodeError> problems;
  rpckit::codec::DecodePath path("source");
  path.collect_into(&problems);
  decode(json::parse(R"({"path":"p"})"), s, path);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_STREQ(problems[0].what(), "source.id: missing required field");
  EXPECT_EQ(problems[1].what(), missing);
}

// x-error-data: overflow's data is OverflowData, invalid_name's a string; each has a maker and
// a typed reader, which reads only its own code.
TEST(FixtureCalculator, ErrorDataTypedByCodeHasAMakerAndAReader) {
  calc::OverflowData limit{.limit = 1e308, .digits = 309u};
  const rpckit::RpcError overflow = calc::make_overflow_error("too big", limit);
  EXPECT_EQ(overflow.code(), 2);
  EXPECT_EQ(overflow.message(), "too big");
  ASSERT_TRUE(overflow.data());
  EXPECT_EQ(overflow.data()->get(), json::parse(R"({"digits":309,"limit":1e308})"));
  EXPECT_EQ(calc::overflow_data(overflow), limit);
  EXPECT_EQ(calc::invalid_name_data(overflow), std::nullopt);  // another code
  const rpckit::RpcError named = calc::make_invalid_name_error("no", "sqrt2");
  EXPECT_EQ(calc::error_code(named), calc::CalcError::kInvalidName);
  EXPECT_EQ(calc::invalid_name_data(named), "sqrt2");
  // Data of another shape, or none, reads as nullopt.
  EXPECT_EQ(calc::overflow_data(rpckit::RpcError(2, "x", rpckit::JsonValue(json{{"limit", "x"}}))),
            std::nullopt);
  EXPECT_EQ(calc::overflow_data(rpckit::RpcError(2, "x")), std::nullopt);
  EXPECT_EQ(calc::invalid_name_data(rpckit::RpcError(3, "x", rpckit::JsonValue(json(7)))),
            std::nullopt);
}

TEST(FixtureCalculator, OpenResultKeepsAnyJsonByteForByte) {
  const std::string text =
      R"({"elapsed_ms":1.5,"trace":{"deep":[1,"x",null]},"value":3,"warnings":["w"]})";
  calc::EvaluateResult fast;
  ASSERT_TRUE(read_fast(text, fast));
  EXPECT_EQ(fast.additional_properties.size(), 2u);
  EXPECT_EQ(fast.additional_properties.at("trace").get(), json::parse(R"({"deep":[1,"x",null]})"));
  EXPECT_EQ(rpckit::codec::to_json_text(fast), text);
  EXPECT_EQ(json::parse(text).get<calc::EvaluateResult>(), fast);
}

TEST(FixtureCalculator, DispatchVisitsTheTypedDescriptor) {
  std::string_view seen;
  bool found = calc::ClientToServer::visit("define", [&]<class M>() { seen = M::kMethod; });
  EXPECT_TRUE(found);
  EXPECT_EQ(seen, "define");
  EXPECT_FALSE(calc::ClientToServer::visit("progress", [&]<class M>() { seen = M::kMethod; }));
  EXPECT_EQ(calc::messages::Define::kGate.size(), 2u);
  EXPECT_EQ(calc::messages::Define::kGate[0].list, "limits.functions");
  EXPECT_EQ(calc::messages::Evaluate::kErrors[1], calc::CalcError::kOverflow);
}

// ---- relay: three roles, no error codes ----------------------------------------------------

namespace relay = demo::relay::v2;

static_assert(relay::messages::RoomJoin::kMethod == "room/join");
// Descriptors named like a type (messages::Member, messages::Role) do not hide the type.
static_assert(std::is_same_v<relay::messages::Member::Result, relay::Member>);
static_assert(
    std::is_same_v<std::remove_const_t<decltype(relay::messages::Say::kFrom)>, relay::Role>);
static_assert(relay::messages::Role::kTo == relay::Role::kBot);
static_assert(relay::BotToHub::kFrom == relay::Role::kBot);
static_assert(std::is_same_v<relay::messages::Shutdown::Result, rpckit::JsonValue>);
static_assert(
    std::is_same_v<relay::Scores, std::map<std::string, std::map<std::string, std::int64_t>>>);

TEST(FixtureRelay, ConstOnlyStructAndUntaggedUnion) {
  EXPECT_EQ(json(relay::Marker{}), json::parse(R"({"version": 2, "ok": true})"));
  EXPECT_NO_THROW(json::parse(R"({"version": 2})").get<relay::Marker>());
  EXPECT_THROW(json::parse(R"({"version": 3})").get<relay::Marker>(), rpckit::codec::DecodeError);

  auto payload = [](const char* text) { return json::parse(text).get<relay::Payload>(); };
  EXPECT_TRUE(std::holds_alternative<std::nullptr_t>(payload("null").value));
  EXPECT_TRUE(std::holds_alternative<bool>(payload("true").value));
  EXPECT_TRUE(std::holds_alternative<std::vector<std::int64_t>>(payload("[1, 2]").value));
  EXPECT_TRUE(std::holds_alternative<relay::MemberKind>(payload("\"bot\"").value));
  auto members = payload(R"([{"id": "a", "kind": "human"}])");
  ASSERT_TRUE(std::holds_alternative<std::vector<relay::Member>>(members.value));
  EXPECT_EQ(std::get<std::vector<relay::Member>>(members.value)[0].resolution_or_default(),
            relay::MemberResolution::kV1080p);
  EXPECT_TRUE(std::holds_alternative<rpckit::JsonValue>(payload("1.5").value));
}

}  // namespace
