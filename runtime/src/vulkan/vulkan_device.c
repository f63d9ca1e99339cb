//===- vulkan_device.c - the Vulkan backend: SPIR-V kernels through Vulkan compute --------===//
//
// Models compiled with `--target vulkan` carry one SPIR-V module whose kernels take device
// memory as 64-bit buffer device addresses (Vulkan 1.2's bufferDeviceAddress), so the host
// code passes pointers exactly as it does to CUDA kernels. This backend makes that true:
// every allocation is one VkBuffer (storage, transfer, shader device address) bound to its own
// device-local memory, and the "device pointer" it returns is an address inside it; copies
// and fills find the buffer an address belongs to in the allocation table.
//
// The loader is opened at run time (dlopen("libvulkan.so.1")): the runtime has no link-time
// Vulkan dependency, and a machine without a loader, a driver or a GPU with buffer device
// addresses gets a clear status. The device is physical device $TCC_VULKAN_DEVICE (default
// 0) with one compute queue. A tcc queue is a command buffer that records launches (each
// after a barrier on all earlier work) and is submitted by synchronize; copies and fills are
// their own submissions, waited for before they return (as CUDA's synchronous copies). A
// kernel's parameters are the 8-byte slots of the launch's NULL-terminated argument array,
// pushed as push constants (model_abi.h, TCC_IMAGE_SPIRV). There are no graphs.
//
//===------------------------------------------------------------------------------------===//
#include "device.h"

#if __has_include(<vulkan/vulkan.h>)
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "gpu/gpu_device.h"
#include "gpu/gpu_setup.h"
#include "model_internal.h"
#include "status_internal.h"
#include "threads_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// How long a submission may take before the wait fails with VK_TIMEOUT.
#define WAIT_NANOSECONDS (UINT64_C(60) * 1000 * 1000 * 1000)
/// Bytes of the host-visible buffer that copies go through.
#define STAGING_BYTES ((VkDeviceSize)16 << 20)
/// Push-constant slots of a kernel (the 128 bytes Vulkan promises): a kernel with more
/// parameters reads slots 0-14 there and the rest at the device address in slot 15.
#define PUSH_SLOTS 16
/// The most parameters a launch may pass.
#define MAX_PARAMETERS 4096
/// Bytes of a queue's arena for the parameters beyond the push constants.
#define ARENA_BYTES ((VkDeviceSize)1 << 20)

typedef struct allocation {
  VkDeviceAddress address; // of the buffer's first byte
  VkDeviceSize size;
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *user; // what allocate returned (address rounded up to the alignment asked)
} allocation;

#define VK_FUNCTIONS(X)                                                                            \
  X(vkGetPhysicalDeviceProperties)                                                                 \
  X(vkGetPhysicalDeviceFeatures2)                                                                  \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                                      \
  X(vkGetPhysicalDeviceMemoryProperties)                                                           \
  X(vkEnumeratePhysicalDevices)                                                                    \
  X(vkCreateDevice)                                                                                \
  X(vkGetDeviceProcAddr)
#define VK_DEVICE_FUNCTIONS(X)                                                                     \
  X(vkGetDeviceQueue)                                                                              \
  X(vkCreateBuffer)                                                                                \
  X(vkDestroyBuffer)                                                                               \
  X(vkGetBufferMemoryRequirements)                                                                 \
  X(vkAllocateMemory)                                                                              \
  X(vkFreeMemory)                                                                                  \
  X(vkBindBufferMemory)                                                                            \
  X(vkGetBufferDeviceAddress)                                                                      \
  X(vkMapMemory)                                                                                   \
  X(vkCreateCommandPool)                                                                           \
  X(vkDestroyCommandPool)                                                                          \
  X(vkAllocateCommandBuffers)                                                                      \
  X(vkBeginCommandBuffer)                                                                          \
  X(vkEndCommandBuffer)                                                                            \
  X(vkResetCommandBuffer)                                                                          \
  X(vkCmdCopyBuffer)                                                                               \
  X(vkCmdFillBuffer)                                                                               \
  X(vkCmdPipelineBarrier)                                                                          \
  X(vkCmdBindPipeline)                                                                             \
  X(vkCmdPushConstants)                                                                            \
  X(vkCmdDispatch)                                                                                 \
  X(vkQueueSubmit)                                                                                 \
  X(vkCreateFence)                                                                                 \
  X(vkDestroyFence)                                                                                \
  X(vkWaitForFences)                                                                               \
  X(vkResetFences)                                                                                 \
  X(vkCreateShaderModule)                                                                          \
  X(vkDestroyShaderModule)                                                                         \
  X(vkCreatePipelineLayout)                                                                        \
  X(vkCreateComputePipelines)                                                                      \
  X(vkDestroyPipeline)

#define DECLARE(name) PFN_##name name;

/// The loader, the device and what every call shares; set up once per process.
static struct {
  tcc_gpu_setup setup;
  int32_t ordinal;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
  VK_FUNCTIONS(DECLARE)
  VK_DEVICE_FUNCTIONS(DECLARE)
  VkInstance instance;
  VkPhysicalDevice physical;
  VkPhysicalDeviceProperties properties;
  /// Subgroups: their size; whether compute pipelines can require 32 (subgroup size control).
  uint32_t subgroup_size;
  int require_subgroup_32;
  VkPhysicalDeviceMemoryProperties memory;
  VkDevice device;
  VkQueue queue;
  uint32_t family;
  VkPipelineLayout layout;

