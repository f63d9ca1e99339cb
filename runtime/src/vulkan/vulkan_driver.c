//===- vulkan_driver.c - the Vulkan loader and device, set up once per process ----------===//
#include "vulkan_driver.h"

#if TCC_VULKAN_HEADERS
#include "status_internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tcc_vulkan_state tcc_vulkan;

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

const char *tcc_vulkan_result_name(VkResult result) {
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

tcc_status tcc_vulkan_failure(const char *function, const char *call, VkResult result) {
  return tcc_make_status(result == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
                                 result == VK_ERROR_OUT_OF_HOST_MEMORY
                             ? TCC_STATUS_RESOURCE_EXHAUSTED
                             : TCC_STATUS_INTERNAL,
                         "vulkan device: %s: %s failed: %s (%d)", function, call,
                         tcc_vulkan_result_name(result), (int)result);
}

//===------------------------------------------------------------------------------------===//
// Setup: loader, instance, physical device, device, queue
//===------------------------------------------------------------------------------------===//

static int find_memory_type(uint32_t bits, VkMemoryPropertyFlags wanted) {
  for (uint32_t i = 0; i < tcc_vulkan.memory.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (tcc_vulkan.memory.memoryTypes[i].propertyFlags & wanted) == wanted)
      return (int)i;
  return -1;
}

VkResult tcc_vulkan_create_buffer(VkDeviceSize size, VkMemoryPropertyFlags properties,
                                  tcc_vulkan_allocation *out) {
  VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult result = tcc_vulkan.vkCreateBuffer(tcc_vulkan.device, &info, NULL, &buffer);
  if (result != VK_SUCCESS)
    return result;
  VkMemoryRequirements requirements;
  tcc_vulkan.vkGetBufferMemoryRequirements(tcc_vulkan.device, buffer, &requirements);
  int type = find_memory_type(requirements.memoryTypeBits, properties);
  if (type < 0) {
    tcc_vulkan.vkDestroyBuffer(tcc_vulkan.device, buffer, NULL);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                     .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
  VkMemoryAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                   .pNext = &flags,
                                   .allocationSize = requirements.size,
                                   .memoryTypeIndex = (uint32_t)type};
  VkDeviceMemory memory = VK_NULL_HANDLE;
  result = tcc_vulkan.vkAllocateMemory(tcc_vulkan.device, &allocate, NULL, &memory);
  if (result == VK_SUCCESS)
    result = tcc_vulkan.vkBindBufferMemory(tcc_vulkan.device, buffer, memory, 0);
  if (result != VK_SUCCESS) {
    if (memory)
      tcc_vulkan.vkFreeMemory(tcc_vulkan.device, memory, NULL);
    tcc_vulkan.vkDestroyBuffer(tcc_vulkan.device, buffer, NULL);
    return result;
  }
  VkBufferDeviceAddressInfo address = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                       .buffer = buffer};
  out->range.address = tcc_vulkan.vkGetBufferDeviceAddress(tcc_vulkan.device, &address);
  out->range.size = size;
  out->buffer = buffer;
  out->memory = memory;
  out->range.user = (void *)(uintptr_t)out->range.address;
  return VK_SUCCESS;
}

void tcc_vulkan_destroy_buffer(tcc_vulkan_allocation *a) {
  if (a->buffer)
    tcc_vulkan.vkDestroyBuffer(tcc_vulkan.device, a->buffer, NULL);
  if (a->memory)
    tcc_vulkan.vkFreeMemory(tcc_vulkan.device, a->memory, NULL);
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
  tcc_vulkan.vkGetPhysicalDeviceFeatures2(tcc_vulkan.physical, all);
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
  if (tcc_vulkan.require_subgroup_32) {
    v13->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    v13->subgroupSizeControl = VK_TRUE;
    v12->pNext = v13;
  }
  all->features = keep;
  all->pNext = v11;
  return 1;
}

static void setup_vulkan(void) {
  tcc_gpu_setup *setup = &tcc_vulkan.setup;
  setup->code = TCC_STATUS_OK;
  pthread_mutex_init(&tcc_vulkan.queue_mutex, NULL);
  tcc_address_table table = TCC_ADDRESS_TABLE_INIT(tcc_vulkan_allocation);
  tcc_vulkan.table = table;
  tcc_gpu_read_ordinal("TCC_VULKAN_DEVICE", &tcc_vulkan.ordinal, setup->error,
                       sizeof(setup->error));
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
  tcc_vulkan.vkGetInstanceProcAddr =
      (PFN_vkGetInstanceProcAddr)dlsym(library, "vkGetInstanceProcAddr");
  PFN_vkCreateInstance create_instance =
      tcc_vulkan.vkGetInstanceProcAddr
          ? (PFN_vkCreateInstance)tcc_vulkan.vkGetInstanceProcAddr(NULL, "vkCreateInstance")
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
  VkResult result = create_instance(&instance_info, NULL, &tcc_vulkan.instance);
  if (result != VK_SUCCESS) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED,
                       "vkCreateInstance (Vulkan 1.2) failed: %s (%d): no Vulkan driver?",
                       tcc_vulkan_result_name(result), (int)result);
    return;
  }
