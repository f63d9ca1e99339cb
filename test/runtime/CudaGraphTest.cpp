//===- CudaGraphTest.cpp - device models' runs recorded as CUDA graphs and replayed ------===//
//
// On a GPU (a driver and a GPU that runs add_cuda's sm_80 PTX; elsewhere each case warns and
// checks nothing): the CUDA queue's capture and replay, and sessions that record a run and
// replay it while its shapes and addresses stay.
//
//===------------------------------------------------------------------------------------===//
#include "CudaTestUtils.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <thread>

using namespace tcc_test;

//===------------------------------------------------------------------------------------===//
// CUDA graphs: runs recorded once and replayed
//===------------------------------------------------------------------------------------===//

TEST_CASE("a cuda queue records kernels into a graph that replays them", "[cuda][gpu][graph]") {
  REQUIRE_GPU();
  ScopedVariable graphs("TCC_CUDA_GRAPHS", "1");
  tcc_device_module *module = nullptr;
  REQUIRE_OK(cuda()->load_module(cuda(), &addCudaDescriptor(), &module));
  tcc_device_queue *queue = nullptr;
  REQUIRE_OK(cuda()->create_queue(cuda(), 1, &queue));
  const int64_t n = 1000;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  DeviceBuffer x(bytes);
  DeviceBuffer y(bytes);
  std::vector<float> host(static_cast<size_t>(n));
  std::vector<float> back(host.size());
  REQUIRE_OK(cuda()->fill(cuda(), y.memory, 0, bytes));
  void *xAddress = x.memory;
  void *yAddress = y.memory;
  int64_t count = n;
  void *args[] = {&xAddress, &yAddress, &count};
  const int64_t grid = (n + 255) / 256;

  REQUIRE_OK(cuda()->begin_capture(cuda(), queue));
  requireError(cuda()->begin_capture(cuda(), queue), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: begin_capture: the queue is recording already"});
  REQUIRE_OK(cuda()->launch_kernel(cuda(), queue, module, 0, grid, 256, 0, args));
  // The arguments are read at the launch: changing them now changes nothing.
  count = 0;
  tcc_device_graph *graph = nullptr;
  requireError(cuda()->launch_graph(cuda(), queue, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: launch_graph: graph is null"});
  REQUIRE_OK(cuda()->end_capture(cuda(), queue, &graph));
  REQUIRE(graph != nullptr);
  tcc_device_graph *none = nullptr;
  requireError(cuda()->end_capture(cuda(), queue, &none), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: end_capture: the queue is not recording"});
  CHECK(none == nullptr);
  // Recording ran nothing.
  REQUIRE_OK(cuda()->synchronize(cuda(), queue));
  REQUIRE_OK(cuda()->copy(cuda(), back.data(), y.memory, bytes, TCC_COPY_DEVICE_TO_HOST));
  CHECK(std::all_of(back.begin(), back.end(), [](float v) { return v == 0.0f; }));

  // Each replay reads x as it is when it runs.
  for (int replay = 0; replay < 3; ++replay) {
    INFO("replay " << replay);
    for (size_t i = 0; i < host.size(); ++i)
      host[i] = static_cast<float>(i) - 100.0f * static_cast<float>(replay);
    REQUIRE_OK(cuda()->copy(cuda(), x.memory, host.data(), bytes, TCC_COPY_HOST_TO_DEVICE));
    REQUIRE_OK(cuda()->launch_graph(cuda(), queue, graph));
    REQUIRE_OK(cuda()->synchronize(cuda(), queue));
    REQUIRE_OK(cuda()->copy(cuda(), back.data(), y.memory, bytes, TCC_COPY_DEVICE_TO_HOST));
    bool doubled = true;
    for (size_t i = 0; i < host.size(); ++i)
      doubled = doubled && back[i] == 2.0f * host[i];
    CHECK(doubled);
  }
  // Another queue of the device replays it too.
  tcc_device_queue *other = nullptr;
  REQUIRE_OK(cuda()->create_queue(cuda(), 1, &other));
  REQUIRE_OK(cuda()->fill(cuda(), y.memory, 0, bytes));
  REQUIRE_OK(cuda()->launch_graph(cuda(), other, graph));
  REQUIRE_OK(cuda()->synchronize(cuda(), other));
  REQUIRE_OK(cuda()->copy(cuda(), back.data(), y.memory, bytes, TCC_COPY_DEVICE_TO_HOST));
  CHECK(back[n - 1] == 2.0f * host[n - 1]);
  cuda()->destroy_queue(cuda(), other);
  // After the recording, the queue runs its launches again.
  REQUIRE_OK(cuda()->fill(cuda(), y.memory, 0, bytes));
  count = n;
  REQUIRE_OK(cuda()->launch_kernel(cuda(), queue, module, 0, grid, 256, 0, args));
  REQUIRE_OK(cuda()->synchronize(cuda(), queue));
  REQUIRE_OK(cuda()->copy(cuda(), back.data(), y.memory, bytes, TCC_COPY_DEVICE_TO_HOST));
  CHECK(back[n - 1] == 2.0f * host[n - 1]);
  cuda()->destroy_graph(cuda(), graph);
  // A recording nobody ended is dropped with its queue.
  REQUIRE_OK(cuda()->begin_capture(cuda(), queue));
  REQUIRE_OK(cuda()->launch_kernel(cuda(), queue, module, 0, grid, 256, 0, args));
  cuda()->destroy_queue(cuda(), queue);
  cuda()->unload_module(cuda(), module);
}

TEST_CASE("add_cuda records its first run and replays it while shapes and addresses stay",
          "[cuda][gpu][session][graph]") {
  REQUIRE_GPU();
  ScopedVariable graphs("TCC_CUDA_GRAPHS", nullptr); // unset: graphs on
  Model model = loadModel("add_cuda");
  Session session = createSession(model.get(), 1);
  const int64_t n = 3000;
  AddCudaTensors t(n);
  for (int run = 0; run < 5; ++run) {
    INFO("run " << run);
    // New values at the same addresses: replays compute them.
    for (size_t i = 0; i < t.x.data.size(); ++i)
      t.x.data[i] = static_cast<float>(i) * 0.25f + static_cast<float>(run);
    std::fill(t.y.data.begin(), t.y.data.end(), -1.0f);
    REQUIRE_OK(t.run(session.get()));
    CHECK(t.doubled());
  }
  INFO("fallback: " << graphFallback(session.get()));
  CHECK(graphFallback(session.get()).empty());
  CHECK(tcc_session_graph_captures(session.get()) == 1);
  CHECK(tcc_session_graph_replays(session.get()) == 4);
  tcc_session_stats stats = TCC_SESSION_STATS_INIT;
  REQUIRE_OK(tcc_session_get_stats(session.get(), &stats));
  CHECK(stats.runs == 5); // replays count as runs

  // Another shape is recorded again (the session's buffers are big enough: same addresses).
  AddCudaTensors small(77);
  REQUIRE_OK(small.run(session.get()));
  CHECK(small.doubled());
  std::fill(small.y.data.begin(), small.y.data.end(), 0.0f);
  REQUIRE_OK(small.run(session.get()));
  CHECK(small.doubled());
  CHECK(tcc_session_graph_captures(session.get()) == 2);
  CHECK(tcc_session_graph_replays(session.get()) == 5);
  // The session keeps one graph: back to n, recorded again.
  REQUIRE_OK(t.run(session.get()));
  CHECK(t.doubled());
  CHECK(tcc_session_graph_captures(session.get()) == 3);

  // GPU tensors: their addresses are part of the key.
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  DeviceBuffer x(bytes);
  DeviceBuffer y1(bytes);
  DeviceBuffer y2(bytes);
  REQUIRE_OK(cuda()->copy(cuda(), x.memory, t.x.data.data(), bytes, TCC_COPY_HOST_TO_DEVICE));
  HostTensor<float> deviceX({n}, kFloat32);
  HostTensor<float> deviceY({n}, kFloat32);
  deviceX.dl.data = x.memory;
  deviceX.dl.device = DLDevice{kDLCUDA, cudaOrdinal()};
  deviceY.dl.device = DLDevice{kDLCUDA, cudaOrdinal()};
  const DLTensor *inputs[] = {deviceX.get()};
  const DLTensor *outputs[] = {deviceY.get()};
  for (DeviceBuffer *y : {&y1, &y1, &y2, &y2, &y1}) {
    REQUIRE_OK(cuda()->fill(cuda(), y->memory, 0, bytes));
    deviceY.dl.data = y->memory;
    REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
    std::fill(t.y.data.begin(), t.y.data.end(), 0.0f);
    REQUIRE_OK(cuda()->copy(cuda(), t.y.data.data(), y->memory, bytes, TCC_COPY_DEVICE_TO_HOST));
    CHECK(t.doubled());
  }
  // y1 recorded, replayed; y2 recorded, replayed; y1 recorded again.
  CHECK(tcc_session_graph_captures(session.get()) == 6);
  CHECK(tcc_session_graph_replays(session.get()) == 7);
  CHECK(graphFallback(session.get()).empty());
}

TEST_CASE("a replayed run reports its device checks, and the next replay starts clean",
          "[cuda][gpu][session][graph][errors]") {
  REQUIRE_GPU();
  ScopedVariable graphs("TCC_CUDA_GRAPHS", "1");
  Model model = loadModel("add_cuda");
  Session session = createSession(model.get(), 1);
  AddCudaTensors t(1000);
  REQUIRE_OK(t.run(session.get()));
  t.x.data[5] = std::numeric_limits<float>::quiet_NaN();
  requireError(t.run(session.get()), TCC_STATUS_CHECK_FAILED,
               {"tcc_session_run: a run-time check of the model failed: add_cuda 'x': an element "
                "is NaN"});
  t.x.data[5] = 1.0f;
  REQUIRE_OK(t.run(session.get()));
  CHECK(t.doubled());
  CHECK(tcc_session_graph_captures(session.get()) == 1);
  CHECK(tcc_session_graph_replays(session.get()) == 2);
}

TEST_CASE("TCC_CUDA_GRAPHS=0 runs device models without graphs", "[cuda][gpu][session][graph]") {
  REQUIRE_GPU();
  Model model = loadModel("add_cuda");
  tcc_session *raw = nullptr;
  {
    ScopedVariable graphs("TCC_CUDA_GRAPHS", "0");
    REQUIRE_OK(tcc_session_create(model.get(), nullptr, &raw));
  }
  Session session(raw); // read when the session was created: off for good
  for (int run = 0; run < 3; ++run) {
    AddCudaTensors t(500);
    REQUIRE_OK(t.run(session.get()));
    CHECK(t.doubled());
  }
  CHECK(tcc_session_graph_captures(session.get()) == 0);
  CHECK(tcc_session_graph_replays(session.get()) == 0);
  CHECK(graphFallback(session.get()) ==
        "cuda device: begin_capture: CUDA graphs are off (TCC_CUDA_GRAPHS=0)");
  tcc_session_stats stats = TCC_SESSION_STATS_INIT;
  REQUIRE_OK(tcc_session_get_stats(session.get(), &stats));
  CHECK(stats.runs == 3);

  ScopedVariable bad("TCC_CUDA_GRAPHS", "yes");
  tcc_session *refused = nullptr;
  requireError(tcc_session_create(model.get(), nullptr, &refused), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_session_create: cuda device: create_queue: TCC_CUDA_GRAPHS is 'yes', "
                "expected 0 (no CUDA graphs) or 1"});
  CHECK(refused == nullptr);
}

TEST_CASE("a launch refused while recording stops graphs and the run fails as without them",
          "[cuda][gpu][session][graph][errors]") {
  REQUIRE_GPU();
  ScopedVariable graphs("TCC_CUDA_GRAPHS", "1");
  tcc_model_descriptor d = addCudaDescriptor();
  d.run = runEmptyGrid;
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&d, nullptr, &raw));
  Model model(raw);
  Session session = createSession(model.get(), 1);
  AddCudaTensors t(4);
  const char *message = "cuda device: launch_kernel: kernel 0 'add_kernel': grid_x is 0";
  for (int run = 0; run < 2; ++run)
    requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
                 {std::string("tcc_session_run: ") + message});
  CHECK(graphFallback(session.get()) == message + std::string(", expected 1 to 2147483647"));
  CHECK(tcc_session_graph_captures(session.get()) == 0);
}

