//===- VulkanDeviceTest.cpp - the Vulkan backend (runtime/src/vulkan) and SPIR-V images ---===//
//
// Runs everywhere. The backend's argument checks and the validation of SPIR-V images need no
// Vulkan. Where a Vulkan device exists (CI: Mesa's lavapipe, which the tests pick by setting
// VK_DRIVER_FILES before the first call when it is installed and nothing else was asked for)
// memory is allocated, copied both ways, on the device and filled, and an address the device
// did not allocate is refused; without one, every call that needs it fails with the reason.
// Kernels run in the lit tests (test/Target/SPIRV/run.test) and the conformance suites.
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"

#include "device.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tcc_test;

namespace {
const tcc_device *vulkan() { return &tcc_vulkan_device; }

/// Points the Vulkan loader at lavapipe when it is installed and no driver was named.
void preferLavapipe() {
  const char *icd = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
  if (!std::getenv("VK_DRIVER_FILES") && !std::getenv("VK_ICD_FILENAMES") && access(icd, R_OK) == 0)
    setenv("VK_DRIVER_FILES", icd, 0);
}

/// Whether a Vulkan device works here; if not, *why says why.
bool deviceWorks(std::string *why) {
  preferLavapipe();
  tcc_device_queue *queue = nullptr;
  Status status(vulkan()->create_queue(vulkan(), 1, &queue));
  if (status) {
    *why = tcc_status_message(status.get());
    return false;
  }
  vulkan()->destroy_queue(vulkan(), queue);
  return true;
}

/// The add_cuda fixture's descriptor (a device model), to copy and make a Vulkan one.
const tcc_model_descriptor &deviceDescriptor() { return fixtureDescriptor("add_cuda"); }

// A SPIR-V header (magic, version 1.5, generator, bound, schema) and a word more.
const uint32_t kSpirv[] = {0x07230203u, 0x00010500u, 0, 8, 0, 0};
const uint32_t kNotSpirv[] = {0x12345678u, 0x00010500u, 0, 8, 0, 0};
} // namespace

TEST_CASE("kDLVulkan finds the vulkan backend, which has the kernel members and no graphs",
          "[vulkan]") {
  const tcc_device *device = nullptr;
  REQUIRE_OK(tcc_device_for_type(kDLVulkan, &device));
  CHECK(device == vulkan());
  CHECK(std::string(device->name) == "vulkan");
  CHECK(device->type == kDLVulkan);
  CHECK(device->load_module != nullptr);
  CHECK(device->launch_kernel != nullptr);
  CHECK(device->begin_capture == nullptr);
  CHECK(device->launch_graph == nullptr);
  CHECK(std::string(tcc_image_format_name(TCC_IMAGE_SPIRV)) == "SPIR-V");
  CHECK(tcc_image_format_device_type(TCC_IMAGE_SPIRV) == kDLVulkan);
}

TEST_CASE("the vulkan device checks its arguments before it needs a driver", "[vulkan][errors]") {
  void *memory = nullptr;
  requireError(vulkan()->allocate(vulkan(), 16, 16, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"out_memory"});
  requireError(vulkan()->allocate(vulkan(), 16, 3, &memory), TCC_STATUS_INVALID_ARGUMENT,
               {"alignment"});
  requireError(vulkan()->create_queue(vulkan(), 0, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"vulkan device: create_queue"});
  requireError(vulkan()->launch_kernel(vulkan(), nullptr, nullptr, 0, 1, 1, 0, nullptr),
               TCC_STATUS_INVALID_ARGUMENT, {"vulkan device: launch_kernel: queue is null"});
  requireError(vulkan()->load_module(vulkan(), nullptr, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"vulkan device: load_module: descriptor is null"});
  // Nothing to copy or fill: fine without a driver.
  REQUIRE_OK(vulkan()->copy(vulkan(), nullptr, nullptr, 0, TCC_COPY_HOST_TO_DEVICE));
  REQUIRE_OK(vulkan()->fill(vulkan(), nullptr, 0, 0));
  vulkan()->free(vulkan(), nullptr);
  // Host loops of a device model run on the calling thread.
  int64_t covered = 0;
  REQUIRE_OK(vulkan()->launch(
      vulkan(), nullptr, 5,
      [](void *arg, int64_t begin, int64_t end) { *static_cast<int64_t *>(arg) += end - begin; },
      &covered));
  CHECK(covered == 5);
}

