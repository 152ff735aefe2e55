// generator.drift: the checked-in bindings in generated/ are what `rpckit generate` makes of
// schema/ today (the bootstrap test of protobuf's generator, in spirit).
#include <gtest/gtest.h>

#include "support.hpp"

namespace rpckit::gen::test {
namespace {

TEST(Drift, GeneratedBindingsMatchTheSchema) {
  fs::path schema = source_dir() / "schema" / "protocol.json";
  fs::path generated = source_dir() / "generated";
  ASSERT_TRUE(fs::exists(schema)) << schema;
  RunResult r = run({rpckit_exe(), "check", schema.string(), "--out", generated.string()});
  ASSERT_NE(r.exit_code, 2) << "rpckit could not read the schema:\n" << r.err;
  EXPECT_EQ(r.exit_code, 0)
      << "generated/ is stale: it does not match schema/.\n"
      << r.err
      << "Fix: run tools/regenerate (or `cmake --build build/dev --target regenerate`), then "
         "commit schema/ and generated/ together.";
}

}  // namespace
}  // namespace rpckit::gen::test
