// Panel warnings: the field types the spec has (or may add: new types are additive) that the
// real StreamNook host's panel check does not know. Written from schema/README.md's table.
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <variant>

#include "rpckit/streamnook/real_host.hpp"

namespace rpckit::streamnook {

namespace sn = ::streamnook::v1;

namespace {

// The field type the real host refuses, as its wire name; "" when it takes the field.
std::string refused_type(const sn::PanelField& field) {
  return std::visit(
      [](const auto& member) -> std::string {
        using T = std::decay_t<decltype(member)>;
        if constexpr (std::is_same_v<T, sn::FolderField>) {
          return "folder";
        } else if constexpr (std::is_same_v<T, JsonValue>) {
          // A type this version does not know: the real host knows even fewer.
          const nlohmann::json& j = member.get();
          auto type = j.is_object() ? j.find("type") : j.end();
          return type != j.end() && type->is_string() ? type->template get<std::string>() : "";
        } else {
          return "";
        }
      },
      field.value);
}

}  // namespace

std::vector<std::string> real_host_panel_warnings(const sn::PanelSchema& schema) {
  std::vector<std::string> out;
  for (std::size_t s = 0; s < schema.sections.size(); ++s) {
    const auto& fields = schema.sections[s].fields;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      std::string type = refused_type(fields[f]);
      if (type.empty()) continue;
      out.push_back("schema.sections[" + std::to_string(s) + "].fields[" + std::to_string(f) +
                    "].type = " + nlohmann::json(type).dump() +
                    ": the real StreamNook host's register_panel refuses this field type "
                    "(-32602 \"unknown field type\"; it takes toggle, number, select, text, "
                    "string_list, channel_list and slider)");
    }
  }
  return out;
}

}  // namespace rpckit::streamnook
