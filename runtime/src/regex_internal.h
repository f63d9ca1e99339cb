//===- regex_internal.h - RegexFullMatch: RE2 patterns on the C library's regex engine ---===//
//
// ONNX's RegexFullMatch takes RE2 syntax. The runtime translates a pattern into a POSIX
// extended expression for glibc's engine (with its \w \W \b \B extensions), anchored at both
// ends, and compiles it once per session under a UTF-8 locale (so `.` is one code point).
// Whether a whole text matches does not depend on greediness or on leftmost-first versus
// leftmost-longest, so the translation answers as RE2 does for the syntax it accepts;
// anything else (look-around, backreferences, flags, \p{...}) is an error naming the
// construct.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_REGEX_INTERNAL_H
#define TCC_RUNTIME_REGEX_INTERNAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Translates the RE2 pattern (`size` bytes) to a NUL-terminated POSIX extended expression
/// `^(...)$` in a malloc'ed *out; returns 0, or -1 with a message in `error` (and *out
/// NULL). Out of memory is -1 with "out of memory".
int tcc_regex_translate(const char *pattern, size_t size, char **out, char *error,
                        size_t error_capacity);

/// Compiled patterns of one session, keyed by the pattern's address and size (patterns are
/// the model's constants). Thread-safe.
typedef struct tcc_regex_cache tcc_regex_cache;
tcc_regex_cache *tcc_regex_cache_create(void);
void tcc_regex_cache_destroy(tcc_regex_cache *cache);

/// 1 when all of `text` matches `pattern`, 0 when not, -1 with a message in `error` when the
/// pattern cannot be used (or memory ran out).
int tcc_regex_full_match(tcc_regex_cache *cache, const char *pattern, size_t pattern_size,
                         const char *text, size_t text_size, char *error,
                         size_t error_capacity);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_REGEX_INTERNAL_H
