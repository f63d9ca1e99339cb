//===- model_device.c - the device fields of a descriptor: which device, which kernels ---===//
//
// A device model (model_abi.h: device_type other than kDLCPU) carries its kernels as images
// for the driver, which reads them without knowing their size: so every image is checked here
// to end where its size says, and every name and count to be in range, when the model is
// loaded and before any driver is asked for anything. A descriptor that predates the fields,
// or leaves device_type 0, is a CPU model. The kernels are loaded and the constants uploaded
// once per model and device, by its first session there (tcc_model_device_state_acquire).
//
//===------------------------------------------------------------------------------------===//
#include "hip/hsaco.h"
#include "metal/msl_image.h"
#include "model_internal.h"
#include "status_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(offsetof(tcc_model_descriptor, device_type) == TCC_MODEL_DESCRIPTOR_V3_SIZE,
               "device_type follows compute_symbols");
#endif

/// Where the device fields end: a descriptor has all of them or none.
#define DEVICE_FIELDS_END                                                                          \
  (offsetof(tcc_model_descriptor, device_constants_size) +                                         \
   sizeof(((tcc_model_descriptor *)0)->device_constants_size))

/// ... and where the device check messages end (a device model compiled before them has
/// none).
#define CHECK_FIELDS_END                                                                           \
  (offsetof(tcc_model_descriptor, device_check_messages) +                                         \
   sizeof(((tcc_model_descriptor *)0)->device_check_messages))

int32_t tcc_descriptor_device_type(const tcc_model_descriptor *d) {
  return d->size >= DEVICE_FIELDS_END && d->device_type != 0 ? d->device_type : (int32_t)kDLCPU;
}

const char *tcc_descriptor_device_check_message(const tcc_model_descriptor *d, int32_t code) {
  if (d->size < CHECK_FIELDS_END || code < 1 || code > d->num_device_check_messages)
    return NULL;
  return d->device_check_messages[code - 1];
}

/// Limits beyond which a device model's counts are treated as corrupt.
#define MAX_DEVICE_IMAGES 64
#define MAX_DEVICE_KERNELS 65536
#define MAX_DEVICE_CHECKS 65536

/// Writes the formats of `type`'s images for a message: "1 (PTX) or 2 (cubin)".
static void list_formats(int32_t type, char *buffer, size_t capacity) {
  buffer[0] = '\0';
  size_t used = 0;
  int listed = 0;
  // TCC_IMAGE_MSL: the last format of model_abi.h.
  for (int32_t format = 1; format <= TCC_IMAGE_MSL && used < capacity; ++format)
    if (tcc_image_format_device_type(format) == type) {
      int written = snprintf(buffer + used, capacity - used, "%s%d (%s)", listed ? " or " : "",
                             (int)format, tcc_image_format_name(format));
      if (written < 0)
        break;
      used += (size_t)written;
      ++listed;
    }
}

