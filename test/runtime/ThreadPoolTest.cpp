//===- ThreadPoolTest.cpp - the runtime's internal thread pool (runtime/src/threads.c) ---===//
#include "RuntimeTestUtils.h"

extern "C" {
#include "threads_internal.h"
}

#include <algorithm>
#include <atomic>
#include <numeric>
#include <vector>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

using namespace tcc_test;

namespace {
struct PoolDeleter {
  void operator()(tcc_thread_pool *pool) const { tcc_thread_pool_destroy(pool); }
};
using Pool = std::unique_ptr<tcc_thread_pool, PoolDeleter>;

Pool createPool(int32_t threads) {
  tcc_thread_pool *pool = nullptr;
  REQUIRE_OK(tcc_thread_pool_create(threads, &pool));
  return Pool(pool);
}

} // namespace

TEST_CASE("the number of available cores is positive", "[threads]") {
  CHECK(tcc_available_cores() >= 1);
  CHECK(tcc_available_cores() <= TCC_MAX_THREADS);
}

TEST_CASE("pools reject thread counts outside 1 to 1024", "[threads]") {
  tcc_thread_pool *pool = nullptr;
  requireError(tcc_thread_pool_create(0, &pool), TCC_STATUS_INVALID_ARGUMENT,
               {"num_threads is 0"});
  requireError(tcc_thread_pool_create(TCC_MAX_THREADS + 1, &pool), TCC_STATUS_INVALID_ARGUMENT,
               {"num_threads is 1025"});
  CHECK(pool == nullptr);
  tcc_thread_pool_destroy(nullptr);
  CHECK(tcc_thread_pool_num_threads(nullptr) == 1);
}

TEST_CASE("parallel_for covers every index exactly once", "[threads]") {
  for (int32_t threads : {1, 2, 3, 8}) {
    Pool pool = createPool(threads);
    CHECK(tcc_thread_pool_num_threads(pool.get()) == threads);
    for (int64_t count : {0, 1, 2, 7, 31, 1000, 100003}) {
      INFO("threads " << threads << ", count " << count);
      Coverage coverage(count);
      tcc_thread_pool_parallel_for(pool.get(), count, Coverage::body, &coverage);
      CHECK(coverage.exactlyOnce());
    }
  }
}

TEST_CASE("many loops back to back", "[threads]") {
  Pool pool = createPool(4);
  std::atomic<int64_t> total{0};
  auto body = [](void *arg, int64_t begin, int64_t end) {
    *static_cast<std::atomic<int64_t> *>(arg) += end - begin;
  };
  for (int loop = 0; loop < 20000; ++loop)
    tcc_thread_pool_parallel_for(pool.get(), 1 + loop % 17, body, &total);
  int64_t expected = 0;
  for (int loop = 0; loop < 20000; ++loop)
    expected += 1 + loop % 17;
  CHECK(total == expected);
}

TEST_CASE("negative counts and null bodies do nothing", "[threads]") {
  Pool pool = createPool(2);
  Coverage coverage(1);
  tcc_thread_pool_parallel_for(pool.get(), -5, Coverage::body, &coverage);
  tcc_thread_pool_parallel_for(pool.get(), 10, nullptr, nullptr);
  CHECK(coverage.visits[0] == 0);
}

TEST_CASE("loops are cut into chunks fine enough to balance two threads", "[threads]") {
  // A convolution's 28 output rows on 2 threads: chunks of 4 rows were 7 chunks, 4 for one
  // thread and 3 for the other (1.75x at best). Up to 16 chunks per thread, a loop of 28 is
  // 28 chunks of one; a long loop is at most 32 chunks.
  Pool pool = createPool(2);
  struct Sizes {
    std::mutex mutex;
    std::vector<int64_t> sizes;
  };
  auto body = [](void *arg, int64_t begin, int64_t end) {
    Sizes *s = static_cast<Sizes *>(arg);
    std::lock_guard<std::mutex> lock(s->mutex);
    s->sizes.push_back(end - begin);
  };
  Sizes small;
  tcc_thread_pool_parallel_for(pool.get(), 28, body, &small);
  CHECK(small.sizes.size() == 28);
  CHECK(*std::max_element(small.sizes.begin(), small.sizes.end()) == 1);
  Sizes large;
  tcc_thread_pool_parallel_for(pool.get(), 100000, body, &large);
  CHECK(large.sizes.size() <= 32);
  CHECK(std::accumulate(large.sizes.begin(), large.sizes.end(), int64_t{0}) == 100000);
}