  /// Submissions to `queue` and the transfer objects below.
  pthread_mutex_t queue_mutex;
  VkCommandPool transfer_pool;
  VkCommandBuffer transfer;
  VkFence transfer_fence;
  allocation staging;
  void *staging_mapped;

  /// The allocation table.
  pthread_mutex_t table_mutex;
  allocation *allocations;
  size_t num_allocations, capacity;
} vk;

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

struct tcc_device_queue {
  VkCommandPool pool;
  VkCommandBuffer commands;
  VkFence fence;
  int recording;
  /// Host-visible device memory for the parameters beyond the push constants of the
  /// launches recorded; reused once they have run.
  allocation arena;
  unsigned char *arena_mapped;
  VkDeviceSize arena_used;
};

struct tcc_device_module {
  VkShaderModule shader;
  VkPipeline *pipelines;
  int32_t num_kernels;
  const char *const *names;
};

static const char *vk_result_name(VkResult result) {
  switch (result) {
  case VK_ERROR_OUT_OF_HOST_MEMORY:
    return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  case VK_ERROR_INITIALIZATION_FAILED:
    return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_DEVICE_LOST:
    return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_INCOMPATIBLE_DRIVER:
    return "VK_ERROR_INCOMPATIBLE_DRIVER";
  case VK_ERROR_FEATURE_NOT_PRESENT:
    return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_EXTENSION_NOT_PRESENT:
    return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_INVALID_SHADER_NV:
    return "VK_ERROR_INVALID_SHADER_NV";
  case VK_TIMEOUT:
    return "VK_TIMEOUT";
  default:
    return "VkResult";
  }
}

static tcc_status vk_failure(const char *function, const char *call, VkResult result) {
  return tcc_make_status(
      result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY
          ? TCC_STATUS_RESOURCE_EXHAUSTED
          : TCC_STATUS_INTERNAL,
      "vulkan device: %s: %s failed: %s (%d)", function, call, vk_result_name(result), (int)result);
}

//===------------------------------------------------------------------------------------===//
// Setup: loader, instance, physical device, device, queue
//===------------------------------------------------------------------------------------===//

static int find_memory_type(uint32_t bits, VkMemoryPropertyFlags wanted) {
  for (uint32_t i = 0; i < vk.memory.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (vk.memory.memoryTypes[i].propertyFlags & wanted) == wanted)
      return (int)i;
  return -1;
}

static VkResult create_buffer(VkDeviceSize size, VkMemoryPropertyFlags properties,
                              allocation *out) {
  VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult result = vk.vkCreateBuffer(vk.device, &info, NULL, &buffer);
  if (result != VK_SUCCESS)
    return result;
  VkMemoryRequirements requirements;
  vk.vkGetBufferMemoryRequirements(vk.device, buffer, &requirements);
  int type = find_memory_type(requirements.memoryTypeBits, properties);
  if (type < 0) {
    vk.vkDestroyBuffer(vk.device, buffer, NULL);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                     .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
  VkMemoryAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                   .pNext = &flags,
                                   .allocationSize = requirements.size,
                                   .memoryTypeIndex = (uint32_t)type};
  VkDeviceMemory memory = VK_NULL_HANDLE;
  result = vk.vkAllocateMemory(vk.device, &allocate, NULL, &memory);
  if (result == VK_SUCCESS)
    result = vk.vkBindBufferMemory(vk.device, buffer, memory, 0);
  if (result != VK_SUCCESS) {
    if (memory)
      vk.vkFreeMemory(vk.device, memory, NULL);
    vk.vkDestroyBuffer(vk.device, buffer, NULL);
    return result;
  }
  VkBufferDeviceAddressInfo address = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                       .buffer = buffer};
  out->address = vk.vkGetBufferDeviceAddress(vk.device, &address);
  out->size = size;
  out->buffer = buffer;
  out->memory = memory;
  out->user = (void *)(uintptr_t)out->address;
  return VK_SUCCESS;
}

static void destroy_buffer(allocation *a) {
  if (a->buffer)
    vk.vkDestroyBuffer(vk.device, a->buffer, NULL);
  if (a->memory)
    vk.vkFreeMemory(vk.device, a->memory, NULL);
  memset(a, 0, sizeof(*a));
}

/// Enables what the kernels may use (SpirvEnvironment.h) where the GPU has it; buffer device
/// addresses are required.
static int pick_features(VkPhysicalDeviceVulkan13Features *v13,
                         VkPhysicalDeviceVulkan12Features *v12,
                         VkPhysicalDeviceVulkan11Features *v11, VkPhysicalDeviceFeatures2 *all) {
  memset(v13, 0, sizeof(*v13));
  memset(v12, 0, sizeof(*v12));
  memset(v11, 0, sizeof(*v11));
  memset(all, 0, sizeof(*all));
  v12->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  v11->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  v11->pNext = v12;
  all->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  all->pNext = v11;
  vk.vkGetPhysicalDeviceFeatures2(vk.physical, all);
  if (!v12->bufferDeviceAddress)
    return 0;
  // Keep only what the kernels may need.
  VkPhysicalDeviceVulkan12Features keep12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .bufferDeviceAddress = VK_TRUE,
      .storageBuffer8BitAccess = v12->storageBuffer8BitAccess,
      .shaderFloat16 = v12->shaderFloat16,
      .shaderInt8 = v12->shaderInt8};
  VkPhysicalDeviceVulkan11Features keep11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
      .storageBuffer16BitAccess = v11->storageBuffer16BitAccess};
  VkPhysicalDeviceFeatures keep = {.shaderInt64 = all->features.shaderInt64,
                                   .shaderInt16 = all->features.shaderInt16,
                                   .shaderFloat64 = all->features.shaderFloat64};
  *v12 = keep12;
  *v11 = keep11;
  v11->pNext = v12;
  if (vk.require_subgroup_32) {
    v13->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    v13->subgroupSizeControl = VK_TRUE;
    v12->pNext = v13;
  }
  all->features = keep;
  all->pNext = v11;
  return 1;
}

