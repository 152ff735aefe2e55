#include "rpckit/model/protocol.hpp"

namespace rpckit::model {
namespace {

std::optional<Node> member(const Node& node, std::string_view key) {
  if (!node.has(key)) return std::nullopt;
  return node.child(key);
}

// The files a list annotation (x-messages, x-types) names, in its order; entries that are not
// strings are skipped.
std::vector<Node> listed_files(const SchemaSet& schemas, const Node& list) {
  std::vector<Node> out;
  if (!list.json->is_array()) return out;
  for (std::size_t i = 0; i < list.json->size(); ++i) {
    const Node entry = list.item(i);
    if (entry.json->is_string())
      out.push_back(schemas.resolve(entry, entry.json->get<std::string>()));
  }
  return out;
}

Exchange read_exchange(const Node& node, const std::vector<Node>& type_files) {
  Exchange out{.node = node,
               .discriminator = Protocol::text(node, "discriminator"),
               .correlation = Protocol::text(node, "correlation"),
               .steps = {}};
  const std::optional<Node> steps = member(node, "steps");
  if (!steps || !steps->json->is_array()) return out;
  for (std::size_t i = 0; i < steps->json->size(); ++i) {
    const Node step = steps->item(i);
    ExchangeStep s{.from = Protocol::text(step, "from"),
                   .type = Protocol::text(step, "type"),
                   .schema = std::nullopt};
    for (const Node& file : type_files) {
      if (Protocol::text(file, "title") == s.type) {
        s.schema = file;
        break;
      }
    }
    out.steps.push_back(std::move(s));
  }
  return out;
}

// x-error-data of the error-code enum `codes`: each entry whose key is one of its names.
std::vector<ErrorDataSchema> read_error_data(const std::optional<Node>& codes) {
  std::vector<ErrorDataSchema> out;
  if (!codes) return out;
  const auto data = model::annotation(*codes, Annotation::kErrorData);
  const auto names = model::annotation(*codes, Annotation::kEnumNames);
  const auto values = member(*codes, "enum");
  if (!data || !data->json->is_object() || !names || !names->json->is_array() || !values ||
      !values->json->is_array()) {
    return out;
  }
  for (std::size_t i = 0; i < names->json->size() && i < values->json->size(); ++i) {
    const Json& name = (*names->json)[i];
    if (!name.is_string() || !data->json->contains(name.get<std::string>())) continue;
    out.push_back(
        {(*values->json)[i], name.get<std::string>(), data->child(name.get<std::string>())});
  }
  return out;
}

}  // namespace

bool Message::request() const {
  return !kind || !kind->json->is_string() || kind->json->get<std::string>() == "request";
}

std::vector<std::pair<std::string, Node>> Message::results_when() const {
  std::vector<std::pair<std::string, Node>> out;
  if (!result_when || !result_when->json->is_object()) return out;
  for (const auto& [member, schema] : result_when->json->items()) {
    out.emplace_back(member, result_when->child(member));
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> Message::routes() const {
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&out](const nlohmann::json& j) {
    if (!j.is_string()) return false;
    const auto& text = j.get_ref<const std::string&>();
    const auto to = text.find("_to_");
    if (to == std::string::npos) return false;
    out.emplace_back(text.substr(0, to), text.substr(to + 4));
    return true;
  };
  if (!direction) return out;
  if (!direction->json->is_array()) {
    add(*direction->json);
    return out;
  }
  for (const auto& item : *direction->json) {
    if (!add(item)) return {};
  }
  return out;
}

Protocol Protocol::link(const SchemaSet& schemas) {
  Protocol p(schemas);
  const Node root = schemas.root();
  if (const auto roles = model::annotation(root, Annotation::kRoles);
      roles && roles->json->is_array()) {
    for (const auto& role : *roles->json) {
      if (role.is_string()) p.roles_.push_back(role.get<std::string>());
    }
  }
  if (const auto types = model::annotation(root, Annotation::kTypes)) {
    p.type_files_ = listed_files(schemas, *types);
  }
  p.message_list_ = model::annotation(root, Annotation::kMessages);
  if (p.message_list_) {
    for (const Node& file : listed_files(schemas, *p.message_list_)) {
      Message m{.file = file,
                .method = "",
                .params = std::nullopt,
                .result = model::annotation(file, Annotation::kResult),
                .result_when = model::annotation(file, Annotation::kResultWhen),
                .kind = model::annotation(file, Annotation::kKind),
                .direction = model::annotation(file, Annotation::kDirection),
                .gate = model::annotation(file, Annotation::kGate),
                .errors = model::annotation(file, Annotation::kErrors),
                .deadline = model::annotation(file, Annotation::kDeadline)};
      if (const auto properties = member(file, "properties")) {
        if (const auto method = member(*properties, "method")) {
          if (const auto c = member(*method, "const"); c && c->json->is_string()) {
            m.method = c->json->get<std::string>();
          }
        }
        m.params = member(*properties, "params");
      }
      p.messages_.push_back(std::move(m));
    }
  }
  p.error_data_ = read_error_data(p.error_code_enum());
  p.profile_ = model::annotation(root, Annotation::kProfile);
  if (const auto exchange = model::annotation(root, Annotation::kExchange);
      exchange && exchange->json->is_object()) {
    p.exchange_ = read_exchange(*exchange, p.type_files_);
  }
  return p;
}

std::optional<Node> Protocol::error_code_enum() const {
  const std::optional<Node> codes = annotation(Annotation::kErrorCodes);
  if (!codes || !codes->json->is_string()) return std::nullopt;
  try {
    return schemas_->resolve(*codes, codes->json->get<std::string>());
  } catch (const SchemaError&) {
    return std::nullopt;  // linking is tolerant; the generator reports it
  }
}

const Json* Protocol::constant(std::string_view name) const {
  const Json& root = *schemas_->root().json;
  const auto properties = root.find("properties");
  if (properties == root.end() || !properties->is_object()) return nullptr;
  const auto property = properties->find(name);
  if (property == properties->end() || !property->is_object()) return nullptr;
  const auto value = property->find("const");
  return value == property->end() ? nullptr : &*value;
}

const Json* Protocol::named_constant(const Node& settings, std::string_view key) const {
  const std::string name = text(settings, key);
  return name.empty() ? nullptr : constant(name);
}

std::string Protocol::text(const Node& settings, std::string_view key) {
  if (!settings.json->is_object()) return "";
  const auto it = settings.json->find(key);
  return it != settings.json->end() && it->is_string() ? it->get<std::string>() : "";
}

std::optional<Node> Protocol::jsonrpc(std::string_view name) const {
  if (!schemas_->loaded("jsonrpc.json")) return std::nullopt;
  const Node definitions = schemas_->file("jsonrpc.json");
  if (!definitions.has("definitions") || !definitions.child("definitions").has(name)) {
    return std::nullopt;
  }
  return definitions.child("definitions").child(name);
}

}  // namespace rpckit::model
