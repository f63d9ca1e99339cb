//===- session_internal.h - what session.c shows the rest of the runtime and its tests ---===//
#ifndef TCC_RUNTIME_SESSION_INTERNAL_H
#define TCC_RUNTIME_SESSION_INTERNAL_H

#include <stdint.h>

#include "tcc/runtime.h"

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

/// How many device buffers a session of a device model has allocated for CPU tensors: they
/// are kept between runs and grow only when a run needs more. 0 for a CPU model.
uint64_t tcc_session_staging_allocations(const tcc_session *session);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_SESSION_INTERNAL_H
