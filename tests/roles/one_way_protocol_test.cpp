// The generic plugin role on a protocol whose spawned side sends nothing (Codex metadata
// plugins: only the host calls): it builds with no client of the host, answers the handshake
// and the host's calls from the generated handler, and the health check itself.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "codex_metadata_v1/roles.hpp"
#include "rpckit/framing/framing.hpp"
#include "rpckit/framing/memory_io.hpp"
#include "rpckit/roles/plugin_role.hpp"

namespace {

namespace codex = codex_metadata::v1;
using nlohmann::json;

struct Session {};

class Provider : public codex::PluginHandler<Session> {
 public:
  codex::PluginManifest initialize(Session&, const codex::InitializeParams&) override {
    codex::PluginManifest manifest;
    manifest.name = "tiny-catalog";
    manifest.displayName = "Tiny catalog";
    manifest.version = "1.0.0";
    manifest.protocolVersion = std::string(codex::kProtocolVersion);
    manifest.capabilities.seriesMetadataProvider = true;
    return manifest;
  }

  codex::SearchResponse metadata_search(Session&, const codex::MetadataSearchParams& p) override {
    codex::SearchResponse response;
    codex::SearchResult hit;
    hit.externalId = "s-1";
    hit.title = "Result for " + p.query;
    response.results.push_back(hit);
    return response;
  }
};

std::vector<json> serve(const std::string& input) {
  rpckit::roles::PluginRole<codex::Protocol> role;
  static_assert(std::is_same_v<rpckit::roles::PluginRole<codex::Protocol>::HostClient,
                               rpckit::roles::detail::NoClient>);
  Provider provider;
  Session session;
  role.bind(provider, session);
  rpckit::framing::MemorySource source(input);
  rpckit::framing::MemorySink sink;
  const std::size_t max = codex::kMaxLineBytes;
  role.serve(rpckit::framing::make_reader(rpckit::framing::Framing::kNewlineDelimited, source, max),
             rpckit::framing::make_writer(rpckit::framing::Framing::kNewlineDelimited, sink, max));
  std::vector<json> out;
  std::istringstream lines(sink.contents());
  for (std::string line; std::getline(lines, line);) out.push_back(json::parse(line));
  return out;
}

TEST(OneWayProtocol, APluginRoleWithoutAHostClientServesTheHostsCalls) {
  auto out = serve(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"config":{}}})" "\n"
      R"({"jsonrpc":"2.0","id":2,"method":"metadata/search","params":{"query":"harbor"}})" "\n"
      R"({"jsonrpc":"2.0","id":3,"method":"ping"})" "\n");
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0]["id"], 1);
  EXPECT_EQ(out[0]["result"]["name"], "tiny-catalog");
  EXPECT_EQ(out[0]["result"]["protocolVersion"], "1.0");
  EXPECT_EQ(out[1]["result"]["results"][0]["title"], "Result for harbor");
  EXPECT_EQ(out[2]["result"], "pong");  // the role's own health-check answer
}

}  // namespace