static void setup_vulkan(void) {
  tcc_gpu_setup *setup = &vk.setup;
  setup->code = TCC_STATUS_OK;
  pthread_mutex_init(&vk.queue_mutex, NULL);
  pthread_mutex_init(&vk.table_mutex, NULL);
  tcc_gpu_read_ordinal("TCC_VULKAN_DEVICE", &vk.ordinal, setup->error, sizeof(setup->error));
  if (setup->error[0]) {
    setup->code = TCC_STATUS_INVALID_ARGUMENT;
    return;
  }
  void *library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED,
                       "cannot load the Vulkan loader libvulkan.so.1 (%s): is a Vulkan driver "
                       "installed?",
                       why ? why : "not found");
    return;
  }
  vk.vkGetInstanceProcAddr = (PFN_vkGetInstanceProcAddr)dlsym(library, "vkGetInstanceProcAddr");
  PFN_vkCreateInstance create_instance =
      vk.vkGetInstanceProcAddr
          ? (PFN_vkCreateInstance)vk.vkGetInstanceProcAddr(NULL, "vkCreateInstance")
          : NULL;
  if (!create_instance) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED,
                       "libvulkan.so.1 has no vkGetInstanceProcAddr or vkCreateInstance");
    return;
  }
  VkApplicationInfo application = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                                   .pApplicationName = "tcc",
                                   .apiVersion = VK_API_VERSION_1_2};
  VkInstanceCreateInfo instance_info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                        .pApplicationInfo = &application};
  VkResult result = create_instance(&instance_info, NULL, &vk.instance);
  if (result != VK_SUCCESS) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED,
                       "vkCreateInstance (Vulkan 1.2) failed: %s (%d): no Vulkan driver?",
                       vk_result_name(result), (int)result);
    return;
  }
#define LOAD(name)                                                                                 \
  vk.name = (PFN_##name)vk.vkGetInstanceProcAddr(vk.instance, #name);                              \
  if (!vk.name) {                                                                                  \
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED, "the Vulkan loader has no %s", #name);     \
    return;                                                                                        \
  }
  VK_FUNCTIONS(LOAD)
#undef LOAD
  uint32_t count = 0;
  result = vk.vkEnumeratePhysicalDevices(vk.instance, &count, NULL);
  if (result != VK_SUCCESS || count == 0) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED, "Vulkan finds no GPU");
    return;
  }
  if ((uint32_t)vk.ordinal >= count) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INVALID_ARGUMENT,
                       "TCC_VULKAN_DEVICE is %d, but Vulkan finds %u device(s)", (int)vk.ordinal,
                       count);
    return;
  }
  VkPhysicalDevice *devices = calloc(count, sizeof(VkPhysicalDevice));
  if (!devices) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  vk.vkEnumeratePhysicalDevices(vk.instance, &count, devices);
  vk.physical = devices[vk.ordinal];
  free(devices);
  vk.vkGetPhysicalDeviceProperties(vk.physical, &vk.properties);
  PFN_vkGetPhysicalDeviceProperties2 properties2 =
      (PFN_vkGetPhysicalDeviceProperties2)vk.vkGetInstanceProcAddr(
          vk.instance, "vkGetPhysicalDeviceProperties2");
  if (properties2) {
    VkPhysicalDeviceSubgroupSizeControlProperties control = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceVulkan11Properties v11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES,
        .pNext = vk.properties.apiVersion >= VK_API_VERSION_1_3 ? &control : NULL};
    VkPhysicalDeviceProperties2 all = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                       .pNext = &v11};
    properties2(vk.physical, &all);
    vk.subgroup_size = v11.subgroupSize;
    vk.require_subgroup_32 = vk.properties.apiVersion >= VK_API_VERSION_1_3 &&
                             vk.subgroup_size < 32 && control.minSubgroupSize <= 32 &&
                             control.maxSubgroupSize >= 32 &&
                             (control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  }
  vk.vkGetPhysicalDeviceMemoryProperties(vk.physical, &vk.memory);
  if (vk.properties.apiVersion < VK_API_VERSION_1_2) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INCOMPATIBLE,
                       "%s supports Vulkan %u.%u, the kernels need 1.2", vk.properties.deviceName,
                       VK_API_VERSION_MAJOR(vk.properties.apiVersion),
                       VK_API_VERSION_MINOR(vk.properties.apiVersion));
    return;
  }
  VkPhysicalDeviceVulkan13Features v13;
  VkPhysicalDeviceVulkan12Features v12;
  VkPhysicalDeviceVulkan11Features v11;
  VkPhysicalDeviceFeatures2 features;
  if (!pick_features(&v13, &v12, &v11, &features)) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INCOMPATIBLE,
                       "%s has no bufferDeviceAddress, which the kernels need",
                       vk.properties.deviceName);
    return;
  }
  uint32_t families = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(vk.physical, &families, NULL);
  VkQueueFamilyProperties family_properties[16];
  if (families > 16)
    families = 16;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(vk.physical, &families, family_properties);
  vk.family = UINT32_MAX;
  for (uint32_t i = 0; i < families && vk.family == UINT32_MAX; ++i)
    if (family_properties[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      vk.family = i;
  if (vk.family == UINT32_MAX) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INCOMPATIBLE, "%s has no compute queue",
                       vk.properties.deviceName);
    return;
  }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                        .queueFamilyIndex = vk.family,
                                        .queueCount = 1,
                                        .pQueuePriorities = &priority};
  VkDeviceCreateInfo device_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                    .pNext = &features,
                                    .queueCreateInfoCount = 1,
                                    .pQueueCreateInfos = &queue_info};
  result = vk.vkCreateDevice(vk.physical, &device_info, NULL, &vk.device);
  if (result != VK_SUCCESS) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED, "vkCreateDevice on %s failed: %s (%d)",
                       vk.properties.deviceName, vk_result_name(result), (int)result);
    return;
  }