#define LOAD(name)                                                                                 \
  tcc_vulkan.name = (PFN_##name)tcc_vulkan.vkGetInstanceProcAddr(tcc_vulkan.instance, #name);      \
  if (!tcc_vulkan.name) {                                                                          \
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED, "the Vulkan loader has no %s", #name);     \
    return;                                                                                        \
  }
  VK_FUNCTIONS(LOAD)
#undef LOAD
  uint32_t count = 0;
  result = tcc_vulkan.vkEnumeratePhysicalDevices(tcc_vulkan.instance, &count, NULL);
  if (result != VK_SUCCESS || count == 0) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED, "Vulkan finds no GPU");
    return;
  }
  if ((uint32_t)tcc_vulkan.ordinal >= count) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INVALID_ARGUMENT,
                       "TCC_VULKAN_DEVICE is %d, but Vulkan finds %u device(s)",
                       (int)tcc_vulkan.ordinal, count);
    return;
  }
  VkPhysicalDevice *devices = calloc(count, sizeof(VkPhysicalDevice));
  if (!devices) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  tcc_vulkan.vkEnumeratePhysicalDevices(tcc_vulkan.instance, &count, devices);
  tcc_vulkan.physical = devices[tcc_vulkan.ordinal];
  free(devices);
  tcc_vulkan.vkGetPhysicalDeviceProperties(tcc_vulkan.physical, &tcc_vulkan.properties);
  PFN_vkGetPhysicalDeviceProperties2 properties2 =
      (PFN_vkGetPhysicalDeviceProperties2)tcc_vulkan.vkGetInstanceProcAddr(
          tcc_vulkan.instance, "vkGetPhysicalDeviceProperties2");
  if (properties2) {
    VkPhysicalDeviceSubgroupSizeControlProperties control = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceFloatControlsProperties floats = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES,
        .pNext = tcc_vulkan.properties.apiVersion >= VK_API_VERSION_1_3 ? &control : NULL};
    VkPhysicalDeviceVulkan11Properties v11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, .pNext = &floats};
    VkPhysicalDeviceProperties2 all = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                       .pNext = &v11};
    properties2(tcc_vulkan.physical, &all);
    tcc_vulkan.subgroup_size = v11.subgroupSize;
    tcc_vulkan.preserves_inf_nan = floats.shaderSignedZeroInfNanPreserveFloat32;
    tcc_vulkan.require_subgroup_32 =
        tcc_vulkan.properties.apiVersion >= VK_API_VERSION_1_3 && tcc_vulkan.subgroup_size < 32 &&
        control.minSubgroupSize <= 32 && control.maxSubgroupSize >= 32 &&
        (control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  }
  tcc_vulkan.vkGetPhysicalDeviceMemoryProperties(tcc_vulkan.physical, &tcc_vulkan.memory);
  if (tcc_vulkan.properties.apiVersion < VK_API_VERSION_1_2) {
    tcc_gpu_setup_fail(
        setup, TCC_STATUS_INCOMPATIBLE, "%s supports Vulkan %u.%u, the kernels need 1.2",
        tcc_vulkan.properties.deviceName, VK_API_VERSION_MAJOR(tcc_vulkan.properties.apiVersion),
        VK_API_VERSION_MINOR(tcc_vulkan.properties.apiVersion));
    return;
  }
  // The kernels declare SignedZeroInfNanPreserve for float32 (masks of -inf, NaN-propagating
  // max): a device that cannot keep infinities and NaNs would compute them wrong.
  if (!tcc_vulkan.preserves_inf_nan) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INCOMPATIBLE,
                       "%s cannot keep infinities and NaNs in float32 shader arithmetic "
                       "(shaderSignedZeroInfNanPreserveFloat32), which the kernels need",
                       tcc_vulkan.properties.deviceName);
    return;
  }
  VkPhysicalDeviceVulkan13Features v13;
  VkPhysicalDeviceVulkan12Features v12;
  VkPhysicalDeviceVulkan11Features v11;
  VkPhysicalDeviceFeatures2 features;
  if (!pick_features(&v13, &v12, &v11, &features)) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INCOMPATIBLE,
                       "%s has no bufferDeviceAddress, which the kernels need",
                       tcc_vulkan.properties.deviceName);
    return;
  }
  uint32_t families = 0;
  tcc_vulkan.vkGetPhysicalDeviceQueueFamilyProperties(tcc_vulkan.physical, &families, NULL);
  VkQueueFamilyProperties family_properties[16];
  if (families > 16)
    families = 16;
  tcc_vulkan.vkGetPhysicalDeviceQueueFamilyProperties(tcc_vulkan.physical, &families,
                                                      family_properties);
  tcc_vulkan.family = UINT32_MAX;
  for (uint32_t i = 0; i < families && tcc_vulkan.family == UINT32_MAX; ++i)
    if (family_properties[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      tcc_vulkan.family = i;
  if (tcc_vulkan.family == UINT32_MAX) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INCOMPATIBLE, "%s has no compute queue",
                       tcc_vulkan.properties.deviceName);
    return;
  }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                        .queueFamilyIndex = tcc_vulkan.family,
                                        .queueCount = 1,
                                        .pQueuePriorities = &priority};
  VkDeviceCreateInfo device_info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                    .pNext = &features,
                                    .queueCreateInfoCount = 1,
                                    .pQueueCreateInfos = &queue_info};
  result = tcc_vulkan.vkCreateDevice(tcc_vulkan.physical, &device_info, NULL, &tcc_vulkan.device);
  if (result != VK_SUCCESS) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED, "vkCreateDevice on %s failed: %s (%d)",
                       tcc_vulkan.properties.deviceName, tcc_vulkan_result_name(result),
                       (int)result);
    return;
  }
