//===- DeviceTest.cpp - the device interface and its CPU backend (runtime/src/device.h) --===//
#include "RuntimeTestUtils.h"

#include "device.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <utility>

using namespace tcc_test;

namespace {
const tcc_device *cpu() { return &tcc_cpu_device; }

struct MemoryDeleter {
  void operator()(void *memory) const { cpu()->free(cpu(), memory); }
};
/// Owns memory from the CPU device's allocate.
using Memory = std::unique_ptr<void, MemoryDeleter>;

Memory allocate(size_t bytes, size_t alignment) {
  void *memory = nullptr;
  REQUIRE_OK(cpu()->allocate(cpu(), bytes, alignment, &memory));
  REQUIRE(memory != nullptr);
  return Memory(memory);
}

struct QueueDeleter {
  void operator()(tcc_device_queue *queue) const { cpu()->destroy_queue(cpu(), queue); }
};
using Queue = std::unique_ptr<tcc_device_queue, QueueDeleter>;

Queue createQueue(int32_t threads) {
  tcc_device_queue *queue = nullptr;
  REQUIRE_OK(cpu()->create_queue(cpu(), threads, &queue));
  return Queue(queue);
}

/// Records the chunks a launch hands out and the threads that ran them.
struct Chunks : Coverage {
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> ranges;
  std::vector<std::thread::id> threads;
  explicit Chunks(int64_t count) : Coverage(count) {}

  static void body(void *arg, int64_t begin, int64_t end) {
    Chunks *chunks = static_cast<Chunks *>(arg);
    Coverage::body(static_cast<Coverage *>(chunks), begin, end);
    std::lock_guard<std::mutex> lock(chunks->mutex);
    chunks->ranges.emplace_back(begin, end);
    chunks->threads.push_back(std::this_thread::get_id());
  }

  /// Whether the chunks are non-empty, disjoint and cover [0, count) with no gap.
  bool tile(int64_t count) {
    std::sort(ranges.begin(), ranges.end());
    int64_t next = 0;
    for (const std::pair<int64_t, int64_t> &range : ranges) {
      if (range.first != next || range.second <= range.first)
        return false;
      next = range.second;
    }
    return next == count;
  }
};
} // namespace

//===------------------------------------------------------------------------------------===//
// Lookup
//===------------------------------------------------------------------------------------===//

TEST_CASE("kDLCPU finds the CPU device", "[device]") {
  const tcc_device *device = nullptr;
  REQUIRE_OK(tcc_device_for_type(kDLCPU, &device));
  CHECK(device == &tcc_cpu_device);
  CHECK(device->type == kDLCPU);
  CHECK(std::string(device->name) == "cpu");
}