/// Checks one device image of a model of device type `type`: architecture, format (one of the
/// type's), data and size, and that its data is what the format says (PTX text ends within its
/// size; a cubin or HSA code object starts with an ELF header whose tables lie within its
/// size), so that the driver never reads past the image.
static tcc_status validate_device_image(const char *where, int32_t type, int32_t i,
                                        const tcc_device_image *image) {
  if (!image->arch || !image->arch[0])
    return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: device image %d has %s arch", where,
                           (int)i, image->arch ? "an empty" : "a null");
  int32_t format_type = tcc_image_format_device_type(image->format);
  if (format_type != type) {
    char expected[64];
    list_formats(type, expected, sizeof(expected));
    if (format_type == 0)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: device image %d (%s) has the unknown format %d, expected %s",
                             where, (int)i, image->arch, (int)image->format, expected);
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: device image %d (%s) has the format %d (%s), which is for %s "
                           "models (%s), but the model's device_type is %d (%s, %s): expected %s",
                           where, (int)i, image->arch, (int)image->format,
                           tcc_image_format_name(image->format),
                           tcc_device_type_name((DLDeviceType)format_type),
                           tcc_device_type_enumerator((DLDeviceType)format_type), (int)type,
                           tcc_device_type_name((DLDeviceType)type),
                           tcc_device_type_enumerator((DLDeviceType)type), expected);
  }
  const char *format = tcc_image_format_name(image->format);
  if (image->size <= 0 || !image->data)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: device image %d (%s %s) has size %lld and %s data, expected a "
                           "size > 0 and data",
                           where, (int)i, image->arch, format, (long long)image->size,
                           image->data ? "non-null" : "null");
  if ((uint64_t)image->size > SIZE_MAX)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: device image %d (%s %s) is too large",
                           where, (int)i, image->arch, format);
  size_t size = (size_t)image->size;
  if (image->format == TCC_IMAGE_PTX || image->format == TCC_IMAGE_MSL) {
    if (!memchr(image->data, '\0', size))
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: device image %d (%s %s) is not NUL-terminated within its %lld "
                             "bytes",
                             where, (int)i, image->arch, format, (long long)image->size);
    return NULL;
  }
  if (image->format == TCC_IMAGE_SPIRV) {
    // Whole 32-bit words, the five-word header first, little-endian as the hosts.
    uint32_t magic = 0;
    if (size >= 20)
      memcpy(&magic, image->data, sizeof(magic));
    if (size % 4 != 0 || magic != 0x07230203u)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: device image %d (%s SPIR-V, %lld bytes) is not a SPIR-V module "
                             "(whole words starting with the magic number 0x07230203)",
                             where, (int)i, image->arch, (long long)image->size);
    return NULL;
  }
  // A cubin or a code object is an ELF64 file: its section and program header tables must lie
  // inside it (a code object is checked further once the kernel names are: hip/hsaco.h).
  const unsigned char *bytes = image->data;
  int elf = size >= 64 && memcmp(bytes, "\177ELF", 4) == 0 && bytes[4] == 2 /* 64-bit */ &&
            bytes[5] == 1 /* little-endian, as the hosts */;
  for (int table = 0; elf && table < 2; ++table) {
    uint64_t offset = 0;
    uint16_t entry_size = 0;
    uint16_t count = 0;
    memcpy(&offset, bytes + (table ? 0x28 : 0x20), sizeof(offset)); // e_shoff : e_phoff
    memcpy(&entry_size, bytes + (table ? 0x3a : 0x36), sizeof(entry_size));
    memcpy(&count, bytes + (table ? 0x3c : 0x38), sizeof(count));
    uint64_t extent = (uint64_t)entry_size * count;
    elf = offset <= size && extent <= size - offset;
  }
  if (!elf)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: device image %d (%s %s, %lld bytes) is not a 64-bit ELF file "
                           "whose headers lie within its size",
                           where, (int)i, image->arch, format, (long long)image->size);
  return NULL;
}

