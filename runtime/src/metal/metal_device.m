//===- metal_device.m - the Metal backend: MSL kernels on Apple GPUs (macOS only) --------===//
//
// Models compiled with `--target apple` carry their kernels as Metal Shading Language, a
// translation unit per kernel (model_abi.h, TCC_IMAGE_MSL; metal/msl_image.h), whose device
// memory is 64-bit GPU addresses, as CUDA kernels take pointers. This backend makes that
// true: every allocation is one MTLBuffer in shared storage (Apple silicon's memory is the
// CPU's and the GPU's), and the "device pointer" it returns is an address inside the buffer's
// gpuAddress range; copies and fills find the buffer an address belongs to in the allocation
// table and go through its contents with the CPU (no GPU work is in flight then: launches
// run at synchronize, which waits).
//
// The GPU is MTLCreateSystemDefaultDevice()'s, and must be of the Metal3 family (macOS 13 and
// later; GPU addresses). load_module compiles each kernel's unit with fast math off (the
// kernels' math relies on IEEE arithmetic, as on every other target) and makes its compute
// pipeline. A tcc queue is an MTLCommandQueue plus the command buffer and compute encoder it
// is recording: launch_kernel encodes a dispatch (serial dispatches: each sees what the
// previous wrote), with its parameters as buffer 0 (setBytes, the 8-byte slots; past 16
// slots, the rest in the queue's arena at the address in slot 15, as for Vulkan) and every
// allocation made resident (useResources: the kernels reach buffers through addresses, which
// Metal does not track); synchronize commits and waits. No graphs yet (indirect command
// buffers could replay a run).
//
// Built only on macOS (runtime/CMakeLists.txt), with manual reference counting
// (-fno-objc-arc): objects from new... and retain are released here, the others belong to
// autorelease pools. NOT YET RUN ON A MAC: docs/targets.md lists what was checked.
//
//===------------------------------------------------------------------------------------===//
#import <Foundation/Foundation.h>
#import <Metal/Metal.h>

#include "device.h"
#include "gpu/address_table.h"
#include "gpu/gpu_device.h"
#include "gpu/gpu_setup.h"
#include "metal/msl_image.h"
#include "model_internal.h"
#include "status_internal.h"
#include "threads_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if __has_feature(objc_arc)
#error "metal_device.m manages references itself: compile it with -fno-objc-arc"
#endif

/// The most parameters a launch may pass.
#define MAX_PARAMETERS 4096
/// Parameter slots passed directly (buffer 0); past them, slot 15 holds the address of the
/// rest (model_abi.h, TCC_IMAGE_SPIRV's rule).
#define PUSH_SLOTS 16
/// Bytes of a queue's arena for the parameters beyond the direct slots.
#define ARENA_BYTES ((size_t)1 << 20)

/// An MTLBuffer and the addresses it covers (the range's address: its gpuAddress).
typedef struct metal_allocation {
  tcc_address_range range; // first: an entry of the allocation table
  id<MTLBuffer> buffer;    // owned (+1)
  unsigned char *contents;
} metal_allocation;

static struct {
  pthread_once_t once;
  tcc_gpu_setup setup;
  id<MTLDevice> device; // owned
  /// The allocation table (of metal_allocation); a queue's encoder makes it resident again
  /// when its generation changed.
  tcc_address_table table;
} metal = {.once = PTHREAD_ONCE_INIT, .table = TCC_ADDRESS_TABLE_INIT(metal_allocation)};

// The runtime is built for macOS 13 and later (runtime/CMakeLists.txt): Metal 3, GPU
// addresses and MTLGPUFamilyMetal3 need no availability checks.
static void setup_metal(void) {
  @autoreleasepool {
    metal.device = MTLCreateSystemDefaultDevice(); // +1
    if (!metal.device) {
      tcc_gpu_setup_fail(&metal.setup, TCC_STATUS_INCOMPATIBLE,
                         "MTLCreateSystemDefaultDevice found no Metal GPU");
      return;
    }
    if (![metal.device supportsFamily:MTLGPUFamilyMetal3]) {
      tcc_gpu_setup_fail(&metal.setup, TCC_STATUS_INCOMPATIBLE,
                         "%s is not a GPU of the Metal3 family, whose buffers have the GPU "
                         "addresses tcc's kernels take",
                         metal.device.name.UTF8String);
      [metal.device release];
      metal.device = nil;
      return;
    }
    metal.setup.code = TCC_STATUS_OK;
  }
}

