//===- MetalDeviceTest.cpp - Metal Shading Language images and the Metal backend -----------===//
//
// Runs everywhere. The MSL image of a model compiled with `--target apple` is checked when
// the model loads, on every system (metal/msl_image.h): a unit for every kernel, well-formed
// marker lines. Off macOS the Metal backend says, for every call that needs a GPU, that Metal
// is macOS's; its real implementation (metal_device.m) is built and run on a Mac only
// (test/Target/Apple/metal-backend-syntax.test checks its syntax here).
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"

#include "device.h"
#include "metal/msl_image.h"

#include <cstring>
#include <string>
#include <vector>

using namespace tcc_test;

namespace {
const tcc_device *metal() { return &tcc_metal_device; }

/// The add_cuda fixture's descriptor (a device model with kernels add_kernel and
/// check_kernel), to copy and make a Metal one.
const tcc_model_descriptor &deviceDescriptor() { return fixtureDescriptor("add_cuda"); }

/// An image over `text` with its NUL.
tcc_device_image mslImage(const std::string &text) {
  return {"metal3", TCC_IMAGE_MSL, 0, text.c_str(), static_cast<int64_t>(text.size() + 1)};
}

const std::string kHeader = "// Metal Shading Language 3.0, made by tcc\n";
const std::string kAdd = TCC_MSL_KERNEL_MARKER "add_kernel add_kernel\n"
                                               "#include <metal_stdlib>\n"
                                               "kernel void add_kernel() {}\n";
const std::string kCheck = TCC_MSL_KERNEL_MARKER "check_kernel check_kernel\n"
                                                 "kernel void check_kernel() {}\n";

/// Every unit of `text`: "name function" and the source.
std::vector<std::pair<std::string, std::string>> units(const std::string &text) {
  std::vector<std::pair<std::string, std::string>> found;
  size_t cursor = 0;
  tcc_msl_unit unit;
  int read;
  while ((read = tcc_msl_next_unit(text.c_str(), text.size(), &cursor, &unit)) == 1)
    found.emplace_back(std::string(unit.name, unit.name_size) + " " +
                           std::string(unit.function, unit.function_size),
                       std::string(unit.source, unit.source_size));
  if (read < 0)
    found.emplace_back("malformed at " + std::to_string(cursor), "");
  return found;
}
} // namespace

TEST_CASE("kDLMetal finds the metal backend; MSL images are for Metal models", "[metal]") {
  const tcc_device *device = nullptr;
  REQUIRE_OK(tcc_device_for_type(kDLMetal, &device));
  CHECK(device == metal());
  CHECK(std::string(device->name) == "metal");
  CHECK(device->type == kDLMetal);
  CHECK(device->load_module != nullptr);
  CHECK(device->launch_kernel != nullptr);
  CHECK(device->begin_capture == nullptr);
  CHECK(std::string(tcc_image_format_name(TCC_IMAGE_MSL)) == "MSL");
  CHECK(tcc_image_format_device_type(TCC_IMAGE_MSL) == kDLMetal);
}

TEST_CASE("an MSL image's units are read line by line", "[metal]") {
  std::string text = kHeader + kAdd + kCheck;
  auto found = units(text);
  REQUIRE(found.size() == 2);
  CHECK(found[0].first == "add_kernel add_kernel");
  CHECK(found[0].second == "#include <metal_stdlib>\nkernel void add_kernel() {}\n");
  CHECK(found[1].first == "check_kernel check_kernel");
  CHECK(found[1].second == "kernel void check_kernel() {}\n");

  // A marker inside a line is text; a last unit without a newline ends at the text's end;
  // the function may differ from the kernel's name.
  found = units("x // tcc-kernel: a a\n" TCC_MSL_KERNEL_MARKER "b__c b_c\nkernel void b_c() {}");
  REQUIRE(found.size() == 1);
  CHECK(found[0].first == "b__c b_c");
  CHECK(found[0].second == "kernel void b_c() {}");
  found = units(TCC_MSL_KERNEL_MARKER "a a");
  REQUIRE(found.size() == 1);
  CHECK(found[0].second.empty());
  CHECK(units("kernel void a() {}\n").empty());
  CHECK(units("").empty());

  // Malformed marker lines: no function, an empty name, a function that is no identifier.
  for (const char *bad :
       {TCC_MSL_KERNEL_MARKER "a\n", TCC_MSL_KERNEL_MARKER " a\n", TCC_MSL_KERNEL_MARKER "a 1a\n",
        TCC_MSL_KERNEL_MARKER "a a b\n", TCC_MSL_KERNEL_MARKER "a \n"}) {
    INFO(bad);
    found = units(std::string("// header\n") + bad);
    REQUIRE(found.size() == 1);
    CHECK(found[0].first == "malformed at 10");
  }
}

