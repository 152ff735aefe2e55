// Lowering decisions, asserted on the IR dump (ir/dump.hpp) of the fixtures and on a few
// focused schemas: one line of the dump per decision.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "ir/dump.hpp"
#include "lower/names.hpp"
#include "support.hpp"

namespace rpckit::gen::test {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// The lines of `struct <name>`'s block in a dump (the header line and its fields).
std::vector<std::string> block(const std::vector<std::string>& dump, const std::string& header) {
  std::vector<std::string> out;
  auto it = std::find_if(dump.begin(), dump.end(),
                         [&](const std::string& l) { return l.rfind(header, 0) == 0; });
  if (it == dump.end()) return out;
  out.push_back(*it);
  for (++it; it != dump.end() && it->rfind("  ", 0) == 0; ++it) out.push_back(*it);
  return out;
}

class CalculatorIr : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    module_ = new ir::Module(lower_file(fixtures_dir() / "calculator/schema/protocol.json"));
    dump_ = new std::vector<std::string>(lines_of(dump_ir(*module_)));
  }
  static void TearDownTestSuite() {
    delete module_;
    delete dump_;
  }
  static const std::vector<std::string>& dump() { return *dump_; }
  static std::vector<std::string> expression() {
    return block(*dump_, "struct Expression @types/expression.json#");
  }
  static const ir::Field& field(const std::string& type, const std::string& wire) {
    for (const ir::TypeDecl& d : module_->types) {
      if (d.name != type) continue;
      for (const ir::Field& f : d.struct_.fields) {
        if (f.wire_name == wire) return f;
      }
    }
    throw std::runtime_error("no field " + type + "." + wire);
  }
  static const ir::Message& message(const std::string& method) {
    for (const ir::Message& m : module_->messages) {
      if (m.method == method) return m;
    }
    throw std::runtime_error("no message " + method);
  }

  static ir::Module* module_;
  static std::vector<std::string>* dump_;
};
ir::Module* CalculatorIr::module_ = nullptr;
std::vector<std::string>* CalculatorIr::dump_ = nullptr;

TEST_F(CalculatorIr, ModuleHeader) {
  ASSERT_GE(dump().size(), 2u);
  EXPECT_EQ(dump()[0], "module demo_calc namespace demo::calc roles client server");
  EXPECT_EQ(dump()[1], "error-codes CalcError");
}

TEST_F(CalculatorIr, PresenceShapesAreDistinct) {
  auto e = expression();
  ASSERT_GT(e.size(), 20u);
  EXPECT_THAT(e, Contains("  field id: string{pattern=^[a-z][a-z0-9_]*$ re2=^[a-z][a-z0-9_]*$} "
                          "required"));
  EXPECT_THAT(e, Contains("  field comment: string optional"));
  EXPECT_THAT(e, Contains("  field label: nullable<string> required"));
  EXPECT_THAT(e, Contains("  field note: nullable<string> optional"));
  EXPECT_THAT(e, Contains("  field hint: nullable<Operand> optional"));
  // And on the IR itself: optional+nullable is both flags, not one.
  const ir::Field& note = field("Expression", "note");
  EXPECT_FALSE(note.required);
  EXPECT_TRUE(note.type.nullable);
  const ir::Field& label = field("Expression", "label");
  EXPECT_TRUE(label.required);
  EXPECT_TRUE(label.type.nullable);
}

TEST_F(CalculatorIr, IntegerWidths) {
  auto e = expression();
  EXPECT_THAT(e, Contains("  field weight: uint32{minimum=0,maximum=4294967295} required"));
  EXPECT_THAT(e, Contains("  field score: int64{minimum=-10,maximum=10} optional"));
  EXPECT_THAT(e, Contains("  field limit: int64 optional default 10"));
  EXPECT_EQ(field("Expression", "weight").type.primitive, ir::Primitive::kUInt32);
  EXPECT_EQ(field("Expression", "score").type.primitive, ir::Primitive::kInt64);
}

