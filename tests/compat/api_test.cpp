// The C++ API comparison: an additive schema change must add symbols and change none.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support.hpp"

namespace rpckit::compat::test {
namespace {

using ::testing::ElementsAre;

// Adding an error to a message's x-errors is additive on the wire, but the generated
// descriptor's kErrors changes: the API comparison says so.
TEST(ApiComparison, FlagsAChangedSymbolOfAnAdditiveSchemaChange) {
  SchemaCopy copy;
  edit(copy, "messages/log.json", [](J& d) { d["x-errors"].push_back("rate_limited"); });
  Report r = compare_with(copy, {});
  EXPECT_THAT(rows(r),
              ElementsAre("additive | errors.added | plugin_to_host | host and plugin | message "
                          "log | may now fail with rate_limited",
                          "breaking | api.changed |  | C++ API | message log errors | changed: "
                          "\"\" -> \"kRateLimited\"",
                          "breaking | api.changed |  | C++ API | generated headers | 1 declaration "
                          "changed or gone"));
  EXPECT_TRUE(r.fails());
  // Without the API comparison the same change passes.
  EXPECT_FALSE(compare_with(copy).fails());
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
