//===- SessionGraphTest.cpp - sessions that record device models' runs and replay them --===//
//
// Runs everywhere: the add_cuda fixture runs on a test double of a GPU backend whose "device
// memory" is host memory and whose kernels (add_cuda's two) run on the host, and which
// records launches into graphs as device.h says. It checks what the session does with graphs
// (when it records, replays, records again, and falls back to normal runs) without a GPU; the
// CUDA backend's own graphs are tested in CudaDeviceTest.cpp where there is one.
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"

#include "device.h"
#include "session_internal.h"
extern "C" {
#include "status_internal.h"
}

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <limits>
#include <string>
#include <vector>

using namespace tcc_test;

namespace {

/// One kernel launch of add_cuda: the kernel and its three 8-byte arguments, read at launch.
struct Launch {
  int32_t kernel;
  int64_t grid;
  int32_t block;
  uint64_t args[3];
};

/// What the test device does, and the failures it is told to have.
struct FakeState {
  int kernelsRun = 0;       // kernels run, launched alone or in a graph
  int launchesRecorded = 0; // launch_kernel calls while recording
  int graphsMade = 0;
  int graphsLive = 0;
  int graphLaunches = 0;
  int misuses = 0; // copies, fills, allocations or waits while a queue records, and graphs
                   // still alive when their module is unloaded
  bool recording = false;
  bool failBegin = false, failEnd = false, failLaunchGraph = false, failRecordedLaunch = false;
  bool positive = false; // the kernels are positive_cuda's, not add_cuda's
  int failKernel = -1;   // launch_kernel of this kernel fails
  int synchronizes = 0;
  int modulesLoaded = 0;
  double clockMs = 0; // each kernel run takes 0.5 ms of it
  int marksLive = 0;
};
FakeState fake;

struct tcc_fake_queue {
  std::vector<Launch> recorded;
};
struct tcc_fake_graph {
  std::vector<Launch> launches;
};

tcc_status fakeFailure(const char *what) {
  return tcc_make_status(TCC_STATUS_INTERNAL, "fake device: %s failed on purpose", what);
}

void runKernel(const Launch &launch) {
  fake.kernelsRun++;
  fake.clockMs += 0.5;
  if (fake.positive) { // count_kernel(x, n, count), compact_kernel(x, n, y): one thread each
    const float *x = reinterpret_cast<const float *>(launch.args[0]);
    int64_t n = static_cast<int64_t>(launch.args[1]);
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i)
      if (x[i] > 0.0f) {
        if (launch.kernel == 1)
          reinterpret_cast<float *>(launch.args[2])[count] = x[i];
        ++count;
      }
    if (launch.kernel == 0)
      *reinterpret_cast<int64_t *>(launch.args[2]) = count;
    return;
  }
  int64_t threads = launch.grid * launch.block;
  if (launch.kernel == 0) { // add_kernel(x, y, n)
    const float *x = reinterpret_cast<const float *>(launch.args[0]);
    float *y = reinterpret_cast<float *>(launch.args[1]);
    int64_t n = static_cast<int64_t>(launch.args[2]);
    for (int64_t i = 0; i < n && i < threads; ++i)
      y[i] = x[i] + x[i];
  } else { // check_kernel(x, n, status)
    const float *x = reinterpret_cast<const float *>(launch.args[0]);
    int64_t n = static_cast<int64_t>(launch.args[1]);
    int32_t *status = reinterpret_cast<int32_t *>(launch.args[2]);
    for (int64_t i = 0; i < n && i < threads; ++i)
      if (std::isnan(x[i]))
        *status = 1;
  }
}