TEST_F(CalculatorIr, KeywordAndNonIdentifierFieldsAreRenamed) {
  auto e = expression();
  EXPECT_THAT(e, Contains("  field class as class_: Feature required"));
  EXPECT_THAT(e, Contains("  field default as default_: double optional"));
  EXPECT_THAT(e, Contains("  field data-key as data_key: string optional"));
  EXPECT_THAT(e, Contains("  field 2fa as _2fa: bool optional"));
  EXPECT_EQ(field("Expression", "default").wire_name, "default");
}

TEST_F(CalculatorIr, NamedStringMapIsAnAlias) {
  EXPECT_THAT(dump(), Contains("alias Variables @types/variables.json# = map<double>"));
  // Uses spell the alias, not the map.
  EXPECT_THAT(expression(), Contains("  field variables: Variables optional"));
  EXPECT_EQ(field("Expression", "variables").type.kind, ir::TypeRef::Kind::kMap);
  EXPECT_EQ(field("Expression", "variables").type.alias, "Variables");
  // An inline map stays a map.
  EXPECT_THAT(expression(), Contains("  field bindings: map<array<string{maxLength=4}>> optional"));
}

TEST_F(CalculatorIr, ConstraintsAreListed) {
  auto e = expression();
  // \s keeps ECMAScript's meaning (Unicode white space) in its RE2 spelling.
  EXPECT_THAT(e, Contains("  field text: string{minLength=1,maxLength=200,notPattern=^\\s*$ "
                          "re2=^[\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}"
                          "\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}]*$} required"));
  EXPECT_THAT(e, Contains("  field tags: array<string{maxLength=16}>{minItems=1,maxItems=8,"
                          "uniqueItems} optional"));
  EXPECT_THAT(e, Contains("  field created_at: string{date-time} optional"));
  EXPECT_THAT(e, Contains("  field ratio: double{minimum=0,maximum=1} optional"));
  // format: uri is accepted and checks nothing.
  EXPECT_THAT(e, Contains("  field homepage: string optional"));
}

TEST_F(CalculatorIr, DefaultsBecomeExpressions) {
  auto e = expression();
  EXPECT_THAT(e, Contains("  field mode: ExpressionMode optional default ExpressionMode::kExact"));
  EXPECT_THAT(e, Contains("  field verbose: bool optional default false"));
  EXPECT_THAT(e, Contains("  field scale: double optional default 1.0"));
  EXPECT_THAT(e, Contains("  field name: string optional default std::string(\"anon\")"));
  EXPECT_THAT(e, Contains("  field aliases: array<string> optional default {}"));
}

TEST_F(CalculatorIr, EnumsAreNamedFromTheirValuesOrXEnumNames) {
  EXPECT_THAT(block(dump(), "enum Feature "),
              ::testing::ElementsAre("enum Feature @capabilities.json#/definitions/Feature",
                                     "  kArithmetic = arithmetic", "  kTrigonometry = trigonometry",
                                     "  kBigNumbers = big-numbers", "  kV2d = 2d"));
  EXPECT_THAT(block(dump(), "enum Rounding "), Contains("  kBanker = half-even"));
  // An inline enum without a title is named after its owner and key.
  EXPECT_THAT(dump(), Contains("enum ExpressionMode @types/expression.json#/properties/mode"));
  EXPECT_THAT(
      block(dump(), "enum-int CalcError "),
      ::testing::ElementsAre("enum-int CalcError @errors.json#/definitions/CalcError",
                             "  kInvalidParams = -32602", "  kInternal = -32603",
                             "  kDivisionByZero = 1", "  kOverflow = 2", "  kInvalidName = 3"));
}

TEST_F(CalculatorIr, Unions) {
  EXPECT_THAT(block(dump(), "union Shape "),
              ::testing::ElementsAre("union Shape @types/shape.json# tag kind",
                                     "  member Circle when circle", "  member Rect when rect",
                                     "  member Dot when dot"));
  EXPECT_THAT(block(dump(), "union Operand "), Contains("  member int64 when integer"));
  EXPECT_THAT(block(dump(), "union Operand "), Contains("  member Variables when object"));
  EXPECT_THAT(block(dump(), "union Operand "),
              Contains("  member array<double> when array:number"));
  // A tagged member's discriminator is a const field, not a stored member.
  EXPECT_THAT(block(dump(), "struct Circle "), Contains("  field kind const \"circle\" required"));
}

