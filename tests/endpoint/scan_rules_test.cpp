// scan_envelope() with ScanRules: what each envelope rule changes in what a frame is found to
// be, before any endpoint answers it.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "rpckit/endpoint/envelope.hpp"

namespace rpckit {
namespace {

const Envelope* envelope_of(const std::variant<Envelope, EnvelopeProblem>& scanned) {
  return std::get_if<Envelope>(&scanned);
}
const EnvelopeProblem* problem_of(const std::variant<Envelope, EnvelopeProblem>& scanned) {
  return std::get_if<EnvelopeProblem>(&scanned);
}

TEST(ScanRules, JsonrpcOptionalMarksTheEnvelope) {
  ScanRules lenient;
  lenient.jsonrpc_optional = true;
  const auto taken = scan_envelope(R"({"id":1,"method":"m"})", lenient);
  ASSERT_NE(envelope_of(taken), nullptr);
  EXPECT_TRUE(envelope_of(taken)->jsonrpc_absent);
  EXPECT_EQ(envelope_of(taken)->kind, Envelope::Kind::kRequest);
  const auto present = scan_envelope(R"({"jsonrpc":"2.0","id":1,"method":"m"})", lenient);
  ASSERT_NE(envelope_of(present), nullptr);
  EXPECT_FALSE(envelope_of(present)->jsonrpc_absent);
  // A response without it too.
  const auto response = scan_envelope(R"({"id":1,"result":2})", lenient);
  ASSERT_NE(envelope_of(response), nullptr);
  EXPECT_EQ(envelope_of(response)->kind, Envelope::Kind::kResponse);
  // Strict: refused, with the id.
  const auto strict = scan_envelope(R"({"id":1,"method":"m"})", ScanRules{});
  ASSERT_NE(problem_of(strict), nullptr);
  EXPECT_EQ(problem_of(strict)->kind, EnvelopeProblem::Kind::kInvalidRequest);
  EXPECT_EQ(problem_of(strict)->id, nlohmann::json(1));
  EXPECT_EQ(problem_of(strict)->reason, "jsonrpc must be \"2.0\"");
  // A wrong value is refused either way.
  const auto wrong = scan_envelope(R"({"jsonrpc":"1.0","id":1,"method":"m"})", lenient);
  ASSERT_NE(problem_of(wrong), nullptr);
  EXPECT_EQ(problem_of(wrong)->reason, "jsonrpc must be \"2.0\"");
}

TEST(ScanRules, BlankMethodInvalid) {
  ScanRules rules;
  rules.blank_method_invalid = true;
  for (const std::string method : {"", " ", "\\t\\r\\n "}) {
    SCOPED_TRACE(method);
    const auto scanned =
        scan_envelope(R"({"jsonrpc":"2.0","id":"x","method":")" + method + R"("})", rules);
    ASSERT_NE(problem_of(scanned), nullptr);
    EXPECT_EQ(problem_of(scanned)->kind, EnvelopeProblem::Kind::kInvalidRequest);
    EXPECT_EQ(problem_of(scanned)->reason, "method is blank");
    EXPECT_EQ(problem_of(scanned)->id, nlohmann::json("x"));
    const auto valid =
        scan_envelope(R"({"jsonrpc":"2.0","id":"x","method":")" + method + R"("})", ScanRules{});
    ASSERT_NE(envelope_of(valid), nullptr);
  }
  // Not blank: a method with white space around a name.
  EXPECT_NE(envelope_of(scan_envelope(R"({"jsonrpc":"2.0","method":" m "})", rules)), nullptr);
}

TEST(ScanRules, NullIdRequests) {
  ScanRules rules;
  rules.null_id_requests = true;
  const auto scanned = scan_envelope(R"({"jsonrpc":"2.0","id":null,"method":"m"})", rules);
  ASSERT_NE(envelope_of(scanned), nullptr);
  EXPECT_EQ(envelope_of(scanned)->kind, Envelope::Kind::kRequest);
  EXPECT_TRUE(envelope_of(scanned)->id.is_null());
  const auto refused = scan_envelope(R"({"jsonrpc":"2.0","id":null,"method":"m"})", ScanRules{});
  ASSERT_NE(problem_of(refused), nullptr);
  EXPECT_EQ(problem_of(refused)->reason, "id must be a string or an integer");
  // Other kinds stay refused, and the reason names null as allowed.
  const auto fraction = scan_envelope(R"({"jsonrpc":"2.0","id":1.5,"method":"m"})", rules);
  ASSERT_NE(problem_of(fraction), nullptr);
  EXPECT_EQ(problem_of(fraction)->reason, "id must be a string, an integer or null");
}

}  // namespace
}  // namespace rpckit
