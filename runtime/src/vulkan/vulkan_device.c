//===- vulkan_device.c - the Vulkan backend: SPIR-V kernels through Vulkan compute --------===//
//
// Models compiled with `--target vulkan` carry one SPIR-V module whose kernels take device
// memory as 64-bit buffer device addresses (Vulkan 1.2's bufferDeviceAddress), so the host
// code passes pointers exactly as it does to CUDA kernels. This backend makes that true:
// every allocation is one VkBuffer (storage, transfer, shader device address) bound to its own
// device-local memory, and the "device pointer" it returns is an address inside it; copies
// and fills find the buffer an address belongs to in the allocation table.
//
// The loader is opened at run time (vulkan_driver.c, dlopen("libvulkan.so.1")): no link-time
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
#include "vulkan_driver.h"

#if TCC_VULKAN_HEADERS
#include "gpu/gpu_device.h"
#include "gpu/gpu_setup.h"
#include "model_internal.h"
#include "status_internal.h"
#include "threads_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The most parameters a launch may pass.
#define MAX_PARAMETERS 4096
/// Bytes of a queue's arena for the parameters beyond the push constants.
#define ARENA_BYTES ((VkDeviceSize)1 << 20)

struct tcc_device_queue {
  /// $TCC_VULKAN_SUBMIT_EACH_LAUNCH=1 when the queue was created: every launch is submitted
  /// and waited for at once (to tell a missing dependency from a wrong kernel, as
  /// CUDA_LAUNCH_BLOCKING does).
  int submit_each_launch;
  VkCommandPool pool;
  VkCommandBuffer commands;
  VkFence fence;
  int recording;
  /// Host-visible device memory for the parameters beyond the push constants of the
  /// launches recorded; reused once they have run.
  tcc_vulkan_allocation arena;
  unsigned char *arena_mapped;
  VkDeviceSize arena_used;
};

struct tcc_device_module {
  VkShaderModule shader;
  VkPipeline *pipelines;
  int32_t num_kernels;
  const char *const *names;
};

//===------------------------------------------------------------------------------------===//
// Memory
//===------------------------------------------------------------------------------------===//

/// The allocation holding [address, address + bytes), copied into *out; 0 when none does.
static int find_allocation(uintptr_t address, size_t bytes, tcc_vulkan_allocation *out) {
  return tcc_address_table_find(&tcc_vulkan.table, address, bytes, out);
}

static tcc_status not_device_memory(const char *function, const void *pointer, size_t bytes) {
  return tcc_address_table_outside("vulkan", function, pointer, bytes);
}

static tcc_status vulkan_allocate(const tcc_device *device, size_t bytes, size_t alignment,
                                  void **out_memory) {
  tcc_status status = tcc_device_check_allocate(device, alignment, out_memory);
  if (status || (status = tcc_vulkan_enter("allocate")))
    return status;
  tcc_vulkan_allocation a;
  // Room to round the address up to `alignment` (a distinct block for 0 bytes).
  VkDeviceSize size = (VkDeviceSize)(bytes ? bytes : 1) + alignment;
  VkResult result = tcc_vulkan_create_buffer(size, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &a);
  if (result != VK_SUCCESS)
    return result == VK_ERROR_OUT_OF_DEVICE_MEMORY
               ? tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                                 "vulkan device: allocate: out of device memory for %zu bytes",
                                 bytes)
               : tcc_vulkan_failure("allocate", "vkCreateBuffer/vkAllocateMemory", result);
  a.range.user =
      (void *)(uintptr_t)((a.range.address + alignment - 1) & ~(VkDeviceAddress)(alignment - 1));
  if (tcc_address_table_add(&tcc_vulkan.table, &a) != 0) {
    tcc_vulkan_destroy_buffer(&a);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "vulkan device: allocate: out of "
                                                          "memory");
  }
  *out_memory = a.range.user;
  return NULL;
}