tcc_status tcc_validate_device_fields(const char *where, const tcc_model_descriptor *d,
                                      const tcc_device **out_device) {
  if (d->size <= TCC_MODEL_DESCRIPTOR_V3_SIZE) {
    *out_device = &tcc_cpu_device;
    return NULL;
  }
  if (d->size < DEVICE_FIELDS_END)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: the model's descriptor has %u bytes: it ends inside the device "
                           "fields (expected %d, or at least %zu)",
                           where, (unsigned)d->size, TCC_MODEL_DESCRIPTOR_V3_SIZE,
                           DEVICE_FIELDS_END);
  int32_t type = tcc_descriptor_device_type(d);
  if (type == kDLCPU) {
    if (d->num_device_images != 0 || d->num_device_kernels != 0 || d->device_constants_size != 0)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: a CPU model (device_type %d) has num_device_images %d, "
                             "num_device_kernels %d and device_constants_size %lld, expected 0",
                             where, (int)d->device_type, (int)d->num_device_images,
                             (int)d->num_device_kernels, (long long)d->device_constants_size);
    *out_device = &tcc_cpu_device;
    return NULL;
  }
  const tcc_device *device = NULL;
  tcc_status lookup = tcc_device_for_type((DLDeviceType)type, &device);
  if (lookup) {
    tcc_status_free(lookup);
    return tcc_make_status(TCC_STATUS_UNIMPLEMENTED,
                           "%s: the model's device_type is %d (%s, %s): this runtime has no "
                           "backend for it",
                           where, (int)type, tcc_device_type_name((DLDeviceType)type),
                           tcc_device_type_enumerator((DLDeviceType)type));
  }
  // A device model without kernels (every output empty: nothing to compute) has no images.
  if (d->num_device_kernels < 0 || d->num_device_kernels > MAX_DEVICE_KERNELS)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: num_device_kernels is %d, expected 0 to %d for a device model "
                           "(device_type %d)",
                           where, (int)d->num_device_kernels, MAX_DEVICE_KERNELS, (int)type);
  if (d->num_device_kernels == 0 && d->num_device_images != 0)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: num_device_kernels is 0 but num_device_images is %d: a device "
                           "model without kernels has no images",
                           where, (int)d->num_device_images);
  if (d->num_device_kernels > 0 &&
      (d->num_device_images < 1 || d->num_device_images > MAX_DEVICE_IMAGES))
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: num_device_images is %d, expected 1 to %d for a device model "
                           "with kernels (device_type %d)",
                           where, (int)d->num_device_images, MAX_DEVICE_IMAGES, (int)type);
  if (d->num_device_images > 0 && !d->device_images)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: num_device_images is %d but device_images is null", where,
                           (int)d->num_device_images);
  for (int32_t i = 0; i < d->num_device_images; ++i) {
    tcc_status status = validate_device_image(where, type, i, &d->device_images[i]);
    if (status)
      return status;
  }
  if (d->num_device_kernels > 0 && !d->device_kernel_names)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: num_device_kernels is %d but device_kernel_names is null", where,
                           (int)d->num_device_kernels);
  for (int32_t k = 0; k < d->num_device_kernels; ++k)
    if (!d->device_kernel_names[k] || !d->device_kernel_names[k][0])
      return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: device_kernel_names[%d] is %s", where,
                             (int)k, d->device_kernel_names[k] ? "empty" : "null");
  // An AMD code object is read further, as a loader reads it, without a GPU: its chip and a
  // kernel descriptor for every kernel (hip/hsaco.h).
  // An MSL image must have a unit for every kernel (metal/msl_image.h).
  for (int32_t i = 0; i < d->num_device_images; ++i) {
    tcc_status status = NULL;
    if (d->device_images[i].format == TCC_IMAGE_HSACO)
      status = tcc_hsaco_check_image(d, &d->device_images[i]);
    else if (d->device_images[i].format == TCC_IMAGE_MSL)
      status = tcc_msl_check_image(d, &d->device_images[i]);
    if (status)
      return tcc_annotate_status(status, "%s: device image %d", where, (int)i);
  }
  if (d->size > DEVICE_FIELDS_END && d->size < CHECK_FIELDS_END)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: the model's descriptor has %u bytes: it ends inside the device "
                           "check fields (expected %zu, or at least %zu)",
                           where, (unsigned)d->size, DEVICE_FIELDS_END, CHECK_FIELDS_END);
  if (d->size >= CHECK_FIELDS_END) {
    if (d->num_device_check_messages < 0 || d->num_device_check_messages > MAX_DEVICE_CHECKS ||
        (d->num_device_check_messages > 0 && !d->device_check_messages))
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: num_device_check_messages is %d and device_check_messages is "
                             "%s, expected 0 to %d messages and the array when there are some",
                             where, (int)d->num_device_check_messages,
                             d->device_check_messages ? "non-null" : "null", MAX_DEVICE_CHECKS);
    for (int32_t k = 0; k < d->num_device_check_messages; ++k)
      if (!d->device_check_messages[k])
        return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: device_check_messages[%d] is null",
                               where, (int)k);
  }
  if (d->device_constants_size < 0 || (d->device_constants_size > 0 && !d->device_constants))
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: device_constants_size is %lld and device_constants is %s, "
                           "expected a size >= 0 and data when it is > 0",
                           where, (long long)d->device_constants_size,
                           d->device_constants ? "non-null" : "null");
  // What a device model cannot have (model_abi.h): the runtime would touch device memory from
  // the host for each of them.
  if (d->num_parameters != 0)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: a device model cannot have parameters (num_parameters is %d)",
                           where, (int)d->num_parameters);
  for (int32_t s = 0; s < d->num_symbols; ++s)
    if (tcc_descriptor_symbol_computed(d, s))
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: a device model cannot have computed symbols (symbol_computed "
                             "marks symbol %d '%s')",
                             where, (int)s, d->symbols[s].name);
  for (int side = 0; side < 2; ++side) {
    int32_t count = side == 0 ? d->num_inputs : d->num_outputs;
    for (int32_t i = 0; i < count; ++i) {
      const tcc_tensor_desc *t = side == 0 ? &d->inputs[i] : &d->outputs[i];
      const char *kind = side == 0 ? "input" : "output";
      if (t->dtype == TCC_DTYPE_STRING)
        return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                               "%s: a device model cannot have string tensors (%s %d '%s' has "
                               "dtype string)",
                               where, kind, (int)i, t->name);
      // Data-dependent output dims: the host code reads their extents back (device_read).
      for (int32_t k = 0; k < t->rank && t->dim_symbols; ++k)
        if (t->dim_symbols[k] == TCC_DIM_DATA_DEPENDENT && !(d->flags & TCC_MODEL_READS_DEVICE))
          return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                                 "%s: a device model with data-dependent output dims must read "
                                 "them from device memory (TCC_MODEL_READS_DEVICE), but %s %d "
                                 "'%s' dim %d is data-dependent and the flag is not set",
                                 where, kind, (int)i, t->name, (int)k);
    }
  }
  *out_device = device;
  return NULL;
}

