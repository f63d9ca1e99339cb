//===- threads.c - the session's thread pool -------------------------------------------===//
//
// One loop at a time. A generation counter says which loop is open: even = open, odd =
// closed. The caller fills in the loop (body, arg, chunking) while it is closed and no worker
// is inside, opens it, takes chunks itself, waits until every chunk is done, and closes it
// again. The chunks are cut into one contiguous range per thread; thread t (the caller is 0,
// workers 1 .. num_threads - 1) takes range t's chunks first, each by an atomic increment,
// then steals from the other ranges.
//
// Workers spin on the generation for a while, then sleep on a condition variable. A worker
// that sees an open loop marks itself `active`, checks that the loop is still the one it saw
// (so it can never read a loop that is being rewritten: the caller rewrites only while closed
// and no worker is active), and takes one of the `slots` the caller offered (one per chunk
// beyond the caller's own, at most one per worker) before claiming chunks; extra workers
// leave at once. So a loop of 2 chunks on 16 threads involves 2 threads, not 16.
//
// Completion is counted in chunks: the thread that finishes the last one wakes the caller if
// it went to sleep (it spins first: most chunks are short).
//
//===------------------------------------------------------------------------------------===//
#include "status_internal.h"
#include "threads_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// How many chunks per thread a loop is cut into: more balances uneven chunks better, fewer
/// costs fewer atomic operations. A kernel's loop is often short (a convolution's 28 output
/// rows): at 4 per thread, 2 threads took 4 and 3 chunks of 4 rows (a 1.75x speed-up at
/// best); at 16, 28 chunks of one (a 128-channel 28x28 3x3 convolution on 2 threads:
/// 0.90-0.94 -> 0.85-0.88 ms, alternating runs).
#define CHUNKS_PER_THREAD 16
/// Polls before a waiting thread goes to sleep (a few tens of microseconds).
#define SPIN_ITERATIONS 4000

typedef void (*loop_body)(void *arg, int64_t begin, int64_t end);

typedef struct loop {
  loop_body body;
  void *arg;
  int64_t count;
  int64_t chunk_size;
  int64_t num_chunks;
  int32_t num_ranges; // the chunks cut into this many contiguous ranges, one per thread
} loop;

/// One thread's contiguous range of a loop's chunks, [next, end), on a cache line of its own.
typedef struct chunk_range {
  _Alignas(64) _Atomic int64_t next;
  int64_t end;
} chunk_range;

/// What a worker thread starts with: its pool and its index (1 .. num_threads - 1; the
/// caller of parallel_for is 0), which names the range of chunks it takes first.
typedef struct worker_start {
  tcc_thread_pool *pool;
  int32_t index;
} worker_start;

struct tcc_thread_pool {
  int32_t num_threads;
  int32_t num_workers; // started workers
  pthread_t *workers;
  worker_start *starts; // one per worker
  chunk_range *ranges;  // num_threads
  pthread_mutex_t mutex; // only for sleeping and waking
  pthread_cond_t work_available;
  pthread_cond_t work_done;