#define LOAD(name)                                                                                 \
  vk.name = (PFN_##name)vk.vkGetDeviceProcAddr(vk.device, #name);                                  \
  if (!vk.name) {                                                                                  \
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED, "the Vulkan device has no %s", #name);     \
    return;                                                                                        \
  }
  VK_DEVICE_FUNCTIONS(LOAD)
#undef LOAD
  vk.vkGetDeviceQueue(vk.device, vk.family, 0, &vk.queue);

  VkPushConstantRange range = {
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = PUSH_SLOTS * 8};
  VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                            .pushConstantRangeCount = 1,
                                            .pPushConstantRanges = &range};
  VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                       .queueFamilyIndex = vk.family};
  VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if ((result = vk.vkCreatePipelineLayout(vk.device, &layout_info, NULL, &vk.layout)) ||
      (result = vk.vkCreateCommandPool(vk.device, &pool_info, NULL, &vk.transfer_pool)) ||
      (result = vk.vkCreateFence(vk.device, &fence_info, NULL, &vk.transfer_fence))) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INTERNAL, "setting up %s failed: %s (%d)",
                       vk.properties.deviceName, vk_result_name(result), (int)result);
    return;
  }
  VkCommandBufferAllocateInfo command_info = {.sType =
                                                  VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                              .commandPool = vk.transfer_pool,
                                              .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                              .commandBufferCount = 1};
  if ((result = vk.vkAllocateCommandBuffers(vk.device, &command_info, &vk.transfer)) ||
      (result =
           create_buffer(STAGING_BYTES,
                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                         &vk.staging)) ||
      (result =
           vk.vkMapMemory(vk.device, vk.staging.memory, 0, STAGING_BYTES, 0, &vk.staging_mapped))) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INTERNAL, "setting up copies on %s failed: %s (%d)",
                       vk.properties.deviceName, vk_result_name(result), (int)result);
    return;
  }
}

static tcc_status enter(const char *function) {
  pthread_once(&setup_once, setup_vulkan);
  if (vk.setup.code == TCC_STATUS_OK)
    return NULL;
  return tcc_make_status(vk.setup.code, "vulkan device: %s: %s", function, vk.setup.error);
}

//===------------------------------------------------------------------------------------===//
// Memory
//===------------------------------------------------------------------------------------===//

/// The allocation holding [address, address + bytes), copied into *out; 0 when none does.
static int find_allocation(uintptr_t address, size_t bytes, allocation *out) {
  int found = 0;
  pthread_mutex_lock(&vk.table_mutex);
  for (size_t i = 0; i < vk.num_allocations && !found; ++i) {
    const allocation *a = &vk.allocations[i];
    if (address >= a->address && address - a->address <= a->size &&
        bytes <= a->size - (address - a->address)) {
      *out = *a;
      found = 1;
    }
  }
  pthread_mutex_unlock(&vk.table_mutex);
  return found;
}

static tcc_status not_device_memory(const char *function, const void *pointer, size_t bytes) {
  return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                         "vulkan device: %s: [%p, +%zu) is not inside memory this device "
                         "allocated",
                         function, pointer, bytes);
}

static tcc_status vulkan_allocate(const tcc_device *device, size_t bytes, size_t alignment,
                                  void **out_memory) {
  tcc_status status = tcc_device_check_allocate(device, alignment, out_memory);
  if (status || (status = enter("allocate")))
    return status;
  allocation a;
  // Room to round the address up to `alignment` (a distinct block for 0 bytes).
  VkDeviceSize size = (VkDeviceSize)(bytes ? bytes : 1) + alignment;
  VkResult result = create_buffer(size, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &a);
  if (result != VK_SUCCESS)
    return result == VK_ERROR_OUT_OF_DEVICE_MEMORY
               ? tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                                 "vulkan device: allocate: out of device memory for %zu bytes",
                                 bytes)
               : vk_failure("allocate", "vkCreateBuffer/vkAllocateMemory", result);
  a.user = (void *)(uintptr_t)((a.address + alignment - 1) & ~(VkDeviceAddress)(alignment - 1));
  pthread_mutex_lock(&vk.table_mutex);
  if (vk.num_allocations == vk.capacity) {
    size_t capacity = vk.capacity ? 2 * vk.capacity : 64;
    allocation *grown = realloc(vk.allocations, capacity * sizeof(allocation));
    if (!grown) {
      pthread_mutex_unlock(&vk.table_mutex);
      destroy_buffer(&a);
      return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "vulkan device: allocate: out of "
                                                            "memory");
    }
    vk.allocations = grown;
    vk.capacity = capacity;
  }
  vk.allocations[vk.num_allocations++] = a;
  pthread_mutex_unlock(&vk.table_mutex);
  *out_memory = a.user;
  return NULL;
}

