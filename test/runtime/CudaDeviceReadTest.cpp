//===- CudaDeviceReadTest.cpp - a device model that reads device memory midway, on a GPU --===//
//
// The positive_cuda fixture (y = the positive elements of x, a data-dependent extent) on the
// CUDA backend: its run reads the count its first kernel wrote (imports->device_read) before
// it launches the second. Its cases warn and check nothing where no CUDA GPU is usable; the
// same session logic runs everywhere on a test device in SessionGraphTest.cpp.
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"

#include "device.h"
#include "session_internal.h"

#include <string>
#include <vector>

using namespace tcc_test;

namespace {

/// Whether a CUDA GPU is usable here; if not, *why says why.
bool gpuUsable(std::string *why) {
  tcc_device_queue *queue = nullptr;
  Status status(tcc_cuda_device.create_queue(&tcc_cuda_device, 1, &queue));
  if (status) {
    *why = tcc_status_message(status.get());
    return false;
  }
  tcc_cuda_device.destroy_queue(&tcc_cuda_device, queue);
  return true;
}

} // namespace

TEST_CASE("positive_cuda reads its count back on the GPU and reports its output's extent",
          "[cuda][gpu][reads]") {
  std::string why;
  if (!gpuUsable(&why)) {
    WARN("no usable CUDA GPU here, nothing to check: " << why);
    return;
  }
  Model model = loadModel("positive_cuda");
  Session session = createSession(model.get(), 1);
  for (int64_t n : {1, 7, 1000, 100000}) {
    for (float offset : {-1.0e9f, -3.0f, 1.0f}) {
      INFO("n " << n << ", offset " << offset);
      HostTensor<float> x({n}, kFloat32), y({n}, kFloat32);
      std::vector<float> expected;
      for (size_t i = 0; i < x.data.size(); ++i) {
        x.data[i] = 0.5f * static_cast<float>(i) + offset;
        if (x.data[i] > 0.0f)
          expected.push_back(x.data[i]);
      }
      const DLTensor *inputs[] = {x.get()};
      const DLTensor *outputs[] = {y.get()};
      REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
      int64_t extent = -1;
      REQUIRE_OK(tcc_session_output_shape(session.get(), 0, &extent));
      CHECK(extent == static_cast<int64_t>(expected.size()));
      CHECK(std::vector<float>(y.data.begin(), y.data.begin() + extent) == expected);
    }
  }
  CHECK(tcc_session_graph_captures(session.get()) == 0);
  std::string fallback = tcc_session_graph_fallback(session.get());
  CHECK(fallback.find("reads device memory") != std::string::npos);
}
