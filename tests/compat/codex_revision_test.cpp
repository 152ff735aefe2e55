// The Codex metadata plugin protocol 1.0 (schema/codex_metadata) against the later upstream
// revision its spec's appendix describes (tests/compat/fixtures/codex_metadata_next: the 1.0
// schema with exactly the appendix's changes applied; shapes the appendix does not give are open
// objects). Every difference, with its rule, direction and verdict, through rpckit::compat.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support.hpp"

namespace rpckit::compat::test {
namespace {

using ::testing::ElementsAreArray;

Report compare_codex(CompareOptions options = {}) {
  gen::SchemaSet seed =
      gen::SchemaSet::load(gen::test::source_dir() / "schema" / "codex_metadata" / "protocol.json");
  gen::SchemaSet later = gen::SchemaSet::load(gen::test::source_dir() / "tests" / "compat" /
                                              "fixtures" / "codex_metadata_next" / "protocol.json");
  return compare(seed, later, options);
}

TEST(CodexRevision, EveryDifferenceHasTheVerdictTheAppendixImplies) {
  Report r = compare_codex();
  const std::vector<std::string> expected = {
      // protocolVersion "1.0" -> "1.2" is a minor version (additive: 1.x peers accept each
      // other); the new constants (storage limits, the environment blocklist) are additive.
      "additive | constant.version |  | constant protocol_version",
      "additive | constant.added |  | constant storage_max_keys",
      "additive | constant.added |  | constant storage_max_value_bytes",
      "additive | constant.added |  | constant blocked_env_names",
      // initialize params: adminConfig, userConfig, dataDir, userId, userPluginId and logLevel are
      // new optional members: additive for the plugin.
      "additive | member.optional_added | host_to_plugin | initialize.params.adminConfig",
      "additive | member.optional_added | host_to_plugin | initialize.params.userConfig",
      "additive | member.optional_added | host_to_plugin | initialize.params.dataDir",
      "additive | member.optional_added | host_to_plugin | initialize.params.userId",
      "additive | member.optional_added | host_to_plugin | initialize.params.userPluginId",
      "additive | member.optional_added | host_to_plugin | initialize.params.logLevel",
      // Capabilities (in the manifest, initialize's result, plugin -> host): new optional members
      // are additive for the host. seriesMetadataProvider is gone: by the member rules only a C++
      // API break, though the metadata/* gate it controlled (not expressible as an x-gate) makes it
      // a functional break.
      "additive | member.optional_added | plugin_to_host | Capabilities.metadataProvider",
      "additive | member.optional_added | plugin_to_host | Capabilities.userReadSync",
      "additive | member.optional_added | plugin_to_host | Capabilities.userRecommendationProvider",
      "additive | member.optional_added | plugin_to_host | Capabilities.wantsFullMetadata",
      "additive | member.optional_added | plugin_to_host | Capabilities.wantsDetailedProgress",
      "additive | member.optional_added | plugin_to_host | Capabilities.externalIdSource",
      "additive | member.optional_added | plugin_to_host | Capabilities.releaseSource",
      "additive | member.optional_added | plugin_to_host | Capabilities.webLinks",
      "breaking | member.optional_removed | plugin_to_host | Capabilities.seriesMetadataProvider",
      // PluginManifest: new optional members, additive for the host.
      "additive | member.optional_added | plugin_to_host | PluginManifest.userConfigSchema",
      "additive | member.optional_added | plugin_to_host | PluginManifest.pluginType",
      "additive | member.optional_added | plugin_to_host | PluginManifest.oauth",
      "additive | member.optional_added | plugin_to_host | PluginManifest.userDescription",
      "additive | member.optional_added | plugin_to_host | PluginManifest.adminSetupInstructions",
      "additive | member.optional_added | plugin_to_host | PluginManifest.userSetupInstructions",
      "additive | member.optional_added | plugin_to_host | PluginManifest.searchURITemplate",
      // metadata/search|get|match became metadata/series/*: their payloads changed as well, so each
      // is a removed message (breaking: a new plugin answers an old host -32601) and an added one,
      // not one renamed message.
      "breaking | message.removed | host_to_plugin | message metadata/search",
      "breaking | message.removed | host_to_plugin | message metadata/get",
      "breaking | message.removed | host_to_plugin | message metadata/match",
      // New messages: metadata/book/*, sync/*, recommendations/*, releases/poll (host -> plugin)
      // and the reverse RPC storage/* and releases/* (plugin -> host): additive, an old receiver
      // answers -32601.
      "additive | message.added | host_to_plugin | message metadata/series/search",
      "additive | message.added | host_to_plugin | message metadata/series/get",
      "additive | message.added | host_to_plugin | message metadata/series/match",
      "additive | message.added | host_to_plugin | message metadata/book/search",
      "additive | message.added | host_to_plugin | message metadata/book/get",
      "additive | message.added | host_to_plugin | message metadata/book/match",
      "additive | message.added | host_to_plugin | message sync/getUserInfo",
      "additive | message.added | host_to_plugin | message sync/pushProgress",
      "additive | message.added | host_to_plugin | message sync/pullProgress",
      "additive | message.added | host_to_plugin | message sync/status",
      "additive | message.added | host_to_plugin | message recommendations/get",
      "additive | message.added | host_to_plugin | message recommendations/updateProfile",
      "additive | message.added | host_to_plugin | message recommendations/clear",
      "additive | message.added | host_to_plugin | message recommendations/dismiss",
      "additive | message.added | host_to_plugin | message releases/poll",
      "additive | message.added | plugin_to_host | message storage/get",
      "additive | message.added | plugin_to_host | message storage/set",
      "additive | message.added | plugin_to_host | message storage/delete",
      "additive | message.added | plugin_to_host | message storage/list",
      "additive | message.added | plugin_to_host | message storage/clear",
      "additive | message.added | plugin_to_host | message releases/list_tracked",
      "additive | message.added | plugin_to_host | message releases/count_tracked",
      "additive | message.added | plugin_to_host | message releases/report_progress",
      "additive | message.added | plugin_to_host | message releases/record",
      "additive | message.added | plugin_to_host | message releases/source_state/get",
      "additive | message.added | plugin_to_host | message releases/source_state/set",
      "additive | message.added | plugin_to_host | message releases/register_sources",
      // The series payload types. No message of the old version survives that carries them (the
      // methods were renamed), so they are judged as types no common message carries: writer ->
      // reader, both versions mixed.
      "breaking | type.changed |  | SearchResult.alternateTitles[]",
      "additive | member.optional_added |  | SearchResult.relevanceScore",
      "additive | member.optional_added |  | SearchResult.preview",
      "breaking | member.optional_removed |  | SearchResult.summary",
      "breaking | member.optional_removed |  | SearchResult.status",
      "breaking | member.optional_removed |  | SearchResult.score",
      "breaking | member.optional_removed |  | SearchResult.providerData",
      "additive | member.optional_added |  | SearchResponse.nextCursor",
      "breaking | member.optional_removed |  | SearchResponse.totalResults",
      "breaking | member.optional_removed |  | SearchResponse.page",
      "breaking | member.optional_removed |  | SearchResponse.hasNextPage",
      "breaking | constraint.tighter |  | MatchResponse.confidence",
      "breaking | member.required_added |  | SeriesMetadata.externalUrl",
      "additive | member.optional_added |  | SeriesMetadata.title",
      "additive | member.optional_added |  | SeriesMetadata.alternateTitles",
      "breaking | enum.value_renamed |  | SeriesStatus",
      "breaking | enum.value_renamed |  | SeriesStatus", "breaking | type.changed |  | Author",
      "breaking | type.changed |  | SeriesMetadata.artists[]",
      "breaking | type.changed |  | Rating",
      "additive | member.optional_added |  | SeriesMetadata.externalRatings",
      "breaking | member.required_added |  | ExternalLink.label",
      "additive | member.optional_added |  | ExternalLink.linkType",
      "breaking | member.required_removed |  | ExternalLink.name",
      "additive | member.optional_added |  | SeriesMetadata.language",
      "additive | member.optional_added |  | SeriesMetadata.ageRating",
      "additive | member.optional_added |  | SeriesMetadata.readingDirection",
      "additive | member.optional_added |  | SeriesMetadata.totalVolumeCount",
      "additive | member.optional_added |  | SeriesMetadata.totalChapterCount",
      "additive | member.optional_added |  | SeriesMetadata.externalIds",
      "breaking | member.required_removed |  | SeriesMetadata.titles",
      "breaking | member.optional_removed |  | SeriesMetadata.yearEnd",
      "breaking | member.optional_removed |  | SeriesMetadata.contentRating",
      "breaking | member.optional_removed |  | SeriesMetadata.originalLanguage",
      "breaking | member.optional_removed |  | SeriesMetadata.country",
      "breaking | member.optional_removed |  | SeriesMetadata.ratingCount",
      "breaking | member.optional_removed |  | SeriesMetadata.providerData",
      "additive | type.added |  | AlternateTitle", "additive | type.added |  | ExternalId",
      // The envelope (jsonrpc.json, which no x-types lists) gained the id of plugin->host requests.
      "additive | type.added |  | PluginRequestId",
      // The C++ API of the generated bindings.
      "breaking | api.changed |  | constant protocol_version values",
      "breaking | api.changed |  | struct Capabilities field seriesMetadataProvider",
      "breaking | api.changed |  | struct Title",
      "breaking | api.changed |  | enum SeriesStatus value \"completed\"",
      "breaking | api.changed |  | enum SeriesStatus value \"cancelled\"",
      "breaking | api.changed |  | struct SearchResult field alternateTitles type",
      "breaking | api.changed |  | struct SearchResult field summary",
      "breaking | api.changed |  | struct SearchResult field status",
      "breaking | api.changed |  | struct SearchResult field score",
      "breaking | api.changed |  | struct SearchResult field providerData",
      "breaking | api.changed |  | struct SearchResponse field totalResults",
      "breaking | api.changed |  | struct SearchResponse field page",
      "breaking | api.changed |  | struct SearchResponse field hasNextPage",
      "breaking | api.changed |  | struct Person",
      "breaking | api.changed |  | struct ExternalLink field name",
      "breaking | api.changed |  | struct SeriesMetadata field titles",
      "breaking | api.changed |  | struct SeriesMetadata field yearEnd",
      "breaking | api.changed |  | struct SeriesMetadata field contentRating",
      "breaking | api.changed |  | struct SeriesMetadata field authors type",
      "breaking | api.changed |  | struct SeriesMetadata field artists type",
      "breaking | api.changed |  | struct SeriesMetadata field originalLanguage",
      "breaking | api.changed |  | struct SeriesMetadata field country",
      "breaking | api.changed |  | struct SeriesMetadata field rating type",
      "breaking | api.changed |  | struct SeriesMetadata field ratingCount",
      "breaking | api.changed |  | struct SeriesMetadata field providerData",
      "breaking | api.changed |  | struct MetadataSearchParams",
      "breaking | api.changed |  | struct MetadataGetParams",
      "breaking | api.changed |  | struct MetadataMatchParams",
      "breaking | api.changed |  | message metadata/search",
      "breaking | api.changed |  | message metadata/get",
      "breaking | api.changed |  | message metadata/match",
      "breaking | api.changed |  | generated headers"};
  EXPECT_THAT(verdicts(r), ElementsAreArray(expected));
  EXPECT_EQ(r.count(Verdict::kBreaking), 60u);
  EXPECT_EQ(r.count(Verdict::kAdditive), 68u);
}

TEST(CodexRevision, AMinorBumpTo12DoesNotLicenseItsBreakingChanges) {
  // The appendix calls 1.2 a breaking minor, but a 1.x host accepts any 1.x manifest (spec
  // section 7): only a new first number allows a breaking change, so this revision fails.
  Report r = compare_codex(schema_only());
  EXPECT_EQ(r.old_version, "\"1.0\"");
  EXPECT_EQ(r.new_version, "\"1.2\"");
  EXPECT_FALSE(r.version_bumped);
  EXPECT_TRUE(r.breaking());
  EXPECT_TRUE(r.fails());
}

TEST(CodexRevision, KeyRowsSayWhoBreaks) {
  Report r = compare_codex(schema_only());
  EXPECT_EQ(row(find(r, "message metadata/search", "message.removed")),
            "breaking | message.removed | host_to_plugin | new plugin <- old host, C++ API | "
            "message metadata/search | message removed");
  EXPECT_EQ(row(find(r, "message storage/set", "message.added")),
            "additive | message.added | plugin_to_host | host | message storage/set | new request "
            "plugin_to_host");
  EXPECT_EQ(find(r, "SeriesStatus", "enum.value_renamed").change,
            "value renamed \"completed\" -> \"ended\"");
  EXPECT_EQ(row(find(r, "MatchResponse.confidence", "constraint.tighter")),
            "breaking | constraint.tighter |  | new reader <- old writer | "
            "MatchResponse.confidence | maximum 100 -> 1");
  EXPECT_EQ(row(find(r, "SeriesMetadata.externalUrl", "member.required_added")),
            "breaking | member.required_added |  | new reader <- old writer | "
            "SeriesMetadata.externalUrl | new required member");
  EXPECT_EQ(row(find(r, "Capabilities.seriesMetadataProvider", "member.optional_removed")),
            "breaking | member.optional_removed | plugin_to_host | host <- plugin, C++ API | "
            "Capabilities.seriesMetadataProvider | removed optional member");
}

}  // namespace
}  // namespace rpckit::compat::test