static void vulkan_free(const tcc_device *device, void *memory) {
  (void)device;
  if (!memory || vk.setup.code != TCC_STATUS_OK)
    return;
  allocation a = {0};
  int found = 0;
  pthread_mutex_lock(&vk.table_mutex);
  for (size_t i = 0; i < vk.num_allocations; ++i)
    if (vk.allocations[i].user == memory) {
      a = vk.allocations[i];
      vk.allocations[i] = vk.allocations[--vk.num_allocations];
      found = 1;
      break;
    }
  pthread_mutex_unlock(&vk.table_mutex);
  if (found)
    destroy_buffer(&a);
}

/// Records `record` into the transfer command buffer after a barrier on all earlier work,
/// submits it and waits. Called with queue_mutex held.
typedef void (*record_fn)(VkCommandBuffer commands, void *arg);

static void barrier(VkCommandBuffer commands) {
  VkMemoryBarrier all = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  vk.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &all, 0, NULL, 0, NULL);
}

static VkResult submit_and_wait(VkCommandBuffer commands, VkFence fence) {
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .commandBufferCount = 1,
                         .pCommandBuffers = &commands};
  pthread_mutex_lock(&vk.queue_mutex);
  VkResult result = vk.vkQueueSubmit(vk.queue, 1, &submit, fence);
  pthread_mutex_unlock(&vk.queue_mutex);
  // A kernel that never ends (a bug) must not hang the caller: VK_TIMEOUT after a minute.
  if (result == VK_SUCCESS)
    result = vk.vkWaitForFences(vk.device, 1, &fence, VK_TRUE, WAIT_NANOSECONDS);
  vk.vkResetFences(vk.device, 1, &fence);
  return result;
}

typedef struct copy_region {
  VkBuffer source, destination;
  VkBufferCopy region;
  int fill;
  uint32_t pattern;
} copy_region;

static VkResult transfer(const copy_region *copy) {
  VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  VkResult result = vk.vkBeginCommandBuffer(vk.transfer, &begin);
  if (result != VK_SUCCESS)
    return result;
  barrier(vk.transfer);
  if (copy->fill)
    vk.vkCmdFillBuffer(vk.transfer, copy->destination, copy->region.dstOffset, copy->region.size,
                       copy->pattern);
  else
    vk.vkCmdCopyBuffer(vk.transfer, copy->source, copy->destination, 1, &copy->region);
  barrier(vk.transfer);
  result = vk.vkEndCommandBuffer(vk.transfer);
  if (result == VK_SUCCESS)
    result = submit_and_wait(vk.transfer, vk.transfer_fence);
  vk.vkResetCommandBuffer(vk.transfer, 0);
  return result;
}

/// The transfer objects and the staging buffer are shared: one copy at a time.
static pthread_mutex_t transfer_mutex = PTHREAD_MUTEX_INITIALIZER;

static tcc_status vulkan_copy(const tcc_device *device, void *destination, const void *source,
                              size_t bytes, tcc_copy_kind kind) {
  tcc_status status = tcc_device_check_copy(device, destination, source, bytes, kind);
  if (status || bytes == 0 || (status = enter("copy")))
    return status;
  allocation from = {0}, to = {0};
  if (kind != TCC_COPY_HOST_TO_DEVICE && !find_allocation((uintptr_t)source, bytes, &from))
    return not_device_memory("copy", source, bytes);
  if (kind != TCC_COPY_DEVICE_TO_HOST && !find_allocation((uintptr_t)destination, bytes, &to))
    return not_device_memory("copy", destination, bytes);
  VkResult result = VK_SUCCESS;
  pthread_mutex_lock(&transfer_mutex);
  if (kind == TCC_COPY_DEVICE_TO_DEVICE) {
    copy_region copy = {.source = from.buffer,
                        .destination = to.buffer,
                        .region = {.srcOffset = (uintptr_t)source - from.address,
                                   .dstOffset = (uintptr_t)destination - to.address,
                                   .size = bytes}};
    result = transfer(&copy);
  }
  for (size_t done = 0; kind != TCC_COPY_DEVICE_TO_DEVICE && done < bytes && !result;) {
    size_t chunk = bytes - done < STAGING_BYTES ? bytes - done : (size_t)STAGING_BYTES;
    copy_region copy = {.region = {.size = chunk}};
    if (kind == TCC_COPY_HOST_TO_DEVICE) {
      memcpy(vk.staging_mapped, (const char *)source + done, chunk);
      copy.source = vk.staging.buffer;
      copy.destination = to.buffer;
      copy.region.dstOffset = (uintptr_t)destination + done - to.address;
      result = transfer(&copy);
    } else {
      copy.source = from.buffer;
      copy.destination = vk.staging.buffer;
      copy.region.srcOffset = (uintptr_t)source + done - from.address;
      result = transfer(&copy);
      if (!result)
        memcpy((char *)destination + done, vk.staging_mapped, chunk);
    }
    done += chunk;
  }
  pthread_mutex_unlock(&transfer_mutex);
  return result == VK_SUCCESS ? NULL : vk_failure("copy", "vkQueueSubmit", result);
}