TEST_F(CalculatorIr, TypesComeAfterTheTypesTheyHold) {
  auto position = [&](const std::string& prefix) {
    auto it = std::find_if(dump().begin(), dump().end(),
                           [&](const std::string& l) { return l.rfind(prefix, 0) == 0; });
    return it - dump().begin();
  };
  EXPECT_LT(position("alias Variables "), position("union Operand "));
  EXPECT_LT(position("union Operand "), position("struct Expression "));
  EXPECT_LT(position("union Shape "), position("struct Expression "));
  EXPECT_LT(position("struct Expression "), position("struct EvaluateParams "));
}

TEST_F(CalculatorIr, Constants) {
  EXPECT_THAT(dump(), Contains("constant kProtocolVersion = 3"));
  EXPECT_THAT(dump(), Contains("constant kServerName = \"calc \\\"pro\\\" \\\\ edition\""));
  EXPECT_THAT(dump(), Contains("constant kPi = 3.14159"));
  EXPECT_THAT(dump(), Contains("constant kStrictMode = true"));
  EXPECT_THAT(dump(), Contains("constant kEvaluateTimeoutMs = 2500 ms"));
  EXPECT_THAT(dump(), Contains("constant kRetryBackoffMs array = 100 200 400 ms"));
  EXPECT_THAT(dump(), Contains("constant kRegisterOffsets array = -1 0 1 65536"));
  EXPECT_THAT(dump(), Contains("constant kOperators array = \"+\" \"-\" \"*\" \"/\""));
}

TEST_F(CalculatorIr, MessageParamsPresence) {
  EXPECT_THAT(dump(), Contains(HasSubstr("request evaluate as Evaluate/evaluate client->server params "
                                         "EvaluateParams(required)")));
  EXPECT_THAT(dump(), Contains(HasSubstr("request ping as Ping/ping server->client params "
                                         "PingParams(optional, send {}) result null")));
  EXPECT_THAT(dump(), Contains(HasSubstr("notification cancel as Cancel/cancel client->server params "
                                         "CancelParams(optional, omit)")));
  EXPECT_EQ(message("cancel").params_presence, ir::Message::ParamsPresence::kOptionalOmit);
  EXPECT_EQ(message("ping").params_presence, ir::Message::ParamsPresence::kOptionalSendEmpty);
  EXPECT_FALSE(message("cancel").request);
  EXPECT_FALSE(message("cancel").result.has_value());
}

TEST_F(CalculatorIr, DeadlineIsResolvedFromTheConstant) {
  EXPECT_EQ(message("evaluate").deadline, "kEvaluateTimeoutMs");
  EXPECT_EQ(message("ping").deadline, "kPingIntervalMs");
  EXPECT_THAT(dump(), Contains(HasSubstr("result EvaluateResult deadline kEvaluateTimeoutMs ")));
  // No x-deadline: the descriptor carries none (see README.md, "Known gaps").
  EXPECT_FALSE(message("define").deadline.has_value());
}

TEST_F(CalculatorIr, GateClausesAndErrors) {
  EXPECT_THAT(
      dump(),
      Contains("request evaluate as Evaluate/evaluate client->server params EvaluateParams(required) "
               "result EvaluateResult deadline kEvaluateTimeoutMs error kDivisionByZero "
               "error kOverflow gate features has arithmetic"));
  EXPECT_THAT(dump(), Contains("request define as Define/define client->server params "
                               "DefineParams(required) result DefineResult error kInvalidName gate "
                               "limits.functions(declared) has params.name gate features has "
                               "big-numbers"));
  EXPECT_THAT(dump(), Contains("notification progress as Progress/progress server->client params "
                               "ProgressParams(required) gate features has params.feature"));
  const ir::Message& define = message("define");
  ASSERT_EQ(define.gate.size(), 2u);
  EXPECT_EQ(define.gate[0].kind, ir::GateClause::Kind::kDeclaredParam);
  EXPECT_EQ(define.gate[0].list, "limits.functions");
  EXPECT_EQ(define.gate[0].param, "name");
  EXPECT_EQ(define.gate[1].kind, ir::GateClause::Kind::kGrantedValue);
  EXPECT_EQ(define.gate[1].value, "big-numbers");
  EXPECT_EQ(message("progress").gate.at(0).kind, ir::GateClause::Kind::kGrantedParam);
}

