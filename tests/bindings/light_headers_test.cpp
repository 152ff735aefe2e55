// The public headers are light (DESIGN.md): a translation unit that includes only
// streamnook_v1/types.hpp and streamnook_v1/messages.hpp sees nlohmann/json_fwd.hpp, never
// nlohmann/json.hpp, and can still construct, copy and compare every kind of struct.
//
// This file must not include <nlohmann/json.hpp> (nor support.hpp, which does).
#include "streamnook_v1/messages.hpp"
#include "streamnook_v1/types.hpp"

#ifdef INCLUDE_NLOHMANN_JSON_HPP_
#error "streamnook_v1/types.hpp or messages.hpp pulled in nlohmann/json.hpp"
#endif
#ifndef INCLUDE_NLOHMANN_JSON_FWD_HPP_
#error "expected nlohmann/json_fwd.hpp (the light header) to be included"
#endif

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace light_headers_test {
namespace {

namespace sn = streamnook::v1;

// json_fwd.hpp defines the version macros too, so they prove nothing; what proves it is that
// nlohmann::json is only declared here: an incomplete type.
template <class T>
concept Complete = requires { sizeof(T); };
static_assert(!Complete<nlohmann::json>, "nlohmann::json must be incomplete in this file");
static_assert(Complete<sn::Channel>);

TEST(LightHeaders, StructsWorkWithoutJsonHpp) {
  sn::Channel a;
  a.channel_id = "71092938";
  a.login = "xqc";
  a.display_name = "xQc";
  a.viewer_count = std::int64_t{58213};
  sn::Channel b = a;
  EXPECT_TRUE(a == b);
  b.game_id = "509658";
  EXPECT_FALSE(a == b);
  EXPECT_TRUE(a.game_id.is_null());

  sn::NotifyParams notify;
  notify.message = "hi";
  EXPECT_EQ(notify.level_or_default(), sn::NotifyLevel::kInfo);
  EXPECT_EQ(sn::NotifyLevel::from_wire("warning"), sn::NotifyLevel::kWarning);
  EXPECT_EQ(sn::EventName::from_wire("on_raid").wire(), "on_raid");
  EXPECT_EQ(sn::to_string(sn::ErrorCode::kRateLimited), "rate_limited");

  // Members that hold any JSON (JsonValue behind a pointer) and unions.
  sn::SetStatusParams status;
  status.slot = "relay.health";
  sn::SetStatusParams status_copy = status;
  EXPECT_TRUE(status == status_copy);
  EXPECT_TRUE(status.value.is_null());

  sn::PanelField field{sn::SliderField{}};
  EXPECT_TRUE(std::holds_alternative<sn::SliderField>(field.value));
  sn::PanelValues values;
  values["games"].value = std::vector<std::string>{"Rust"};
  EXPECT_TRUE(values == sn::PanelValues(values));

  // Descriptors need nothing from json.hpp either.
  static_assert(sn::messages::Ping::kMethod == "ping");
  EXPECT_EQ(sn::messages::Notify::kErrors.size(), 2u);
}

}  // namespace
}  // namespace light_headers_test
