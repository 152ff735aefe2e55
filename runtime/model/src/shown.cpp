#include "rpckit/model/shown.hpp"

namespace rpckit::model {

std::string shown(const nlohmann::ordered_json& value) {
  constexpr std::size_t kMax = 60;
  std::string text = value.dump(-1, ' ', /*ensure_ascii=*/true);
  if (text.size() > kMax) text = text.substr(0, kMax - 3) + "...";
  return text;
}

}  // namespace rpckit::model