tcc_status fakeAllocate(const tcc_device *, size_t bytes, size_t, void **out) {
  fake.misuses += fake.recording;
  *out = std::calloc(1, bytes ? bytes : 1);
  return nullptr;
}
void fakeFree(const tcc_device *, void *memory) { std::free(memory); }
tcc_status fakeCopy(const tcc_device *, void *destination, const void *source, size_t bytes,
                    tcc_copy_kind) {
  fake.misuses += fake.recording;
  if (bytes)
    std::memmove(destination, source, bytes);
  return nullptr;
}
tcc_status fakeFill(const tcc_device *, void *destination, uint8_t value, size_t bytes) {
  fake.misuses += fake.recording;
  if (bytes)
    std::memset(destination, value, bytes);
  return nullptr;
}
tcc_status fakeCreateQueue(const tcc_device *, int32_t, tcc_device_queue **out) {
  *out = reinterpret_cast<tcc_device_queue *>(new tcc_fake_queue);
  return nullptr;
}
void fakeDestroyQueue(const tcc_device *, tcc_device_queue *queue) {
  delete reinterpret_cast<tcc_fake_queue *>(queue);
}
tcc_status fakeLaunch(const tcc_device *, tcc_device_queue *, int64_t count, tcc_loop_body body,
                      void *arg) {
  if (count > 0)
    body(arg, 0, count);
  return nullptr;
}
tcc_status fakeSynchronize(const tcc_device *, tcc_device_queue *) {
  fake.misuses += fake.recording;
  fake.synchronizes++;
  return nullptr;
}
tcc_status fakeLoadModule(const tcc_device *, const tcc_model_descriptor *,
                          tcc_device_module **out) {
  fake.modulesLoaded++;
  static int module;
  *out = reinterpret_cast<tcc_device_module *>(&module);
  return nullptr;
}
void fakeUnloadModule(const tcc_device *, tcc_device_module *) {
  fake.misuses += fake.graphsLive != 0;
}
tcc_status fakeLaunchKernel(const tcc_device *, tcc_device_queue *queue, tcc_device_module *,
                            int32_t kernel, int64_t grid, int32_t block, int32_t, void **args) {
  if (kernel < 0 || kernel > 1 || grid < 1)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "fake device: bad launch of kernel %d",
                           (int)kernel);
  if (kernel == fake.failKernel)
    return fakeFailure("a kernel launch");
  Launch launch{kernel, grid, block, {}};
  for (int k = 0; k < 3; ++k)
    std::memcpy(&launch.args[k], args[k], sizeof(uint64_t));
  if (!fake.recording) {
    runKernel(launch);
    return nullptr;
  }
  if (fake.failRecordedLaunch)
    return fakeFailure("a launch while recording");
  fake.launchesRecorded++;
  reinterpret_cast<tcc_fake_queue *>(queue)->recorded.push_back(launch);
  return nullptr;
}
tcc_status fakeBeginCapture(const tcc_device *, tcc_device_queue *queue) {
  if (fake.failBegin)
    return fakeFailure("begin_capture");
  fake.recording = true;
  reinterpret_cast<tcc_fake_queue *>(queue)->recorded.clear();
  return nullptr;
}
tcc_status fakeEndCapture(const tcc_device *, tcc_device_queue *queue, tcc_device_graph **out) {
  fake.recording = false;
  if (fake.failEnd)
    return fakeFailure("end_capture");
  auto *graph = new tcc_fake_graph{reinterpret_cast<tcc_fake_queue *>(queue)->recorded};
  fake.graphsMade++;
  fake.graphsLive++;
  *out = reinterpret_cast<tcc_device_graph *>(graph);
  return nullptr;
}
tcc_status fakeLaunchGraph(const tcc_device *, tcc_device_queue *, tcc_device_graph *graph) {
  if (fake.failLaunchGraph) {
    // As if part of it had run before the failure: the status word says a check failed.
    for (const Launch &launch : reinterpret_cast<tcc_fake_graph *>(graph)->launches)
      if (launch.kernel == 1)
        *reinterpret_cast<int32_t *>(launch.args[2]) = 1;
    return fakeFailure("launch_graph");
  }
  fake.graphLaunches++;
  for (const Launch &launch : reinterpret_cast<tcc_fake_graph *>(graph)->launches)
    runKernel(launch);
  return nullptr;
}
void fakeDestroyGraph(const tcc_device *, tcc_device_graph *graph) {
  if (!graph)
    return;
  fake.graphsLive--;
  delete reinterpret_cast<tcc_fake_graph *>(graph);
}

