#include "rpckit/validate/protocol.hpp"

#include <map>

#include <nlohmann/json.hpp>

#include "rpckit/descriptors/exchange.hpp"

namespace rpckit::validate {

using nlohmann::json;
using SchemaJson = model::Json;  // the loaded schema (instances are nlohmann::json)

namespace {

std::optional<SchemaRef> try_at(const SchemaStore& store, const std::string& location) {
  try {
    return store.at(location);
  } catch (const SchemaLoadError&) {
    return std::nullopt;
  }
}

// The `const` of protocol.json's constant property `name` (x-profile names constants).
const SchemaJson* constant(const SchemaJson& root, const SchemaJson& name) {
  if (!name.is_string() || !root.contains("properties")) return nullptr;
  const SchemaJson& props = root["properties"];
  auto it = props.find(name.get<std::string>());
  if (it == props.end() || !it->contains("const")) return nullptr;
  return &(*it)["const"];
}

// x-exchange's steps, each resolved to the x-types file whose title is its type.
ExchangeSchema load_exchange(const SchemaStore& store, const SchemaRef& root, const SchemaJson& x) {
  const SchemaJson& doc = *root.json;
  ExchangeSchema out;
  out.discriminator = x.value("discriminator", "");
  out.correlation = x.value("correlation", "");
  std::map<std::string, SchemaRef> by_title;
  for (const auto& entry : doc.value("x-types", SchemaJson::array())) {
    SchemaRef file = store.resolve(root, entry.get<std::string>());
    if (file.json->contains("title"))
      by_title.emplace((*file.json)["title"].get<std::string>(), file);
  }
  for (const auto& step : x.value("steps", SchemaJson::array())) {
    ExchangeStepSchema s;
    s.from = step.value("from", "");
    s.type = step.value("type", "");
    auto type = by_title.find(s.type);
    if (type == by_title.end()) {
      throw SchemaLoadError(root.loc().str() + "/x-exchange/steps: no type titled \"" + s.type +
                            "\"");
    }
    s.schema = type->second;
    const SchemaJson props = type->second.json->value("properties", SchemaJson::object());
    s.correlated = !out.correlation.empty() && props.contains(out.correlation);
    out.steps.push_back(std::move(s));
    const std::size_t i = out.steps.size() - 1;
    out.steps[i].answers = answered_step(
        i, [&](std::size_t a, std::size_t b) { return out.steps[a].from == out.steps[b].from; },
        [&](std::size_t a) { return out.steps[a].correlated; });
  }
  return out;
}

Violation unknown_method(std::string_view method) {
  return {Violation::Severity::kError, "/method", "", "method",
          "a method the protocol defines", json(std::string(method)).dump()};
}

}  // namespace

std::shared_ptr<const ProtocolSchema> ProtocolSchema::load(
    const std::filesystem::path& protocol_file) {
  auto out = std::make_shared<ProtocolSchema>();
  out->store_ = SchemaStore::load(protocol_file);
  const SchemaRef root = out->store_->root();
  const SchemaJson& doc = *root.json;
  if (auto r = doc.find("x-roles"); r != doc.end() && r->is_array()) {
    for (const auto& role : *r) out->roles_.push_back(role.get<std::string>());
  }
  auto messages = doc.find("x-messages");
  if (messages == doc.end() || !messages->is_array()) {
    throw SchemaLoadError(root.loc().str() + "/x-messages: a protocol file lists its messages");
  }
  for (const auto& entry : *messages) {
    SchemaRef file = out->store_->resolve(root, entry.get<std::string>());
    const SchemaJson& m = *file.json;
    MessageSchema message;
    try {
      message.method = m.at("properties").at("method").at("const").get<std::string>();
    } catch (const json::exception&) {
      throw SchemaLoadError(file.loc().str() + ": a message file's properties/method is a const");
    }
    message.request = m.value("x-kind", "request") == "request";
    const std::string direction = m.value("x-direction", "");
    if (auto to = direction.find("_to_"); to != std::string::npos) {
      message.from = direction.substr(0, to);
      message.to = direction.substr(to + 4);
    }
    message.envelope = file;
    if (m.contains("properties") && m["properties"].contains("params")) {
      message.params = file.child("properties").child("params");
    }
    if (m.contains("x-result")) message.result = file.child("x-result");
    out->messages_.emplace(message.method, std::move(message));
  }
  out->response_ = try_at(*out->store_, "jsonrpc.json#/definitions/Response");
  out->error_response_ = try_at(*out->store_, "jsonrpc.json#/definitions/ErrorResponse");
  out->error_object_ = try_at(*out->store_, "jsonrpc.json#/definitions/ErrorObject");
  if (auto profile = doc.find("x-profile"); profile != doc.end()) {
    if (const SchemaJson* cap = constant(doc, profile->value("max_frame_bytes", SchemaJson()))) {
      out->max_frame_bytes_ = cap->get<std::uint64_t>();
    }
    if (const SchemaJson* depth = constant(doc, profile->value("max_json_depth", SchemaJson()))) {
      out->max_json_depth_ = depth->get<std::size_t>();
    }
    out->framing_ = profile->value("framing", "");
    out->spawned_ = profile->value("spawned", "");
  }
  if (auto exchange = doc.find("x-exchange"); exchange != doc.end() && exchange->is_object()) {
    if (const SchemaJson* cap = constant(doc, exchange->value("max_frame_bytes", SchemaJson()))) {
      out->max_frame_bytes_ = cap->get<std::uint64_t>();
    }
    out->framing_ = exchange->value("framing", "");
    out->spawned_ = exchange->value("spawned", "");
    out->exchange_ = load_exchange(*out->store_, root, *exchange);
  }
  return out;
}

const MessageSchema* ProtocolSchema::find(std::string_view method) const {
  auto it = messages_.find(method);
  return it == messages_.end() ? nullptr : &it->second;
}

std::string ProtocolSchema::spawner_role() const {
  for (const auto& role : roles_) {
    if (role != spawned_) return role;
  }
  return "";
}

ProtocolValidator::ProtocolValidator(std::shared_ptr<const ProtocolSchema> protocol,
                                     ValidateOptions options)
    : protocol_(std::move(protocol)), validator_(protocol_->store(), options) {}

Violations ProtocolValidator::payload(std::string_view method, Part part,
                                      const json& value) const {
  const MessageSchema* m = protocol_->find(method);
  if (m == nullptr) return {unknown_method(method)};
  switch (part) {
    case Part::kParams:
      if (!m->params) return {};
      return validator_.validate(value, *m->params);
    case Part::kResult:
      if (!m->result) {
        return {{Violation::Severity::kError, "", m->envelope.loc().str(), "x-result",
                 "no result (" + std::string(method) + " is a notification)", "a result"}};
      }
      return validator_.validate(value, *m->result);
    case Part::kError:
      if (!protocol_->error_object()) return {};
      return validator_.validate(value, *protocol_->error_object());
  }
  return {};
}

Violations ProtocolValidator::envelope(const json& envelope,
                                       std::optional<std::string_view> response_to) const {
  if (!envelope.is_object()) {
    return {{Violation::Severity::kError, "", "", "envelope", "a JSON-RPC object",
             describe_value(envelope)}};
  }
  if (auto method = envelope.find("method"); method != envelope.end()) {
    if (!method->is_string()) {
      return {{Violation::Severity::kError, "/method", "", "method", "a string",
               describe_value(*method)}};
    }
    const MessageSchema* m = protocol_->find(method->get<std::string>());
    if (m == nullptr) return {unknown_method(method->get<std::string>())};
    Violations out = validator_.validate(envelope, m->envelope);
    if (!m->request && envelope.contains("id")) {
      out.push_back({Violation::Severity::kError, "/id", m->envelope.loc().str() + "/x-kind",
                     "kind", "no id (" + m->method + " is a notification)",
                     describe_value(envelope["id"])});
    }
    return out;
  }
  const bool error = envelope.contains("error");
  Violations out;
  if (const auto& schema = error ? protocol_->error_response() : protocol_->response()) {
    out = validator_.validate(envelope, *schema);
  }
  if (!error && response_to && envelope.contains("result")) {
    Violations result = payload(*response_to, Part::kResult, envelope["result"]);
    for (auto& v : result) v.instance = "/result" + v.instance;
    out.insert(out.end(), result.begin(), result.end());
  }
  return out;
}

}  // namespace rpckit::validate
