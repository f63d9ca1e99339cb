//===- profile_internal.h - a model's kernel list and a session's kernel times -----------===//
#ifndef TCC_RUNTIME_PROFILE_INTERNAL_H
#define TCC_RUNTIME_PROFILE_INTERNAL_H

#include <stdint.h>

#include "tcc/model_abi.h"
#include "tcc/runtime.h"

/// The number of kernels in a descriptor's kernel list: 0 for a descriptor that ends before
/// it (tcc_validate_kernel_list has checked it).
int32_t tcc_descriptor_num_kernels(const tcc_model_descriptor *d);

/// Validates a descriptor's kernel list (where it has one): the count in range, names and
/// nodes present, and for a device model the same list as device_kernel_names. `where`
/// prefixes the message.
tcc_status tcc_validate_kernel_list(const char *where, const tcc_model_descriptor *d);

/// A kernel's counts in a profiling session.
typedef struct tcc_kernel_counter {
  _Atomic uint64_t launches;
  _Atomic uint64_t nanoseconds;
} tcc_kernel_counter;

/// Nanoseconds of a monotonic clock.
uint64_t tcc_profile_now(void);

/// Adds one launch of `kernel` that took `nanoseconds` to `counters` (num_kernels of them;
/// an index outside is ignored). Thread-safe.
void tcc_profile_add(tcc_kernel_counter *counters, int32_t num_kernels, int32_t kernel,
                     uint64_t nanoseconds);

/// Makes `session` a profiling one: its counters, and for a CPU model imports->profile (a
/// device model's launches are timed by device_launch). Returns 0 when out of memory.
int tcc_session_start_profile(tcc_session *session);

#endif // TCC_RUNTIME_PROFILE_INTERNAL_H