TEST_CASE("device types without a backend are errors that name the type", "[device][errors]") {
  const tcc_device *device = cpu(); // stays untouched on failure
  requireError(tcc_device_for_type(kDLVPI, &device), TCC_STATUS_UNIMPLEMENTED,
               {"tcc_device_for_type: this runtime has no backend for device type 9 (VPI, "
                "kDLVPI)"});
  requireError(tcc_device_for_type(kDLCUDAHost, &device), TCC_STATUS_UNIMPLEMENTED,
               {"device type 3 (CUDA host, kDLCUDAHost)"});
  requireError(tcc_device_for_type(kDLOpenCL, &device), TCC_STATUS_UNIMPLEMENTED,
               {"device type 4 (OpenCL, kDLOpenCL)"});
  requireError(tcc_device_for_type(static_cast<DLDeviceType>(99), &device),
               TCC_STATUS_UNIMPLEMENTED, {"device type 99 (unknown, unknown)"});
  CHECK(device == cpu());
  requireError(tcc_device_for_type(kDLCPU, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_device_for_type: out_device is null"});
}

TEST_CASE("device types have names", "[device]") {
  CHECK(std::string(tcc_device_type_name(kDLCPU)) == "CPU");
  CHECK(std::string(tcc_device_type_enumerator(kDLCPU)) == "kDLCPU");
  CHECK(std::string(tcc_device_type_name(kDLCUDAHost)) == "CUDA host");
  CHECK(std::string(tcc_device_type_enumerator(kDLCUDAManaged)) == "kDLCUDAManaged");
  CHECK(std::string(tcc_device_type_name(static_cast<DLDeviceType>(16))) == "Hexagon");
  CHECK(std::string(tcc_device_type_name(static_cast<DLDeviceType>(0))) == "unknown");
}

//===------------------------------------------------------------------------------------===//
// Memory
//===------------------------------------------------------------------------------------===//

TEST_CASE("allocate returns writable memory with the requested alignment", "[device][memory]") {
  for (size_t alignment : {1, 2, 4, 8, 16, 64, 256, 4096}) {
    for (size_t bytes : {1, 3, 63, 64, 65, 1000, 100000}) {
      INFO("alignment " << alignment << ", bytes " << bytes);
      Memory memory = allocate(bytes, alignment);
      CHECK(reinterpret_cast<uintptr_t>(memory.get()) % alignment == 0);
      // Every byte is usable (AddressSanitizer builds check that none is out of bounds).
      std::memset(memory.get(), 0x5a, bytes);
      CHECK(static_cast<unsigned char *>(memory.get())[bytes - 1] == 0x5a);
    }
  }
}

TEST_CASE("allocating 0 bytes gives distinct aligned blocks", "[device][memory]") {
  Memory a = allocate(0, 64);
  Memory b = allocate(0, 64);
  CHECK(a.get() != b.get());
  CHECK(reinterpret_cast<uintptr_t>(a.get()) % 64 == 0);
  CHECK(reinterpret_cast<uintptr_t>(b.get()) % 64 == 0);
  cpu()->free(cpu(), nullptr); // a no-op
}

TEST_CASE("allocate rejects bad alignments and sizes", "[device][memory][errors]") {
  void *memory = &memory; // stays untouched on failure
  requireError(cpu()->allocate(cpu(), 64, 0, &memory), TCC_STATUS_INVALID_ARGUMENT,
               {"cpu device: allocate: alignment is 0, expected a power of two"});
  requireError(cpu()->allocate(cpu(), 64, 48, &memory), TCC_STATUS_INVALID_ARGUMENT,
               {"alignment is 48, expected a power of two"});
  requireError(cpu()->allocate(cpu(), SIZE_MAX - 10, 64, &memory),
               TCC_STATUS_RESOURCE_EXHAUSTED, {"cpu device: allocate:", "aligned to 64"});
  CHECK(memory == &memory);
  requireError(cpu()->allocate(cpu(), 64, 64, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"cpu device: allocate: out_memory is null"});
}

TEST_CASE("copy moves the bytes in every direction", "[device][memory]") {
  std::vector<unsigned char> source(1000);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<unsigned char>(i * 7 + 3);
  for (tcc_copy_kind kind :
       {TCC_COPY_HOST_TO_DEVICE, TCC_COPY_DEVICE_TO_HOST, TCC_COPY_DEVICE_TO_DEVICE}) {
    INFO("kind " << static_cast<int>(kind));
    Memory memory = allocate(source.size(), 64);
    REQUIRE_OK(cpu()->copy(cpu(), memory.get(), source.data(), source.size(), kind));
    CHECK(std::memcmp(memory.get(), source.data(), source.size()) == 0);
  }
  // The CPU's copy tolerates overlap (tcc_session_write_parameter relies on it).
  std::vector<unsigned char> overlap = source;
  REQUIRE_OK(cpu()->copy(cpu(), overlap.data() + 1, overlap.data(), 999,
                         TCC_COPY_DEVICE_TO_DEVICE));
  CHECK(overlap[0] == source[0]);
  CHECK(std::equal(overlap.begin() + 1, overlap.end(), source.begin()));
}

TEST_CASE("copy of 0 bytes does nothing and bad copies are errors", "[device][memory][errors]") {
  REQUIRE_OK(cpu()->copy(cpu(), nullptr, nullptr, 0, TCC_COPY_HOST_TO_DEVICE));
  unsigned char destination[4] = {1, 2, 3, 4};
  const unsigned char source[4] = {9, 9, 9, 9};
  requireError(cpu()->copy(cpu(), destination, nullptr, 4, TCC_COPY_DEVICE_TO_HOST),
               TCC_STATUS_INVALID_ARGUMENT, {"cpu device: copy: source is null (4 bytes)"});
  requireError(cpu()->copy(cpu(), nullptr, source, 4, TCC_COPY_DEVICE_TO_HOST),
               TCC_STATUS_INVALID_ARGUMENT, {"cpu device: copy: destination is null (4 bytes)"});
  requireError(cpu()->copy(cpu(), destination, source, 4, static_cast<tcc_copy_kind>(7)),
               TCC_STATUS_INVALID_ARGUMENT, {"cpu device: copy: the copy kind 7 is unknown"});
  CHECK(destination[0] == 1);
  CHECK(destination[3] == 4);
}

TEST_CASE("fill sets exactly the bytes it is given", "[device][memory]") {
  Memory memory = allocate(256, 64);
  unsigned char *bytes = static_cast<unsigned char *>(memory.get());
  REQUIRE_OK(cpu()->fill(cpu(), bytes, 0x00, 256));
  REQUIRE_OK(cpu()->fill(cpu(), bytes + 10, 0xab, 100));
  for (size_t i = 0; i < 256; ++i) {
    INFO("byte " << i);
    CHECK(bytes[i] == (i >= 10 && i < 110 ? 0xab : 0x00));
  }
  REQUIRE_OK(cpu()->fill(cpu(), nullptr, 0xff, 0)); // 0 bytes: nothing, not even a check
  requireError(cpu()->fill(cpu(), nullptr, 0xff, 8), TCC_STATUS_INVALID_ARGUMENT,
               {"cpu device: fill: destination is null (8 bytes)"});
}

//===------------------------------------------------------------------------------------===//
// Queues and launches
//===------------------------------------------------------------------------------------===//

TEST_CASE("launch covers each index below count exactly once in disjoint chunks",
          "[device][launch]") {
  for (int32_t threads : {1, 2, 4}) {
    Queue queue = createQueue(threads);
    for (int64_t count : {1, 2, 7, 31, 1000, 100003}) {
      INFO("threads " << threads << ", count " << count);
      Chunks chunks(count);
      REQUIRE_OK(cpu()->launch(cpu(), queue.get(), count, Chunks::body, &chunks));
      REQUIRE_OK(cpu()->synchronize(cpu(), queue.get()));
      CHECK(chunks.exactlyOnce());
      CHECK(chunks.tile(count));
      if (threads == 1) {
        // One thread: one chunk, on the caller's thread.
        CHECK(chunks.ranges.size() == 1);
        CHECK(chunks.threads[0] == std::this_thread::get_id());
      } else if (count >= 1000) {
        CHECK(chunks.ranges.size() > 1);
      }
    }
  }
}

TEST_CASE("a launch without a queue runs on the caller's thread", "[device][launch]") {
  Chunks chunks(50);
  REQUIRE_OK(cpu()->launch(cpu(), nullptr, 50, Chunks::body, &chunks));
  CHECK(chunks.exactlyOnce());
  REQUIRE(chunks.ranges.size() == 1);
  CHECK(chunks.ranges[0] == std::pair<int64_t, int64_t>(0, 50));
  CHECK(chunks.threads[0] == std::this_thread::get_id());
}

TEST_CASE("a launch of 0 runs nothing and bad launches are errors", "[device][launch][errors]") {
  Queue queue = createQueue(3);
  Chunks chunks(1);
  REQUIRE_OK(cpu()->launch(cpu(), queue.get(), 0, Chunks::body, &chunks));
  REQUIRE_OK(cpu()->launch(cpu(), nullptr, 0, Chunks::body, &chunks));
  requireError(cpu()->launch(cpu(), queue.get(), -5, Chunks::body, &chunks),
               TCC_STATUS_INVALID_ARGUMENT, {"cpu device: launch: count is -5, expected >= 0"});
  requireError(cpu()->launch(cpu(), queue.get(), 10, nullptr, nullptr),
               TCC_STATUS_INVALID_ARGUMENT, {"cpu device: launch: body is null"});
  CHECK(chunks.ranges.empty());
  CHECK(chunks.visits[0] == 0);
}

TEST_CASE("queues take 1 to 1024 threads", "[device][launch][errors]") {
  tcc_device_queue *queue = nullptr;
  requireError(cpu()->create_queue(cpu(), 0, &queue), TCC_STATUS_INVALID_ARGUMENT,
               {"num_threads is 0, expected 1 to 1024"});
  requireError(cpu()->create_queue(cpu(), 1025, &queue), TCC_STATUS_INVALID_ARGUMENT,
               {"num_threads is 1025"});
  CHECK(queue == nullptr);
  requireError(cpu()->create_queue(cpu(), 2, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"cpu device: create_queue: out_queue is null"});
  cpu()->destroy_queue(cpu(), nullptr); // a no-op
}

//===------------------------------------------------------------------------------------===//
// Sessions on the CPU device
//===------------------------------------------------------------------------------------===//

TEST_CASE("sessions of the add fixture run on the CPU device", "[device][session]") {
  Model model = loadModel("add");
  for (int32_t threads : {1, 3}) {
    INFO("threads " << threads);
    Session session = createSession(model.get(), threads);
    for (int run = 0; run < 3; ++run) {
      AddTensors t(5);
      REQUIRE_OK(t.run(session.get()));
      for (size_t i = 0; i < t.y.data.size(); ++i)
        CHECK(t.y.data[i] == 11.0f * static_cast<float>(i));
    }
    tcc_session_stats stats = TCC_SESSION_STATS_INIT;
    REQUIRE_OK(tcc_session_get_stats(session.get(), &stats));
    CHECK(stats.runs == 3);
    CHECK(stats.workspace_allocations == 1); // allocated by the device once, then reused
    CHECK(stats.workspace_bytes == 128); // 5 x 4 floats, 80 bytes, in 64-byte units
  }
}

TEST_CASE("a tensor on another device is named with the expected and the given device",
          "[device][session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(2);
  t.y.dl.device = DLDevice{kDLVPI, 0};
  requireError(t.run(session.get()), TCC_STATUS_UNIMPLEMENTED,
               {"tcc_session_run: output 0 'y' is on device type 9 (VPI); only CPU tensors "
                "(kDLCPU) are supported"});
  t.y.dl.device = DLDevice{static_cast<DLDeviceType>(77), 0};
  requireError(t.run(session.get()), TCC_STATUS_UNIMPLEMENTED,
               {"output 0 'y' is on device type 77 (unknown); only CPU tensors (kDLCPU)"});
  t.y.dl.device = DLDevice{kDLCPU, 0};
  REQUIRE_OK(t.run(session.get()));
}
