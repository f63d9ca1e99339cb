//===- strings_internal.h - a session's strings: the arena and the string imports -------===//
//
// The string functions of the import table (model_abi.h) work on a tcc_strings: the arena
// that holds the bytes of the strings a run makes, and where to report errors. session.c
// owns one per session and forwards the imports to the functions below.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_STRINGS_INTERNAL_H
#define TCC_RUNTIME_STRINGS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tcc/runtime.h"

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

typedef struct tcc_strings tcc_strings;

/// Where a tcc_strings reports failures (the session's report_error: first message wins).
/// `message` may be a temporary: the receiver copies it.
typedef void (*tcc_strings_report_fn)(void *context, const char *message);

/// Creates an empty arena (it allocates its first chunk when first used). Owned by the caller.
tcc_status tcc_strings_create(tcc_strings_report_fn report, void *report_context,
                              tcc_strings **out_strings);

/// Frees the arena and every string in it (NULL is fine).
void tcc_strings_destroy(tcc_strings *strings);

/// Starts a run: the strings of the previous run become invalid and their memory is reused.
/// A run that needed more than one chunk leaves one chunk of the size it used, so that
/// repeated runs of the same inputs allocate nothing. No string function may be running.
void tcc_strings_reset(tcc_strings *strings);

/// Whether memory ran out since the last reset (the run must fail).
int tcc_strings_out_of_memory(const tcc_strings *strings);

/// Whether `address` lies in the arena's memory (an input that is a previous run's output:
/// resetting would overwrite it). Not thread-safe with respect to running string functions.
int tcc_strings_owns(const tcc_strings *strings, const void *address);

/// Counters for tests: chunks allocated since creation, chunks and bytes held now.
typedef struct tcc_strings_stats {
  uint64_t chunk_allocations;
  uint64_t chunks;
  uint64_t bytes;
} tcc_strings_stats;
void tcc_strings_get_stats(const tcc_strings *strings, tcc_strings_stats *out_stats);

/// `bytes` (> 0) bytes of the arena, valid until the next reset; NULL (and the failure
/// recorded and reported) when memory runs out. Thread-safe.
char *tcc_strings_allocate(tcc_strings *strings, size_t bytes);

/// Reports a failure (the run then fails); `message` may be a temporary.
void tcc_strings_report(tcc_strings *strings, const char *message);

/// Reports running out of memory: the run then fails with RESOURCE_EXHAUSTED.
void tcc_strings_report_out_of_memory(tcc_strings *strings, const char *message);

/// Whether a string from the model is usable (size >= 0, data when size > 0); reports it
/// otherwise, naming `function`.
int tcc_strings_check_text(tcc_strings *strings, const tcc_string *text, const char *function);

/// Copies `length` bytes into the arena as *out; {NULL, 0} when empty or out of memory.
void tcc_strings_make(tcc_strings *strings, const char *bytes, size_t length,
                      tcc_string *out);

/// The import table's functions, with the semantics of model_abi.h (format and parse in
/// string_numbers.c, the others in strings.c). Thread-safe.
void tcc_strings_format(tcc_strings *strings, int32_t dtype, const void *value,
                        tcc_string *out);
void tcc_strings_parse(tcc_strings *strings, const tcc_string *text, int32_t dtype, void *out);
void tcc_strings_change_case(tcc_strings *strings, const tcc_string *text, int32_t upper,
                             tcc_string *out);
int32_t tcc_strings_find(tcc_strings *strings, const tcc_string *text, const char *set,
                         int64_t count, int32_t ignore_case);
int32_t tcc_strings_equal(tcc_strings *strings, const tcc_string *a, const tcc_string *b);
void tcc_strings_concat(tcc_strings *strings, const tcc_string *a, const tcc_string *b,
                        tcc_string *out);
int32_t tcc_strings_match(tcc_strings *strings, const tcc_string *text, const char *pattern,
                          int64_t pattern_size);

/// The session's tcc_strings (session.c), for tests.
tcc_strings *tcc_session_strings(tcc_session *session);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_STRINGS_INTERNAL_H
