// A host developer's translation unit: only the StreamNook host role header. It must compile
// without nlohmann/json.hpp or <regex> (light_header_checks.hpp), and the typed templates it
// instantiates here (the application's handlers, emit) must work with nlohmann::json
// incomplete.
#include "rpckit/streamnook/host.hpp"
#include "light_header_checks.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace host_header_alone_test {
namespace {

namespace sn = streamnook::v1;
namespace msg = sn::messages;

class Application : public rpckit::streamnook::HostApplication {
 public:
  sn::GetFollowedLiveResult get_followed_live(const rpckit::streamnook::PluginContext&,
                                              const sn::GetFollowedLiveParams&) override {
    return {};
  }
};

TEST(LightHeaders, HostRoleHeaderAlone) {
  Application app;
  rpckit::streamnook::Host host(app, {});
  rpckit::streamnook::ManifestResult manifest = rpckit::streamnook::parse_manifest(R"(
id = "light.headers"
name = "Light headers"
version = "1.0.0"
author = "rpckit"
tier = "C"
description = "Includes one header."
host_min = "7.0.0"
[runtime]
kind = "process"
entry = "plugin"
[capabilities]
events = ["on_stream_start"]
)");
  ASSERT_TRUE(manifest.ok()) << manifest.issues.front().str();
  sn::Granted granted;
  granted.events = {sn::EventName::kOnStreamStart, sn::EventName::kOnFollowedLive};
  ASSERT_TRUE(host.add_plugin(std::move(*manifest.loaded), granted));
  ASSERT_TRUE(host.granted("light.headers").has_value());
  EXPECT_EQ(host.granted("light.headers")->events,
            std::vector<sn::EventName>{sn::EventName::kOnStreamStart});  // intersected

  sn::OnStreamStartParams params;
  params.channel.login = "xqc";
  EXPECT_EQ(host.emit<msg::OnStreamStart>(params), 0u);  // registered, not running
  EXPECT_FALSE(host.emit_to<msg::OnStreamStart>("light.headers", params));
}

}  // namespace
}  // namespace host_header_alone_test
