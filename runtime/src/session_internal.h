//===- session_internal.h - what session.c shows the rest of the runtime and its tests ---===//
#ifndef TCC_RUNTIME_SESSION_INTERNAL_H
#define TCC_RUNTIME_SESSION_INTERNAL_H

#include <stdint.h>

#include "device.h"
#include "tcc/runtime.h"

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

/// tcc_session_create, with `device` (when not NULL) in place of the model's device for
/// everything the session does (tensors are still checked against the model's): for tests,
/// which run device models on a test double of a backend.
tcc_status tcc_session_create_on(tcc_model *model, const tcc_session_options *options,
                                 const tcc_device *device, tcc_session **out_session);

/// How many device buffers a session of a device model has allocated for CPU tensors: they
/// are kept between runs and grow only when a run needs more. 0 for a CPU model.
uint64_t tcc_session_staging_allocations(const tcc_session *session);

/// How many runs of a device model's session recorded their kernels into a graph (a run with
/// symbol values or device addresses not seen by the graph held then), and how many runs
/// replayed the graph instead of calling the model's run. 0 for a CPU model.
uint64_t tcc_session_graph_captures(const tcc_session *session);
uint64_t tcc_session_graph_replays(const tcc_session *session);

/// Why the session runs its model without graphs ("the cpu device records no graphs",
/// "cuda device: begin_capture: CUDA graphs are off (TCC_CUDA_GRAPHS=0)", a recording or
/// launch that failed, after which the session ran normally), or NULL while it uses them.
/// Valid until the session's next run or release.
const char *tcc_session_graph_fallback(const tcc_session *session);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_SESSION_INTERNAL_H
