#pragma once
// SchemaValidator: JSON Schema draft-07 over nlohmann::json values, against a SchemaStore.
//
// Every draft-07 keyword is checked ($ref, type, enum, const, numbers, strings, arrays,
// objects, dependencies, propertyNames, if/then/else, allOf/anyOf/oneOf/not) and the formats
// date-time, date, time, uri, uri-reference, email, hostname, ipv4, ipv6 and uuid; other
// formats are annotations, as the draft allows. Checked by the official JSON Schema Test
// Suite and, per message, against ajv (tests/validate).
//
// Enums: the protocols' enums are open (schema/README.md: a newer peer may send a value this
// version does not list), so by default a value of the enum's JSON type that the schema does
// not list is a warning; `strict_enums` makes it an error, as plain JSON Schema does.
#include <memory>

#include <nlohmann/json_fwd.hpp>

#include "rpckit/validate/schema_store.hpp"
#include "rpckit/validate/violation.hpp"

namespace rpckit::validate {

struct ValidateOptions {
  bool strict_enums = false;
};

class SchemaValidator {
 public:
  SchemaValidator(std::shared_ptr<const SchemaStore> store, ValidateOptions options = {});

  // Every violation of `schema` by `instance` (empty = valid), instance pointers relative to
  // `instance_prefix` (e.g. "/params" when `instance` is an envelope's params).
  Violations validate(const nlohmann::json& instance, const SchemaRef& schema,
                      const std::string& instance_prefix = "") const;

  const SchemaStore& store() const { return *store_; }
  const ValidateOptions& options() const { return options_; }

 private:
  std::shared_ptr<const SchemaStore> store_;
  ValidateOptions options_;
};

// A short rendering of a JSON value for messages: scalars as JSON (long strings cut), "an
// object", "an array of 3 items".
std::string describe_value(const nlohmann::json& value);
// The same for a value written in a schema (enum, const): what was expected.
std::string describe_value(const nlohmann::ordered_json& value);

}  // namespace rpckit::validate
