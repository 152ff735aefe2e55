// The generated error helpers (<module>/errors.hpp): a protocol's ErrorCode to an RpcError and
// back with no cast, and, where the schema has an ErrorData type, its data typed both ways.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "desktop_v1/errors.hpp"
#include "loaf_v1/errors.hpp"

namespace {

TEST(ErrorHelpers, CodeToRpcErrorAndBack) {
  rpckit::RpcError e = desktop::v1::make_error(desktop::v1::ErrorCode::kInvalidParams, "bad");
  EXPECT_EQ(e.code(), -32602);
  EXPECT_EQ(e.message(), "bad");
  EXPECT_FALSE(e.data());
  EXPECT_EQ(desktop::v1::error_code(e), desktop::v1::ErrorCode::kInvalidParams);
  // A code this version does not list stays representable, and says so.
  rpckit::RpcError newer(-32099, "from a newer peer");
  EXPECT_FALSE(desktop::v1::is_known(desktop::v1::error_code(newer)));
  rpckit::CallError call{rpckit::CallError::Kind::kRemote, e};
  EXPECT_EQ(desktop::v1::error_code(call), desktop::v1::ErrorCode::kInvalidParams);
}

TEST(ErrorHelpers, TypedDataBothWays) {
  loaf::v1::ErrorData data;
  data.reason = loaf::v1::ErrorReason::kMethodNotFound;
  data.method = "no.such";
  rpckit::RpcError e =
      loaf::v1::make_error(loaf::v1::ErrorCode::kMethodNotFound, "Method not found", data);
  EXPECT_EQ(e.data()->get(), (nlohmann::json{{"reason", "method_not_found"}, {"method", "no.such"}}));
  std::optional<loaf::v1::ErrorData> back = loaf::v1::error_data(e);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, data);
  // Data of another shape reads as none.
  rpckit::RpcError other(-32603, "x", rpckit::JsonValue(nlohmann::json::array({1})));
  EXPECT_FALSE(loaf::v1::error_data(other));
}

}  // namespace