struct FakeMark {
  double ms = -1; // when it was placed; -1: never
};
tcc_status fakeCreateMark(const tcc_device *, tcc_device_mark **out) {
  fake.marksLive++;
  *out = reinterpret_cast<tcc_device_mark *>(new FakeMark);
  return nullptr;
}
tcc_status fakeRecordMark(const tcc_device *, tcc_device_queue *, tcc_device_mark *mark) {
  fake.misuses += fake.recording;
  reinterpret_cast<FakeMark *>(mark)->ms = fake.clockMs;
  return nullptr;
}
tcc_status fakeMarkElapsed(const tcc_device *, tcc_device_mark *begin, tcc_device_mark *end,
                           float *out) {
  auto *b = reinterpret_cast<FakeMark *>(begin), *e = reinterpret_cast<FakeMark *>(end);
  if (b->ms < 0 || e->ms < 0)
    return fakeFailure("mark_elapsed of a mark never placed");
  *out = static_cast<float>(e->ms - b->ms);
  return nullptr;
}
void fakeDestroyMark(const tcc_device *, tcc_device_mark *mark) {
  if (!mark)
    return;
  fake.marksLive--;
  delete reinterpret_cast<FakeMark *>(mark);
}

tcc_device makeFakeDevice() {
  tcc_device device{};
  device.type = kDLCUDA; // as add_cuda's: its tensors pass the model's checks
  device.name = "fake";
  device.allocate = fakeAllocate;
  device.free = fakeFree;
  device.copy = fakeCopy;
  device.fill = fakeFill;
  device.create_queue = fakeCreateQueue;
  device.destroy_queue = fakeDestroyQueue;
  device.launch = fakeLaunch;
  device.synchronize = fakeSynchronize;
  device.load_module = fakeLoadModule;
  device.unload_module = fakeUnloadModule;
  device.launch_kernel = fakeLaunchKernel;
  device.begin_capture = fakeBeginCapture;
  device.end_capture = fakeEndCapture;
  device.launch_graph = fakeLaunchGraph;
  device.destroy_graph = fakeDestroyGraph;
  device.create_mark = fakeCreateMark;
  device.record_mark = fakeRecordMark;
  device.mark_elapsed = fakeMarkElapsed;
  device.destroy_mark = fakeDestroyMark;
  return device;
}
const tcc_device kFakeDevice = makeFakeDevice();

/// The test device without marks: profiles wait for each kernel.
tcc_device withoutMarks() {
  tcc_device device = makeFakeDevice();
  device.create_mark = nullptr;
  device.record_mark = nullptr;
  device.mark_elapsed = nullptr;
  device.destroy_mark = nullptr;
  return device;
}

/// The test device without the graph members: it records nothing.
tcc_device withoutGraphs() {
  tcc_device device = makeFakeDevice();
  device.begin_capture = nullptr;
  device.end_capture = nullptr;
  device.launch_graph = nullptr;
  device.destroy_graph = nullptr;
  return device;
}

/// The add_cuda fixture's descriptor, to copy and change (its library stays loaded).
const tcc_model_descriptor &addCuda() { return fixtureDescriptor("add_cuda"); }

/// The positive_cuda fixture's descriptor (its library stays loaded).
const tcc_model_descriptor &positiveCuda() { return fixtureDescriptor("positive_cuda"); }

/// A session of `descriptor` on `device`, with the test device's state reset.
struct FakeSession {
  Model model;
  Session session;
  explicit FakeSession(const tcc_model_descriptor &descriptor,
                       const tcc_device *device = &kFakeDevice, uint32_t flags = 0) {
    fake = FakeState();
    tcc_model *raw = nullptr;
    REQUIRE_OK(tcc_model_create_from_descriptor(&descriptor, nullptr, &raw));
    model.reset(raw);
    tcc_session *created = nullptr;
    tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
    options.flags = flags;
    REQUIRE_OK(tcc_session_create_on(model.get(), &options, device, &created));
    session.reset(created);
  }
  tcc_session *get() { return session.get(); }
  uint64_t captures() { return tcc_session_graph_captures(session.get()); }
  uint64_t replays() { return tcc_session_graph_replays(session.get()); }
  std::string fallback() {
    const char *reason = tcc_session_graph_fallback(session.get());
    return reason ? reason : "";
  }
};

