//===- CudaDeviceTest.cpp - the CUDA backend (runtime/src/cuda) and device models -------===//
//
// Runs everywhere. Without the NVIDIA driver (no libcuda.so.1, as on CI) the tests check that
// every call that needs it fails with a status naming libcuda.so.1, and that device models
// still load, validate and describe themselves. With a driver and a GPU they run the add_cuda
// fixture's kernel; with a driver but no usable GPU they say so and check nothing more.
//
//===------------------------------------------------------------------------------------===//
#include "CudaTestUtils.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <limits>
#include <thread>

using namespace tcc_test;

//===------------------------------------------------------------------------------------===//
// The backend, with or without a driver
//===------------------------------------------------------------------------------------===//

TEST_CASE("kDLCUDA finds the cuda backend, which has the kernel members", "[cuda]") {
  const tcc_device *device = nullptr;
  REQUIRE_OK(tcc_device_for_type(kDLCUDA, &device));
  CHECK(device == &tcc_cuda_device);
  CHECK(device->type == kDLCUDA);
  CHECK(std::string(device->name) == "cuda");
  CHECK(device->device_id != nullptr);
  CHECK(device->load_module != nullptr);
  CHECK(device->unload_module != nullptr);
  CHECK(device->launch_kernel != nullptr);
  CHECK(device->begin_capture != nullptr);
  CHECK(device->end_capture != nullptr);
  CHECK(device->launch_graph != nullptr);
  CHECK(device->destroy_graph != nullptr);
  // The CPU runs host code only.
  CHECK(tcc_cpu_device.device_id == nullptr);
  CHECK(tcc_cpu_device.load_module == nullptr);
  CHECK(tcc_cpu_device.unload_module == nullptr);
  CHECK(tcc_cpu_device.launch_kernel == nullptr);
  CHECK(tcc_cpu_device.begin_capture == nullptr);
  CHECK(tcc_cpu_device.end_capture == nullptr);
  CHECK(tcc_cpu_device.launch_graph == nullptr);
  CHECK(tcc_cpu_device.destroy_graph == nullptr);
}

