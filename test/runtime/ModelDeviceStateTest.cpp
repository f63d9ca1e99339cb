//===- ModelDeviceStateTest.cpp - a device model's kernels and constants, once per device --===//
//
// tcc_model_device_state_acquire (runtime/src/model_device.c) against a counting device: the
// CPU's memory functions with load_module and unload_module that count their calls, so that
// what it promises (kernels loaded and constants uploaded once per model and device, however
// many sessions ask and from however many threads; a failed load tried again; everything
// freed with the model) is checked without a GPU.
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"

#include "device.h"
#include "model_internal.h"
#include "status_internal.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace tcc_test;

namespace {

std::atomic<int> loads{0}, unloads{0}, failuresLeft{0};

tcc_status countingLoad(const tcc_device *device, const tcc_model_descriptor *,
                        tcc_device_module **out_module) {
  ++loads;
  if (failuresLeft > 0) {
    --failuresLeft;
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE, "%s device: load_module: no image fits",
                           device->name);
  }
  *out_module = static_cast<tcc_device_module *>(std::malloc(1));
  return nullptr;
}

void countingUnload(const tcc_device *, tcc_device_module *module) {
  if (module)
    ++unloads;
  std::free(module);
}

/// The CPU's memory with counted kernel loads (two distinct devices for two GPUs).
tcc_device countingDevice() {
  tcc_device device = tcc_cpu_device;
  device.name = "counting";
  device.load_module = countingLoad;
  device.unload_module = countingUnload;
  return device;
}

void resetCounts() {
  loads = 0;
  unloads = 0;
  failuresLeft = 0;
}

} // namespace

TEST_CASE("a device model's kernels load once per device, however many sessions ask",
          "[device][model]") {
  resetCounts();
  tcc_device first = countingDevice(), second = countingDevice();
  {
    Model model = loadModel("add_cuda");
    const tcc_model_descriptor *d = model->descriptor;
    REQUIRE(d->device_constants_size > 0);
    // Eight threads at once, as eight sessions created together.
    std::vector<const tcc_model_device_state *> states(8, nullptr);
    std::vector<std::string> errors(states.size()); // Catch2's assertions are not thread-safe
    std::vector<std::thread> threads;
    for (size_t k = 0; k < states.size(); ++k)
      threads.emplace_back([&, k] {
        Status status(tcc_model_device_state_acquire(model.get(), model->descriptor, &first, "test", &states[k]));
        if (status)
          errors[k] = tcc_status_message(status.get());
      });
    for (std::thread &thread : threads)
      thread.join();
    for (const std::string &error : errors)
      CHECK(error.empty());
    CHECK(loads == 1);
    for (const tcc_model_device_state *state : states)
      CHECK(state == states[0]);
    REQUIRE(states[0] != nullptr);
    CHECK(states[0]->module != nullptr);
    // The constants, uploaded once, are the descriptor's.
    REQUIRE(states[0]->device_constants != nullptr);
    CHECK(std::memcmp(states[0]->device_constants, d->device_constants,
                      static_cast<size_t>(d->device_constants_size)) == 0);
    // Another device has its own.
    const tcc_model_device_state *other = nullptr;
    REQUIRE_OK(tcc_model_device_state_acquire(model.get(), model->descriptor, &second, "test", &other));
    CHECK(other != states[0]);
    CHECK(loads == 2);
    CHECK(unloads == 0); // the model keeps them while it lives
  }
  CHECK(unloads == 2); // freed with the model
}

TEST_CASE("a failed kernel load is the caller's error, and the next session tries again",
          "[device][model][errors]") {
  resetCounts();
  tcc_device device = countingDevice();
  Model model = loadModel("add_cuda");
  failuresLeft = 1;
  const tcc_model_device_state *state = nullptr;
  requireError(tcc_model_device_state_acquire(model.get(), model->descriptor, &device, "tcc_session_create", &state),
               TCC_STATUS_INCOMPATIBLE,
               {"tcc_session_create: ", "counting device: load_module: no image fits"});
  CHECK(state == nullptr);
  REQUIRE_OK(tcc_model_device_state_acquire(model.get(), model->descriptor, &device, "tcc_session_create", &state));
  CHECK(state != nullptr);
  CHECK(loads == 2);
}