/// Float32 [n] tensors for add_cuda, on the CPU or (kDLCUDA) in the test device's memory,
/// which is host memory.
struct Tensors {
  HostTensor<float> x, y;
  Tensors(int64_t n, bool onDevice) : x({n}, kFloat32), y({n}, kFloat32) {
    set(0.0f);
    if (onDevice) {
      x.dl.device = DLDevice{kDLCUDA, tcc_cuda_device.device_id(&tcc_cuda_device)};
      y.dl.device = x.dl.device;
    }
  }
  /// New values in x, and y cleared, at the same addresses.
  void set(float offset) {
    for (size_t i = 0; i < x.data.size(); ++i)
      x.data[i] = 0.5f * static_cast<float>(i) + offset;
    std::fill(y.data.begin(), y.data.end(), -7.0f);
  }
  tcc_status run(tcc_session *session) {
    const DLTensor *inputs[] = {x.get()};
    const DLTensor *outputs[] = {y.get()};
    return tcc_session_run(session, inputs, 1, outputs, 1);
  }
  bool doubled() const {
    for (size_t i = 0; i < x.data.size(); ++i)
      if (y.data[i] != 2.0f * x.data[i])
        return false;
    return true;
  }
};

int64_t workspaceOfN(const int64_t *symbols) { return symbols[0] * 4; }

/// add_cuda's run, which then rejects its arguments: the kernels are queued, the run fails.
int32_t runThenRefuse(const tcc_import_table *imports, const int64_t *symbols, void *const *inputs,
                      void *const *outputs, void *workspace) {
  int32_t code = addCuda().run(imports, symbols, inputs, outputs, workspace);
  imports->report_error(imports->context, "refused after queueing");
  return code == TCC_RUN_OK ? TCC_RUN_BAD_ARGUMENT : code;
}
} // namespace

TEST_CASE("a device model's first run is recorded and later runs replay it", "[graph]") {
  for (bool onDevice : {false, true}) {
    INFO((onDevice ? "device" : "CPU") << " tensors");
    FakeSession s(addCuda());
    Tensors t(1000, onDevice);
    for (int run = 0; run < 4; ++run) {
      INFO("run " << run);
      t.set(static_cast<float>(run));
      REQUIRE_OK(t.run(s.get()));
      CHECK(t.doubled());
    }
    CHECK(s.fallback().empty());
    CHECK(s.captures() == 1);
    CHECK(s.replays() == 3);
    CHECK(fake.launchesRecorded == 2); // the model's run was called once, recorded
    CHECK(fake.graphLaunches == 4);    // after recording, then 3 replays
    CHECK(fake.kernelsRun == 8);       // nothing ran but the graph's kernels
    CHECK(fake.misuses == 0);
    tcc_session_stats stats = TCC_SESSION_STATS_INIT;
    REQUIRE_OK(tcc_session_get_stats(s.get(), &stats));
    CHECK(stats.runs == 4);
  }
}

TEST_CASE("a new shape, new tensor addresses or a new workspace record the run again", "[graph]") {
  tcc_model_descriptor d = addCuda();
  d.workspace_size = workspaceOfN; // the workspace grows with n
  FakeSession s(d);
  Tensors a(100, true);
  Tensors b(100, true);
  auto run = [&](Tensors &t) {
    t.set(static_cast<float>(fake.kernelsRun));
    REQUIRE_OK(t.run(s.get()));
    CHECK(t.doubled());
  };
  run(a);
  run(a);
  CHECK(s.captures() == 1);
  CHECK(s.replays() == 1);
  run(b); // other addresses
  run(b);
  CHECK(s.captures() == 2);
  CHECK(s.replays() == 2);
  // Another output alone.
  std::swap(a.y.data, b.y.data);
  a.y.dl.data = a.y.data.data();
  b.y.dl.data = b.y.data.data();
  run(a);
  CHECK(s.captures() == 3);
  // A smaller n: the same workspace, another symbol value.
  Tensors small(50, true);
  run(small);
  run(small);
  CHECK(s.captures() == 4);
  CHECK(s.replays() == 3);
  // A larger n: the workspace is allocated again.
  Tensors large(5000, true);
  tcc_session_stats before = TCC_SESSION_STATS_INIT;
  REQUIRE_OK(tcc_session_get_stats(s.get(), &before));
  run(large);
  run(large);
  tcc_session_stats after = TCC_SESSION_STATS_INIT;
  REQUIRE_OK(tcc_session_get_stats(s.get(), &after));
  CHECK(after.workspace_allocations == before.workspace_allocations + 1);
  CHECK(s.captures() == 5);
  CHECK(s.replays() == 4);
  // The session holds one graph at a time, and frees it with itself.
  CHECK(fake.graphsLive == 1);
  s.session.reset();
  CHECK(fake.graphsLive == 0);
  CHECK(fake.misuses == 0); // the graph went before the module
}

