//===- vulkan_driver.h - the Vulkan loader and device every Vulkan call shares ----------===//
//
// vulkan_driver.c opens the loader (libvulkan.so.1) once per process, picks physical device
// $TCC_VULKAN_DEVICE, creates the device, its compute queue, the pipeline layout (push
// constants) and the staging buffer that copies go through, and keeps the function
// pointers, all in tcc_vulkan. vulkan_device.c implements tcc_vulkan_device on top. Where the
// runtime is built without Vulkan's headers (a cross build), TCC_VULKAN_HEADERS is 0 and
// neither file defines anything but the backend that says so.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_VULKAN_VULKAN_DRIVER_H
#define TCC_RUNTIME_VULKAN_VULKAN_DRIVER_H

#if __has_include(<vulkan/vulkan.h>)
#define TCC_VULKAN_HEADERS 1
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "gpu/address_table.h"
#include "gpu/gpu_setup.h"

#include <pthread.h>
#include <stdint.h>

/// How long a submission may take before the wait fails with VK_TIMEOUT.
#define TCC_VULKAN_WAIT_NANOSECONDS (UINT64_C(60) * 1000 * 1000 * 1000)
/// Bytes of the host-visible buffer that copies go through.
#define TCC_VULKAN_STAGING_BYTES ((VkDeviceSize)16 << 20)
/// Push-constant slots of a kernel (the 128 bytes Vulkan promises): a kernel with more
/// parameters reads slots 0-14 there and the rest at the device address in slot 15.
#define TCC_VULKAN_PUSH_SLOTS 16

/// A VkBuffer with memory of its own, and the device addresses it covers (the range's
/// address: its first byte's VkDeviceAddress).
typedef struct tcc_vulkan_allocation {
  tcc_address_range range; // first: an entry of the allocation table
  VkBuffer buffer;
  VkDeviceMemory memory;
} tcc_vulkan_allocation;

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

/// The loader, the device and what every call shares; set up once per process
/// (tcc_vulkan_enter), read-only after that but for the mutex-guarded members.
typedef struct tcc_vulkan_state {
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
  /// shaderSignedZeroInfNanPreserveFloat32: the kernels' float controls are honoured.
  int preserves_inf_nan;
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
  tcc_vulkan_allocation staging;
  void *staging_mapped;

  /// The allocation table (of tcc_vulkan_allocation).
  tcc_address_table table;
} tcc_vulkan_state;

extern tcc_vulkan_state tcc_vulkan;

/// Sets the device up on first use; NULL when it is usable, else "vulkan device: <function>:
/// <why>".
tcc_status tcc_vulkan_enter(const char *function);
/// The name of a VkResult for messages ("VK_ERROR_DEVICE_LOST"; "VkResult" for others).
const char *tcc_vulkan_result_name(VkResult result);
/// "vulkan device: <function>: <call> failed: <result>", RESOURCE_EXHAUSTED for out of memory.
tcc_status tcc_vulkan_failure(const char *function, const char *call, VkResult result);
/// A buffer of `size` bytes (storage, transfer, device address) in memory with `properties`.
VkResult tcc_vulkan_create_buffer(VkDeviceSize size, VkMemoryPropertyFlags properties,
                                  tcc_vulkan_allocation *out);
void tcc_vulkan_destroy_buffer(tcc_vulkan_allocation *a);
/// Records a barrier between all earlier and all later work.
void tcc_vulkan_barrier(VkCommandBuffer commands);
/// Submits `commands` and waits for them (VK_TIMEOUT after a minute), then resets `fence`.
VkResult tcc_vulkan_submit_and_wait(VkCommandBuffer commands, VkFence fence);

#else
#define TCC_VULKAN_HEADERS 0
#endif

#endif // TCC_RUNTIME_VULKAN_VULKAN_DRIVER_H