static tcc_status vulkan_fill(const tcc_device *device, void *destination, uint8_t value,
                              size_t bytes) {
  tcc_status status = tcc_device_check_fill(device, destination, bytes);
  if (status || bytes == 0 || (status = enter("fill")))
    return status;
  allocation to;
  if (!find_allocation((uintptr_t)destination, bytes, &to))
    return not_device_memory("fill", destination, bytes);
  VkDeviceSize offset = (uintptr_t)destination - to.address;
  if (offset % 4 != 0 || bytes % 4 != 0) {
    // vkCmdFillBuffer writes whole words: other fills go through the staging buffer.
    unsigned char *pattern = malloc(bytes);
    if (!pattern)
      return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "vulkan device: fill: out of memory");
    memset(pattern, value, bytes);
    status = vulkan_copy(device, destination, pattern, bytes, TCC_COPY_HOST_TO_DEVICE);
    free(pattern);
    return status;
  }
  copy_region fill = {.destination = to.buffer,
                      .region = {.dstOffset = offset, .size = bytes},
                      .fill = 1,
                      .pattern = 0x01010101u * value};
  pthread_mutex_lock(&transfer_mutex);
  VkResult result = transfer(&fill);
  pthread_mutex_unlock(&transfer_mutex);
  return result == VK_SUCCESS ? NULL : vk_failure("fill", "vkQueueSubmit", result);
}

//===------------------------------------------------------------------------------------===//
// Queues
//===------------------------------------------------------------------------------------===//

static void vulkan_destroy_queue(const tcc_device *device, tcc_device_queue *queue);

static tcc_status vulkan_create_queue(const tcc_device *device, int32_t num_threads,
                                      tcc_device_queue **out_queue) {
  (void)device;
  if (!out_queue || num_threads < 1 || num_threads > TCC_MAX_THREADS)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "vulkan device: create_queue: %s",
                           out_queue ? "bad num_threads" : "out_queue is null");
  tcc_status status = enter("create_queue");
  if (status)
    return status;
  tcc_device_queue *queue = calloc(1, sizeof(*queue));
  if (!queue)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "vulkan device: create_queue: out of memory");
  VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                       .queueFamilyIndex = vk.family};
  VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkResult result = vk.vkCreateCommandPool(vk.device, &pool_info, NULL, &queue->pool);
  if (result == VK_SUCCESS) {
    VkCommandBufferAllocateInfo command_info = {.sType =
                                                    VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                                .commandPool = queue->pool,
                                                .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                                .commandBufferCount = 1};
    result = vk.vkAllocateCommandBuffers(vk.device, &command_info, &queue->commands);
  }
  if (result == VK_SUCCESS)
    result = vk.vkCreateFence(vk.device, &fence_info, NULL, &queue->fence);
  if (result == VK_SUCCESS)
    result = create_buffer(
        ARENA_BYTES, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        &queue->arena);
  if (result == VK_SUCCESS)
    result = vk.vkMapMemory(vk.device, queue->arena.memory, 0, ARENA_BYTES, 0,
                            (void **)&queue->arena_mapped);
  if (result != VK_SUCCESS) {
    vulkan_destroy_queue(device, queue);
    return vk_failure("create_queue", "vkCreateCommandPool", result);
  }
  *out_queue = queue;
  return NULL;
}

/// Submits what the queue recorded and waits for it.
static VkResult flush(tcc_device_queue *queue) {
  if (!queue->recording)
    return VK_SUCCESS;
  queue->recording = 0;
  VkResult result = vk.vkEndCommandBuffer(queue->commands);
  if (result == VK_SUCCESS)
    result = submit_and_wait(queue->commands, queue->fence);
  vk.vkResetCommandBuffer(queue->commands, 0);
  queue->arena_used = 0;
  return result;
}

static void vulkan_destroy_queue(const tcc_device *device, tcc_device_queue *queue) {
  (void)device;
  if (!queue)
    return;
  if (queue->commands)
    (void)flush(queue);
  if (queue->fence)
    vk.vkDestroyFence(vk.device, queue->fence, NULL);
  if (queue->pool)
    vk.vkDestroyCommandPool(vk.device, queue->pool, NULL);
  destroy_buffer(&queue->arena);
  free(queue);
}

static tcc_status vulkan_synchronize(const tcc_device *device, tcc_device_queue *queue) {
  (void)device;
  if (!queue)
    return NULL;
  VkResult result = flush(queue);
  return result == VK_SUCCESS ? NULL : vk_failure("synchronize", "vkQueueSubmit", result);
}

static int32_t vulkan_device_id(const tcc_device *device) {
  (void)device;
  int32_t ordinal = 0;
  char error[160] = "";
  tcc_gpu_read_ordinal("TCC_VULKAN_DEVICE", &ordinal, error, sizeof(error));
  return ordinal;
}

//===------------------------------------------------------------------------------------===//
// Kernels
//===------------------------------------------------------------------------------------===//

static void vulkan_unload_module(const tcc_device *device, tcc_device_module *module) {
  (void)device;
  if (!module)
    return;
  for (int32_t k = 0; module->pipelines && k < module->num_kernels; ++k)
    if (module->pipelines[k])
      vk.vkDestroyPipeline(vk.device, module->pipelines[k], NULL);
  if (module->shader)
    vk.vkDestroyShaderModule(vk.device, module->shader, NULL);
  free(module->pipelines);
  free(module);
}

