//===- CudaTestUtils.h - what the CUDA backend's tests share ----------------------------===//
#ifndef TCC_TEST_RUNTIME_CUDATESTUTILS_H
#define TCC_TEST_RUNTIME_CUDATESTUTILS_H

#include "RuntimeTestUtils.h"

#include "device.h"
#include "session_internal.h"

#include <dlfcn.h>

#include <string>

namespace tcc_test {

inline const tcc_device *cuda() { return &tcc_cuda_device; }

/// Whether libcuda.so.1 loads here, as the backend loads it.
inline bool driverLoads() {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library)
    dlclose(library);
  return library != nullptr;
}

inline const tcc_model_descriptor &addCudaDescriptor();

/// Whether the CUDA device works here (a driver and a GPU that runs add_cuda's sm_80 PTX);
/// if not, *why says why.
inline bool gpuWorks(std::string *why) {
  tcc_device_queue *queue = nullptr;
  Status status(cuda()->create_queue(cuda(), 1, &queue));
  if (status) {
    *why = tcc_status_message(status.get());
    return false;
  }
  cuda()->destroy_queue(cuda(), queue);
  tcc_device_module *module = nullptr;
  status.reset(cuda()->load_module(cuda(), &addCudaDescriptor(), &module));
  if (status) {
    *why = tcc_status_message(status.get());
    return false;
  }
  cuda()->unload_module(cuda(), module);
  return true;
}

/// Ends the test case, with a warning, where no GPU can run it.
#define REQUIRE_GPU()                                                                              \
  do {                                                                                             \
    std::string why_;                                                                              \
    if (!gpuWorks(&why_)) {                                                                        \
      WARN("no usable CUDA GPU here, nothing to check: " << why_);                                 \
      return;                                                                                      \
    }                                                                                              \
  } while (0)

/// The add_cuda fixture's descriptor, to copy and change.
inline const tcc_model_descriptor &addCudaDescriptor() { return fixtureDescriptor("add_cuda"); }

/// The device ordinal the backend uses ($TCC_CUDA_DEVICE, default 0).
inline int32_t cudaOrdinal() { return cuda()->device_id(cuda()); }

/// Float32 [n] tensors for add_cuda: x[i] = i / 2 - 3, on the CPU.
struct AddCudaTensors {
  HostTensor<float> x, y;
  explicit AddCudaTensors(int64_t n) : x({n}, kFloat32), y({n}, kFloat32) {
    for (size_t i = 0; i < x.data.size(); ++i)
      x.data[i] = 0.5f * static_cast<float>(i) - 3.0f;
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

/// The session's reason for running without graphs, "" while it uses them.
inline std::string graphFallback(tcc_session *session) {
  const char *reason = tcc_session_graph_fallback(session);
  return reason ? reason : "";
}

/// Device memory of the CUDA backend, freed on destruction.
struct DeviceBuffer {
  void *memory = nullptr;
  explicit DeviceBuffer(size_t bytes) { REQUIRE_OK(cuda()->allocate(cuda(), bytes, 64, &memory)); }
  ~DeviceBuffer() { cuda()->free(cuda(), memory); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

/// add_cuda's run with a launch that breaks the rules: grid 0, or kernel 5.
inline int32_t badLaunch(const tcc_import_table *imports, int32_t kernel, int64_t grid) {
  void *args[3] = {};
  if (imports->device_launch(imports->context, kernel, grid, 256, 0, args))
    return TCC_RUN_CHECK_FAILED;
  return TCC_RUN_OK;
}
inline int32_t runEmptyGrid(const tcc_import_table *imports, const int64_t *, void *const *,
                            void *const *, void *) {
  return badLaunch(imports, 0, 0);
}
inline int32_t runKernel5(const tcc_import_table *imports, const int64_t *, void *const *,
                          void *const *, void *) {
  return badLaunch(imports, 5, 1);
}

} // namespace tcc_test

#endif // TCC_TEST_RUNTIME_CUDATESTUTILS_H
