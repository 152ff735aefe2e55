#include "rpckit/model/annotations.hpp"

namespace rpckit::model {

std::string_view keyword(Annotation annotation) {
  switch (annotation) {
    case Annotation::kNamespace:
      return "x-namespace";
    case Annotation::kModule:
      return "x-module";
    case Annotation::kRoles:
      return "x-roles";
    case Annotation::kMessages:
      return "x-messages";
    case Annotation::kTypes:
      return "x-types";
    case Annotation::kErrorCodes:
      return "x-error-codes";
    case Annotation::kDefaultDeadline:
      return "x-default-deadline";
    case Annotation::kProfile:
      return "x-profile";
    case Annotation::kExchange:
      return "x-exchange";
    case Annotation::kTypeSchemas:
      return "x-type-schemas";
    case Annotation::kKind:
      return "x-kind";
    case Annotation::kDirection:
      return "x-direction";
    case Annotation::kResult:
      return "x-result";
    case Annotation::kGate:
      return "x-gate";
    case Annotation::kErrors:
      return "x-errors";
    case Annotation::kDeadline:
      return "x-deadline";
    case Annotation::kResultWhen:
      return "x-result-when";
    case Annotation::kEnumNames:
      return "x-enum-names";
    case Annotation::kEnumDescriptions:
      return "x-enum-descriptions";
    case Annotation::kDiscriminator:
      return "x-discriminator";
    case Annotation::kUnit:
      return "x-unit";
    case Annotation::kErrorMessages:
      return "x-error-messages";
    case Annotation::kErrorData:
      return "x-error-data";
  }
  return "";
}

std::optional<Annotation> annotation_named(std::string_view key) {
  for (auto a = static_cast<std::uint8_t>(Annotation::kNamespace);
       a <= static_cast<std::uint8_t>(kLastAnnotation); ++a) {
    if (keyword(static_cast<Annotation>(a)) == key) return static_cast<Annotation>(a);
  }
  return std::nullopt;
}

std::optional<Node> annotation(const Node& node, Annotation annotation) {
  const std::string_view key = keyword(annotation);
  if (!node.has(key)) return std::nullopt;
  return node.child(key);
}

bool is_annotation_key(std::string_view key) { return key.starts_with("x-"); }

bool looks_like_message(const Json& document) {
  if (!document.is_object()) return false;
  if (document.contains(keyword(Annotation::kKind))) return true;
  const auto properties = document.find("properties");
  return properties != document.end() && properties->is_object() && properties->contains("method");
}

}  // namespace rpckit::model
