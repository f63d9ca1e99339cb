//===- HsacoFuzzer.cpp - libFuzzer target: the runtime's AMD code object checks ----------===//
//
// A model's device images come from a file the runtime must not trust (model_device.c checks
// them when the model loads): tcc_hsaco_inspect and tcc_hsaco_check_image must accept or
// refuse any bytes without reading outside them (ASan checks the reads: the bytes are copied
// into a buffer of exactly their size).
//
//===------------------------------------------------------------------------------------===//
#include "hip/hsaco.h"

#include <cstring>
#include <initializer_list>
#include <memory>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // An exact-size copy, so that a read one past the end is a heap overflow.
  std::unique_ptr<uint8_t[]> image(new uint8_t[size ? size : 1]);
  if (size)
    std::memcpy(image.get(), data, size);
  tcc_hsaco_info info;
  tcc_status status = tcc_hsaco_inspect(image.get(), size, &info);
  if (!status) {
    for (const char *kernel : {"k", "kernel_0_relu_kernel", "", "a.kd"})
      (void)tcc_hsaco_has_kernel(&info, kernel);
  }
  tcc_status_free(status);
  // The whole check of a model's image, as at load: a chip from the bytes, two kernels.
  static const char *const kernels[] = {"k", "kernel_0_relu_kernel"};
  tcc_model_descriptor descriptor;
  std::memset(&descriptor, 0, sizeof(descriptor));
  descriptor.num_device_kernels = 2;
  descriptor.device_kernel_names = kernels;
  tcc_device_image entry = {status ? "gfx942" : (info.chip ? info.chip : "gfx942"), TCC_IMAGE_HSACO,
                            0, image.get(), static_cast<int64_t>(size)};
  tcc_status_free(tcc_hsaco_check_image(&descriptor, &entry));
  return 0;
}
