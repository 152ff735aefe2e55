#pragma once
// One emitter per schema construct, in both files it appears in: `declare_*` writes its
// declaration into types.hpp, `define_*` its codec bodies into types.cpp.
#include "emit/emit_checks.hpp"
#include "emit/printer.hpp"
#include "ir/ir.hpp"

namespace rpckit::gen {

void declare_struct(Printer& p, const ir::TypeDecl& d);
void define_struct(Printer& p, Patterns& patterns, const ir::TypeDecl& d);
// Accessors of defaults without a plain C++ expression.
void define_default_accessors(Printer& p, const ir::TypeDecl& d);

void declare_string_enum(Printer& p, const ir::TypeDecl& d);
void declare_integer_enum(Printer& p, const ir::TypeDecl& d);
void define_integer_enum(Printer& p, const ir::TypeDecl& d);

void declare_union(Printer& p, const ir::TypeDecl& d);
void define_union(Printer& p, const ir::TypeDecl& d);

// write_json(): the direct encoder of any declared type (emit_writer.cpp).
void define_writer(Printer& p, const ir::TypeDecl& d);
// read_json(): the streaming decoder of any declared type (emit_reader.cpp).
void define_reader(Printer& p, const ir::TypeDecl& d);

}  // namespace rpckit::gen