static void vulkan_free(const tcc_device *device, void *memory) {
  (void)device;
  if (!memory || tcc_vulkan.setup.code != TCC_STATUS_OK)
    return;
  tcc_vulkan_allocation a;
  if (tcc_address_table_remove(&tcc_vulkan.table, memory, &a))
    tcc_vulkan_destroy_buffer(&a);
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
  VkResult result = tcc_vulkan.vkBeginCommandBuffer(tcc_vulkan.transfer, &begin);
  if (result != VK_SUCCESS)
    return result;
  tcc_vulkan_barrier(tcc_vulkan.transfer);
  if (copy->fill)
    tcc_vulkan.vkCmdFillBuffer(tcc_vulkan.transfer, copy->destination, copy->region.dstOffset,
                               copy->region.size, copy->pattern);
  else
    tcc_vulkan.vkCmdCopyBuffer(tcc_vulkan.transfer, copy->source, copy->destination, 1,
                               &copy->region);
  tcc_vulkan_barrier(tcc_vulkan.transfer);
  result = tcc_vulkan.vkEndCommandBuffer(tcc_vulkan.transfer);
  if (result == VK_SUCCESS)
    result = tcc_vulkan_submit_and_wait(tcc_vulkan.transfer, tcc_vulkan.transfer_fence);
  tcc_vulkan.vkResetCommandBuffer(tcc_vulkan.transfer, 0);
  return result;
}

/// The transfer objects and the staging buffer are shared: one copy at a time.
static pthread_mutex_t transfer_mutex = PTHREAD_MUTEX_INITIALIZER;

static tcc_status vulkan_copy(const tcc_device *device, void *destination, const void *source,
                              size_t bytes, tcc_copy_kind kind) {
  tcc_status status = tcc_device_check_copy(device, destination, source, bytes, kind);
  if (status || bytes == 0 || (status = tcc_vulkan_enter("copy")))
    return status;
  tcc_vulkan_allocation from = {0}, to = {0};
  if (kind != TCC_COPY_HOST_TO_DEVICE && !find_allocation((uintptr_t)source, bytes, &from))
    return not_device_memory("copy", source, bytes);
  if (kind != TCC_COPY_DEVICE_TO_HOST && !find_allocation((uintptr_t)destination, bytes, &to))
    return not_device_memory("copy", destination, bytes);
  VkResult result = VK_SUCCESS;
  pthread_mutex_lock(&transfer_mutex);
  if (kind == TCC_COPY_DEVICE_TO_DEVICE) {
    copy_region copy = {.source = from.buffer,
                        .destination = to.buffer,
                        .region = {.srcOffset = (uintptr_t)source - from.range.address,
                                   .dstOffset = (uintptr_t)destination - to.range.address,
                                   .size = bytes}};
    result = transfer(&copy);
  }
  for (size_t done = 0; kind != TCC_COPY_DEVICE_TO_DEVICE && done < bytes && !result;) {
    size_t chunk =
        bytes - done < TCC_VULKAN_STAGING_BYTES ? bytes - done : (size_t)TCC_VULKAN_STAGING_BYTES;
    copy_region copy = {.region = {.size = chunk}};
    if (kind == TCC_COPY_HOST_TO_DEVICE) {
      memcpy(tcc_vulkan.staging_mapped, (const char *)source + done, chunk);
      copy.source = tcc_vulkan.staging.buffer;
      copy.destination = to.buffer;
      copy.region.dstOffset = (uintptr_t)destination + done - to.range.address;
      result = transfer(&copy);
    } else {
      copy.source = from.buffer;
      copy.destination = tcc_vulkan.staging.buffer;
      copy.region.srcOffset = (uintptr_t)source + done - from.range.address;
      result = transfer(&copy);
      if (!result)
        memcpy((char *)destination + done, tcc_vulkan.staging_mapped, chunk);
    }
    done += chunk;
  }
  pthread_mutex_unlock(&transfer_mutex);
  return result == VK_SUCCESS ? NULL : tcc_vulkan_failure("copy", "vkQueueSubmit", result);
}

