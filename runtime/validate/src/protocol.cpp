#include "rpckit/validate/protocol.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "rpckit/descriptors/exchange.hpp"

namespace rpckit::validate {

using nlohmann::json;

namespace {

// x-exchange's steps as the model read them, with what validation adds: whether a step carries
// the correlation member, and which earlier step it answers.
ExchangeSchema load_exchange(const model::Exchange& x) {
  ExchangeSchema out;
  out.discriminator = x.discriminator;
  out.correlation = x.correlation;
  for (const model::ExchangeStep& step : x.steps) {
    if (!step.schema) {
      throw SchemaLoadError(x.node.loc().str() + "/steps: no type titled \"" + step.type + "\"");
    }
    ExchangeStepSchema s;
    s.from = step.from;
    s.type = step.type;
    s.schema = *step.schema;
    const auto props = step.schema->json->find("properties");
    s.correlated = !out.correlation.empty() && props != step.schema->json->end() &&
                   props->contains(out.correlation);
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
  try {
    out->model_.emplace(model::Protocol::link(out->store_->schemas()));
  } catch (const model::SchemaError& e) {
    throw SchemaLoadError(e.what());
  }
  const model::Protocol& protocol = *out->model_;
  out->roles_ = protocol.roles();
  if (!protocol.message_list() || !protocol.message_list()->json->is_array()) {
    throw SchemaLoadError(protocol.root().loc().str() + "/" +
                          std::string(model::keyword(model::Annotation::kMessages)) +
                          ": a protocol file lists its messages");
  }
  for (const model::Message& m : protocol.messages()) {
    if (m.method.empty()) {
      throw SchemaLoadError(m.file.loc().str() + ": a message file's properties/method is a const");
    }
    MessageSchema message;
    message.method = m.method;
    message.request = m.request();
    message.routes = m.routes();
    message.envelope = m.file;
    message.params = m.params;
    message.result = m.result;
    message.results_when = m.results_when();
    out->messages_.emplace(message.method, std::move(message));
  }
  out->response_ = protocol.jsonrpc("Response");
  out->error_response_ = protocol.jsonrpc("ErrorResponse");
  out->error_object_ = protocol.jsonrpc("ErrorObject");
  if (const auto& profile = protocol.profile()) {
    if (const auto* cap = protocol.named_constant(*profile, "max_frame_bytes")) {
      out->max_frame_bytes_ = cap->get<std::uint64_t>();
    }
    if (const auto* depth = protocol.named_constant(*profile, "max_json_depth")) {
      out->max_json_depth_ = depth->get<std::size_t>();
    }
    out->framing_ = model::Protocol::text(*profile, "framing");
    out->spawned_ = model::Protocol::text(*profile, "spawned");
  }
  if (const auto& exchange = protocol.exchange()) {
    if (const auto* cap = protocol.named_constant(exchange->node, "max_frame_bytes")) {
      out->max_frame_bytes_ = cap->get<std::uint64_t>();
    }
    out->framing_ = model::Protocol::text(exchange->node, "framing");
    out->spawned_ = model::Protocol::text(exchange->node, "spawned");
    out->exchange_ = load_exchange(*exchange);
  }
  return out;
}

bool MessageSchema::sent_by(const std::string& role) const {
  return std::any_of(routes.begin(), routes.end(), [&](const auto& r) { return r.first == role; });
}

std::string MessageSchema::result_chosen_by(const json& request_params) const {
  if (!request_params.is_object()) return "";
  for (const auto& [member, schema] : results_when) {
    // Present and not null, as the TypeScript SDK tests it (`if (params.task)`).
    const auto found = request_params.find(member);
    if (found != request_params.end() && !found->is_null()) return member;
  }
  return "";
}

std::string MessageSchema::sender() const {
  std::string out;
  for (const auto& [from, to] : routes) {
    if (!out.empty() && out != from) return "";
    out = from;
  }
  return out;
}

std::string MessageSchema::routes_text() const {
  std::string out;
  for (const auto& [from, to] : routes) out += (out.empty() ? "" : ", ") + from + " to " + to;
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

Violations ProtocolValidator::payload(std::string_view method, Part part, const json& value,
                                      std::string_view request_with) const {
  const MessageSchema* m = protocol_->find(method);
  if (m == nullptr) return {unknown_method(method)};
  switch (part) {
    case Part::kParams:
      if (!m->params) return {};
      return validator_.validate(value, *m->params);
    case Part::kResult:
      if (!m->result) {
        return {{Violation::Severity::kError, "", m->envelope.loc().str(),
                 std::string(model::keyword(model::Annotation::kResult)),
                 "no result (" + std::string(method) + " is a notification)", "a result"}};
      }
      for (const auto& [member, schema] : m->results_when) {
        if (member == request_with) return validator_.validate(value, schema);
      }
      return validator_.validate(value, *m->result);  // a member x-result-when does not name
    case Part::kError: {
      Violations out;
      if (protocol_->error_object()) out = validator_.validate(value, *protocol_->error_object());
      Violations data = error_data(value, "/data");
      out.insert(out.end(), data.begin(), data.end());
      return out;
    }
  }
  return {};
}

Violations ProtocolValidator::error_data(const json& error, const std::string& at) const {
  if (!error.is_object()) return {};
  const auto code = error.find("code");
  if (code == error.end() || !code->is_number_integer()) return {};
  for (const model::ErrorDataSchema& e : protocol_->model().error_data()) {
    if (!e.code.is_number_integer() || e.code.get<std::int64_t>() != code->get<std::int64_t>()) {
      continue;
    }
    const auto data = error.find("data");
    if (data == error.end()) {
      return {{Violation::Severity::kError, at.substr(0, at.rfind('/')), e.schema.loc().str(),
               std::string(model::keyword(model::Annotation::kErrorData)),
               "error.data (code " + e.code.dump() + ", " + e.name + ", has a schema)",
               "an error without it"}};
    }
    Violations out = validator_.validate(*data, e.schema);
    for (auto& v : out) v.instance = at + v.instance;
    return out;
  }
  return {};
}

Violations ProtocolValidator::envelope(const json& envelope,
                                       std::optional<std::string_view> response_to,
                                       std::string_view request_with) const {
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
      out.push_back(
          {Violation::Severity::kError, "/id",
           m->envelope.loc().str() + "/" + std::string(model::keyword(model::Annotation::kKind)),
           "kind", "no id (" + m->method + " is a notification)", describe_value(envelope["id"])});
    }
    return out;
  }
  const bool error = envelope.contains("error");
  Violations out;
  if (const auto& schema = error ? protocol_->error_response() : protocol_->response()) {
    out = validator_.validate(envelope, *schema);
  }
  if (error) {
    Violations data = error_data(envelope["error"], "/error/data");
    out.insert(out.end(), data.begin(), data.end());
  }
  if (!error && response_to && envelope.contains("result")) {
    Violations result = payload(*response_to, Part::kResult, envelope["result"], request_with);
    for (auto& v : result) v.instance = "/result" + v.instance;
    out.insert(out.end(), result.begin(), result.end());
  }
  return out;
}

}  // namespace rpckit::validate