static tcc_status vulkan_load_module(const tcc_device *device, const tcc_model_descriptor *d,
                                     tcc_device_module **out_module) {
  if (!d || !out_module)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "vulkan device: load_module: %s is null",
                           d ? "out_module" : "descriptor");
  tcc_status status = enter("load_module");
  if (status)
    return status;
  // "vulkan1.2-subgroups" kernels reduce across 32 lanes with subgroup shuffles: they need
  // subgroups of at least 32 (wider ones act as groups of 32), or pipelines that can require
  // 32; "vulkan1.2" kernels run anywhere.
  int wide = vk.subgroup_size >= 32 || vk.require_subgroup_32;
  const tcc_device_image *image = NULL;
  for (int pass = 0; pass < 2 && !image; ++pass)
    for (int32_t i = 0; i < d->num_device_images && !image; ++i) {
      const tcc_device_image *candidate = &d->device_images[i];
      if (candidate->format != TCC_IMAGE_SPIRV)
        continue;
      if ((pass == 0 && wide && strcmp(candidate->arch, "vulkan1.2-subgroups") == 0) ||
          (pass == 1 && strcmp(candidate->arch, "vulkan1.2") == 0))
        image = candidate;
    }
  if (!image)
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "vulkan device: load_module: no SPIR-V image of the model runs on %s "
                           "(subgroups of %u%s): its kernels need subgroups of at least 32; "
                           "compile with --target vulkan for such devices",
                           vk.properties.deviceName, vk.subgroup_size,
                           vk.require_subgroup_32 ? "" : ", not adjustable to 32");
  tcc_device_module *module = calloc(1, sizeof(*module));
  if (module)
    module->pipelines = calloc((size_t)d->num_device_kernels, sizeof(VkPipeline));
  if (!module || !module->pipelines) {
    vulkan_unload_module(device, module);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "vulkan device: load_module: out of memory");
  }
  module->num_kernels = d->num_device_kernels;
  module->names = d->device_kernel_names;
  VkShaderModuleCreateInfo shader_info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                          .codeSize = (size_t)image->size,
                                          .pCode = image->data};
  VkResult result = vk.vkCreateShaderModule(vk.device, &shader_info, NULL, &module->shader);
  if (result != VK_SUCCESS) {
    vulkan_unload_module(device, module);
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "vulkan device: load_module: %s refuses the SPIR-V image (%lld "
                           "bytes): vkCreateShaderModule failed: %s (%d)",
                           vk.properties.deviceName, (long long)image->size, vk_result_name(result),
                           (int)result);
  }
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroups = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
      .requiredSubgroupSize = 32};
  int require = vk.require_subgroup_32 && strcmp(image->arch, "vulkan1.2-subgroups") == 0;
  for (int32_t k = 0; k < module->num_kernels; ++k) {
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .pNext = require ? &subgroups : NULL,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module->shader,
                  .pName = d->device_kernel_names[k]},
        .layout = vk.layout};
    result = vk.vkCreateComputePipelines(vk.device, VK_NULL_HANDLE, 1, &info, NULL,
                                         &module->pipelines[k]);
    if (result != VK_SUCCESS) {
      module->pipelines[k] = VK_NULL_HANDLE;
      vulkan_unload_module(device, module);
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "vulkan device: load_module: cannot make kernel '%s' of the SPIR-V "
                             "image on %s: vkCreateComputePipelines failed: %s (%d)",
                             d->device_kernel_names[k], vk.properties.deviceName,
                             vk_result_name(result), (int)result);
    }
  }
  *out_module = module;
  return NULL;
}