/// NULL when the GPU is usable; otherwise why not, for `function`.
static tcc_status metal_enter(const char *function) {
  pthread_once(&metal.once, setup_metal);
  if (metal.setup.code == TCC_STATUS_OK)
    return NULL;
  return tcc_make_status(metal.setup.code, "metal device: %s: %s", function, metal.setup.error);
}

/// Metal's description of an error, for messages.
static const char *describe(NSError *error) {
  return error ? error.localizedDescription.UTF8String : "no error description";
}

//===------------------------------------------------------------------------------------===//
// Memory
//===------------------------------------------------------------------------------------===//

/// The allocation holding [address, address + bytes), copied into *out; 0 when none does.
static int find_allocation(uintptr_t address, size_t bytes, metal_allocation *out) {
  return tcc_address_table_find(&metal.table, address, bytes, out);
}

static tcc_status not_device_memory(const char *function, const void *pointer, size_t bytes) {
  return tcc_address_table_outside("metal", function, pointer, bytes);
}

/// The CPU address of device address `address` inside allocation `a`.
static unsigned char *host_address(const metal_allocation *a, uintptr_t address) {
  return a->contents + (address - a->range.address);
}

static tcc_status metal_allocate(const tcc_device *device, size_t bytes, size_t alignment,
                                 void **out_memory) {
  tcc_status status = tcc_device_check_allocate(device, alignment, out_memory);
  if (status || (status = metal_enter("allocate")))
    return status;
  // Room to round the address up to `alignment` (a distinct block for 0 bytes).
  size_t size = (bytes ? bytes : 1) + alignment;
  if (size < bytes || size > metal.device.maxBufferLength)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "metal device: allocate: %zu bytes, more than a buffer of %s holds "
                           "(%llu)",
                           bytes, metal.device.name.UTF8String,
                           (unsigned long long)metal.device.maxBufferLength);
  metal_allocation a = {0};
  a.buffer = [metal.device newBufferWithLength:size options:MTLResourceStorageModeShared];
  if (!a.buffer)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "metal device: allocate: out of memory for %zu bytes", bytes);
  a.range.address = a.buffer.gpuAddress;
  a.range.size = size;
  a.contents = a.buffer.contents;
  a.range.user =
      (void *)(uintptr_t)((a.range.address + alignment - 1) & ~(uint64_t)(alignment - 1));
  if (tcc_address_table_add(&metal.table, &a) != 0) {
    [a.buffer release];
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "metal device: allocate: out of memory");
  }
  *out_memory = a.range.user;
  return NULL;
}

static void metal_free(const tcc_device *device, void *memory) {
  (void)device;
  if (!memory || metal.setup.code != TCC_STATUS_OK)
    return;
  metal_allocation a;
  if (tcc_address_table_remove(&metal.table, memory, &a))
    [a.buffer release];
}

static tcc_status metal_copy(const tcc_device *device, void *destination, const void *source,
                             size_t bytes, tcc_copy_kind kind) {
  tcc_status status = tcc_device_check_copy(device, destination, source, bytes, kind);
  if (status || bytes == 0 || (status = metal_enter("copy")))
    return status;
  metal_allocation from = {0}, to = {0};
  const void *from_host = source;
  void *to_host = destination;
  if (kind != TCC_COPY_HOST_TO_DEVICE) {
    if (!find_allocation((uintptr_t)source, bytes, &from))
      return not_device_memory("copy", source, bytes);
    from_host = host_address(&from, (uintptr_t)source);
  }
  if (kind != TCC_COPY_DEVICE_TO_HOST) {
    if (!find_allocation((uintptr_t)destination, bytes, &to))
      return not_device_memory("copy", destination, bytes);
    to_host = host_address(&to, (uintptr_t)destination);
  }
  memmove(to_host, from_host, bytes);
  return NULL;
}

static tcc_status metal_fill(const tcc_device *device, void *destination, uint8_t value,
                             size_t bytes) {
  tcc_status status = tcc_device_check_fill(device, destination, bytes);
  if (status || bytes == 0 || (status = metal_enter("fill")))
    return status;
  metal_allocation to;
  if (!find_allocation((uintptr_t)destination, bytes, &to))
    return not_device_memory("fill", destination, bytes);
  memset(host_address(&to, (uintptr_t)destination), value, bytes);
  return NULL;
}

//===------------------------------------------------------------------------------------===//
// Queues
//===------------------------------------------------------------------------------------===//

