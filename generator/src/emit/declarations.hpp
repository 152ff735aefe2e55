#pragma once
// The spellings of the declarations a consumer's code names, written once: the emitters print
// them into the headers and api_surface.hpp lists them as the module's C++ API, so the API
// that compat compares is the one the headers declare.
#include <string>
#include <vector>

#include "ir/ir.hpp"

namespace rpckit::gen {

// A constant's C++ type ("std::int64_t", "std::chrono::milliseconds") and a value of it.
std::string constant_type(const ir::Constant& c);
std::string constant_value(const ir::Constant& c, const std::string& literal);
// "inline constexpr std::int64_t kMaxFrameBytes = 1048576": its declaration without the `;`.
std::string constant_declaration(const ir::Constant& c);

// A union's variant alternatives: its members' types, then rpckit::JsonValue.
std::string union_alternatives(const ir::TypeDecl& d);

// A module type's name as written inside `namespace messages`, where a descriptor hides a type
// of the same name (inside its own struct, the injected class name does): `using Result =
// Credential;` in messages::GetCredential would name the descriptor messages::Credential if a
// method were called "credential". Such names are spelled from the global namespace; the
// others stay short.
std::string spell_in_messages(const ir::Module& m, const std::string& name);
// A request's result type as its descriptor declares it (`using Result = ...`).
std::string descriptor_result_type(const ir::Module& m, const ir::Message& msg);
// A type as messages.hpp spells it (a name that is also a descriptor's, qualified).
std::string descriptor_type(const ir::Module& m, const ir::TypeRef& type);

// "kRequired", "kOptionalSendEmpty", "kOptionalOmit": rpckit::ParamsPresence's enumerator.
const char* params_presence_name(ir::Message::ParamsPresence presence);
// A descriptor's kRoutes as declared: "std::array<rpckit::Route<Role>, 1> kRoutes =
// {{{Role::kHost, Role::kPlugin}}}" (`role` is the Role enum as messages.hpp spells it).
std::string routes_declaration(const ir::Module& m, const ir::Message& msg,
                               const std::string& role);

// The messages `role` receives (from `from` only, when given), in schema order: its handler's
// and its client's functions.
std::vector<const ir::Message*> received_by(const ir::Module& m, const std::string& role,
                                            const std::string& from = {});

// What a request answers with: the C++ type of its result.
std::string result_type(const ir::Message& msg);
// "virtual R fn(Context&, const P&)": a message's function in its receiver's handler.
std::string handler_declaration(const ir::Message& msg);
// "virtual std::optional<R> fn(Context&, const P&)": an x-result-when entry's (declining is
// std::nullopt).
std::string handler_declaration(const ir::Message& msg, const ir::Message::ResultWhen& r);
// "rpckit::Result<R> fn(const P& params, std::optional<std::chrono::milliseconds> deadline =
// std::nullopt) const" (a request) or "bool fn(const P& params) const" (a notification): its
// function in the client of its receiver, `= {}` after params when every field is optional.
std::string client_declaration(const ir::Message& msg);
// The client function of an x-result-when entry of `msg` (`tools_call_with_task`).
std::string client_declaration(const ir::Message& msg, const ir::Message::ResultWhen& r);

}  // namespace rpckit::gen