TEST_CASE("each thread takes its own contiguous half of the chunks first", "[threads]") {
  // So a kernel's rows stay on the core that computed them in the kernel before (one shared
  // counter dealt the rows out as the threads came; docs/runtime.md has the timings). The caller runs [0, 16) in order, then helps with [16, 32); the
  // worker starts at 16, or runs nothing when the caller got there first (a thread steals
  // from another's range only after finishing its own, so by then every range is taken).
  Pool pool = createPool(2);
  struct Order {
    std::mutex mutex;
    std::thread::id caller = std::this_thread::get_id();
    std::vector<int64_t> callerChunks, workerChunks;
  };
  auto body = [](void *arg, int64_t begin, int64_t end) {
    Order *o = static_cast<Order *>(arg);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    std::lock_guard<std::mutex> lock(o->mutex);
    (std::this_thread::get_id() == o->caller ? o->callerChunks : o->workerChunks)
        .push_back(begin);
  };
  for (int repeat = 0; repeat < 5; ++repeat) {
    Order order;
    tcc_thread_pool_parallel_for(pool.get(), 32, body, &order);
    REQUIRE(order.callerChunks.size() + order.workerChunks.size() == 32);
    // The caller's chunks of its own half come first, ascending, then any of the other
    // half (whatever the timing: the worker may steal the end of the caller's half when the
    // caller is descheduled, which is why this does not ask for all of [0, 16)).
    size_t own = 0;
    while (own < order.callerChunks.size() && order.callerChunks[own] < 16)
      ++own;
    CHECK(std::is_sorted(order.callerChunks.begin(), order.callerChunks.begin() + own));
    for (size_t i = own; i < order.callerChunks.size(); ++i)
      CHECK(order.callerChunks[i] >= 16);
    // The worker's first chunk is in its own half (with one shared counter it was the one
    // after the caller's first).
    if (!order.workerChunks.empty())
      CHECK(order.workerChunks.front() >= 16);
  }
}

TEST_CASE("a pool of 4 really runs chunks on several threads", "[threads]") {
  Pool pool = createPool(4);
  struct State {
    std::mutex mutex;
    std::set<std::thread::id> ids;
  } state;
  // Each chunk waits (up to 10 s) until two threads have entered: only a pool whose workers
  // take chunks gets past this quickly.
  auto body = [](void *arg, int64_t, int64_t) {
    State *s = static_cast<State *>(arg);
    {
      std::lock_guard<std::mutex> lock(s->mutex);
      s->ids.insert(std::this_thread::get_id());
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard<std::mutex> lock(s->mutex);
        if (s->ids.size() >= 2)
          return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  tcc_thread_pool_parallel_for(pool.get(), 16, body, &state);
  CHECK(state.ids.size() >= 2);
}

namespace {
struct NestedState {
  tcc_thread_pool *pool;
  std::atomic<int64_t> inner{0};
};

void countInner(void *arg, int64_t begin, int64_t end) {
  static_cast<NestedState *>(arg)->inner += end - begin;
}

void runInnerLoops(void *arg, int64_t begin, int64_t end) {
  NestedState *state = static_cast<NestedState *>(arg);
  for (int64_t i = begin; i < end; ++i)
    tcc_thread_pool_parallel_for(state->pool, 50, countInner, state);
}
} // namespace

TEST_CASE("nested parallel_for runs inline without deadlock", "[threads]") {
  Pool pool = createPool(3);
  NestedState state;
  state.pool = pool.get();
  tcc_thread_pool_parallel_for(pool.get(), 40, runInnerLoops, &state);
  CHECK(state.inner == 40 * 50);
}
