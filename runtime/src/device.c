//===- device.c - the backends this runtime has, and the names of DLPack device types ----===//
#include "device.h"
#include "status_internal.h"

/// Every backend compiled into the runtime; a GPU backend adds itself here.
static const tcc_device *const backends[] = {&tcc_cpu_device, &tcc_cuda_device};

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
