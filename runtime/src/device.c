//===- device.c - the backends this runtime has; names of device types and image formats -===//
#include "device.h"
#include "status_internal.h"

/// Every backend compiled into the runtime; a GPU backend adds itself here.
static const tcc_device *const backends[] = {&tcc_cpu_device, &tcc_cuda_device, &tcc_hip_device,
                                             &tcc_vulkan_device, &tcc_metal_device};

typedef struct device_type_names {
  int32_t type;
  const char *name;
  const char *enumerator;
} device_type_names;

static const device_type_names type_names[] = {
    {kDLCPU, "CPU", "kDLCPU"},
    {kDLCUDA, "CUDA", "kDLCUDA"},
    {kDLCUDAHost, "CUDA host", "kDLCUDAHost"},
    {kDLOpenCL, "OpenCL", "kDLOpenCL"},
    {kDLVulkan, "Vulkan", "kDLVulkan"},
    {kDLMetal, "Metal", "kDLMetal"},
    {kDLVPI, "VPI", "kDLVPI"},
    {kDLROCM, "ROCm", "kDLROCM"},
    {kDLROCMHost, "ROCm host", "kDLROCMHost"},
    {kDLExtDev, "external device", "kDLExtDev"},
    {kDLCUDAManaged, "CUDA managed", "kDLCUDAManaged"},
    // Codes of DLPack versions after the 0.6 whose header the runtime builds against.
    {14, "oneAPI", "kDLOneAPI"},
    {15, "WebGPU", "kDLWebGPU"},
    {16, "Hexagon", "kDLHexagon"},
};

static const device_type_names *find_names(DLDeviceType type) {
  for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); ++i)
    if (type_names[i].type == (int32_t)type)
      return &type_names[i];
  return NULL;
}

const char *tcc_device_type_name(DLDeviceType type) {
  const device_type_names *names = find_names(type);
  return names ? names->name : "unknown";
}

const char *tcc_device_type_enumerator(DLDeviceType type) {
  const device_type_names *names = find_names(type);
  return names ? names->enumerator : "unknown";
}

/// The formats of device images (model_abi.h) and the device type whose models carry them.
static const struct {
  int32_t format;
  const char *name;
  int32_t device_type;
} image_formats[] = {
    {TCC_IMAGE_PTX, "PTX", kDLCUDA},     {TCC_IMAGE_CUBIN, "cubin", kDLCUDA},
    {TCC_IMAGE_HSACO, "HSACO", kDLROCM}, {TCC_IMAGE_SPIRV, "SPIR-V", kDLVulkan},
    {TCC_IMAGE_MSL, "MSL", kDLMetal},
};

const char *tcc_image_format_name(int32_t format) {
  for (size_t i = 0; i < sizeof(image_formats) / sizeof(image_formats[0]); ++i)
    if (image_formats[i].format == format)
      return image_formats[i].name;
  return "unknown";
}

int32_t tcc_image_format_device_type(int32_t format) {
  for (size_t i = 0; i < sizeof(image_formats) / sizeof(image_formats[0]); ++i)
    if (image_formats[i].format == format)
      return image_formats[i].device_type;
  return 0;
}

tcc_status tcc_device_for_type(DLDeviceType type, const tcc_device **out_device) {
  if (!out_device)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "tcc_device_for_type: out_device is null");
  for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); ++i)
    if (backends[i]->type == type) {
      *out_device = backends[i];
      return NULL;
    }
  return tcc_make_status(TCC_STATUS_UNIMPLEMENTED,
                         "tcc_device_for_type: this runtime has no backend for device type %d "
                         "(%s, %s)",
                         (int)type, tcc_device_type_name(type), tcc_device_type_enumerator(type));
}

tcc_status tcc_device_check_allocate(const tcc_device *device, size_t alignment,
                                     void *const *out_memory) {
  if (!out_memory)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: allocate: out_memory is null",
                           device->name);
  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: allocate: alignment is %zu, expected a power of two",
                           device->name, alignment);
  return NULL;
}

tcc_status tcc_device_check_copy(const tcc_device *device, const void *destination,
                                 const void *source, size_t bytes, tcc_copy_kind kind) {
  if (kind != TCC_COPY_HOST_TO_DEVICE && kind != TCC_COPY_DEVICE_TO_HOST &&
      kind != TCC_COPY_DEVICE_TO_DEVICE)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: copy: the copy kind %d is unknown, expected 0 to 2",
                           device->name, (int)kind);
  if (bytes > 0 && (!destination || !source))
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: copy: %s is null (%zu bytes)",
                           device->name, destination ? "source" : "destination", bytes);
  return NULL;
}

tcc_status tcc_device_check_fill(const tcc_device *device, const void *destination, size_t bytes) {
  if (bytes > 0 && !destination)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: fill: destination is null (%zu bytes)", device->name, bytes);
  return NULL;
}
