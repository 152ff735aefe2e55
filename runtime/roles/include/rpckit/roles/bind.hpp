#pragma once
// The generated bind(router, handler, context) of a module, called from a scope where no
// member named bind hides it (the roles' own bind members forward to it).

namespace rpckit::roles::detail {

template <class Router, class Handler, class Context>
void bind_generated(Router& router, Handler& handler, Context& context) {
  bind(router, handler, context);  // found by argument-dependent lookup in the module
}

}  // namespace rpckit::roles::detail