TEST_CASE("a Vulkan model's SPIR-V images are checked at load", "[vulkan][model][errors]") {
  tcc_model_descriptor d = deviceDescriptor();
  d.device_type = kDLVulkan;
  const tcc_device_image good = {"vulkan1.2", TCC_IMAGE_SPIRV, 0, kSpirv, sizeof(kSpirv)};
  d.device_images = &good;
  REQUIRE_OK(createFrom(d));

  const tcc_device_image cases[] = {
      {"vulkan1.2", TCC_IMAGE_SPIRV, 0, kNotSpirv, sizeof(kNotSpirv)}, // not SPIR-V
      {"vulkan1.2", TCC_IMAGE_SPIRV, 0, kSpirv, sizeof(kSpirv) - 2},   // not whole words
      {"vulkan1.2", TCC_IMAGE_SPIRV, 0, kSpirv, 16},                   // shorter than a header
  };
  for (const tcc_device_image &image : cases) {
    d.device_images = &image;
    requireError(createFrom(d), TCC_STATUS_INVALID_MODEL,
                 {"device image 0 (vulkan1.2 SPIR-V", "is not a SPIR-V module (whole words "
                                                      "starting with the magic number "
                                                      "0x07230203)"});
  }
  // A PTX image in a Vulkan model, and a SPIR-V image in a CUDA model, are refused.
  const tcc_device_image ptx = {"sm_80", TCC_IMAGE_PTX, 0, "x", 2};
  d.device_images = &ptx;
  requireError(createFrom(d), TCC_STATUS_INVALID_MODEL,
               {"has the format 1 (PTX), which is for CUDA models", "expected 4 (SPIR-V)"});
  tcc_model_descriptor cuda = deviceDescriptor();
  cuda.device_images = &good;
  requireError(createFrom(cuda), TCC_STATUS_INVALID_MODEL,
               {"has the format 4 (SPIR-V), which is for Vulkan models"});
}

TEST_CASE("without a Vulkan device every call that needs one says why, else memory works",
          "[vulkan][device]") {
  std::string why;
  if (!deviceWorks(&why)) {
    void *memory = nullptr;
    Status status(vulkan()->allocate(vulkan(), 16, 16, &memory));
    REQUIRE(status);
    CHECK(std::string(tcc_status_message(status.get())).rfind("vulkan device: allocate: ", 0) == 0);
    CHECK(memory == nullptr);
    WARN("no usable Vulkan device here: " << why);
    return;
  }
  // Round trips through device memory, at offsets inside allocations.
  std::vector<uint8_t> input(1000), output(1000, 0);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = static_cast<uint8_t>(i * 7 + 3);
  void *a = nullptr, *b = nullptr;
  REQUIRE_OK(vulkan()->allocate(vulkan(), input.size(), 256, &a));
  REQUIRE_OK(vulkan()->allocate(vulkan(), input.size(), 64, &b));
  CHECK(reinterpret_cast<uintptr_t>(a) % 256 == 0);
  CHECK(reinterpret_cast<uintptr_t>(b) % 64 == 0);
  REQUIRE_OK(vulkan()->copy(vulkan(), a, input.data(), input.size(), TCC_COPY_HOST_TO_DEVICE));
  REQUIRE_OK(vulkan()->copy(vulkan(), static_cast<char *>(b) + 10, static_cast<char *>(a) + 20, 500,
                            TCC_COPY_DEVICE_TO_DEVICE));
  REQUIRE_OK(vulkan()->copy(vulkan(), output.data(), b, output.size(), TCC_COPY_DEVICE_TO_HOST));
  CHECK(std::memcmp(output.data() + 10, input.data() + 20, 500) == 0);
  // Fills: whole words (vkCmdFillBuffer) and not (through the staging buffer).
  REQUIRE_OK(vulkan()->fill(vulkan(), a, 0xab, 64));
  REQUIRE_OK(vulkan()->fill(vulkan(), static_cast<char *>(a) + 65, 0xcd, 7));
  REQUIRE_OK(vulkan()->copy(vulkan(), output.data(), a, 80, TCC_COPY_DEVICE_TO_HOST));
  for (int i = 0; i < 64; ++i)
    CHECK(output[i] == 0xab);
  CHECK(output[64] == input[64]);
  for (int i = 65; i < 72; ++i)
    CHECK(output[i] == 0xcd);
  CHECK(output[72] == input[72]);
  // Addresses the device did not allocate, or ranges past an allocation, are refused.
  requireError(vulkan()->copy(vulkan(), output.data(), input.data(), 8, TCC_COPY_DEVICE_TO_HOST),
               TCC_STATUS_INVALID_ARGUMENT, {"is not inside memory this device allocated"});
  requireError(vulkan()->copy(vulkan(), static_cast<char *>(a) + 1200, input.data(), 600,
                              TCC_COPY_HOST_TO_DEVICE),
               TCC_STATUS_INVALID_ARGUMENT, {"is not inside memory this device allocated"});
  requireError(vulkan()->fill(vulkan(), input.data(), 0, 8), TCC_STATUS_INVALID_ARGUMENT,
               {"vulkan device: fill:", "is not inside memory this device allocated"});
  vulkan()->free(vulkan(), a);
  vulkan()->free(vulkan(), b);
  // Queues: nothing recorded, nothing to wait for.
  tcc_device_queue *queue = nullptr;
  REQUIRE_OK(vulkan()->create_queue(vulkan(), 1, &queue));
  REQUIRE_OK(vulkan()->synchronize(vulkan(), queue));
  vulkan()->destroy_queue(vulkan(), queue);
}