struct tcc_device_queue {
  id<MTLCommandQueue> commands;         // owned
  id<MTLCommandBuffer> recording;       // retained while recording, else nil
  id<MTLComputeCommandEncoder> encoder; // retained while recording, else nil
  uint64_t resident_generation;         // the table's generation the encoder made resident
  id<MTLBuffer> arena;                  // owned: parameters beyond the direct slots
  size_t arena_used;
};

static void metal_destroy_queue(const tcc_device *device, tcc_device_queue *queue);

static tcc_status metal_create_queue(const tcc_device *device, int32_t num_threads,
                                     tcc_device_queue **out_queue) {
  if (!out_queue || num_threads < 1 || num_threads > TCC_MAX_THREADS)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "metal device: create_queue: %s",
                           out_queue ? "bad num_threads" : "out_queue is null");
  tcc_status status = metal_enter("create_queue");
  if (status)
    return status;
  tcc_device_queue *queue = calloc(1, sizeof(*queue));
  if (!queue)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "metal device: create_queue: out of memory");
  queue->commands = [metal.device newCommandQueue];
  queue->arena = [metal.device newBufferWithLength:ARENA_BYTES
                                           options:MTLResourceStorageModeShared];
  if (!queue->commands || !queue->arena) {
    metal_destroy_queue(device, queue);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "metal device: create_queue: newCommandQueue or the parameter arena "
                           "failed on %s",
                           metal.device.name.UTF8String);
  }
  *out_queue = queue;
  return NULL;
}

/// Commits what the queue recorded and waits for it; NULL, or why the GPU failed.
static tcc_status flush(tcc_device_queue *queue, const char *function) {
  if (!queue->recording)
    return NULL;
  tcc_status status = NULL;
  @autoreleasepool {
    [queue->encoder endEncoding];
    [queue->recording commit];
    [queue->recording waitUntilCompleted];
    if (queue->recording.status != MTLCommandBufferStatusCompleted)
      status = tcc_make_status(
          TCC_STATUS_INTERNAL, "metal device: %s: the kernels' command buffer failed on %s: %s",
          function, metal.device.name.UTF8String, describe(queue->recording.error));
    [queue->encoder release];
    [queue->recording release];
    queue->encoder = nil;
    queue->recording = nil;
    queue->arena_used = 0;
  }
  return status;
}

static void metal_destroy_queue(const tcc_device *device, tcc_device_queue *queue) {
  (void)device;
  if (!queue)
    return;
  tcc_status_free(flush(queue, "destroy_queue"));
  [queue->arena release];
  [queue->commands release];
  free(queue);
}

static tcc_status metal_synchronize(const tcc_device *device, tcc_device_queue *queue) {
  (void)device;
  return queue ? flush(queue, "synchronize") : NULL;
}

//===------------------------------------------------------------------------------------===//
// Kernels
//===------------------------------------------------------------------------------------===//

struct tcc_device_module {
  id<MTLComputePipelineState> *pipelines; // owned, one per kernel
  int32_t num_kernels;
  const char *const *names;
};

static void metal_unload_module(const tcc_device *device, tcc_device_module *module) {
  (void)device;
  if (!module)
    return;
  for (int32_t k = 0; module->pipelines && k < module->num_kernels; ++k)
    [module->pipelines[k] release];
  free(module->pipelines);
  free(module);
}

/// Options for every kernel: MSL 3.0, fast math off (no reassociation: the kernels' math
/// relies on IEEE arithmetic). Autoreleased.
static MTLCompileOptions *compile_options(void) {
  MTLCompileOptions *options = [[[MTLCompileOptions alloc] init] autorelease];
  options.languageVersion = MTLLanguageVersion3_0;
#if defined(__MAC_15_0)
  if (@available(macOS 15.0, *)) {
    options.mathMode = MTLMathModeSafe;
    options.mathFloatingPointFunctions = MTLMathFloatingPointFunctionsPrecise;
    return options;
  }
#endif
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
  options.fastMathEnabled = NO;
#pragma clang diagnostic pop
  return options;
}

