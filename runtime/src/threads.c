//===- threads.c - the session's thread pool -------------------------------------------===//
//
// One loop at a time: the caller publishes (body, arg, count) under the mutex and bumps a
// generation counter; workers that see a new generation join, and everyone (the caller too)
// claims chunks from one atomic counter until none are left. A worker counts itself `busy`
// from before it claims its first chunk until after its last one finishes, so the caller
// returns once all chunks are claimed and no worker is busy. A worker that wakes late joins a
// loop whose chunks are all claimed and leaves again; the next loop is only published when no
// worker is busy, so a late worker can never run a stale body on new chunks.
//
// Workers spin briefly before sleeping on the condition variable: models call parallel_for
// once per kernel, back to back, and a wake-up through the kernel costs tens of microseconds.
//
//===------------------------------------------------------------------------------------===//
#include "threads_internal.h"
#include "status_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// How many chunks per thread a loop is cut into: more balances uneven chunks better, fewer
/// costs fewer atomic operations.
#define CHUNKS_PER_THREAD 4
/// Polls of the generation counter before a worker goes to sleep.
#define SPIN_ITERATIONS 4000

typedef void (*loop_body)(void *arg, int64_t begin, int64_t end);

typedef struct loop {
  loop_body body;
  void *arg;
  int64_t count;
  int64_t chunk_size;
  int64_t num_chunks;
} loop;

struct tcc_thread_pool {
  int32_t num_threads;
  int32_t num_workers; // started workers (num_threads - 1 once creation succeeded)
  pthread_t *workers;
  pthread_mutex_t mutex;
  pthread_cond_t work_available;
  pthread_cond_t work_done;
  // Changed under the mutex; read without it only while spinning.
  _Atomic uint64_t generation;
  _Atomic int shutdown;
  // Guarded by the mutex.
  int32_t busy;
  int32_t sleeping;
  loop current;
  // Chunks of `current` handed out so far.
  _Atomic int64_t next_chunk;
};

/// Set on workers, and on the caller while it runs chunks: a parallel_for from there is nested.
static _Thread_local int inside_loop;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __asm__ volatile("pause");
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

static void run_chunks(const loop *work, _Atomic int64_t *next_chunk) {
  for (;;) {
    int64_t chunk = atomic_fetch_add_explicit(next_chunk, 1, memory_order_relaxed);
    if (chunk >= work->num_chunks)
      return;
    int64_t begin = chunk * work->chunk_size;
    int64_t end = work->count - begin < work->chunk_size ? work->count : begin + work->chunk_size;
    work->body(work->arg, begin, end);
  }
}

static void *worker_main(void *argument) {
  tcc_thread_pool *pool = argument;
  inside_loop = 1;
  // Generations count from 0 at creation: a worker that starts after the first loop was
  // posted must still see it as new.
  uint64_t seen = 0;
  pthread_mutex_lock(&pool->mutex);
  for (;;) {
    pthread_mutex_unlock(&pool->mutex);
    for (int i = 0; i < SPIN_ITERATIONS; ++i) {
      if (atomic_load_explicit(&pool->generation, memory_order_relaxed) != seen ||
          atomic_load_explicit(&pool->shutdown, memory_order_relaxed))
        break;
      cpu_relax();
    }
    pthread_mutex_lock(&pool->mutex);
    while (!atomic_load(&pool->shutdown) && atomic_load(&pool->generation) == seen) {
      ++pool->sleeping;
      pthread_cond_wait(&pool->work_available, &pool->mutex);
      --pool->sleeping;
    }
    if (atomic_load(&pool->shutdown))
      break;
    seen = atomic_load(&pool->generation);
    loop work = pool->current;
    ++pool->busy;
    pthread_mutex_unlock(&pool->mutex);

    run_chunks(&work, &pool->next_chunk);

    pthread_mutex_lock(&pool->mutex);
    if (--pool->busy == 0)
      pthread_cond_signal(&pool->work_done);
  }
  pthread_mutex_unlock(&pool->mutex);
  return NULL;
}

int32_t tcc_available_cores(void) {
#if defined(__linux__) && defined(CPU_COUNT)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0)
      return count > TCC_MAX_THREADS ? TCC_MAX_THREADS : count;
  }
