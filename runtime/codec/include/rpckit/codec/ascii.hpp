// ASCII character classes shared by the codec's parsers (JSON text, ECMAScript patterns):
// independent of the C locale, which <cctype> is not.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rpckit::codec::ascii {

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Whether a byte inside a JSON string is copied as it is: printable ASCII other than '"' and
// '\\' (not a control byte, not part of a multi-byte UTF-8 sequence).
constexpr bool is_plain_string_byte(unsigned char b) {
  return b >= 0x20 && b < 0x80 && b != '"' && b != '\\';
}

// The index of the first byte in data[from, size) that is not a plain string byte, or size.
// Sixteen bytes per step with SSE2 (every x86-64 has it), then eight (most of a JSON text's
// strings are plain ASCII): the string writer and reader spent most of their time testing
// byte by byte.
inline std::size_t plain_string_run_end(const char* data, std::size_t from, std::size_t size) {
  std::size_t i = from;
#if defined(__SSE2__)
  {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    for (; i + 16 <= size; i += 16) {
      const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
      // Signed, a byte of 0x80 and above is negative: below 0x20 flags it with the controls.
      const __m128i stop =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(w, quote), _mm_cmpeq_epi8(w, backslash)),
                       _mm_cmplt_epi8(w, space));
      const auto mask = static_cast<unsigned>(_mm_movemask_epi8(stop));
      if (mask != 0) return i + static_cast<std::size_t>(std::countr_zero(mask));
    }
  }
#endif
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
    for (; i + 8 <= size; i += 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, data + i, 8);
      // Per byte, its high bit set when: below 0x20, equal to '"' or '\\' (a zero byte of
      // w ^ c), or 0x80 and above. A borrow can flag a byte above a flagged one, never below,
      // so the lowest flag is exact, and on a little-endian load the lowest is the first.
      const std::uint64_t quote = w ^ (kOnes * '"');
      const std::uint64_t backslash = w ^ (kOnes * '\\');
      const std::uint64_t flags = (((w - kOnes * 0x20) & ~w) | ((quote - kOnes) & ~quote) |
                                   ((backslash - kOnes) & ~backslash) | w) &
                                  kHigh;
      if (flags != 0) return i + static_cast<std::size_t>(std::countr_zero(flags) / 8);
    }
  }
  while (i < size && is_plain_string_byte(static_cast<unsigned char>(data[i]))) ++i;
  return i;
}

}  // namespace rpckit::codec::ascii