  _Atomic uint64_t generation; // even: `current` is open; odd: closed
  _Atomic int shutdown;
  _Atomic int32_t sleeping;       // workers waiting on work_available
  _Atomic int32_t active;         // workers between seeing a loop and leaving it
  _Atomic int32_t slots;          // workers the open loop still wants
  _Atomic int64_t done_chunks;    // chunks of `current` finished
  _Atomic int caller_waiting;     // the caller sleeps on work_done
  loop current;                   // written only while closed with no worker active
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

/// Claims and runs chunks of `work` until none are left, first from the range of thread
/// `self`, then from the others' (in order after its own); wakes a sleeping caller after the
/// last chunk. Thread t taking range t first keeps the rows a kernel gives a thread the
/// same from one loop to the next (a convolution's output rows are the next one's input rows,
/// still in that core's cache); the stealing balances a thread that comes late.
static void run_chunks(tcc_thread_pool *pool, const loop *work, int32_t self) {
  for (int32_t k = 0; k < work->num_ranges; ++k) {
    chunk_range *range = &pool->ranges[(self + k) % work->num_ranges];
    for (;;) {
      int64_t chunk = atomic_fetch_add(&range->next, 1);
      if (chunk >= range->end)
        break;
      int64_t begin = chunk * work->chunk_size;
      int64_t end =
          work->count - begin < work->chunk_size ? work->count : begin + work->chunk_size;
      work->body(work->arg, begin, end);
      // seq_cst, paired with the caller's store of caller_waiting: one of us sees the other.
      if (atomic_fetch_add(&pool->done_chunks, 1) + 1 == work->num_chunks &&
          atomic_load(&pool->caller_waiting)) {
        pthread_mutex_lock(&pool->mutex);
        pthread_cond_signal(&pool->work_done);
        pthread_mutex_unlock(&pool->mutex);
      }
    }
  }
}

/// Waits for an open loop other than `seen`; returns its generation, or 0 at shutdown.
static uint64_t wait_for_loop(tcc_thread_pool *pool, uint64_t seen) {
  for (int i = 0; i < SPIN_ITERATIONS; ++i) {
    if (atomic_load_explicit(&pool->shutdown, memory_order_relaxed))
      return 0;
    uint64_t generation = atomic_load(&pool->generation);
    if (generation != seen && generation % 2 == 0)
      return generation;
    cpu_relax();
  }
  uint64_t generation = 0;
  pthread_mutex_lock(&pool->mutex);
  // seq_cst, paired with the caller's store of the generation: one of us sees the other.
  atomic_fetch_add(&pool->sleeping, 1);
  for (;;) {
    if (atomic_load(&pool->shutdown)) {
      generation = 0;
      break;
    }
    generation = atomic_load(&pool->generation);
    if (generation != seen && generation % 2 == 0)
      break;
    pthread_cond_wait(&pool->work_available, &pool->mutex);
  }
  atomic_fetch_sub(&pool->sleeping, 1);
  pthread_mutex_unlock(&pool->mutex);
  return generation;
}

static void *worker_main(void *argument) {
  const worker_start *start = argument;
  tcc_thread_pool *pool = start->pool;
  inside_loop = 1;
  uint64_t seen = 0;
  for (;;) {
    uint64_t generation = wait_for_loop(pool, seen);
    if (generation == 0)
      return NULL;
    seen = generation;
    atomic_fetch_add(&pool->active, 1);
    // Still the loop we saw (so `current` is stable while we are active), and wanted?
    if (atomic_load(&pool->generation) == generation && atomic_fetch_sub(&pool->slots, 1) > 0) {
      loop work = pool->current;
      run_chunks(pool, &work, start->index);
    }
    atomic_fetch_sub(&pool->active, 1);
  }
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
  worker_start *starts =
      num_threads > 1 ? calloc((size_t)num_threads - 1, sizeof(worker_start)) : NULL;
  chunk_range *ranges = aligned_alloc(_Alignof(chunk_range),
                                      (size_t)num_threads * sizeof(chunk_range));
  if (!pool || (num_threads > 1 && (!workers || !starts)) || !ranges) {
    free(pool);
    free(workers);
    free(starts);
    free(ranges);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "tcc_session_create: out of memory for a pool of %d threads",
                           (int)num_threads);
  }
  pool->num_threads = num_threads;
  pool->workers = workers;
  pool->starts = starts;
  pool->ranges = ranges;
  for (int32_t i = 0; i < num_threads; ++i) {
    atomic_init(&ranges[i].next, 0);
    ranges[i].end = 0;
  }
  pthread_mutex_init(&pool->mutex, NULL);
  pthread_cond_init(&pool->work_available, NULL);
  pthread_cond_init(&pool->work_done, NULL);
  atomic_init(&pool->generation, 1); // closed
  atomic_init(&pool->shutdown, 0);
  atomic_init(&pool->sleeping, 0);
  atomic_init(&pool->active, 0);
  atomic_init(&pool->slots, 0);
  atomic_init(&pool->done_chunks, 0);
  atomic_init(&pool->caller_waiting, 0);
  for (int32_t i = 0; i + 1 < num_threads; ++i) {
    pool->starts[i] = (worker_start){pool, i + 1};
    int error = pthread_create(&pool->workers[i], NULL, worker_main, &pool->starts[i]);
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
  free(pool->starts);
  free(pool->ranges);
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
  int64_t chunks = count / chunk_size + (count % chunk_size != 0);
  int32_t ranges = chunks < pool->num_threads ? (int32_t)chunks : pool->num_threads;
  loop work = {body, arg, count, chunk_size, chunks, ranges};

  // Workers that saw the previous loop late may still be leaving it (they touch only the
  // pool's counters); `current` may change once they are gone.
  for (int i = 0; atomic_load(&pool->active) != 0; ++i) {
    if (i < SPIN_ITERATIONS)
      cpu_relax();
    else
      sched_yield();
  }
  pool->current = work;
  // Thread r's range: chunks [r * chunks / ranges, (r + 1) * chunks / ranges).
  for (int32_t r = 0; r < ranges; ++r) {
    atomic_store(&pool->ranges[r].next, r * chunks / ranges);
    pool->ranges[r].end = (r + 1) * chunks / ranges;
  }
  atomic_store(&pool->done_chunks, 0);
  int64_t wanted = work.num_chunks - 1 < pool->num_workers ? work.num_chunks - 1
                                                             : pool->num_workers;
  atomic_store(&pool->slots, (int32_t)wanted);
  uint64_t open = atomic_load(&pool->generation) + 1;
  atomic_store(&pool->generation, open); // publishes `current`
  int32_t sleeping = atomic_load(&pool->sleeping);
  if (sleeping > 0) {
    pthread_mutex_lock(&pool->mutex);
    if (wanted >= sleeping)
      pthread_cond_broadcast(&pool->work_available);
    else
      for (int64_t i = 0; i < wanted; ++i)
        pthread_cond_signal(&pool->work_available);
    pthread_mutex_unlock(&pool->mutex);
  }

  inside_loop = 1;
  run_chunks(pool, &work, 0);
  inside_loop = 0;

  for (int i = 0; i < SPIN_ITERATIONS && atomic_load(&pool->done_chunks) < work.num_chunks; ++i)
    cpu_relax();
  if (atomic_load(&pool->done_chunks) < work.num_chunks) {
    pthread_mutex_lock(&pool->mutex);
    atomic_store(&pool->caller_waiting, 1);
    while (atomic_load(&pool->done_chunks) < work.num_chunks)
      pthread_cond_wait(&pool->work_done, &pool->mutex);
    atomic_store(&pool->caller_waiting, 0);
    pthread_mutex_unlock(&pool->mutex);
  }
  atomic_store(&pool->generation, open + 1); // closed
}
