// Which sanitizer the test is built under, for the few tests whose subject a sanitizer changes
// (allocation counts, signal delivery). g++ says so with __SANITIZE_*__, clang with
// __has_feature. Macros, as a test may leave code out with #if.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define RPCKIT_THREAD_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RPCKIT_THREAD_SANITIZED 1
#endif
#endif

#if defined(RPCKIT_THREAD_SANITIZED) || defined(__SANITIZE_ADDRESS__)
#define RPCKIT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define RPCKIT_SANITIZED 1
#endif
#endif
