// roles.hpp: per role that receives messages, the handler interface it implements (every
// function with a default, so a schema that gains a message compiles every application
// unchanged), the typed client a peer sends them through, and bind() per direction.
#include "emit/common.hpp"
#include "emit/declarations.hpp"
#include "emit/emit.hpp"
#include "emit/preamble.hpp"

namespace rpckit::gen {
namespace {

// A request's x-result-when entry, as the receiver sees it: the params that carry its member,
// answered with its result, or declined (the default) and answered by the request's own function.
void emit_result_when_handler(Printer& p, const ir::Message& msg,
                              const ir::Message::ResultWhen& r) {
  const std::string declaration = handler_declaration(msg, r);
  Printer::Vars vars = {{"descriptor", r.cpp_name},  {"fn", r.function_name},
                        {"own", msg.function_name},  {"member", r.member},
                        {"params", msg.params_type}, {"result", cpp_type(r.result)},
                        {"declaration", declaration}};
  p.print(
      "\n/// messages::$descriptor$: params that carry `$member$`, answered with\n"
      "/// $result$. std::nullopt (the default) declines: $own$ answers them,\n"
      "/// as a receiver that does not take them does.\n",
      vars);
  // On one line when it fits in kLineWidth columns, else broken after the parenthesis.
  p.print(static_cast<std::size_t>(p.indent()) + declaration.size() + 2 <= kLineWidth
              ? "$declaration$ {\n"
              : "virtual std::optional<$result$> $fn$(\n"
                "    Context&, const $params$&) {\n",
          vars);
  p.print(
      "  return std::nullopt;\n"
      "}\n",
      vars);
}

// Each message's documentation is on its descriptor (messages.hpp); the functions refer to it.
void emit_handler_functions(Printer& p, const ir::Module& m, const ir::RoleSurface& s) {
  for (const ir::Message* msg : received_by(m, s.role)) {
    const std::string declaration = handler_declaration(*msg);
    const std::string body = msg->request ? " {" : " {}";
    Printer::Vars vars = {
        {"declaration", declaration},  {"fn", msg->function_name},
        {"params", msg->params_type},  {"result", msg->request ? result_type(*msg) : "void"},
        {"descriptor", msg->cpp_name}, {"body", body}};
    // "virtual R fn(Context&, const P&) {": on one line when it fits in kLineWidth columns,
    // else broken after the open parenthesis.
    std::size_t width = static_cast<std::size_t>(p.indent()) + declaration.size() + body.size();
    p.print(width <= kLineWidth ? "\n/// messages::$descriptor$\n"
                                  "$declaration$$body$\n"
                                : "\n/// messages::$descriptor$\n"
                                  "virtual $result$ $fn$(\n"
                                  "    Context&, const $params$&)$body$\n",
            vars);
    if (msg->request) {
      p.print(
          "  rpckit::roles::method_not_found(messages::$descriptor$::kMethod);\n"
          "}\n",
          vars);
      for (const ir::Message::ResultWhen& r : msg->results_when)
        emit_result_when_handler(p, *msg, r);
    }
  }
}

void emit_handler(Printer& p, const ir::Module& m, const ir::RoleSurface& s) {
  p.print(
      "/// What a $role$ receives, one function per message. Override the ones the application\n"
      "/// handles; the others answer -32601 (requests) or ignore the message (notifications),\n"
      "/// so a message added to the schema leaves every existing $role$ compiling unchanged.\n"
      "/// `Context` is what the role passes with each message (the peer it comes from, a client\n"
      "/// to answer through, ...). Throw rpckit::RpcError to answer a request with an error.\n"
      "template <class Context>\n"
      "class $handler$ {\n"
      " public:\n"
      "  virtual ~$handler$() = default;\n",
      {{"role", s.role}, {"handler", s.handler}});
  {
    Printer::Indent in(p);
    emit_handler_functions(p, m, s);
  }
  p.print("};\n\n");
}

// A request's three client functions: call, call_async and call_future.
void emit_client_call(Printer& p, const Printer::Vars& vars) {
  p.print(
      "rpckit::Result<$result$> $fn$(\n"
      "    const $params$& params$default$,\n"
      "    rpckit::CallOptions options = {}) const {\n"
      "  return caller_->call<messages::$descriptor$>(params, std::move(options));\n"
      "}\n"
      "\n"
      "/// messages::$descriptor$ without waiting: `done(rpckit::Result<$result$>)` runs\n"
      "/// once, as rpckit::Endpoint::call_async() says; the handle cancels the call.\n"
      "template <class Done>\n"
      "rpckit::AsyncCall $fn$_async(\n"
      "    const $params$& params, Done&& done,\n"
      "    rpckit::CallOptions options = {}) const {\n"
      "  return caller_->call_async<messages::$descriptor$>(params, "
      "std::forward<Done>(done),\n"
      "                                                      std::move(options));\n"
      "}\n"
      "\n"
      "/// messages::$descriptor$ without waiting: its result when it comes, or cancel it.\n"
      "rpckit::FutureResult<$result$> $fn$_future(\n"
      "    const $params$& params$default$,\n"
      "    rpckit::CallOptions options = {}) const {\n"
      "  return caller_->call_future<messages::$descriptor$>(params, std::move(options));\n"
      "}\n",
      vars);
}

void emit_client(Printer& p, const ir::Module& m, const ir::RoleSurface& s) {
  p.print(
      "/// Typed messages to a $role$, one function per message it receives. Each is checked\n"
      "/// against the grant held by the rpckit::roles::Caller before it is sent (a request\n"
      "/// outside it fails locally, a notification outside it is not sent) and waits at most\n"
      "/// its descriptor's deadline unless given another (rpckit::CallOptions: a deadline, or\n"
      "/// progress reports too). Thread-safe as the Caller is.\n"
      "class $client$ {\n"
      " public:\n"
      "  explicit $client$(rpckit::roles::Caller& caller) noexcept : caller_(&caller) {}\n",
      {{"role", s.role}, {"client", s.client}});
  {
    Printer::Indent in(p);
    for (const ir::Message* msg : received_by(m, s.role)) {
      p.print("\n/// messages::$descriptor$\n", {{"descriptor", msg->cpp_name}});
      Printer::Vars vars = {{"fn", msg->function_name},
                            {"params", msg->params_type},
                            {"default", msg->params_all_optional ? " = {}" : ""},
                            {"descriptor", msg->cpp_name},
                            {"result", msg->request ? result_type(*msg) : ""}};
      if (msg->request) {
        emit_client_call(p, vars);
        for (const ir::Message::ResultWhen& r : msg->results_when) {
          p.print("\n/// messages::$descriptor$\n", {{"descriptor", r.cpp_name}});
          emit_client_call(p, {{"fn", r.function_name},
                               {"params", msg->params_type},
                               {"default", ""},  // its params carry r.member
                               {"descriptor", r.cpp_name},
                               {"result", cpp_type(r.result)}});
        }
      } else {
        p.print(
            "/// Returns whether it was sent.\n"
            "bool $fn$(const $params$& params$default$) const {\n"
            "  return caller_->notify<messages::$descriptor$>(params);\n"
            "}\n",
            vars);
      }
    }
  }
  p.print(
      "\n"
      " private:\n"
      "  rpckit::roles::Caller* caller_;\n"
      "};\n"
      "\n");
}

void emit_bind(Printer& p, const ir::Module& m, const ir::Direction& d,
               const ir::RoleSurface& s) {
  p.print(
      "/// Routes every message of $direction$ to its function of `handler`, with `context`.\n"
      "/// Both must outlive the router.\n"
      "template <class Context>\n"
      "void bind(rpckit::Router<$direction$>& router, $handler$<Context>& handler,\n"
      "          std::type_identity_t<Context>& context) {\n",
      {{"direction", d.cpp_name}, {"handler", s.handler}});
  {
    Printer::Indent in(p);
    for (const ir::Message* msg : received_by(m, d.to, d.from)) {
      Printer::Vars vars = {{"descriptor", msg->cpp_name},
                            {"params", msg->params_type},
                            {"return", msg->request ? "return " : ""},
                            {"fn", msg->function_name}};
      // "router.on<messages::D>([&handler, &context](const P& params) {": the lambda on a
      // line of its own when that does not fit in kLineWidth columns.
      std::size_t width = static_cast<std::size_t>(p.indent()) + msg->cpp_name.size() +
                          msg->params_type.size() + 60;
      p.print(width <= kLineWidth
                  ? "router.on<messages::$descriptor$>("
                    "[&handler, &context](const $params$& params) {\n"
                    "  $return$handler.$fn$(context, params);\n"
                    "});\n"
                  : "router.on<messages::$descriptor$>(\n"
                    "    [&handler, &context](const $params$& params) {\n"
                    "      $return$handler.$fn$(context, params);\n"
                    "    });\n",
              vars);
      for (const ir::Message::ResultWhen& r : msg->results_when) {
        p.print(
            "router.on<messages::$descriptor$>(\n"
            "    [&handler, &context](const $params$& params) {\n"
            "      return handler.$fn$(context, params);\n"
            "    });\n",
            {{"descriptor", r.cpp_name}, {"params", msg->params_type}, {"fn", r.function_name}});
      }
    }
  }
  p.print("}\n\n");
}

// The traits a generic role template takes (rpckit::roles::PluginRole<Protocol>, ...).
void emit_protocol_traits(Printer& p, const ir::Module& m, const ir::Profile& profile) {
  p.print(
      "/// What the generic roles take: the profile, the two directions and the role\n"
      "/// surfaces, seen from the $spawned$ (spawned) and the $spawner$ (spawner).\n"
      "struct Protocol {\n"
      "  using Profile = $ns$Profile;\n",
      {{"spawned", profile.spawned_role}, {"spawner", profile.spawner_role}, {"ns", "::" + m.cpp_namespace + "::"}});
  Printer::Indent in(p);
  auto alias = [&p](const char* name, const std::string& type) {
    if (!type.empty()) p.print("using $name$ = $type$;\n", {{"name", name}, {"type", type}});
  };
  auto handler = [&p](const char* name, const std::string& type) {
    if (!type.empty()) {
      p.print("template <class Context>\nusing $name$ = $type$<Context>;\n",
              {{"name", name}, {"type", type}});
    }
  };
  alias("ToSpawned", profile.to_spawned);
  alias("ToSpawner", profile.to_spawner);
  handler("SpawnedHandler", profile.spawned_handler);
  alias("SpawnedClient", profile.spawned_client);
  handler("SpawnerHandler", profile.spawner_handler);
  alias("SpawnerClient", profile.spawner_client);
}

}  // namespace

std::string emit_roles_header(const ir::Module& m) {
  Printer p;
  std::vector<std::string> module = {"dispatch.hpp"};
  if (m.error_code_type) module.emplace_back("errors.hpp");
  if (m.profile) module.emplace_back("profile.hpp");
  open_file(p, m,
            {.standard = {"chrono", "optional", "type_traits", "utility"},
             .module = module,
             .rpckit = {"dispatch/router.hpp", "roles/caller.hpp", "roles/handler.hpp"}});
  for (const ir::RoleSurface& s : m.surfaces) {
    emit_handler(p, m, s);
    emit_client(p, m, s);
    for (const ir::Direction& d : m.directions) {
      if (d.to == s.role) emit_bind(p, m, d, s);
    }
  }
  if (m.profile) {
    emit_protocol_traits(p, m, *m.profile);
    p.print("};\n\n");
  }
  return close_file(p, m);
}

}  // namespace rpckit::gen