TEST_CASE("the cuda device checks its arguments before it needs a driver", "[cuda][errors]") {
  void *memory = &memory; // stays untouched on failure
  requireError(cuda()->allocate(cuda(), 64, 48, &memory), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: allocate: alignment is 48, expected a power of two"});
  requireError(cuda()->allocate(cuda(), 64, 4096, &memory), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: allocate: alignment is 4096, expected at most 256"});
  requireError(cuda()->allocate(cuda(), 64, 64, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: allocate: out_memory is null"});
  CHECK(memory == &memory);
  unsigned char bytes[4] = {};
  requireError(cuda()->copy(cuda(), bytes, bytes, 4, static_cast<tcc_copy_kind>(9)),
               TCC_STATUS_INVALID_ARGUMENT, {"cuda device: copy: the copy kind 9 is unknown"});
  requireError(cuda()->copy(cuda(), nullptr, bytes, 4, TCC_COPY_HOST_TO_DEVICE),
               TCC_STATUS_INVALID_ARGUMENT, {"cuda device: copy: destination is null (4 bytes)"});
  requireError(cuda()->fill(cuda(), nullptr, 0, 4), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: fill: destination is null (4 bytes)"});
  REQUIRE_OK(cuda()->copy(cuda(), nullptr, nullptr, 0, TCC_COPY_DEVICE_TO_HOST));
  REQUIRE_OK(cuda()->fill(cuda(), nullptr, 0, 0));
  REQUIRE_OK(cuda()->synchronize(cuda(), nullptr));
  requireError(cuda()->create_queue(cuda(), 1, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: create_queue: out_queue is null"});
  tcc_device_module *module = nullptr;
  requireError(cuda()->load_module(cuda(), nullptr, &module), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: load_module: descriptor is null"});
  requireError(cuda()->launch_kernel(cuda(), nullptr, nullptr, 0, 1, 1, 0, nullptr),
               TCC_STATUS_INVALID_ARGUMENT, {"cuda device: launch_kernel: module is null"});
  requireError(cuda()->begin_capture(cuda(), nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: begin_capture: queue is null"});
  tcc_device_graph *graph = nullptr;
  requireError(cuda()->end_capture(cuda(), nullptr, &graph), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: end_capture: queue is null"});
  CHECK(graph == nullptr);
  requireError(cuda()->launch_graph(cuda(), nullptr, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: launch_graph: queue is null"});
  // Freeing nothing needs nothing.
  cuda()->free(cuda(), nullptr);
  cuda()->destroy_queue(cuda(), nullptr);
  cuda()->unload_module(cuda(), nullptr);
  cuda()->destroy_graph(cuda(), nullptr);
}

TEST_CASE("the cuda device runs host loop bodies on the calling thread", "[cuda][launch]") {
  Coverage coverage(100);
  REQUIRE_OK(cuda()->launch(cuda(), nullptr, 100, Coverage::body, &coverage));
  CHECK(coverage.exactlyOnce());
  requireError(cuda()->launch(cuda(), nullptr, -1, Coverage::body, &coverage),
               TCC_STATUS_INVALID_ARGUMENT, {"cuda device: launch: count is -1, expected >= 0"});
  requireError(cuda()->launch(cuda(), nullptr, 4, nullptr, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: launch: body is null"});
}

TEST_CASE("without the NVIDIA driver every call that needs it names libcuda.so.1",
          "[cuda][errors]") {
  if (driverLoads()) {
    WARN("libcuda.so.1 loads here: the GPU tests below run instead");
    return;
  }
  const char *cannotLoad = "cannot load libcuda.so.1 (the NVIDIA driver): ";
  void *memory = &memory;
  requireError(cuda()->allocate(cuda(), 64, 64, &memory), TCC_STATUS_INCOMPATIBLE,
               {std::string("cuda device: allocate: ") + cannotLoad, "libcuda.so.1"});
  CHECK(memory == &memory);
  tcc_device_queue *queue = nullptr;
  requireError(cuda()->create_queue(cuda(), 4, &queue), TCC_STATUS_INCOMPATIBLE,
               {std::string("cuda device: create_queue: ") + cannotLoad});
  CHECK(queue == nullptr);
  unsigned char bytes[4] = {};
  requireError(cuda()->copy(cuda(), bytes, bytes, 4, TCC_COPY_HOST_TO_DEVICE),
               TCC_STATUS_INCOMPATIBLE, {std::string("cuda device: copy: ") + cannotLoad});
  requireError(cuda()->fill(cuda(), bytes, 0, 4), TCC_STATUS_INCOMPATIBLE,
               {std::string("cuda device: fill: ") + cannotLoad});
  tcc_device_module *module = nullptr;
  requireError(cuda()->load_module(cuda(), &addCudaDescriptor(), &module), TCC_STATUS_INCOMPATIBLE,
               {std::string("cuda device: load_module: ") + cannotLoad});
  CHECK(module == nullptr);

  // The model loads (validation needs no driver); a session cannot be created.
  Model model = loadModel("add_cuda");
  tcc_session *session = nullptr;
  requireError(tcc_session_create(model.get(), nullptr, &session), TCC_STATUS_INCOMPATIBLE,
               {std::string("tcc_session_create: cuda device: create_queue: ") + cannotLoad,
                "libcuda.so.1"});
  CHECK(session == nullptr);
  // TCC_CUDA_GRAPHS matters only where there is a driver: without one, that is what to fix.
  {
    ScopedVariable graphs("TCC_CUDA_GRAPHS", "maybe");
    requireError(cuda()->create_queue(cuda(), 1, &queue), TCC_STATUS_INCOMPATIBLE,
                 {std::string("cuda device: create_queue: ") + cannotLoad});
    requireError(tcc_session_create(model.get(), nullptr, &session), TCC_STATUS_INCOMPATIBLE,
                 {std::string("tcc_session_create: cuda device: create_queue: ") + cannotLoad});
  }
  // CPU models are not affected.
  Model add = loadModel("add");
  Session cpuSession = createSession(add.get(), 2);
  AddTensors t(3);
  REQUIRE_OK(t.run(cpuSession.get()));
}

TEST_CASE("sessions of CPU models say why they use no graphs", "[cuda][graph]") {
  Model add = loadModel("add");
  Session session = createSession(add.get(), 1);
  AddTensors t(3);
  REQUIRE_OK(t.run(session.get()));
  REQUIRE_OK(t.run(session.get()));
  CHECK(graphFallback(session.get()) == "a CPU model runs without graphs");
  CHECK(tcc_session_graph_captures(session.get()) == 0);
  CHECK(tcc_session_graph_replays(session.get()) == 0);
}

//===------------------------------------------------------------------------------------===//
// Device models: loading, validation and metadata (no driver needed)
//===------------------------------------------------------------------------------------===//

TEST_CASE("a device model loads without a driver and describes its device and images",
          "[cuda][model]") {
  Model model = loadModel("add_cuda");
  CHECK(tcc_model_device_type(model.get()) == kDLCUDA);
  REQUIRE(tcc_model_num_device_images(model.get()) == 1);
  tcc_device_image image{};
  REQUIRE_OK(tcc_model_device_image(model.get(), 0, &image));
  CHECK(std::string(image.arch) == "sm_80");
  CHECK(image.format == TCC_IMAGE_PTX);
  REQUIRE(image.size > 1);
  CHECK(static_cast<const char *>(image.data)[image.size - 1] == '\0');
  CHECK(std::strstr(static_cast<const char *>(image.data), ".entry add_kernel(") != nullptr);
  requireError(tcc_model_device_image(model.get(), 1, &image), TCC_STATUS_OUT_OF_RANGE,
               {"tcc_model_device_image: index 1 is out of range: the model has 1 device images"});
  requireError(tcc_model_device_image(model.get(), 0, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"out_image is null"});
  CHECK(tcc_model_num_parameters(model.get()) == 0);

  // A CPU model: the CPU, no images.
  Model add = loadModel("add");
  CHECK(tcc_model_device_type(add.get()) == kDLCPU);
  CHECK(tcc_model_num_device_images(add.get()) == 0);
  requireError(tcc_model_device_image(add.get(), 0, &image), TCC_STATUS_OUT_OF_RANGE,
               {"the model has 0 device images"});
  CHECK(tcc_model_device_type(nullptr) == kDLCPU);
  CHECK(tcc_model_num_device_images(nullptr) == 0);
}

TEST_CASE("descriptors without device fields, or with device_type 0, are CPU models",
          "[cuda][model]") {
  // The add_cuda descriptor cut at the size before the device fields: its run is never
  // called, so only validation and the device lookup matter.
  tcc_model_descriptor d = addCudaDescriptor();
  d.size = TCC_MODEL_DESCRIPTOR_V3_SIZE;
  tcc_model *model = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&d, nullptr, &model));
  CHECK(tcc_model_device_type(model) == kDLCPU);
  CHECK(tcc_model_num_device_images(model) == 0);
  tcc_model_release(model);
  tcc_model_descriptor zero = addCudaDescriptor();
  zero.device_type = 0;
  zero.num_device_images = 0;
  zero.num_device_kernels = 0;
  zero.device_constants_size = 0;
  REQUIRE_OK(tcc_model_create_from_descriptor(&zero, nullptr, &model));
  CHECK(tcc_model_device_type(model) == kDLCPU);
  tcc_model_release(model);
}

namespace {
struct DeviceFieldCase {
  const char *what;
  void (*change)(tcc_model_descriptor &d);
  tcc_status_code code;
  const char *message;
};

// Storage the cases point into (the descriptor is copied, its arrays are not).
const char kNoNul[4] = {'a', 'b', 'c', 'd'};
const unsigned char kNotElf[64] = {'P', 'K'};
const char *const kNullName[] = {"add_kernel", nullptr};
const char *const kEmptyName[] = {"", "check_kernel"};
const char *const kNullMessage[] = {nullptr};
const tcc_device_image kImageCases[] = {
    {"sm_80", TCC_IMAGE_PTX, 0, kNoNul, sizeof(kNoNul)},     // 0: PTX without a NUL
    {"sm_80", TCC_IMAGE_PTX, 0, "x", 0},                     // 1: empty
    {"sm_80", TCC_IMAGE_PTX, 0, nullptr, 8},                 // 2: no data
    {nullptr, TCC_IMAGE_PTX, 0, "x", 2},                     // 3: no arch
    {"sm_80", 7, 0, "x", 2},                                 // 4: unknown format
    {"sm_90", TCC_IMAGE_CUBIN, 0, kNotElf, sizeof(kNotElf)}, // 5: a cubin that is no ELF file
};
const tcc_symbol_desc kSymbolCases[] = {{"n", 1, 16}};
const int64_t kShapeN[] = {-1};
const int64_t kShape2[] = {2};
const int32_t kDataDependent[] = {TCC_DIM_DATA_DEPENDENT};
const tcc_tensor_desc kStringInput[] = {{"x", TCC_DTYPE_STRING, 1, kShape2, nullptr}};
const tcc_tensor_desc kDataDependentOutput[] = {
    {"y", TCC_DTYPE_FLOAT32, 1, kShapeN, kDataDependent}};
const uint8_t kComputed[] = {1};
int32_t computeSymbols(int64_t *, void *const *) { return TCC_RUN_OK; }
const tcc_tensor_desc kParameter[] = {{"w", TCC_DTYPE_FLOAT32, 0, nullptr, nullptr}};
const int64_t kParameterOffsets[] = {0};
const float kInitialParameter[] = {1.0f};
} // namespace

TEST_CASE("corrupt device fields are rejected at load with a message naming the field",
          "[cuda][model][errors]") {
  const std::vector<DeviceFieldCase> cases = {
      {"no images", [](tcc_model_descriptor &d) { d.num_device_images = 0; },
       TCC_STATUS_INVALID_MODEL,
       "num_device_images is 0, expected 1 to 64 for a device model with kernels (device_type "
       "2)"},
      {"too many images", [](tcc_model_descriptor &d) { d.num_device_images = 65; },
       TCC_STATUS_INVALID_MODEL, "num_device_images is 65, expected 1 to 64"},
      {"null images", [](tcc_model_descriptor &d) { d.device_images = nullptr; },
       TCC_STATUS_INVALID_MODEL, "num_device_images is 1 but device_images is null"},
      {"PTX without NUL", [](tcc_model_descriptor &d) { d.device_images = &kImageCases[0]; },
       TCC_STATUS_INVALID_MODEL,
       "device image 0 (sm_80 PTX) is not NUL-terminated within its 4 bytes"},
      {"empty image", [](tcc_model_descriptor &d) { d.device_images = &kImageCases[1]; },
       TCC_STATUS_INVALID_MODEL,
       "device image 0 (sm_80 PTX) has size 0 and non-null data, expected a size > 0"},
      {"image without data", [](tcc_model_descriptor &d) { d.device_images = &kImageCases[2]; },
       TCC_STATUS_INVALID_MODEL, "device image 0 (sm_80 PTX) has size 8 and null data"},
      {"image without arch", [](tcc_model_descriptor &d) { d.device_images = &kImageCases[3]; },
       TCC_STATUS_INVALID_MODEL, "device image 0 has a null arch"},
      {"unknown format", [](tcc_model_descriptor &d) { d.device_images = &kImageCases[4]; },
       TCC_STATUS_INVALID_MODEL,
       "device image 0 (sm_80) has the unknown format 7, expected 1 (PTX) or 2 (cubin)"},
      {"cubin that is not ELF", [](tcc_model_descriptor &d) { d.device_images = &kImageCases[5]; },
       TCC_STATUS_INVALID_MODEL, "device image 0 (sm_90 cubin, 64 bytes) is not a 64-bit ELF file"},
      {"no kernels but images", [](tcc_model_descriptor &d) { d.num_device_kernels = 0; },
       TCC_STATUS_INVALID_MODEL,
       "num_device_kernels is 0 but num_device_images is 1: a device model without kernels has "
       "no images"},
      {"negative kernels", [](tcc_model_descriptor &d) { d.num_device_kernels = -1; },
       TCC_STATUS_INVALID_MODEL, "num_device_kernels is -1, expected 0 to 65536"},
      {"null kernel names", [](tcc_model_descriptor &d) { d.device_kernel_names = nullptr; },
       TCC_STATUS_INVALID_MODEL, "num_device_kernels is 2 but device_kernel_names is null"},
      {"null kernel name", [](tcc_model_descriptor &d) { d.device_kernel_names = kNullName; },
       TCC_STATUS_INVALID_MODEL, "device_kernel_names[1] is null"},
      {"empty kernel name", [](tcc_model_descriptor &d) { d.device_kernel_names = kEmptyName; },
       TCC_STATUS_INVALID_MODEL, "device_kernel_names[0] is empty"},
      {"constants without data", [](tcc_model_descriptor &d) { d.device_constants = nullptr; },
       TCC_STATUS_INVALID_MODEL, "device_constants_size is 16 and device_constants is null"},
      {"negative constants size", [](tcc_model_descriptor &d) { d.device_constants_size = -1; },
       TCC_STATUS_INVALID_MODEL, "device_constants_size is -1"},
      {"unknown device type", [](tcc_model_descriptor &d) { d.device_type = 99; },
       TCC_STATUS_UNIMPLEMENTED,
       "the model's device_type is 99 (unknown, unknown): this runtime has no backend for it"},
      {"device type without backend", [](tcc_model_descriptor &d) { d.device_type = kDLVPI; },
       TCC_STATUS_UNIMPLEMENTED, "device_type is 9 (VPI, kDLVPI)"},
      {"CPU model with images", [](tcc_model_descriptor &d) { d.device_type = kDLCPU; },
       TCC_STATUS_INVALID_MODEL,
       "a CPU model (device_type 1) has num_device_images 1, num_device_kernels 2 and "
       "device_constants_size 16, expected 0"},
      {"negative check count", [](tcc_model_descriptor &d) { d.num_device_check_messages = -1; },
       TCC_STATUS_INVALID_MODEL,
       "num_device_check_messages is -1 and device_check_messages is non-null, expected 0 to "
       "65536 messages"},
      {"null check messages", [](tcc_model_descriptor &d) { d.device_check_messages = nullptr; },
       TCC_STATUS_INVALID_MODEL,
       "num_device_check_messages is 1 and device_check_messages is null"},
      {"null check message",
       [](tcc_model_descriptor &d) { d.device_check_messages = kNullMessage; },
       TCC_STATUS_INVALID_MODEL, "device_check_messages[0] is null"},
      {"descriptor ending inside the check fields",
       [](tcc_model_descriptor &d) {
         d.size = offsetof(tcc_model_descriptor, num_device_check_messages) + 8;
       },
       TCC_STATUS_INVALID_MODEL, "it ends inside the device check fields"},
      {"descriptor ending inside the device fields",
       [](tcc_model_descriptor &d) { d.size = TCC_MODEL_DESCRIPTOR_V3_SIZE + 8; },
       TCC_STATUS_INVALID_MODEL, "it ends inside the device fields"},
      {"parameters",
       [](tcc_model_descriptor &d) {
         d.num_parameters = 1;
         d.parameters = kParameter;
         d.parameter_offsets = kParameterOffsets;
         d.initial_parameters = kInitialParameter;
         d.parameters_size = 4;
       },
       TCC_STATUS_INVALID_MODEL, "a device model cannot have parameters (num_parameters is 1)"},
      {"string tensor",
       [](tcc_model_descriptor &d) {
         d.num_symbols = 0;
         d.inputs = kStringInput;
         d.outputs = kStringInput;
         d.num_outputs = 0;
       },
       TCC_STATUS_INVALID_MODEL,
       "a device model cannot have string tensors (input 0 'x' has dtype string)"},
      {"data-dependent output", [](tcc_model_descriptor &d) { d.outputs = kDataDependentOutput; },
       TCC_STATUS_INVALID_MODEL,
       "a device model with data-dependent output dims must read them from device memory "
       "(TCC_MODEL_READS_DEVICE), but output 0 'y' dim 0 is data-dependent"},
      {"computed symbol",
       [](tcc_model_descriptor &d) {
         // A symbol that no input binds, computed from the inputs' data.
         d.num_symbols = 1;
         d.symbols = kSymbolCases;
         d.num_inputs = 0;
         d.num_outputs = 0;
         d.symbol_computed = kComputed;
         d.compute_symbols = computeSymbols;
       },
       TCC_STATUS_INVALID_MODEL,
       "a device model cannot have computed symbols (symbol_computed marks symbol 0 'n')"},
  };
  for (const DeviceFieldCase &c : cases) {
    INFO("case: " << c.what);
    tcc_model_descriptor d = addCudaDescriptor();
    c.change(d);
    requireError(createFrom(d), c.code, {"tcc_model_create_from_descriptor: ", c.message});
  }
  // The fixture itself is fine, and so is a device model compiled before the check messages.
  REQUIRE_OK(createFrom(addCudaDescriptor()));
  tcc_model_descriptor older = addCudaDescriptor();
  older.size = offsetof(tcc_model_descriptor, num_device_check_messages);
  REQUIRE_OK(createFrom(older));
}

TEST_CASE("a device model takes CPU tensors and tensors of its GPU, no others",
          "[cuda][model][errors]") {
  // tcc_model_bind_symbols checks tensors as runs do, without a session (nor a driver).
  Model model = loadModel("add_cuda");
  HostTensor<float> x({5}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  int64_t n = 0;
  REQUIRE_OK(tcc_model_bind_symbols(model.get(), inputs, 1, &n, 1));
  CHECK(n == 5);
  x.dl.device = DLDevice{kDLCUDA, cudaOrdinal()};
  REQUIRE_OK(tcc_model_bind_symbols(model.get(), inputs, 1, &n, 1));
  x.dl.device = DLDevice{kDLCUDA, cudaOrdinal() + 3};
  requireError(tcc_model_bind_symbols(model.get(), inputs, 1, &n, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_model_bind_symbols: input 0 'x' is on CUDA device " +
                std::to_string(cudaOrdinal() + 3) + ", but the runtime uses CUDA device " +
                std::to_string(cudaOrdinal())});
  x.dl.device = DLDevice{kDLVPI, 0};
  requireError(tcc_model_bind_symbols(model.get(), inputs, 1, &n, 1), TCC_STATUS_UNIMPLEMENTED,
               {"input 0 'x' is on device type 9 (VPI); only CUDA tensors (kDLCUDA) and CPU "
                "tensors (kDLCPU, copied to the device) are supported"});
  x.dl.device = DLDevice{kDLCUDAManaged, 0};
  requireError(tcc_model_bind_symbols(model.get(), inputs, 1, &n, 1), TCC_STATUS_UNIMPLEMENTED,
               {"is on device type 13 (CUDA managed)"});
}

//===------------------------------------------------------------------------------------===//
// On a GPU
//===------------------------------------------------------------------------------------===//

TEST_CASE("cuda memory: allocate, copy both ways, fill", "[cuda][gpu]") {
  REQUIRE_GPU();
  std::vector<unsigned char> source(1000);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<unsigned char>(i * 7 + 3);
  DeviceBuffer a(source.size());
  DeviceBuffer b(source.size());
  CHECK(reinterpret_cast<uintptr_t>(a.memory) % 256 == 0);
  REQUIRE_OK(cuda()->copy(cuda(), a.memory, source.data(), source.size(), TCC_COPY_HOST_TO_DEVICE));
  REQUIRE_OK(cuda()->copy(cuda(), b.memory, a.memory, source.size(), TCC_COPY_DEVICE_TO_DEVICE));
  REQUIRE_OK(cuda()->fill(cuda(), static_cast<char *>(b.memory) + 10, 0xab, 100));
  std::vector<unsigned char> back(source.size());
  REQUIRE_OK(cuda()->copy(cuda(), back.data(), b.memory, back.size(), TCC_COPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < back.size(); ++i) {
    INFO("byte " << i);
    CHECK(back[i] == (i >= 10 && i < 110 ? 0xab : source[i]));
  }
  DeviceBuffer empty1(0);
  DeviceBuffer empty2(0);
  CHECK(empty1.memory != nullptr);
  CHECK(empty1.memory != empty2.memory);
}

TEST_CASE("add_cuda runs on the GPU with CPU tensors, reusing its device buffers",
          "[cuda][gpu][session]") {
  REQUIRE_GPU();
  Model model = loadModel("add_cuda");
  Session session = createSession(model.get(), 4);
  CHECK(tcc_session_num_threads(session.get()) == 1); // host code on the caller's thread
  for (int64_t n : {1, 255, 256, 257, 1000, 100000}) {
    INFO("n " << n);
    AddCudaTensors t(n);
    REQUIRE_OK(t.run(session.get()));
    CHECK(t.doubled());
  }
  // A run of a size seen before allocates nothing.
  uint64_t allocations = tcc_session_staging_allocations(session.get());
  for (int64_t n : {100000, 7, 100000}) {
    AddCudaTensors t(n);
    REQUIRE_OK(t.run(session.get()));
    CHECK(t.doubled());
  }
  CHECK(tcc_session_staging_allocations(session.get()) == allocations);
  tcc_session_stats stats = TCC_SESSION_STATS_INIT;
  REQUIRE_OK(tcc_session_get_stats(session.get(), &stats));
  CHECK(stats.runs == 9);
  // Device models have no parameters.
  HostTensor<float> w({1}, kFloat32);
  requireError(tcc_session_read_parameter(session.get(), "w", w.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"the model has no parameter 'w'"});
}

TEST_CASE("sessions of add_cuda run on several threads at once", "[cuda][gpu][session]") {
  REQUIRE_GPU();
  Model model = loadModel("add_cuda");
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&model, &failures, k] {
      // Each thread its own session; the driver's context is made current on each.
      tcc_session *session = nullptr;
      Status status(tcc_session_create(model.get(), nullptr, &session));
      for (int run = 0; !status && run < 20; ++run) {
        AddCudaTensors t(1000 + 100 * k + run);
        status.reset(t.run(session));
        if (!status && !t.doubled())
          failures++;
      }
      if (status)
        failures++;
      tcc_session_release(session);
    });
  for (std::thread &thread : threads)
    thread.join();
  CHECK(failures == 0);
}

TEST_CASE("add_cuda takes tensors in GPU memory as they are", "[cuda][gpu][session]") {
  REQUIRE_GPU();
  Model model = loadModel("add_cuda");
  Session session = createSession(model.get(), 1);
  const int64_t n = 3000;
  AddCudaTensors t(n);
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  DeviceBuffer x(bytes);
  DeviceBuffer y(bytes);
  REQUIRE_OK(cuda()->copy(cuda(), x.memory, t.x.data.data(), bytes, TCC_COPY_HOST_TO_DEVICE));
  HostTensor<float> deviceX({n}, kFloat32);
  HostTensor<float> deviceY({n}, kFloat32);
  deviceX.dl.data = x.memory;
  deviceX.dl.device = DLDevice{kDLCUDA, cudaOrdinal()};
  deviceY.dl.data = y.memory;
  deviceY.dl.device = DLDevice{kDLCUDA, cudaOrdinal()};
  {
    const DLTensor *inputs[] = {deviceX.get()};
    const DLTensor *outputs[] = {deviceY.get()};
    REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  }
  CHECK(tcc_session_staging_allocations(session.get()) == 0);
  REQUIRE_OK(cuda()->copy(cuda(), t.y.data.data(), y.memory, bytes, TCC_COPY_DEVICE_TO_HOST));
  CHECK(t.doubled());
  // Mixed: a GPU input, a CPU output.
  std::fill(t.y.data.begin(), t.y.data.end(), 0.0f);
  {
    const DLTensor *inputs[] = {deviceX.get()};
    const DLTensor *outputs[] = {t.y.get()};
    REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  }
  CHECK(t.doubled());
}

TEST_CASE("a device check that fails is the run's error, and the next run starts clean",
          "[cuda][gpu][session][errors]") {
  REQUIRE_GPU();
  Model model = loadModel("add_cuda");
  Session session = createSession(model.get(), 1);
  AddCudaTensors t(1000);
  t.x.data[777] = std::numeric_limits<float>::quiet_NaN();
  requireError(t.run(session.get()), TCC_STATUS_CHECK_FAILED,
               {"tcc_session_run: a run-time check of the model failed: add_cuda 'x': an element "
                "is NaN"});
  t.x.data[777] = 1.0f;
  REQUIRE_OK(t.run(session.get()));
  CHECK(t.doubled());
  // A code the model has no message for: the model broke its contract.
  tcc_model_descriptor d = addCudaDescriptor();
  d.num_device_check_messages = 0;
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&d, nullptr, &raw));
  Model silent(raw);
  Session silentSession = createSession(silent.get(), 1);
  t.x.data[3] = std::numeric_limits<float>::quiet_NaN();
  requireError(t.run(silentSession.get()), TCC_STATUS_INTERNAL,
               {"tcc_session_run: the model's kernels reported check 1, for which the model has "
                "no message"});
}

TEST_CASE("a launch the device refuses fails the run with the device's message",
          "[cuda][gpu][session][errors]") {
  REQUIRE_GPU();
  for (auto [run, message] :
       {std::pair{&runEmptyGrid, "tcc_session_run: cuda device: launch_kernel: kernel 0 "
                                 "'add_kernel': grid_x is 0, expected 1 to 2147483647"},
        std::pair{&runKernel5, "tcc_session_run: cuda device: launch_kernel: kernel 5 is out of "
                               "range: the model has 2 kernels"}}) {
    INFO(message);
    tcc_model_descriptor d = addCudaDescriptor();
    d.run = run;
    tcc_model *raw = nullptr;
    REQUIRE_OK(tcc_model_create_from_descriptor(&d, nullptr, &raw));
    Model model(raw);
    Session session = createSession(model.get(), 1);
    AddCudaTensors t(4);
    requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT, {message});
  }
  // Nothing was queued: the GPU still runs the fixture.
  Model model = loadModel("add_cuda");
  Session session = createSession(model.get(), 1);
  AddCudaTensors t(10);
  REQUIRE_OK(t.run(session.get()));
  CHECK(t.doubled());
}

TEST_CASE("launch_kernel checks its grid, block and kernel", "[cuda][gpu][launch][errors]") {
  REQUIRE_GPU();
  tcc_device_module *module = nullptr;
  REQUIRE_OK(cuda()->load_module(cuda(), &addCudaDescriptor(), &module));
  tcc_device_queue *queue = nullptr;
  REQUIRE_OK(cuda()->create_queue(cuda(), 1, &queue));
  void *args[3] = {};
  requireError(cuda()->launch_kernel(cuda(), queue, module, 2, 1, 32, 0, args),
               TCC_STATUS_INVALID_ARGUMENT,
               {"cuda device: launch_kernel: kernel 2 is out of range: the model has 2 kernels"});
  requireError(cuda()->launch_kernel(cuda(), queue, module, 0, int64_t{1} << 31, 32, 0, args),
               TCC_STATUS_INVALID_ARGUMENT, {"'add_kernel': grid_x is 2147483648"});
  requireError(cuda()->launch_kernel(cuda(), queue, module, 0, 1, 1025, 0, args),
               TCC_STATUS_INVALID_ARGUMENT, {"'add_kernel': block_x is 1025, expected 1 to 1024"});
  requireError(cuda()->launch_kernel(cuda(), queue, module, 0, 1, 0, 0, args),
               TCC_STATUS_INVALID_ARGUMENT, {"block_x is 0"});
  requireError(cuda()->launch_kernel(cuda(), queue, module, 0, 1, 32, -4, args),
               TCC_STATUS_INVALID_ARGUMENT, {"shared_bytes is -4, expected >= 0"});
  requireError(cuda()->launch_kernel(cuda(), nullptr, module, 0, 1, 32, 0, args),
               TCC_STATUS_INVALID_ARGUMENT, {"queue is null"});
  // A launch with n = 0 touches no memory: the kernel returns at once.
  void *nothing = nullptr;
  int64_t zero = 0;
  void *emptyArgs[] = {&nothing, &nothing, &zero};
  REQUIRE_OK(cuda()->launch_kernel(cuda(), queue, module, 0, 1, 32, 0, emptyArgs));
  // Beyond 48 KiB of dynamic shared memory the kernel asks for it first (sm_80: up to 163 KiB).
  REQUIRE_OK(cuda()->launch_kernel(cuda(), queue, module, 0, 2, 32, 100 * 1024, emptyArgs));
  REQUIRE_OK(cuda()->launch_kernel(cuda(), queue, module, 0, 2, 32, 64 * 1024, emptyArgs));
  REQUIRE_OK(cuda()->synchronize(cuda(), queue));
  cuda()->destroy_queue(cuda(), queue);
  cuda()->unload_module(cuda(), module);
}

TEST_CASE("load_module picks an image for the GPU, or says why none fits",
          "[cuda][gpu][model][errors]") {
  REQUIRE_GPU();
  tcc_model_descriptor d = addCudaDescriptor();
  const tcc_device_image &ptx = d.device_images[0];
  // Only images for a future GPU: none runs here.
  tcc_device_image future[] = {{"sm_990", TCC_IMAGE_PTX, 0, ptx.data, ptx.size},
                               {"sm_990", TCC_IMAGE_CUBIN, 0, ptx.data, ptx.size}};
  d.device_images = future;
  d.num_device_images = 2;
  tcc_device_module *module = nullptr;
  requireError(cuda()->load_module(cuda(), &d, &module), TCC_STATUS_INCOMPATIBLE,
               {"cuda device: load_module: no image of the model runs on this GPU (device ",
                ", sm_", "): the model has sm_990 PTX (", " bytes), sm_990 cubin ("});
  // The newest PTX not newer than the GPU wins over older PTX (a broken sm_70 image would
  // fail to load if picked).
  tcc_device_image both[] = {{"sm_70", TCC_IMAGE_PTX, 0, "not PTX", 8},
                             {"sm_80", TCC_IMAGE_PTX, 0, ptx.data, ptx.size}};
  d.device_images = both;
  REQUIRE_OK(cuda()->load_module(cuda(), &d, &module));
  cuda()->unload_module(cuda(), module);
  module = nullptr;
  // PTX that does not compile: the JIT compiler's log is in the message.
  static const char brokenPtx[] = ".version 7.0\n.target sm_80\n.address_size 64\n"
                                  ".visible .entry broken() { ret }\n";
  tcc_device_image broken[] = {{"sm_80", TCC_IMAGE_PTX, 0, brokenPtx, sizeof(brokenPtx)}};
  d.device_images = broken;
  d.num_device_images = 1;
  requireError(cuda()->load_module(cuda(), &d, &module), TCC_STATUS_INVALID_MODEL,
               {"cuda device: load_module: cannot load the sm_80 PTX image (" +
                    std::to_string(sizeof(brokenPtx)) + " bytes) on sm_",
                "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX", "the JIT compiler says: "});
  // A kernel name the image lacks.
  const char *const missing[] = {"add_kernel", "no_such_kernel"};
  d = addCudaDescriptor();
  d.device_kernel_names = missing;
  d.num_device_kernels = 2;
  requireError(cuda()->load_module(cuda(), &d, &module), TCC_STATUS_INVALID_MODEL,
               {"cuda device: load_module: the sm_80 PTX image has no kernel 1 'no_such_kernel'",
                "CUDA_ERROR_NOT_FOUND"});
  CHECK(module == nullptr);
}
