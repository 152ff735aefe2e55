#pragma once
// The generator reads a protocol through rpckit::model (runtime/model: the loader the tools
// share); these are its names inside the generator.
#include "rpckit/model/annotations.hpp"
#include "rpckit/model/protocol.hpp"
#include "rpckit/model/required_alternatives.hpp"
#include "rpckit/model/schema_error.hpp"
#include "rpckit/model/schema_set.hpp"
#include "rpckit/model/shown.hpp"

namespace rpckit::gen {

using model::Annotation;
using model::Json;
using model::Node;
using model::quoted_list;
using model::required_alternatives;
using model::SchemaError;
using model::SchemaSet;
using model::SchemaWarning;
using model::shown;

// The keyword of an annotation ("x-kind"), for the lowering's typed readers (schema_node.hpp).
inline std::string_view kw(Annotation a) { return model::keyword(a); }

}  // namespace rpckit::gen