TEST(RelayIr, ThreeRolesNoErrorCodesNoConstants) {
  std::string dump = dump_ir(lower_file(fixtures_dir() / "relay/schema/protocol.json"));
  auto lines = lines_of(dump);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "module demo_relay namespace demo::relay::v2 roles hub peer bot");
  EXPECT_THAT(dump, Not(HasSubstr("error-codes")));
  EXPECT_THAT(dump, Not(HasSubstr("constant ")));
  EXPECT_THAT(lines, Contains("notification bot.hello as BotHello/bot_hello bot->hub params "
                              "BotHelloParams(optional, send {})"));
  EXPECT_THAT(lines, Contains("request shutdown as Shutdown/shutdown hub->bot params "
                              "ShutdownParams(optional, omit) result any"));
  EXPECT_THAT(lines, Contains("request room/join as RoomJoin/room_join peer->hub params "
                              "RoomJoinParams(required) result RoomJoinResult"));
  EXPECT_THAT(lines, Contains("alias Scores @types/common.json#/definitions/Scores = "
                              "map<map<int64{minimum=0}>>"));
  EXPECT_THAT(lines, Contains("  field nullable_map: nullable<map<string>> optional"));
  EXPECT_THAT(lines, Contains("  field ok const true optional"));
  EXPECT_THAT(lines, Contains("  member null when null"));
  EXPECT_THAT(lines, Contains("  kV1080p = 1080p"));
  EXPECT_THAT(lines, Contains("  field resolution: MemberResolution optional default "
                              "MemberResolution::kV1080p"));
}

TEST(IrDescribe, SpellsNestedUses) {
  ir::TypeRef item;
  item.primitive = ir::Primitive::kString;
  item.nullable = true;
  ir::TypeRef array;
  array.kind = ir::TypeRef::Kind::kArray;
  array.element = std::make_shared<ir::TypeRef>(item);
  array.constraints.max_items = 8;
  EXPECT_EQ(describe(array), "array<nullable<string>>{maxItems=8}");
  ir::TypeRef number;
  number.primitive = ir::Primitive::kDouble;
  number.constraints.minimum = 0.5;
  number.constraints.maximum = 1e-7;
  EXPECT_EQ(describe(number), "double{minimum=0.5,maximum=1e-07}");
}

TEST(Names, RulesOfTheReadme) {
  EXPECT_EQ(pascal_case("on_stream_start"), "OnStreamStart");
  EXPECT_EQ(pascal_case("twitch.android"), "TwitchAndroid");
  EXPECT_EQ(pascal_case("room/join"), "RoomJoin");
  EXPECT_EQ(pascal_case("2d"), "V2d");
  EXPECT_EQ(constant_name("parse_error"), "kParseError");
  EXPECT_EQ(constant_name("big-numbers"), "kBigNumbers");
  EXPECT_EQ(member_name("game_id"), "game_id");
  EXPECT_EQ(member_name("class"), "class_");
  EXPECT_EQ(member_name("default"), "default_");
  EXPECT_EQ(member_name("data-key"), "data_key");
  EXPECT_EQ(member_name("2fa"), "_2fa");
  EXPECT_EQ(snake_case("ErrorCode"), "error_code");
  EXPECT_TRUE(is_cpp_keyword("co_await"));
  EXPECT_FALSE(is_cpp_keyword("value"));
}

}  // namespace
}  // namespace rpckit::gen::test