TEST_CASE("a replayed run reports a device check, and the next starts from a zero status word",
          "[graph][errors]") {
  FakeSession s(addCuda());
  Tensors t(300, false);
  REQUIRE_OK(t.run(s.get()));
  t.x.data[7] = std::numeric_limits<float>::quiet_NaN();
  requireError(t.run(s.get()), TCC_STATUS_CHECK_FAILED,
               {"tcc_session_run: a run-time check of the model failed: add_cuda 'x': an element "
                "is NaN"});
  t.x.data[7] = 1.0f;
  REQUIRE_OK(t.run(s.get()));
  CHECK(t.doubled());
  CHECK(s.captures() == 1);
  CHECK(s.replays() == 2);
}

TEST_CASE("a device without graphs runs device models as before", "[graph]") {
  tcc_device device = withoutGraphs();
  FakeSession s(addCuda(), &device);
  Tensors t(64, false);
  REQUIRE_OK(t.run(s.get()));
  REQUIRE_OK(t.run(s.get()));
  CHECK(t.doubled());
  CHECK(s.fallback() == "the fake device records no graphs");
  CHECK(s.captures() == 0);
  CHECK(fake.kernelsRun == 4);
}

TEST_CASE("when recording or a graph launch fails, the session runs without graphs",
          "[graph][errors]") {
  struct Case {
    const char *what;
    bool FakeState::*failure;
    int failingRun; // the run at which the failure starts
    const char *reason;
  };
  const Case cases[] = {
      {"begin_capture", &FakeState::failBegin, 0, "fake device: begin_capture failed on purpose"},
      {"end_capture", &FakeState::failEnd, 0, "fake device: end_capture failed on purpose"},
      {"a launch while recording", &FakeState::failRecordedLaunch, 0,
       "fake device: a launch while recording failed on purpose"},
      {"launch_graph after recording", &FakeState::failLaunchGraph, 0,
       "fake device: launch_graph failed on purpose"},
      {"launch_graph of a replay", &FakeState::failLaunchGraph, 2,
       "fake device: launch_graph failed on purpose"},
  };
  for (const Case &c : cases) {
    INFO("case: " << c.what);
    FakeSession s(addCuda());
    Tensors t(500, false);
    for (int run = 0; run < 4; ++run) {
      INFO("run " << run);
      fake.*c.failure = run >= c.failingRun;
      t.set(static_cast<float>(run));
      REQUIRE_OK(t.run(s.get()));
      CHECK(t.doubled());
    }
    // A failed graph launch left the status word set (fakeLaunchGraph): the session zeroed it
    // again for the normal run, or the runs above would have failed their check.
    CHECK(s.fallback() == c.reason);
    CHECK(fake.graphsLive == 0);
    CHECK(fake.misuses == 0);
    // Runs after the failure call the model's run: no more recording.
    CHECK(s.replays() == static_cast<uint64_t>(c.failingRun > 0 ? c.failingRun - 1 : 0));
  }
}

TEST_CASE("a model whose recorded run fails is run again without recording", "[graph][errors]") {
  tcc_model_descriptor d = addCuda();
  d.run = runThenRefuse;
  FakeSession s(d);
  Tensors t(200, true);
  for (int run = 0; run < 2; ++run) {
    t.set(static_cast<float>(run));
    requireError(t.run(s.get()), TCC_STATUS_INVALID_ARGUMENT,
                 {"tcc_session_run: the model rejected its arguments: refused after queueing"});
    CHECK(t.doubled()); // its kernels ran as they would have without graphs
  }
  CHECK(s.fallback().empty()); // not a failure of the graphs
  CHECK(s.captures() == 0);
  CHECK(fake.graphsLive == 0);
}

