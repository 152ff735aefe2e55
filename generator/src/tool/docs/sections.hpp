#pragma once
// The sections of the reference, each appending to the document in page order.
#include <string>

#include "tool/docs/context.hpp"
#include "tool/docs/markdown.hpp"

namespace rpckit::docs {

void render_profile(const Context& ctx, md::Document& doc);
void render_exchange(const Context& ctx, md::Document& doc);
void render_messages(const Context& ctx, md::Document& doc);
void render_types(const Context& ctx, md::Document& doc);
void render_errors(const Context& ctx, md::Document& doc);
void render_capabilities(const Context& ctx, md::Document& doc);
void render_constants(const Context& ctx, md::Document& doc);

// Shared by messages and types: a struct's members as a table (member, type, presence,
// nullable, default, constraints, description), or a sentence when it has none.
std::string fields_table(const Context& ctx, const ir::Struct& s);
// What a type is, below its heading: its doc, where it is defined, then its table.
std::string type_body(const Context& ctx, const ir::TypeDecl& t);

}  // namespace rpckit::docs
