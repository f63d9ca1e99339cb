//===- status_internal.h - creating tcc_status objects inside the runtime ---------------===//
#ifndef TCC_RUNTIME_STATUS_INTERNAL_H
#define TCC_RUNTIME_STATUS_INTERNAL_H

#include "tcc/runtime.h"

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

/// Makes a status with a printf-formatted message. Never returns NULL for a non-OK code: when
/// memory is exhausted it returns a static RESOURCE_EXHAUSTED status instead.
tcc_status tcc_make_status(tcc_status_code code, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Puts a printf-formatted context before the message of `cause` ("<context>: <cause's
/// message>") and keeps its code, e.g. to say which buffer a device failed to allocate. Takes
/// ownership of `cause` and returns a status the caller owns; NULL for a NULL cause. When
/// memory is exhausted it returns `cause` unchanged.
tcc_status tcc_annotate_status(tcc_status cause, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_STATUS_INTERNAL_H
