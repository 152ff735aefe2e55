// rpckit_compat (not built yet).