namespace {
/// add_cuda's run, which then rejects its arguments: the kernels are queued, the run fails.
int32_t runThenRefuse(const tcc_import_table *imports, const int64_t *symbols, void *const *inputs,
                      void *const *outputs, void *workspace) {
  int32_t code = addCudaDescriptor().run(imports, symbols, inputs, outputs, workspace);
  imports->report_error(imports->context, "refused after queueing");
  return code == TCC_RUN_OK ? TCC_RUN_BAD_ARGUMENT : code;
}
} // namespace

TEST_CASE("a model that fails while recorded runs again without the recording",
          "[cuda][gpu][session][graph][errors]") {
  REQUIRE_GPU();
  ScopedVariable graphs("TCC_CUDA_GRAPHS", "1");
  tcc_model_descriptor d = addCudaDescriptor();
  d.run = runThenRefuse;
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&d, nullptr, &raw));
  Model model(raw);
  Session session = createSession(model.get(), 1);
  const int64_t n = 600;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  AddCudaTensors t(n);
  DeviceBuffer x(bytes);
  DeviceBuffer y(bytes);
  REQUIRE_OK(cuda()->copy(cuda(), x.memory, t.x.data.data(), bytes, TCC_COPY_HOST_TO_DEVICE));
  HostTensor<float> deviceX({n}, kFloat32);
  HostTensor<float> deviceY({n}, kFloat32);
  deviceX.dl.data = x.memory;
  deviceX.dl.device = DLDevice{kDLCUDA, cudaOrdinal()};
  deviceY.dl.data = y.memory;
  deviceY.dl.device = DLDevice{kDLCUDA, cudaOrdinal()};
  const DLTensor *inputs[] = {deviceX.get()};
  const DLTensor *outputs[] = {deviceY.get()};
  for (int run = 0; run < 2; ++run) {
    REQUIRE_OK(cuda()->fill(cuda(), y.memory, 0, bytes));
    requireError(tcc_session_run(session.get(), inputs, 1, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
                 {"tcc_session_run: the model rejected its arguments: refused after queueing"});
    // The run queued its kernels as it would have without graphs, and they ran.
    REQUIRE_OK(cuda()->copy(cuda(), t.y.data.data(), y.memory, bytes, TCC_COPY_DEVICE_TO_HOST));
    CHECK(t.doubled());
  }
  // Not a failure of the graphs: they stay on, but nothing was kept.
  CHECK(graphFallback(session.get()).empty());
  CHECK(tcc_session_graph_captures(session.get()) == 0);
  CHECK(tcc_session_graph_replays(session.get()) == 0);
}