static tcc_status vulkan_fill(const tcc_device *device, void *destination, uint8_t value,
                              size_t bytes) {
  tcc_status status = tcc_device_check_fill(device, destination, bytes);
  if (status || bytes == 0 || (status = tcc_vulkan_enter("fill")))
    return status;
  tcc_vulkan_allocation to;
  if (!find_allocation((uintptr_t)destination, bytes, &to))
    return not_device_memory("fill", destination, bytes);
  VkDeviceSize offset = (uintptr_t)destination - to.range.address;
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
  return result == VK_SUCCESS ? NULL : tcc_vulkan_failure("fill", "vkQueueSubmit", result);
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
  tcc_status status = tcc_vulkan_enter("create_queue");
  if (status)
    return status;
  tcc_device_queue *queue = calloc(1, sizeof(*queue));
  if (!queue)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "vulkan device: create_queue: out of memory");
  VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                       .queueFamilyIndex = tcc_vulkan.family};
  const char *each = getenv("TCC_VULKAN_SUBMIT_EACH_LAUNCH");
  queue->submit_each_launch = each && strcmp(each, "1") == 0;
  VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkResult result =
      tcc_vulkan.vkCreateCommandPool(tcc_vulkan.device, &pool_info, NULL, &queue->pool);
  if (result == VK_SUCCESS) {
    VkCommandBufferAllocateInfo command_info = {.sType =
                                                    VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                                .commandPool = queue->pool,
                                                .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                                .commandBufferCount = 1};
    result =
        tcc_vulkan.vkAllocateCommandBuffers(tcc_vulkan.device, &command_info, &queue->commands);
  }
  if (result == VK_SUCCESS)
    result = tcc_vulkan.vkCreateFence(tcc_vulkan.device, &fence_info, NULL, &queue->fence);
  if (result == VK_SUCCESS)
    result = tcc_vulkan_create_buffer(
        ARENA_BYTES, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        &queue->arena);
  if (result == VK_SUCCESS)
    result = tcc_vulkan.vkMapMemory(tcc_vulkan.device, queue->arena.memory, 0, ARENA_BYTES, 0,
                                    (void **)&queue->arena_mapped);
  if (result != VK_SUCCESS) {
    vulkan_destroy_queue(device, queue);
    return tcc_vulkan_failure("create_queue", "vkCreateCommandPool", result);
  }
  *out_queue = queue;
  return NULL;
}

/// Submits what the queue recorded and waits for it.
static VkResult flush(tcc_device_queue *queue) {
  if (!queue->recording)
    return VK_SUCCESS;
  queue->recording = 0;
  VkResult result = tcc_vulkan.vkEndCommandBuffer(queue->commands);
  if (result == VK_SUCCESS)
    result = tcc_vulkan_submit_and_wait(queue->commands, queue->fence);
  tcc_vulkan.vkResetCommandBuffer(queue->commands, 0);
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
    tcc_vulkan.vkDestroyFence(tcc_vulkan.device, queue->fence, NULL);
  if (queue->pool)
    tcc_vulkan.vkDestroyCommandPool(tcc_vulkan.device, queue->pool, NULL);
  tcc_vulkan_destroy_buffer(&queue->arena);
  free(queue);
}

static tcc_status vulkan_synchronize(const tcc_device *device, tcc_device_queue *queue) {
  (void)device;
  if (!queue)
    return NULL;
  VkResult result = flush(queue);
  return result == VK_SUCCESS ? NULL : tcc_vulkan_failure("synchronize", "vkQueueSubmit", result);
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
      tcc_vulkan.vkDestroyPipeline(tcc_vulkan.device, module->pipelines[k], NULL);
  if (module->shader)
    tcc_vulkan.vkDestroyShaderModule(tcc_vulkan.device, module->shader, NULL);
  free(module->pipelines);
  free(module);
}