/// Compiles kernel `k`'s unit into module->pipelines[k].
static tcc_status make_pipeline(tcc_device_module *module, int32_t k, const tcc_msl_unit *unit) {
  const char *name = module->names[k];
  tcc_status status = NULL;
  @autoreleasepool {
    NSString *source = [[[NSString alloc] initWithBytes:unit->source
                                                 length:unit->source_size
                                               encoding:NSUTF8StringEncoding] autorelease];
    NSString *function_name = [[[NSString alloc] initWithBytes:unit->function
                                                        length:unit->function_size
                                                      encoding:NSUTF8StringEncoding] autorelease];
    NSError *error = nil;
    id<MTLLibrary> library = source ? [metal.device newLibraryWithSource:source
                                                                 options:compile_options()
                                                                   error:&error]
                                    : nil;
    id<MTLFunction> function = library ? [library newFunctionWithName:function_name] : nil;
    if (!library)
      status = tcc_make_status(TCC_STATUS_INVALID_MODEL,
                               "metal device: load_module: Metal does not compile kernel '%s': %s",
                               name, source ? describe(error) : "its source is not UTF-8");
    else if (!function)
      status = tcc_make_status(TCC_STATUS_INVALID_MODEL,
                               "metal device: load_module: the unit of kernel '%s' defines no "
                               "function '%.*s'",
                               name, (int)unit->function_size, unit->function);
    else {
      module->pipelines[k] =
          [metal.device newComputePipelineStateWithFunction:function error: &error];
      if (!module->pipelines[k])
        status = tcc_make_status(TCC_STATUS_INVALID_MODEL,
                                 "metal device: load_module: no compute pipeline for kernel "
                                 "'%s' on %s: %s",
                                 name, metal.device.name.UTF8String, describe(error));
    }
    [function release];
    [library release];
  }
  return status;
}

static tcc_status metal_load_module(const tcc_device *device, const tcc_model_descriptor *d,
                                    tcc_device_module **out_module) {
  if (!d || !out_module)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "metal device: load_module: %s is null",
                           d ? "out_module" : "descriptor");
  tcc_status status = metal_enter("load_module");
  if (status)
    return status;
  const tcc_device_image *image = NULL;
  for (int32_t i = 0; i < d->num_device_images && !image; ++i)
    if (d->device_images[i].format == TCC_IMAGE_MSL &&
        strcmp(d->device_images[i].arch, "metal3") == 0)
      image = &d->device_images[i];
  if (!image)
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "metal device: load_module: the model has no MSL image for Metal 3 "
                           "(arch metal3); compile it with --target apple");
  tcc_device_module *module = calloc(1, sizeof(*module));
  if (module)
    module->pipelines = calloc((size_t)d->num_device_kernels, sizeof(id));
  if (!module || !module->pipelines) {
    metal_unload_module(device, module);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "metal device: load_module: out of memory");
  }
  module->num_kernels = d->num_device_kernels;
  module->names = d->device_kernel_names;
  // Each unit is compiled for the kernel it names (tcc_model_load checked that every kernel
  // has one: metal/msl_image.h).
  const char *text = image->data;
  size_t length = strnlen(text, (size_t)image->size);
  size_t cursor = 0;
  tcc_msl_unit unit;
  while (!status && tcc_msl_next_unit(text, length, &cursor, &unit) == 1)
    for (int32_t k = 0; k < module->num_kernels && !status; ++k)
      if (!module->pipelines[k] && strlen(module->names[k]) == unit.name_size &&
          memcmp(module->names[k], unit.name, unit.name_size) == 0)
        status = make_pipeline(module, k, &unit);
  for (int32_t k = 0; k < module->num_kernels && !status; ++k)
    if (!module->pipelines[k])
      status = tcc_make_status(TCC_STATUS_INVALID_MODEL,
                               "metal device: load_module: the MSL image has no unit of kernel "
                               "'%s'",
                               module->names[k]);
  if (status) {
    metal_unload_module(device, module);
    return status;
  }
  *out_module = module;
  return NULL;
}

/// Makes every allocation resident for the queue's encoder (the kernels reach them through
/// addresses, which Metal cannot see), when the table changed since it last did.
static tcc_status make_resident(tcc_device_queue *queue) {
  pthread_mutex_lock(&metal.table.mutex);
  if (queue->resident_generation == metal.table.generation) {
    pthread_mutex_unlock(&metal.table.mutex);
    return NULL;
  }
  size_t count = metal.table.count;
  id<MTLResource> *resources = malloc((count ? count : 1) * sizeof(id<MTLResource>));
  if (!resources) {
    pthread_mutex_unlock(&metal.table.mutex);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "metal device: launch_kernel: out of memory");
  }
  for (size_t i = 0; i < count; ++i)
    resources[i] = ((const metal_allocation *)tcc_address_table_entry(&metal.table, i))->buffer;
  uint64_t generation = metal.table.generation;
  pthread_mutex_unlock(&metal.table.mutex);
  [queue->encoder useResources:resources
                         count:count
                         usage:MTLResourceUsageRead | MTLResourceUsageWrite];
  [queue->encoder useResource:queue->arena usage:MTLResourceUsageRead];
  free(resources);
  queue->resident_generation = generation;
  return NULL;
}

