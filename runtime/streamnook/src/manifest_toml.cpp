#include "manifest_toml.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <utility>

#include <toml++/toml.h>

#include "manifest_util.hpp"

namespace rpckit::streamnook::manifest_detail {

namespace {

using nlohmann::json;

class Converter {
 public:
  explicit Converter(TomlConversion& out) : out_(out) {}

  json convert(const toml::node& node, const std::string& path) {
    switch (node.type()) {
      case toml::node_type::table: {
        json object = json::object();
        for (auto&& [key, value] : *node.as_table()) {
          object[std::string(key.str())] = convert(value, child_path(path, key.str()));
        }
        return object;
      }
      case toml::node_type::array: {
        json array = json::array();
        const toml::array& items = *node.as_array();
        for (std::size_t i = 0; i < items.size(); ++i) {
          array.push_back(convert(items[i], index_path(path, i)));
        }
        return array;
      }
      case toml::node_type::string:
        return node.as_string()->get();
      case toml::node_type::integer:
        return node.as_integer()->get();
      case toml::node_type::floating_point: {
        double v = node.as_floating_point()->get();
        if (std::isfinite(v)) return v;
        return unconvertible(std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf"), path,
                             "is not a finite number, which JSON cannot hold");
      }
      case toml::node_type::boolean:
        return node.as_boolean()->get();
      case toml::node_type::date:
        return date_time(node.as_date()->get(), path);
      case toml::node_type::time:
        return date_time(node.as_time()->get(), path);
      case toml::node_type::date_time:
        return date_time(node.as_date_time()->get(), path);
      case toml::node_type::none:
        break;
    }
    return unconvertible("", path, "is a TOML value with no JSON form");
  }

 private:
  template <class DateOrTime>
  json date_time(const DateOrTime& value, const std::string& path) {
    std::ostringstream text;
    text << value;
    return unconvertible(text.str(), path,
                         "is a TOML date/time, which a manifest never holds (quote it if a "
                         "string is meant)");
  }

  // Reported with the value's TOML text (it has no JSON text); null stands in for it.
  json unconvertible(std::string toml_text, const std::string& path, std::string rule) {
    out_.issues.push_back({path, std::move(toml_text), std::move(rule)});
    out_.unconvertible.insert(path);
    return nullptr;
  }

  TomlConversion& out_;
};

}  // namespace

TomlConversion toml_to_json(std::string_view text, std::string_view source_name) {
  TomlConversion out;
  toml::table document;
  try {
    document = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    const toml::source_position& at = e.source().begin;
    out.issues.push_back({std::string(source_name), "",
                          "TOML syntax error at " + std::to_string(at.line) + ":" +
                              std::to_string(at.column) + ": " + std::string(e.description())});
    return out;
  }
  Converter converter(out);
  out.json = converter.convert(document, "");
  return out;
}

}  // namespace rpckit::streamnook::manifest_detail