static tcc_status vulkan_load_module(const tcc_device *device, const tcc_model_descriptor *d,
                                     tcc_device_module **out_module) {
  if (!d || !out_module)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "vulkan device: load_module: %s is null",
                           d ? "out_module" : "descriptor");
  tcc_status status = tcc_vulkan_enter("load_module");
  if (status)
    return status;
  // "vulkan1.2-subgroups" kernels reduce across 32 lanes with subgroup shuffles: they need
  // subgroups of at least 32 (wider ones act as groups of 32), or pipelines that can require
  // 32; "vulkan1.2" kernels run anywhere.
  int wide = tcc_vulkan.subgroup_size >= 32 || tcc_vulkan.require_subgroup_32;
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
                           tcc_vulkan.properties.deviceName, tcc_vulkan.subgroup_size,
                           tcc_vulkan.require_subgroup_32 ? "" : ", not adjustable to 32");
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
  VkResult result =
      tcc_vulkan.vkCreateShaderModule(tcc_vulkan.device, &shader_info, NULL, &module->shader);
  if (result != VK_SUCCESS) {
    vulkan_unload_module(device, module);
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "vulkan device: load_module: %s refuses the SPIR-V image (%lld "
                           "bytes): vkCreateShaderModule failed: %s (%d)",
                           tcc_vulkan.properties.deviceName, (long long)image->size,
                           tcc_vulkan_result_name(result), (int)result);
  }
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroups = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
      .requiredSubgroupSize = 32};
  int require = tcc_vulkan.require_subgroup_32 && strcmp(image->arch, "vulkan1.2-subgroups") == 0;
  for (int32_t k = 0; k < module->num_kernels; ++k) {
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .pNext = require ? &subgroups : NULL,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module->shader,
                  .pName = d->device_kernel_names[k]},
        .layout = tcc_vulkan.layout};
    result = tcc_vulkan.vkCreateComputePipelines(tcc_vulkan.device, VK_NULL_HANDLE, 1, &info, NULL,
                                                 &module->pipelines[k]);
    if (result != VK_SUCCESS) {
      module->pipelines[k] = VK_NULL_HANDLE;
      vulkan_unload_module(device, module);
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "vulkan device: load_module: cannot make kernel '%s' of the SPIR-V "
                             "image on %s: vkCreateComputePipelines failed: %s (%d)",
                             d->device_kernel_names[k], tcc_vulkan.properties.deviceName,
                             tcc_vulkan_result_name(result), (int)result);
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
  if (grid_x < 1 || grid_x > (int64_t)tcc_vulkan.properties.limits.maxComputeWorkGroupCount[0] ||
      block_x < 1 || (uint32_t)block_x > tcc_vulkan.properties.limits.maxComputeWorkGroupSize[0] ||
      shared_bytes != 0)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "vulkan device: launch_kernel: kernel '%s' with %lld blocks of %d "
                           "threads and %d bytes of dynamic shared memory; %s takes 1 to %u "
                           "blocks of 1 to %u threads and no dynamic shared memory",
                           name, (long long)grid_x, (int)block_x, (int)shared_bytes,
                           tcc_vulkan.properties.deviceName,
                           tcc_vulkan.properties.limits.maxComputeWorkGroupCount[0],
                           tcc_vulkan.properties.limits.maxComputeWorkGroupSize[0]);
  uint32_t count = 0;
  while (args && args[count] && count <= MAX_PARAMETERS)
    ++count;
  if (count > MAX_PARAMETERS)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "vulkan device: launch_kernel: kernel '%s' has more than %d parameters "
                           "(an argument array without its NULL end?)",
                           name, MAX_PARAMETERS);
  uint64_t slots[TCC_VULKAN_PUSH_SLOTS];
  uint32_t direct = count > TCC_VULKAN_PUSH_SLOTS ? TCC_VULKAN_PUSH_SLOTS - 1 : count;
  for (uint32_t k = 0; k < direct; ++k)
    memcpy(&slots[k], args[k], 8);
  if (count > TCC_VULKAN_PUSH_SLOTS) {
    // The rest go to the queue's arena (after the launches recorded so far have run, when it
    // is full), their address in the last push-constant slot.
    VkDeviceSize bytes = (VkDeviceSize)(count - direct) * 8;
    if (queue->arena_used + bytes > ARENA_BYTES) {
      VkResult result = flush(queue);
      if (result != VK_SUCCESS)
        return tcc_vulkan_failure("launch_kernel", "vkQueueSubmit", result);
    }
    unsigned char *at = queue->arena_mapped + queue->arena_used;
    for (uint32_t k = direct; k < count; ++k)
      memcpy(at + (k - direct) * 8, args[k], 8);
    slots[direct] = queue->arena.range.address + queue->arena_used;
    queue->arena_used += bytes;
  }
  uint32_t pushed = count > TCC_VULKAN_PUSH_SLOTS ? TCC_VULKAN_PUSH_SLOTS : count;
  if (!queue->recording) {
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    VkResult result = tcc_vulkan.vkBeginCommandBuffer(queue->commands, &begin);
    if (result != VK_SUCCESS)
      return tcc_vulkan_failure("launch_kernel", "vkBeginCommandBuffer", result);
    queue->recording = 1;
  }
  tcc_vulkan_barrier(queue->commands);
  tcc_vulkan.vkCmdBindPipeline(queue->commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                               module->pipelines[kernel]);
  if (pushed > 0)
    tcc_vulkan.vkCmdPushConstants(queue->commands, tcc_vulkan.layout, VK_SHADER_STAGE_COMPUTE_BIT,
                                  0, pushed * 8, slots);
  tcc_vulkan.vkCmdDispatch(queue->commands, (uint32_t)grid_x, 1, 1);
  if (queue->submit_each_launch) {
    VkResult result = flush(queue);
    if (result != VK_SUCCESS)
      return tcc_vulkan_failure("launch_kernel", "vkQueueSubmit", result);
  }
  return NULL;
}

const tcc_device tcc_vulkan_device = {.type = kDLVulkan,
                                      .name = "vulkan",
                                      .gpu = NULL,
                                      .index_bits = 32,
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

#include "unavailable_device.h"

TCC_UNAVAILABLE_DEVICE(tcc_vulkan_device, kDLVulkan, "vulkan",
                       "this runtime was built without Vulkan's headers (libvulkan-dev), so it "
                       "has no Vulkan backend");

#endif