static tcc_status vulkan_launch_kernel(const tcc_device *device, tcc_device_queue *queue,
                                       tcc_device_module *module, int32_t kernel, int64_t grid_x,
                                       int32_t block_x, int32_t shared_bytes, void **args) {
  (void)device;
  if (!queue || !module)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "vulkan device: launch_kernel: %s is null",
                           queue ? "module" : "queue");
  if (kernel < 0 || kernel >= module->num_kernels)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "vulkan device: launch_kernel: kernel %d, expected 0 to %d", (int)kernel,
                           (int)module->num_kernels - 1);
  const char *name = module->names[kernel];
  if (grid_x < 1 || grid_x > (int64_t)vk.properties.limits.maxComputeWorkGroupCount[0] ||
      block_x < 1 || (uint32_t)block_x > vk.properties.limits.maxComputeWorkGroupSize[0] ||
      shared_bytes != 0)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "vulkan device: launch_kernel: kernel '%s' with %lld blocks of %d "
                           "threads and %d bytes of dynamic shared memory; %s takes 1 to %u "
                           "blocks of 1 to %u threads and no dynamic shared memory",
                           name, (long long)grid_x, (int)block_x, (int)shared_bytes,
                           vk.properties.deviceName,
                           vk.properties.limits.maxComputeWorkGroupCount[0],
                           vk.properties.limits.maxComputeWorkGroupSize[0]);
  uint32_t count = 0;
  while (args && args[count] && count <= MAX_PARAMETERS)
    ++count;
  if (count > MAX_PARAMETERS)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "vulkan device: launch_kernel: kernel '%s' has more than %d parameters "
                           "(an argument array without its NULL end?)",
                           name, MAX_PARAMETERS);
  uint64_t slots[PUSH_SLOTS];
  uint32_t direct = count > PUSH_SLOTS ? PUSH_SLOTS - 1 : count;
  for (uint32_t k = 0; k < direct; ++k)
    memcpy(&slots[k], args[k], 8);
  if (count > PUSH_SLOTS) {
    // The rest go to the queue's arena (after the launches recorded so far have run, when it
    // is full), their address in the last push-constant slot.
    VkDeviceSize bytes = (VkDeviceSize)(count - direct) * 8;
    if (queue->arena_used + bytes > ARENA_BYTES) {
      VkResult result = flush(queue);
      if (result != VK_SUCCESS)
        return vk_failure("launch_kernel", "vkQueueSubmit", result);
    }
    unsigned char *at = queue->arena_mapped + queue->arena_used;
    for (uint32_t k = direct; k < count; ++k)
      memcpy(at + (k - direct) * 8, args[k], 8);
    slots[direct] = queue->arena.address + queue->arena_used;
    queue->arena_used += bytes;
  }
  uint32_t pushed = count > PUSH_SLOTS ? PUSH_SLOTS : count;
  if (!queue->recording) {
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkResult result = vk.vkBeginCommandBuffer(queue->commands, &begin);
    if (result != VK_SUCCESS)
      return vk_failure("launch_kernel", "vkBeginCommandBuffer", result);
    queue->recording = 1;
  }
  barrier(queue->commands);
  vk.vkCmdBindPipeline(queue->commands, VK_PIPELINE_BIND_POINT_COMPUTE, module->pipelines[kernel]);
  if (pushed > 0)
    vk.vkCmdPushConstants(queue->commands, vk.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushed * 8,
                          slots);
  vk.vkCmdDispatch(queue->commands, (uint32_t)grid_x, 1, 1);
  return NULL;
}

const tcc_device tcc_vulkan_device = {.type = kDLVulkan,
                                      .name = "vulkan",
                                      .gpu = NULL,
                                      .allocate = vulkan_allocate,
                                      .free = vulkan_free,
                                      .copy = vulkan_copy,
                                      .fill = vulkan_fill,
                                      .create_queue = vulkan_create_queue,
                                      .destroy_queue = vulkan_destroy_queue,
                                      .launch = tcc_gpu_launch,
                                      .synchronize = vulkan_synchronize,
                                      .device_id = vulkan_device_id,
                                      .load_module = vulkan_load_module,
                                      .unload_module = vulkan_unload_module,
                                      .launch_kernel = vulkan_launch_kernel};

#else // no Vulkan headers where this runtime was built (a cross build without them)

#include "status_internal.h"

static tcc_status unavailable(const tcc_device *device, const char *function) {
  (void)device;
  return tcc_make_status(TCC_STATUS_UNIMPLEMENTED,
                         "vulkan device: %s: this runtime was built without Vulkan's headers "
                         "(libvulkan-dev), so it has no Vulkan backend",
                         function);
}
static tcc_status none_allocate(const tcc_device *d, size_t b, size_t a, void **m) {
  (void)b, (void)a, (void)m;
  return unavailable(d, "allocate");
}
static void none_free(const tcc_device *d, void *m) { (void)d, (void)m; }
static tcc_status none_copy(const tcc_device *d, void *t, const void *f, size_t b,
                            tcc_copy_kind k) {
  (void)t, (void)f, (void)b, (void)k;
  return unavailable(d, "copy");
}
static tcc_status none_fill(const tcc_device *d, void *t, uint8_t v, size_t b) {
  (void)t, (void)v, (void)b;
  return unavailable(d, "fill");
}
static tcc_status none_create_queue(const tcc_device *d, int32_t n, tcc_device_queue **q) {
  (void)n, (void)q;
  return unavailable(d, "create_queue");
}
static void none_destroy_queue(const tcc_device *d, tcc_device_queue *q) { (void)d, (void)q; }
static tcc_status none_launch(const tcc_device *d, tcc_device_queue *q, int64_t c, tcc_loop_body b,
                              void *a) {
  (void)q, (void)c, (void)b, (void)a;
  return unavailable(d, "launch");
}
static tcc_status none_synchronize(const tcc_device *d, tcc_device_queue *q) {
  (void)d, (void)q;
  return NULL;
}
static tcc_status none_load_module(const tcc_device *d, const tcc_model_descriptor *m,
                                   tcc_device_module **o) {
  (void)m, (void)o;
  return unavailable(d, "load_module");
}
static void none_unload_module(const tcc_device *d, tcc_device_module *m) { (void)d, (void)m; }
static tcc_status none_launch_kernel(const tcc_device *d, tcc_device_queue *q, tcc_device_module *m,
                                     int32_t k, int64_t g, int32_t b, int32_t s, void **a) {
  (void)q, (void)m, (void)k, (void)g, (void)b, (void)s, (void)a;
  return unavailable(d, "launch_kernel");
}

const tcc_device tcc_vulkan_device = {.type = kDLVulkan,
                                      .name = "vulkan",
                                      .allocate = none_allocate,
                                      .free = none_free,
                                      .copy = none_copy,
                                      .fill = none_fill,
                                      .create_queue = none_create_queue,
                                      .destroy_queue = none_destroy_queue,
                                      .launch = none_launch,
                                      .synchronize = none_synchronize,
                                      .load_module = none_load_module,
                                      .unload_module = none_unload_module,
                                      .launch_kernel = none_launch_kernel};

#endif