/// The device constants' alignment (the workspace's, model_abi.h).
#define DEVICE_CONSTANTS_ALIGNMENT 64

/// Loads the kernels and uploads the constants of variant `d` on `device` into a new state.
static tcc_status create_device_state(const tcc_model_descriptor *d, const tcc_device *device,
                                      const char *function, tcc_model_device_state **out_state) {
  tcc_model_device_state *state = calloc(1, sizeof(*state));
  if (!state)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  state->device = device;
  // A model without kernels loads no module (it has no images; it launches nothing).
  tcc_status status =
      d->num_device_kernels > 0 ? device->load_module(device, d, &state->module) : NULL;
  if (status) {
    free(state);
    return tcc_annotate_status(status, "%s", function);
  }
  if (d->device_constants_size > 0) {
    if ((uint64_t)d->device_constants_size > SIZE_MAX)
      status = tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                               "%s: the %lld bytes of device constants exceed the address space",
                               function, (long long)d->device_constants_size);
    size_t bytes = (size_t)d->device_constants_size;
    if (!status)
      status =
          device->allocate(device, bytes, DEVICE_CONSTANTS_ALIGNMENT, &state->device_constants);
    if (!status)
      status = device->copy(device, state->device_constants, d->device_constants, bytes,
                            TCC_COPY_HOST_TO_DEVICE);
    if (status) {
      status = tcc_annotate_status(status, "%s: cannot upload the %zu bytes of device constants",
                                   function, bytes);
      device->free(device, state->device_constants);
      device->unload_module(device, state->module);
      free(state);
      return status;
    }
  }
  *out_state = state;
  return NULL;
}

tcc_status tcc_model_device_state_acquire(tcc_model *model, const tcc_model_descriptor *descriptor,
                                          const tcc_device *device, const char *function,
                                          const tcc_model_device_state **out_state) {
  pthread_mutex_lock(&model->device_mutex);
  tcc_model_device_state *state = model->device_states;
  // (A model has one variant per device type other than the CPU: one state per device.)
  while (state && state->device != device)
    state = state->next;
  tcc_status status = NULL;
  if (!state) {
    status = create_device_state(descriptor, device, function, &state);
    if (!status) {
      state->next = model->device_states;
      model->device_states = state;
    }
  }
  pthread_mutex_unlock(&model->device_mutex);
  if (!status)
    *out_state = state;
  return status;
}

void tcc_model_device_states_free(tcc_model *model) {
  tcc_model_device_state *state = model->device_states;
  while (state) {
    tcc_model_device_state *next = state->next;
    state->device->free(state->device, state->device_constants);
    state->device->unload_module(state->device, state->module);
    free(state);
    state = next;
  }
  model->device_states = NULL;
}
