// rpckit_docs (not built yet).
