#pragma once
// The annotation keywords a protocol's schema carries beside JSON Schema (schema/README.md):
// the one place they are spelled. Protocol (protocol.hpp) links the protocol-level and
// message-level ones; annotation() hands any of them out as written, with where it is written,
// to the reader that takes its value apart (the generator's lowering strictly, the tools
// beside it tolerantly). No code outside rpckit::model names an "x-" keyword (a test scans).
#include <cstdint>
#include <optional>
#include <string_view>

#include "rpckit/model/schema_set.hpp"

namespace rpckit::model {

enum class Annotation : std::uint8_t {
  // protocol.json
  kNamespace,        // x-namespace: the generated C++ namespace
  kModule,           // x-module: the generated module's name (folder, CMake targets)
  kRoles,            // x-roles: the two sides
  kMessages,         // x-messages: the message files, in order
  kTypes,            // x-types: the shared type files
  kErrorCodes,       // x-error-codes: a $ref to the integer enum of error codes
  kDefaultDeadline,  // x-default-deadline: the constant a request without its own deadline takes
  kProfile,          // x-profile: how the protocol travels and lives
  kExchange,         // x-exchange: a one-shot exchange instead of JSON-RPC
  kTypeSchemas,      // x-type-schemas: true: each object type's JSON Schema is generated too
  // a message file
  kKind,        // x-kind: "request" or "notification"
  kDirection,   // x-direction: "<role>_to_<role>"
  kResult,      // x-result: a request's result schema
  kGate,        // x-gate: the capability clauses that allow the message
  kErrors,      // x-errors: the error codes a request may answer with
  kDeadline,    // x-deadline: the constant naming this request's deadline
  kResultWhen,  // x-result-when: params member -> the result a request carrying it is answered with
  // any schema node
  kEnumNames,         // x-enum-names: one C++ name per enum value
  kEnumDescriptions,  // x-enum-descriptions: one description per enum value
  kDiscriminator,     // x-discriminator: the member whose value tells a union's members apart
  kUnit,              // x-unit: "ms" on a duration constant
  kErrorMessages,     // x-error-messages: readable text for a failed pattern or not
  // the error-code enum (x-error-codes)
  kErrorData,  // x-error-data: error name -> the schema of error.data under that code
};

// The last enumerator: loops over every annotation run from kNamespace to it.
inline constexpr Annotation kLastAnnotation = Annotation::kErrorData;

// The keyword as written in a schema: "x-kind" for kKind.
std::string_view keyword(Annotation annotation);
// The annotation a keyword spells, when it spells one.
std::optional<Annotation> annotation_named(std::string_view keyword);
// The annotation as written on `node`, when the node has it.
std::optional<Node> annotation(const Node& node, Annotation annotation);
// Whether a schema object's `key` is an annotation (any "x-" key, known or not): what a
// comparison of JSON Schema leaves to the annotations' own readers.
bool is_annotation_key(std::string_view key);
// Whether a document looks like a message file: an object with x-kind or a `method` property
// (a file next to the listed messages that is neither listed nor reached is reported).
bool looks_like_message(const Json& document);

}  // namespace rpckit::model
