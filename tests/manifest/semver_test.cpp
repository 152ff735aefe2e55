// compare_semver(), check_host_version() and requested_capabilities().
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support.hpp"

namespace manifest_test {
namespace {

// The precedence example of SemVer 2.0.0, section 11.
TEST(Semver, SpecPrecedenceChain) {
  const std::vector<std::string> chain = {"1.0.0-alpha",  "1.0.0-alpha.1", "1.0.0-alpha.beta",
                                          "1.0.0-beta",   "1.0.0-beta.2",  "1.0.0-beta.11",
                                          "1.0.0-rc.1",   "1.0.0"};
  for (std::size_t i = 0; i < chain.size(); ++i) {
    for (std::size_t k = 0; k < chain.size(); ++k) {
      const int expected = i < k ? -1 : (i > k ? 1 : 0);
      EXPECT_EQ(rs::compare_semver(chain[i], chain[k]), expected) << chain[i] << " vs " << chain[k];
    }
  }
}

TEST(Semver, NumericComparison) {
  EXPECT_EQ(rs::compare_semver("1.10.0", "1.9.0"), 1);
  EXPECT_EQ(rs::compare_semver("1.9.0", "1.10.0"), -1);
  EXPECT_EQ(rs::compare_semver("2.0.0", "1.99.99"), 1);
  EXPECT_EQ(rs::compare_semver("1.0.10", "1.0.9"), 1);
  EXPECT_EQ(rs::compare_semver("0.0.0", "0.0.0"), 0);
  // Numeric pre-release identifiers compare as numbers, and below alphanumeric ones.
  EXPECT_EQ(rs::compare_semver("1.0.0-2", "1.0.0-10"), -1);
  EXPECT_EQ(rs::compare_semver("1.0.0-999", "1.0.0-a"), -1);
  EXPECT_EQ(rs::compare_semver("1.0.0-a-b", "1.0.0-a"), 1);
  // ASCII order for alphanumerics: uppercase sorts before lowercase.
  EXPECT_EQ(rs::compare_semver("1.0.0-Beta", "1.0.0-alpha"), -1);
  // Numbers beyond 64 bits.
  EXPECT_EQ(rs::compare_semver("1.0.99999999999999999999999", "1.0.99999999999999999999998"), 1);
  EXPECT_EQ(rs::compare_semver("1.0.0-99999999999999999999999", "1.0.0-100000000000000000000000"), -1);
}

TEST(Semver, BuildMetadataIsIgnored) {
  EXPECT_EQ(rs::compare_semver("1.0.0+build.1", "1.0.0+build.2"), 0);
  EXPECT_EQ(rs::compare_semver("1.0.0+001", "1.0.0"), 0);
  EXPECT_EQ(rs::compare_semver("1.0.0-rc.1+exp.sha.5114f85", "1.0.0-rc.1"), 0);
  EXPECT_EQ(rs::compare_semver("1.0.0-alpha+beta", "1.0.0-alpha.1"), -1);
}

TEST(Semver, InvalidVersionsGiveNullopt) {
  for (const char* bad : {"", "1", "1.0", "1.0.0.0", "v1.0.0", "01.0.0", "1.00.0", "1.0.00",
                          "1.0.0-", "1.0.0-01", "1.0.0-a..b", "1.0.0+", "1.0.0+a..b",
                          "1.0.0-a_b", " 1.0.0", "1.0.0 ", "1.0.-1", "a.b.c", "1..0",
                          "1.0.0-+x", "1.0.0+x+y"}) {
    EXPECT_EQ(rs::compare_semver(bad, "1.0.0"), std::nullopt) << '"' << bad << '"';
    EXPECT_EQ(rs::compare_semver("1.0.0", bad), std::nullopt) << '"' << bad << '"';
    EXPECT_FALSE(rs::is_semver(bad)) << '"' << bad << '"';
  }
  for (const char* good : {"0.0.0", "1.0.0-0", "1.0.0-0a", "1.0.0-x-y-z.--", "1.0.0+001.0",
                           "1.0.0-alpha+001", "10.20.30", "1.0.0-rc.1+build.1-x"}) {
    EXPECT_TRUE(rs::is_semver(good)) << good;
  }
}

sn::Manifest manifest_with_host_min(const std::string& host_min) {
  sn::Manifest m;
  m.host_min = host_min;
  return m;
}

TEST(HostVersion, OlderEqualNewer) {
  const sn::Manifest m = manifest_with_host_min("7.8.0");
  std::optional<rs::ManifestIssue> older = rs::check_host_version(m, "7.7.9");
  ASSERT_TRUE(older.has_value());
  EXPECT_EQ(older->str(),
            R"(host_min = "7.8.0": requires host version 7.8.0 or newer; this host is 7.7.9)");
  EXPECT_EQ(rs::check_host_version(m, "7.8.0"), std::nullopt);
  EXPECT_EQ(rs::check_host_version(m, "7.8.0+build.5"), std::nullopt);
  EXPECT_EQ(rs::check_host_version(m, "7.8.6"), std::nullopt);
  EXPECT_EQ(rs::check_host_version(m, "7.10.0"), std::nullopt);
  EXPECT_EQ(rs::check_host_version(m, "8.0.0-alpha"), std::nullopt);
  // A pre-release of the minimum is older than the minimum.
  EXPECT_TRUE(rs::check_host_version(m, "7.8.0-rc.1").has_value());
}

TEST(HostVersion, InvalidVersionsFailClosed) {
  std::optional<rs::ManifestIssue> bad_host =
      rs::check_host_version(manifest_with_host_min("7.0.0"), "7.8");
  ASSERT_TRUE(bad_host.has_value());
  EXPECT_EQ(bad_host->str(),
            R"(host_version = "7.8": is not a semantic version (SemVer 2.0.0), so host_min cannot be checked)");
  std::optional<rs::ManifestIssue> bad_min =
      rs::check_host_version(manifest_with_host_min("seven"), "7.8.6");
  ASSERT_TRUE(bad_min.has_value());
  EXPECT_EQ(bad_min->field, "host_min");
  EXPECT_EQ(bad_min->value, "\"seven\"");
}

TEST(HostVersion, OnALoadedManifest) {
  rs::ManifestResult result = rs::load_manifest(source_dir() / "examples" / "live_alerts");
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(rs::check_host_version(result.loaded->manifest, "7.8.6"), std::nullopt);
  EXPECT_TRUE(rs::check_host_version(result.loaded->manifest, "6.9.9").has_value());
}

TEST(RequestedCapabilities, EverythingTheManifestRequests) {
  rs::ManifestResult result = rs::check_manifest(full_manifest());
  ASSERT_TRUE(result.ok());
  sn::Granted granted = rs::requested_capabilities(result.loaded->manifest);
  EXPECT_EQ(granted.events,
            (std::vector<sn::EventName>{sn::EventName::kOnStreamStart, sn::EventName::kOnStreamStop,
                                        sn::EventName::kOnFollowedLive, sn::EventName::kOnPanelChange}));
  EXPECT_EQ(granted.host_methods,
            (std::vector<sn::HostMethodName>{
                sn::HostMethodName::kGetFollowedLive, sn::HostMethodName::kNotify,
                sn::HostMethodName::kLog, sn::HostMethodName::kRegisterPanel,
                sn::HostMethodName::kGetPanelValues}));
  EXPECT_EQ(granted.credentials, (std::vector<sn::CredentialKind>{sn::CredentialKind::kTwitchAndroid}));
  EXPECT_EQ(granted.ui, (std::vector<sn::UiCapability>{sn::UiCapability::kPanel}));
  // Round-trips as the JSON grant the gates read.
  const json as_json = granted;
  EXPECT_EQ(as_json.at("credentials"), json::array({"twitch.android"}));
}

TEST(RequestedCapabilities, NothingRequestedGrantsNothing) {
  rs::ManifestResult result = rs::check_manifest(minimal_manifest());
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(rs::requested_capabilities(result.loaded->manifest), sn::Granted{});
  json m = minimal_manifest();
  m["capabilities"] = {{"network", "external"}};
  rs::ManifestResult only_network = rs::check_manifest(m);
  ASSERT_TRUE(only_network.ok());
  EXPECT_EQ(rs::requested_capabilities(only_network.loaded->manifest), sn::Granted{});
}

// A hand-built Manifest (never checked) still yields a valid grant: unknown and repeated
// names are not granted.
TEST(RequestedCapabilities, UncheckedManifestNeverGrantsUnknownNames) {
  sn::Manifest m;
  m.capabilities = sn::ManifestCapabilities{};
  m.capabilities->events = std::vector<sn::EventName>{
      sn::EventName::from_wire("on_raid"), sn::EventName::kOnWatchTick, sn::EventName::kOnWatchTick};
  m.capabilities->host_methods = std::vector<sn::HostMethodName>{sn::HostMethodName::from_wire("exec")};
  sn::Granted granted = rs::requested_capabilities(m);
  EXPECT_EQ(granted.events, (std::vector<sn::EventName>{sn::EventName::kOnWatchTick}));
  EXPECT_TRUE(granted.host_methods.empty());
}

}  // namespace
}  // namespace manifest_test
