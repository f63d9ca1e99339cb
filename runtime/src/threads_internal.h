//===- threads_internal.h - the session's thread pool: a parallel_for over pthreads ------===//
#ifndef TCC_RUNTIME_THREADS_INTERNAL_H
#define TCC_RUNTIME_THREADS_INTERNAL_H

#include <stdint.h>

#include "tcc/runtime.h"

/// A fixed set of worker threads that sleep on a condition variable between loops. The
/// thread that calls tcc_thread_pool_parallel_for works on the loop too.
typedef struct tcc_thread_pool tcc_thread_pool;

/// The largest num_threads a pool accepts.
#define TCC_MAX_THREADS 1024

/// The number of cores this process may run on (at least 1).
int32_t tcc_available_cores(void);

/// Creates a pool in which `num_threads` threads (1 <= num_threads <= TCC_MAX_THREADS) run
/// loops: num_threads - 1 workers plus the caller. Owned by the caller.
tcc_status tcc_thread_pool_create(int32_t num_threads, tcc_thread_pool **out_pool);

/// Joins the workers and frees the pool (NULL is fine). No loop may be running.
void tcc_thread_pool_destroy(tcc_thread_pool *pool);

/// The num_threads the pool was created with.
int32_t tcc_thread_pool_num_threads(const tcc_thread_pool *pool);

/// Runs body(arg, begin, end) over disjoint chunks that cover [0, count) and returns when all
/// of them have finished. One thread at a time may call it per pool; a call made from inside
/// a body (a nested loop) runs inline on its thread, so the pool never oversubscribes.
void tcc_thread_pool_parallel_for(tcc_thread_pool *pool, int64_t count,
                                  void (*body)(void *arg, int64_t begin, int64_t end),
                                  void *arg);

#endif // TCC_RUNTIME_THREADS_INTERNAL_H
