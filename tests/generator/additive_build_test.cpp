// The promise of an additive schema change, kept all the way to the build: after a schema
// gains a host method, an event, a field, an enum value and an error code (schema_edit.hpp),
// the StreamNook runtime and every example build unchanged against the regenerated bindings
// (warnings are errors), the demo still runs its sample plugin, and the additions work end to
// end (additive_build/probe.cpp: the new event reaches a plugin, which calls the new host
// method). The protocol-agnostic core, which no generated header reaches, comes from this
// build (RPCKIT_CORE_TARGETS). It compiles with every core, so it runs alone (ctest -LE
// additive leaves it out).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schema_edit.hpp"
#include "support.hpp"

namespace rpckit::gen::test {
namespace {

using ::testing::HasSubstr;

// The last `n` lines of a build log: the errors are at the end.
std::string tail(const std::string& text, std::size_t n = 60) {
  std::size_t at = text.size();
  for (std::size_t lines = 0; at > 0 && lines <= n; ) {
    if (text[--at] == '\n') ++lines;
  }
  return text.substr(at);
}

TEST(AdditiveBuild, EveryExampleBuildsUnchangedAndTheAdditionsWork) {
  SchemaCopy copy;
  apply_additive_change(copy);
  TempDir work("additive-build");
  const fs::path generated = work.path() / "generated";
  RunResult gen =
      run({rpckit_exe(), "generate", copy.path("protocol.json").string(), "--out", generated.string()});
  ASSERT_EQ(gen.exit_code, 0) << gen.out << gen.err;
  // Not vacuous: the build below uses bindings that differ from the checked-in ones.
  ASSERT_THAT(read_file(generated / "streamnook_v1" / "roles.hpp"),
              HasSubstr("get_test_value(Context&, const GetTestValueParams&)"));

  const fs::path build = work.path() / "build";
  RunResult configure = run({RPCKIT_CMAKE_COMMAND, "-S",
                             (source_dir() / "tests" / "generator" / "additive_build").string(),
                             "-B", build.string(), "-G", RPCKIT_CMAKE_GENERATOR,
                             "-DCMAKE_BUILD_TYPE=" RPCKIT_BUILD_TYPE,
                             // Nothing here is debugged: no debug information (a tenth of
                             // this test's time).
                             "-DCMAKE_CXX_FLAGS_DEBUG=-g0",
                             "-DRPCKIT_CORE_TARGETS=" RPCKIT_CORE_TARGETS_FILE,
                             "-DCMAKE_CXX_COMPILER=" RPCKIT_CXX_COMPILER,
                             "-DRPCKIT_SOURCE_DIR=" + source_dir().string(),
                             "-DRPCKIT_GENERATED_DIR=" + generated.string()});
  ASSERT_EQ(configure.exit_code, 0) << configure.out << configure.err;
  RunResult built = run({RPCKIT_CMAKE_COMMAND, "--build", build.string(), "--target",
                         "streamnook-demo-host", "live-alerts", "additive-probe"});
  ASSERT_EQ(built.exit_code, 0) << tail(built.out) << built.err;

  // The unchanged demo host runs the unchanged sample plugin on the new bindings.
  const fs::path examples = build / "rpckit" / "examples";
  RunResult demo = run({(examples / "demo_host" / "streamnook-demo-host").string(),
                        (examples / "live_alerts" / "plugin").string(), "--time-scale", "0.05",
                        "--no-frames", "--ignore-stdin"});
  EXPECT_EQ(demo.exit_code, 0) << demo.out << demo.err;

  RunResult probe = run({(build / "additive-probe").string()});
  EXPECT_EQ(probe.exit_code, 0) << probe.out << probe.err;
  EXPECT_THAT(probe.out, HasSubstr("additive-probe: on_test_event sent to 1 plugin(s); "
                                   "notified: value: c1 from the host, for "
                                   "dev.rpckit.additive-probe"));
}

}  // namespace
}  // namespace rpckit::gen::test