static tcc_status metal_launch_kernel(const tcc_device *device, tcc_device_queue *queue,
                                      tcc_device_module *module, int32_t kernel, int64_t grid_x,
                                      int32_t block_x, int32_t shared_bytes, void **args) {
  (void)device;
  if (!queue || !module)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "metal device: launch_kernel: %s is null",
                           queue ? "module" : "queue");
  if (kernel < 0 || kernel >= module->num_kernels)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "metal device: launch_kernel: kernel %d, expected 0 to %d", (int)kernel,
                           (int)module->num_kernels - 1);
  const char *name = module->names[kernel];
  id<MTLComputePipelineState> pipeline = module->pipelines[kernel];
  NSUInteger most_threads = pipeline.maxTotalThreadsPerThreadgroup;
  if (grid_x < 1 || grid_x > INT32_MAX || block_x < 1 || (NSUInteger)block_x > most_threads ||
      shared_bytes != 0)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "metal device: launch_kernel: kernel '%s' with %lld blocks of %d "
                           "threads and %d bytes of dynamic shared memory; on %s it takes 1 to "
                           "%d blocks of 1 to %lu threads and no dynamic threadgroup memory",
                           name, (long long)grid_x, (int)block_x, (int)shared_bytes,
                           metal.device.name.UTF8String, INT32_MAX, (unsigned long)most_threads);
  uint32_t count = 0;
  while (args && args[count] && count <= MAX_PARAMETERS)
    ++count;
  if (count > MAX_PARAMETERS)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "metal device: launch_kernel: kernel '%s' has more than %d parameters "
                           "(an argument array without its NULL end?)",
                           name, MAX_PARAMETERS);
  uint64_t slots[PUSH_SLOTS];
  uint32_t direct = count > PUSH_SLOTS ? PUSH_SLOTS - 1 : count;
  for (uint32_t k = 0; k < direct; ++k)
    memcpy(&slots[k], args[k], 8);
  if (count > PUSH_SLOTS) {
    // The rest go to the queue's arena (after the launches recorded so far have run, when it
    // is full), their address in the last slot.
    size_t bytes = (size_t)(count - direct) * 8;
    if (queue->arena_used + bytes > ARENA_BYTES) {
      tcc_status status = flush(queue, "launch_kernel");
      if (status)
        return status;
    }
    unsigned char *at = (unsigned char *)queue->arena.contents + queue->arena_used;
    for (uint32_t k = direct; k < count; ++k)
      memcpy(at + (k - direct) * 8, args[k], 8);
    slots[direct] = queue->arena.gpuAddress + queue->arena_used;
    queue->arena_used += bytes;
  }
  uint32_t pushed = count > PUSH_SLOTS ? PUSH_SLOTS : count;
  @autoreleasepool {
    if (!queue->recording) {
      queue->recording = [[queue->commands commandBuffer] retain];
      queue->encoder = [[queue->recording computeCommandEncoder] retain];
      if (!queue->recording || !queue->encoder) {
        [queue->encoder release];
        [queue->recording release];
        queue->encoder = nil;
        queue->recording = nil;
        return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                               "metal device: launch_kernel: no command buffer or compute "
                               "encoder for kernel '%s'",
                               name);
      }
      // A fresh encoder has nothing resident (the table never reaches this generation).
      queue->resident_generation = ~(uint64_t)0;
    }
    tcc_status status = make_resident(queue);
    if (status)
      return status;
    [queue->encoder setComputePipelineState:pipeline];
    if (pushed > 0)
      [queue->encoder setBytes:slots length:pushed * 8 atIndex:0];
    [queue->encoder dispatchThreadgroups:MTLSizeMake((NSUInteger)grid_x, 1, 1)
                   threadsPerThreadgroup:MTLSizeMake((NSUInteger)block_x, 1, 1)];
  }
  return NULL;
}

const tcc_device tcc_metal_device = {.type = kDLMetal,
                                     .name = "metal",
                                     .gpu = NULL,
                                     .index_bits = 32,
                                     .allocate = metal_allocate,
                                     .free = metal_free,
                                     .copy = metal_copy,
                                     .fill = metal_fill,
                                     .create_queue = metal_create_queue,
                                     .destroy_queue = metal_destroy_queue,
                                     .launch = tcc_gpu_launch,
                                     .synchronize = metal_synchronize,
                                     .device_id = NULL,
                                     .load_module = metal_load_module,
                                     .unload_module = metal_unload_module,
                                     .launch_kernel = metal_launch_kernel};
