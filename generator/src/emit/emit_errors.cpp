// errors.hpp (a protocol with x-error-codes): its ErrorCode and rpckit::RpcError both ways,
// so throwing or reading a protocol error needs no cast; with an ErrorData type, its data
// typed too.
#include <algorithm>

#include "emit/common.hpp"
#include "emit/emit.hpp"
#include "emit/preamble.hpp"

namespace rpckit::gen {

std::string emit_errors_header(const ir::Module& m) {
  const bool has_data = std::any_of(m.types.begin(), m.types.end(), [](const ir::TypeDecl& d) {
    return d.name == "ErrorData" && d.kind == ir::TypeDecl::Kind::kStruct;
  });
  Printer p;
  open_file(p, m,
            {.standard = {"optional", "string", "utility"},
             .module = {"types.hpp"},
             .rpckit = {"codec/value_codec.hpp", "endpoint/rpc_error.hpp"}});
  p.print(
      "/// An error to answer with (throw it from a handler): this protocol's `code`, with\n"
      "/// `data` when given.\n"
      "inline rpckit::RpcError make_error($enum$ code, std::string message,\n"
      "                                   std::optional<rpckit::JsonValue> data = std::nullopt) {\n"
      "  return rpckit::RpcError(static_cast<int>(code), std::move(message), std::move(data));\n"
      "}\n"
      "\n"
      "/// The code of an error as this protocol's enum (any int: a code a newer peer sends\n"
      "/// stays representable; is_known() tells).\n"
      "inline $enum$ error_code(const rpckit::RpcError& error) {\n"
      "  return static_cast<$enum$>(error.code());\n"
      "}\n"
      "/// The code of a call's error: the peer's, or the local one (timeout, disconnected...).\n"
      "inline $enum$ error_code(const rpckit::CallError& error) {\n"
      "  return error_code(error.error);\n"
      "}\n",
      {{"enum", *m.error_code_type}});
  if (has_data) {
    p.print(
        "\n"
        "/// An error whose data is this protocol's ErrorData.\n"
        "inline rpckit::RpcError make_error($enum$ code, std::string message, const ErrorData& "
        "data) {\n"
        "  return make_error(code, std::move(message), rpckit::codec::encode(data));\n"
        "}\n"
        "\n"
        "/// error.data as ErrorData, or nullopt when absent or of another shape.\n"
        "inline std::optional<ErrorData> error_data(const rpckit::RpcError& error) {\n"
        "  if (!error.data()) return std::nullopt;\n"
        "  return rpckit::codec::decode_or_none<ErrorData>(error.data()->get(), \"error.data\");\n"
        "}\n",
        {{"enum", *m.error_code_type}});
  }
  // x-error-data: a maker and a reader per code whose data has a type.
  for (const ir::ErrorData& e : m.error_data) {
    const Printer::Vars vars = {
        {"enum", *m.error_code_type}, {"enumerator", e.enumerator}, {"code", e.wire},
        {"label", e.label},           {"name", e.cpp_name},         {"type", cpp_type(e.type)}};
    p.print(
        "\n"
        "/// A $code$ $label$ error with its data (x-error-data).\n"
        "inline rpckit::RpcError make_$name$_error(std::string message, const $type$& data) {\n"
        "  return make_error($enum$::$enumerator$, std::move(message), "
        "rpckit::codec::encode(data));\n"
        "}\n"
        "\n"
        "/// error.data of $label$ ($code$), typed: nullopt for another code, or when the data\n"
        "/// is absent or of another shape.\n"
        "inline std::optional<$type$> $name$_data(const rpckit::RpcError& error) {\n"
        "  if (error.code() != static_cast<int>($enum$::$enumerator$) || !error.data()) {\n"
        "    return std::nullopt;\n"
        "  }\n"
        "  return rpckit::codec::decode_or_none<$type$>(error.data()->get(), \"error.data\");\n"
        "}\n",
        vars);
  }
  return close_file(p, m);
}

}  // namespace rpckit::gen