TEST_CASE("a model that reads device memory midway runs without graphs and reports its extents",
          "[graph][reads]") {
  for (bool onDevice : {false, true}) {
    INFO((onDevice ? "device" : "CPU") << " tensors");
    FakeSession s(positiveCuda());
    fake.positive = true;
    Tensors t(100, onDevice);
    for (int run = 0; run < 3; ++run) {
      INFO("run " << run);
      t.set(-10.0f * static_cast<float>(run) + 5.0f); // x[i] = i / 2 + 5, -5, -15
      std::vector<float> expected;
      for (float v : t.x.data)
        if (v > 0.0f)
          expected.push_back(v);
      REQUIRE_OK(t.run(s.get()));
      int64_t extent = -1;
      REQUIRE_OK(tcc_session_output_shape(s.get(), 0, &extent));
      CHECK(extent == static_cast<int64_t>(expected.size()));
      CHECK(std::vector<float>(t.y.data.begin(), t.y.data.begin() + extent) == expected);
    }
    CHECK(s.captures() == 0);
    CHECK(s.replays() == 0);
    CHECK(s.fallback() == "the model reads device memory during its runs (a data-dependent "
                          "extent or condition), so they cannot be replayed");
    CHECK(fake.kernelsRun == 6);
    CHECK(fake.synchronizes >= 6); // each read waits, and so does each run's end
    CHECK(fake.misuses == 0);
  }
}

TEST_CASE("a device read after a failed launch gives zero and the run fails with the launch's "
          "error",
          "[graph][reads][errors]") {
  FakeSession s(positiveCuda());
  fake.positive = true;
  fake.failKernel = 0;
  Tensors t(10, false);
  requireError(t.run(s.get()), TCC_STATUS_INTERNAL,
               {"tcc_session_run: fake device: a kernel launch failed on purpose"});
  CHECK(fake.kernelsRun == 1);   // compact_kernel ran, with a count of 0
  CHECK(fake.synchronizes == 1); // the read did not wait; the end of the run did
  fake.failKernel = -1;
  REQUIRE_OK(t.run(s.get()));
  int64_t extent = -1;
  REQUIRE_OK(tcc_session_output_shape(s.get(), 0, &extent));
  CHECK(extent == 9); // x[i] = i / 2: all but x[0]
}

TEST_CASE("data-dependent outputs of device models need TCC_MODEL_READS_DEVICE, which CPU "
          "models cannot have",
          "[graph][reads][errors]") {
  tcc_model_descriptor d = positiveCuda();
  d.flags = 0;
  tcc_model *model = nullptr;
  requireError(tcc_model_create_from_descriptor(&d, nullptr, &model), TCC_STATUS_INVALID_MODEL,
               {"a device model with data-dependent output dims must read them from device "
                "memory (TCC_MODEL_READS_DEVICE), but output 0 'y' dim 0 is data-dependent and "
                "the flag is not set"});
  d = positiveCuda();
  d.device_type = kDLCPU;
  d.num_device_images = 0;
  d.device_images = nullptr;
  d.num_device_kernels = 0;
  d.device_kernel_names = nullptr;
  requireError(tcc_model_create_from_descriptor(&d, nullptr, &model), TCC_STATUS_INVALID_MODEL,
               {"a CPU model has the flag TCC_MODEL_READS_DEVICE, which only device models may "
                "have"});
}

/// A device model's run with nothing to compute (its outputs are empty).
int32_t runNothing(const tcc_import_table *, const int64_t *, void *const *, void *const *,
                   void *) {
  return TCC_RUN_OK;
}

TEST_CASE("a device model without kernels loads no module and runs", "[graph]") {
  tcc_model_descriptor d = addCuda();
  d.num_device_images = 0;
  d.device_images = nullptr;
  d.num_device_kernels = 0;
  d.device_kernel_names = nullptr;
  d.num_device_check_messages = 0;
  d.device_check_messages = nullptr;
  d.run = runNothing;
  FakeSession s(d); // add_cuda's tensors, which this run leaves alone
  Tensors t(5, true);
  REQUIRE_OK(t.run(s.get()));
  REQUIRE_OK(t.run(s.get()));
  CHECK(fake.modulesLoaded == 0);
  CHECK(fake.kernelsRun == 0);
  CHECK(fake.misuses == 0);
}