#endif
  long count = sysconf(_SC_NPROCESSORS_ONLN);
  if (count < 1)
    return 1;
  return count > TCC_MAX_THREADS ? TCC_MAX_THREADS : (int32_t)count;
}

tcc_status tcc_thread_pool_create(int32_t num_threads, tcc_thread_pool **out_pool) {
  if (num_threads < 1 || num_threads > TCC_MAX_THREADS)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "tcc_session_create: num_threads is %d, expected 1 to %d",
                           (int)num_threads, TCC_MAX_THREADS);
  tcc_thread_pool *pool = calloc(1, sizeof(*pool));
  pthread_t *workers = num_threads > 1 ? calloc((size_t)num_threads - 1, sizeof(pthread_t)) : NULL;
  if (!pool || (num_threads > 1 && !workers)) {
    free(pool);
    free(workers);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "tcc_session_create: out of memory for a pool of %d threads",
                           (int)num_threads);
  }
  pool->num_threads = num_threads;
  pool->workers = workers;
  pthread_mutex_init(&pool->mutex, NULL);
  pthread_cond_init(&pool->work_available, NULL);
  pthread_cond_init(&pool->work_done, NULL);
  atomic_init(&pool->generation, 0);
  atomic_init(&pool->shutdown, 0);
  atomic_init(&pool->next_chunk, 0);
  for (int32_t i = 0; i + 1 < num_threads; ++i) {
    int error = pthread_create(&pool->workers[i], NULL, worker_main, pool);
    if (error != 0) {
      tcc_thread_pool_destroy(pool);
      return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                             "tcc_session_create: cannot start worker thread %d of %d: %s",
                             (int)i + 1, (int)num_threads - 1, strerror(error));
    }
    pool->num_workers = i + 1;
  }
  *out_pool = pool;
  return NULL;
}

void tcc_thread_pool_destroy(tcc_thread_pool *pool) {
  if (!pool)
    return;
  pthread_mutex_lock(&pool->mutex);
  atomic_store(&pool->shutdown, 1);
  pthread_cond_broadcast(&pool->work_available);
  pthread_mutex_unlock(&pool->mutex);
  for (int32_t i = 0; i < pool->num_workers; ++i)
    pthread_join(pool->workers[i], NULL);
  pthread_cond_destroy(&pool->work_done);
  pthread_cond_destroy(&pool->work_available);
  pthread_mutex_destroy(&pool->mutex);
  free(pool->workers);
  free(pool);
}

int32_t tcc_thread_pool_num_threads(const tcc_thread_pool *pool) {
  return pool ? pool->num_threads : 1;
}

void tcc_thread_pool_parallel_for(tcc_thread_pool *pool, int64_t count, loop_body body,
                                  void *arg) {
  if (count <= 0 || !body)
    return;
  if (!pool || pool->num_workers == 0 || count == 1 || inside_loop) {
    body(arg, 0, count);
    return;
  }
  int64_t max_chunks = (int64_t)pool->num_threads * CHUNKS_PER_THREAD;
  int64_t num_chunks = count < max_chunks ? count : max_chunks;
  int64_t chunk_size = count / num_chunks + (count % num_chunks != 0);
  loop work = {body, arg, count, chunk_size, count / chunk_size + (count % chunk_size != 0)};

  pthread_mutex_lock(&pool->mutex);
  while (pool->busy > 0) // a late worker still inside the previous loop
    pthread_cond_wait(&pool->work_done, &pool->mutex);
  pool->current = work;
  atomic_store(&pool->next_chunk, 0);
  atomic_fetch_add(&pool->generation, 1);
  // Wake as many sleepers as there are chunks besides the caller's first one.
  int64_t wanted = work.num_chunks - 1;
  if (pool->sleeping > 0) {
    if (wanted >= pool->sleeping)
      pthread_cond_broadcast(&pool->work_available);
    else
      for (int64_t i = 0; i < wanted; ++i)
        pthread_cond_signal(&pool->work_available);
  }
  pthread_mutex_unlock(&pool->mutex);

  inside_loop = 1;
  run_chunks(&work, &pool->next_chunk);
  inside_loop = 0;

  pthread_mutex_lock(&pool->mutex);
  while (pool->busy > 0)
    pthread_cond_wait(&pool->work_done, &pool->mutex);
  pthread_mutex_unlock(&pool->mutex);
}
