// The C++ API comparison: an additive schema change must add symbols and change none.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support.hpp"

namespace rpckit::compat::test {
namespace {

using ::testing::ElementsAre;

// A descriptor's kErrors and kGate are views: an error or a gate clause added to a message is
// the wire's business alone, and changes no declaration.
TEST(ApiComparison, AnErrorOrAGateClauseAddedChangesNoDeclaration) {
  SchemaCopy copy;
  edit(copy, "messages/log.json", [](J& d) { d["x-errors"].push_back("rate_limited"); });
  edit(copy, "messages/notify.json", [](J& d) {
    d["definitions"]["NotifyParams"]["properties"]["sound"] = J::parse(R"({"type": "string"})");
    d["x-gate"].push_back(J::parse(R"({"capability": "audio", "param": "sound"})"));
  });
  Report r = compare_with(copy, {});
  EXPECT_THAT(rows(r),
              ElementsAre("additive | gate.new_param_gated | plugin_to_host | host and plugin | "
                          "message notify | params.sound sent only with capability \"audio\"",
                          "additive | member.optional_added | plugin_to_host | host | "
                          "notify.params.sound | new optional member",
                          "additive | errors.added | plugin_to_host | host and plugin | message "
                          "log | may now fail with rate_limited"));
  EXPECT_FALSE(r.fails());
}

TEST(ApiComparison, TheHeaderLinesSpeakWhenTheIrCannot) {
  SchemaCopy copy;
  // A title is an annotation for the schema diff, but it names the generated type.
  edit(copy, "messages/notify.json", [](J& d) {
    d["definitions"]["NotifyParams"]["properties"]["level"]["title"] = "NotifySeverity";
  });
  Report r = compare_with(copy, {});
  ASSERT_FALSE(r.changes.empty());
  for (const Change& c : r.changes) {
    EXPECT_EQ(c.verdict, Verdict::kBreaking) << row(c);
    EXPECT_EQ(c.rule, "api.changed") << row(c);
  }
  EXPECT_EQ(row(r.changes[0]), "breaking | api.changed |  | C++ API | enum NotifyLevel | is gone");
}

// A constraint is a check in the decoder, not part of a declaration: the wire verdict alone.
TEST(ApiComparison, ATighterConstraintLeavesTheDeclarationsAlone) {
  SchemaCopy copy;
  edit(copy, "messages/notify.json",
       [](J& d) { d["definitions"]["NotifyParams"]["properties"]["message"]["maxLength"] = 200; });
  edit(copy, "messages/initialize.json",
       [](J& d) { d["definitions"]["InitializeResult"]["properties"]["hooks"]["maxItems"] = 8; });
  EXPECT_THAT(rows(compare_with(copy, {})),
              ElementsAre("breaking | constraint.tighter | plugin_to_host | new host <- old plugin "
                          "| initialize.result.hooks | maxItems none -> 8",
                          "breaking | constraint.tighter | plugin_to_host | new host <- old plugin "
                          "| notify.params.message | maxLength none -> 200"));
}

}  // namespace
}  // namespace rpckit::compat::test