TEST_CASE("a Metal model's MSL image is checked at load", "[metal][model][errors]") {
  tcc_model_descriptor d = deviceDescriptor();
  d.device_type = kDLMetal;
  std::string good = kHeader + kCheck + kAdd;
  tcc_device_image image = mslImage(good);
  d.device_images = &image;
  REQUIRE_OK(createFrom(d));

  struct Case {
    std::string text;
    std::vector<std::string> message;
  };
  const std::vector<Case> cases = {
      {kHeader + kAdd,
       {"device image 0: the MSL image has no unit of kernel 'check_kernel' (a line '// "
        "tcc-kernel: check_kernel <function>')"}},
      {kHeader + kAdd + kCheck + kAdd,
       {"the MSL image has two units of kernel 'add_kernel' "
        "(the second at line 7)"}},
      {kHeader + kAdd + TCC_MSL_KERNEL_MARKER "check_kernel\n",
       {"line 5 of the MSL image starts with '// tcc-kernel: ' but is not '// tcc-kernel: "
        "<kernel> <function>'"}},
  };
  for (const Case &c : cases) {
    INFO(c.text);
    image = mslImage(c.text);
    requireError(createFrom(d), TCC_STATUS_INVALID_MODEL, c.message);
  }
  // Text without its NUL within the size.
  image = mslImage(good);
  image.size -= 1;
  requireError(createFrom(d), TCC_STATUS_INVALID_MODEL,
               {"device image 0 (metal3 MSL) is not NUL-terminated within its"});
  // Units of kernels the model does not have are not used, and not refused.
  std::string extra = good + TCC_MSL_KERNEL_MARKER "other other\n";
  image = mslImage(extra);
  REQUIRE_OK(createFrom(d));
  // An MSL image in a CUDA model, and a PTX image in a Metal model, are refused.
  image = mslImage(good);
  tcc_model_descriptor cuda = deviceDescriptor();
  cuda.device_images = &image;
  requireError(createFrom(cuda), TCC_STATUS_INVALID_MODEL,
               {"has the format 5 (MSL), which is for Metal models"});
  const tcc_device_image ptx = {"sm_80", TCC_IMAGE_PTX, 0, "x", 2};
  d.device_images = &ptx;
  requireError(createFrom(d), TCC_STATUS_INVALID_MODEL,
               {"has the format 1 (PTX), which is for CUDA models", "expected 5 (MSL)"});
}

#ifndef __APPLE__
TEST_CASE("off macOS a Metal model loads and the Metal backend says why it cannot run",
          "[metal][errors]") {
  const char *why = "Metal runs on macOS only, and this runtime was built for another system";
  void *memory = nullptr;
  requireError(metal()->allocate(metal(), 16, 16, &memory), TCC_STATUS_UNIMPLEMENTED,
               {"metal device: allocate: ", why});
  tcc_device_queue *queue = nullptr;
  requireError(metal()->create_queue(metal(), 1, &queue), TCC_STATUS_UNIMPLEMENTED,
               {"metal device: create_queue: ", why});
  tcc_model_descriptor d = deviceDescriptor();
  d.device_type = kDLMetal;
  std::string good = kHeader + kAdd + kCheck;
  tcc_device_image image = mslImage(good);
  d.device_images = &image;
  tcc_model *model = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&d, nullptr, &model));
  tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
  tcc_session *session = nullptr;
  requireError(tcc_session_create(model, &options, &session), TCC_STATUS_UNIMPLEMENTED,
               {"metal device: ", why});
  tcc_model_release(model);
}
#endif