#define LOAD(name)                                                                                 \
  tcc_vulkan.name = (PFN_##name)tcc_vulkan.vkGetDeviceProcAddr(tcc_vulkan.device, #name);          \
  if (!tcc_vulkan.name) {                                                                          \
    tcc_gpu_setup_fail(setup, TCC_STATUS_UNIMPLEMENTED, "the Vulkan device has no %s", #name);     \
    return;                                                                                        \
  }
  VK_DEVICE_FUNCTIONS(LOAD)
#undef LOAD
  tcc_vulkan.vkGetDeviceQueue(tcc_vulkan.device, tcc_vulkan.family, 0, &tcc_vulkan.queue);

  VkPushConstantRange range = {
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = TCC_VULKAN_PUSH_SLOTS * 8};
  VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                            .pushConstantRangeCount = 1,
                                            .pPushConstantRanges = &range};
  VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                       .queueFamilyIndex = tcc_vulkan.family};
  VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if ((result = tcc_vulkan.vkCreatePipelineLayout(tcc_vulkan.device, &layout_info, NULL,
                                                  &tcc_vulkan.layout)) ||
      (result = tcc_vulkan.vkCreateCommandPool(tcc_vulkan.device, &pool_info, NULL,
                                               &tcc_vulkan.transfer_pool)) ||
      (result = tcc_vulkan.vkCreateFence(tcc_vulkan.device, &fence_info, NULL,
                                         &tcc_vulkan.transfer_fence))) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INTERNAL, "setting up %s failed: %s (%d)",
                       tcc_vulkan.properties.deviceName, tcc_vulkan_result_name(result),
                       (int)result);
    return;
  }
  VkCommandBufferAllocateInfo command_info = {.sType =
                                                  VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                              .commandPool = tcc_vulkan.transfer_pool,
                                              .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                              .commandBufferCount = 1};
  if ((result = tcc_vulkan.vkAllocateCommandBuffers(tcc_vulkan.device, &command_info,
                                                    &tcc_vulkan.transfer)) ||
      (result = tcc_vulkan_create_buffer(TCC_VULKAN_STAGING_BYTES,
                                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                             VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                         &tcc_vulkan.staging)) ||
      (result = tcc_vulkan.vkMapMemory(tcc_vulkan.device, tcc_vulkan.staging.memory, 0,
                                       TCC_VULKAN_STAGING_BYTES, 0, &tcc_vulkan.staging_mapped))) {
    tcc_gpu_setup_fail(setup, TCC_STATUS_INTERNAL, "setting up copies on %s failed: %s (%d)",
                       tcc_vulkan.properties.deviceName, tcc_vulkan_result_name(result),
                       (int)result);
    return;
  }
}

tcc_status tcc_vulkan_enter(const char *function) {
  pthread_once(&setup_once, setup_vulkan);
  if (tcc_vulkan.setup.code == TCC_STATUS_OK)
    return NULL;
  return tcc_make_status(tcc_vulkan.setup.code, "vulkan device: %s: %s", function,
                         tcc_vulkan.setup.error);
}

void tcc_vulkan_barrier(VkCommandBuffer commands) {
  VkMemoryBarrier all = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  tcc_vulkan.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                                  VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &all, 0, NULL, 0, NULL);
}

VkResult tcc_vulkan_submit_and_wait(VkCommandBuffer commands, VkFence fence) {
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .commandBufferCount = 1,
                         .pCommandBuffers = &commands};
  pthread_mutex_lock(&tcc_vulkan.queue_mutex);
  VkResult result = tcc_vulkan.vkQueueSubmit(tcc_vulkan.queue, 1, &submit, fence);
  pthread_mutex_unlock(&tcc_vulkan.queue_mutex);
  // A kernel that never ends (a bug) must not hang the caller: VK_TIMEOUT after a minute.
  if (result == VK_SUCCESS)
    result = tcc_vulkan.vkWaitForFences(tcc_vulkan.device, 1, &fence, VK_TRUE,
                                        TCC_VULKAN_WAIT_NANOSECONDS);
  tcc_vulkan.vkResetFences(tcc_vulkan.device, 1, &fence);
  return result;
}

#endif