TEST_CASE("a device whose kernels index in 32 bits refuses extents of 2^31 and more",
          "[graph][errors]") {
  // The fake device as Vulkan's and Metal's: 32-bit indices. add_cuda with an unbounded n.
  static const tcc_device narrow = [] {
    tcc_device device = makeFakeDevice();
    device.index_bits = 32;
    return device;
  }();
  tcc_model_descriptor d = addCuda();
  static tcc_symbol_desc unbounded;
  unbounded = d.symbols[0];
  unbounded.max = -1;
  d.symbols = &unbounded;
  int64_t (*workspace)(const int64_t *) = [](const int64_t *symbols) {
    return symbols[0] <= 8 ? (int64_t)64 : (int64_t)1 << 31;
  };
  d.workspace_size = workspace;
  FakeSession session(d, &narrow);
  Tensors small(8, false);
  REQUIRE_OK(small.run(session.get()));
  CHECK(small.doubled());
  // Tensors whose shapes say 2^31 elements: refused before anything is read or allocated
  // (their data are a float each: the check must come first).
  float one[2] = {};
  for (int64_t n : {(int64_t)1 << 31, ((int64_t)1 << 31) + 5, (int64_t)1 << 40}) {
    int64_t shape[] = {n};
    DLTensor x{&one[0], DLDevice{kDLCPU, 0}, 1, kFloat32, shape, nullptr, 0};
    DLTensor y = x;
    y.data = &one[1]; // (the two overlap by their shapes, checked after the extents)
    const DLTensor *inputs[] = {&x};
    const DLTensor *outputs[] = {&y};
    requireError(tcc_session_run(session.get(), inputs, 1, outputs, 1), TCC_STATUS_OUT_OF_RANGE,
                 {"tcc_session_run: symbol 'n' is ", "; the fake device's kernels index in 32 "
                                                     "bits (extents below 2^31)"});
  }
  // A workspace of 2 GiB for n = 9.
  Tensors nine(9, false);
  requireError(nine.run(session.get()), TCC_STATUS_OUT_OF_RANGE,
               {"tcc_session_run: the model needs 2147483648 bytes of workspace for these "
                "shapes; the fake device's kernels index in 32 bits (less than 2 GiB of "
                "workspace)"});
  // After them, a run that fits runs.
  REQUIRE_OK(small.run(session.get()));
}

TEST_CASE("a profiling device session times each launch between marks and records no graph",
          "[graph][profile]") {
  static const char *const nodes[] = {"add", "check"};
  tcc_model_descriptor d = addCuda();
  d.num_kernels = d.num_device_kernels;
  d.kernel_names = d.device_kernel_names;
  d.kernel_nodes = nodes;
  {
    FakeSession s(d, &kFakeDevice, TCC_SESSION_FLAG_PROFILE);
    Tensors t(8, /*onDevice=*/true);
    for (int run = 0; run < 3; ++run)
      REQUIRE_OK(t.run(s.get()));
    CHECK(t.doubled());
    CHECK(s.captures() == 0);
    CHECK(s.fallback() == "the session profiles its kernels (each launch is timed)");
    REQUIRE(tcc_session_num_kernels(s.get()) == 2);
    int64_t launches = 0;
    for (int32_t k = 0; k < 2; ++k) {
      tcc_kernel_profile p = TCC_KERNEL_PROFILE_INIT;
      REQUIRE_OK(tcc_session_kernel_profile(s.get(), k, &p));
      CHECK(std::string(p.nodes) == nodes[k]);
      // Each launch took 0.5 ms of the test device's clock, measured between its marks.
      CHECK(p.nanoseconds == p.launches * 500000u);
      launches += static_cast<int64_t>(p.launches);
    }
    CHECK(launches == fake.kernelsRun);
    CHECK(fake.misuses == 0);
    CHECK(fake.marksLive > 0);
  }
  CHECK(fake.marksLive == 0); // the session destroyed its marks

  // Without marks: each launch alone, the queue drained before and after it.
  const tcc_device noMarks = withoutMarks();
  FakeSession s(d, &noMarks, TCC_SESSION_FLAG_PROFILE);
  Tensors t(8, /*onDevice=*/true);
  REQUIRE_OK(t.run(s.get()));
  CHECK(t.doubled());
  tcc_kernel_profile p = TCC_KERNEL_PROFILE_INIT;
  REQUIRE_OK(tcc_session_kernel_profile(s.get(), 0, &p));
  CHECK(p.launches == 1);
  CHECK(fake.synchronizes >= 2 * fake.kernelsRun);
}
