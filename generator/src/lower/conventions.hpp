#pragma once
// The naming conventions of schema/README.md that lowering does not need but a reader does
// (the generator writes the same code either way): each drift is a SchemaWarning.
//   - a message's params refer to the definition <Method>Params of its own file;
//   - a message file's title, when it has one, is its method;
//   - every message file in a folder of listed messages is listed in x-messages.
#include <vector>

#include "ir/ir.hpp"
#include "model.hpp"

namespace rpckit::gen {

// `module` is what lower() made of `schema`. In the order: each message's own warnings in
// x-messages order, then the unlisted files.
std::vector<SchemaWarning> convention_warnings(const SchemaSet& schema, const ir::Module& module);

}  // namespace rpckit::gen
