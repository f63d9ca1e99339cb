//===- tensor_checks.c - checking DLTensors against a model, binding symbolic dims -------===//
//
// Tensors come from the caller and are not trusted: every property the model's code relies on
// (dtype, rank, extents, dense row-major layout, alignment, the model's device) is checked
// here before any of it runs, and every mismatch becomes a status that names the tensor, the
// dim, and expected vs actual.
//
//===------------------------------------------------------------------------------------===//
#include "dtype_internal.h"
#include "model_internal.h"
#include "optionals_internal.h"
#include "sequences_internal.h"
#include "status_internal.h"
#include "strings_internal.h"

#include <stdio.h>
#include <stdlib.h>

/// Writes "[1, 64]" or "[1, unbounded]".
static void format_range(const tcc_symbol_desc *symbol, char *buffer, size_t capacity) {
  if (symbol->max == -1)
    snprintf(buffer, capacity, "[%lld, unbounded]", (long long)symbol->min);
  else
    snprintf(buffer, capacity, "[%lld, %lld]", (long long)symbol->min, (long long)symbol->max);
}

static int in_range(const tcc_symbol_desc *symbol, int64_t value) {
  return value >= symbol->min && (symbol->max == -1 || value <= symbol->max);
}

/// The error for a tensor on another device than the model's (or the CPU, for a device model):
/// UNIMPLEMENTED when the runtime has no backend for the tensor's device (a feature to come),
/// else INVALID_ARGUMENT.
static tcc_status wrong_device(const tcc_device *expected, const char *function, const char *kind,
                               size_t index, const char *name, DLDeviceType given) {
  const tcc_device *backend = NULL;
  tcc_status lookup = tcc_device_for_type(given, &backend);
  tcc_status_code code = lookup ? TCC_STATUS_UNIMPLEMENTED : TCC_STATUS_INVALID_ARGUMENT;
  tcc_status_free(lookup);
  if (expected->type != kDLCPU)
    return tcc_make_status(code,
                           "%s: " TCC_TENSOR_FORMAT " is on device type %d (%s); only %s tensors "
                           "(%s) and CPU tensors (kDLCPU, copied to the device) are supported",
                           function, kind, index, name, (int)given, tcc_device_type_name(given),
                           tcc_device_type_name(expected->type),
                           tcc_device_type_enumerator(expected->type));
  return tcc_make_status(code,
                         "%s: " TCC_TENSOR_FORMAT " is on device type %d (%s); only %s tensors "
                         "(%s) are supported",
                         function, kind, index, name, (int)given, tcc_device_type_name(given),
                         tcc_device_type_name(expected->type),
                         tcc_device_type_enumerator(expected->type));
}

tcc_status tcc_check_tensor_layout(const tcc_model *model, const tcc_model_variant *variant,
                                   const char *function, const char *kind, size_t index,
                                   const tcc_tensor_entry *entry, const DLTensor *tensor,
                                   uint64_t *out_bytes) {
  const char *name = entry->info.name;
  if (!tensor)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: " TCC_TENSOR_FORMAT " is null",
                           function, kind, index, name);
  // A CPU model takes CPU tensors; a device model those of its device and CPU tensors, which
  // sessions copy. Without a variant, the tensor's device is any variant's.
  DLDeviceType given = tensor->device.device_type;
  const tcc_device *device = variant ? variant->device : tcc_model_device(model);
  for (int32_t v = 0; !variant && v < model->num_variants; ++v)
    if (model->variants[v].device->type == given)
      device = model->variants[v].device;
  if (given != device->type && (device->type == kDLCPU || given != kDLCPU))
    return wrong_device(device, function, kind, index, name, given);
  if (given == device->type && device->device_id &&
      tensor->device.device_id != device->device_id(device))
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: " TCC_TENSOR_FORMAT " is on %s device %d, but the runtime uses "
                           "%s device %d",
                           function, kind, index, name, tcc_device_type_name(given),
                           (int)tensor->device.device_id, tcc_device_type_name(given),
                           (int)device->device_id(device));
  if (!tcc_dtype_accepts_dlpack(entry->info.dtype, tensor->dtype)) {
    char actual[48];
    tcc_format_dlpack_type(tensor->dtype, actual, sizeof(actual));
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: " TCC_TENSOR_FORMAT " has dtype %s, expected %s", function, kind,
                           index, name, actual, tcc_dtype_name(entry->info.dtype));
  }
  if (tensor->ndim != entry->info.rank)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: " TCC_TENSOR_FORMAT " has rank %d, expected %d", function, kind,
                           index, name, tensor->ndim, (int)entry->info.rank);
  int rank = tensor->ndim;
  if (rank > 0 && !tensor->shape)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: " TCC_TENSOR_FORMAT " has rank %d but a null shape", function,
                           kind, index, name, rank);
  uint64_t elements = 1;
  int overflow = 0;
  for (int d = 0; d < rank; ++d) {
    if (tensor->shape[d] < 0)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: " TCC_TENSOR_FORMAT ": dim %d is %lld, expected a "
                             "non-negative extent",
                             function, kind, index, name, d, (long long)tensor->shape[d]);
    overflow |= __builtin_mul_overflow(elements, (uint64_t)tensor->shape[d], &elements);
  }
  uint64_t bytes = 0;
  overflow |= __builtin_mul_overflow(elements, (uint64_t)entry->element_size, &bytes);
  if (overflow || bytes > (uint64_t)INT64_MAX || bytes > (uint64_t)SIZE_MAX)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: " TCC_TENSOR_FORMAT " is too large: its byte size overflows",
                           function, kind, index, name);
  if (tensor->strides && elements > 0) {
    int64_t expected = 1;
    for (int d = rank - 1; d >= 0; --d) {
      // The stride of a dim of extent 1 never moves the address: exporters leave any value.
      if (tensor->shape[d] != 1 && tensor->strides[d] != expected)
        return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                               "%s: " TCC_TENSOR_FORMAT " is not compact row-major: dim %d has "
                               "stride %lld, expected %lld (in elements)",
                               function, kind, index, name, d, (long long)tensor->strides[d],
                               (long long)expected);
      expected *= tensor->shape[d];
    }
  }
  if (elements > 0) {
    if (!tensor->data)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: " TCC_TENSOR_FORMAT " has null data but %llu elements",
                             function, kind, index, name, (unsigned long long)elements);
    uintptr_t address = (uintptr_t)tensor->data;
    if (address + tensor->byte_offset < address ||
        address + tensor->byte_offset + bytes < address + tensor->byte_offset)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: " TCC_TENSOR_FORMAT ": data + byte_offset (%llu) overflows",
                             function, kind, index, name,
                             (unsigned long long)tensor->byte_offset);
    if ((address + tensor->byte_offset) % entry->element_size != 0)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: " TCC_TENSOR_FORMAT ": data + byte_offset is not aligned to "
                             "its %zu-byte elements",
                             function, kind, index, name, entry->element_size);
  }
  *out_bytes = bytes;
  return NULL;
}

tcc_status tcc_check_string_inputs(const tcc_model *model, const char *function,
                                   const DLTensor *const *inputs,
                                   const struct tcc_strings *strings) {
  for (int32_t i = 0; i < model->descriptor->num_inputs; ++i) {
    const tcc_tensor_entry *entry = &model->inputs[i];
    if (entry->info.dtype != TCC_DTYPE_STRING)
      continue;
    // The model reads every element's bytes: a bad element would make it read anywhere.
    uint64_t count = tcc_tensor_bytes(entry, inputs[i]) / sizeof(tcc_string);
    const tcc_string *elements = count ? tcc_tensor_address(inputs[i]) : NULL;
    for (uint64_t k = 0; k < count; ++k) {
      const char *data = elements[k].data;
      int64_t size = elements[k].size;
      if (size < 0 || (size > 0 && !data))
        return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                               "%s: input %d '%s': string %llu has size %lld and %s data, "
                               "expected a size >= 0 and data for a non-empty string",
                               function, (int)i, entry->info.name, (unsigned long long)k,
                               (long long)size, data ? "non-null" : "null");
      if (size > 0 && (uintptr_t)data + (uint64_t)size < (uintptr_t)data)
        return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                               "%s: input %d '%s': string %llu: data + size (%lld) overflows",
                               function, (int)i, entry->info.name, (unsigned long long)k,
                               (long long)size);
      if (size > 0 && strings && tcc_strings_owns(strings, data))
        return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                               "%s: input %d '%s': string %llu points into the strings of the "
                               "session's previous run, which this run replaces (copy them "
                               "first)",
                               function, (int)i, entry->info.name, (unsigned long long)k);
    }
  }
  return NULL;
}

/// Finds the first input dim that uses symbol `s`.
static void find_first_use(const tcc_model *model, int32_t s, size_t *out_input,
                           int32_t *out_dim) {
  for (int32_t j = 0; j < model->descriptor->num_inputs; ++j)
    for (int32_t m = 0; m < model->inputs[j].info.rank; ++m)
      if (model->inputs[j].dim_symbols[m] == s) {
        *out_input = (size_t)j;
        *out_dim = m;
        return;
      }
}

/// Runs the model's compute_symbols (symbols whose values come from input elements, such as
/// a Range's length) once the input shapes have bound the others, and checks each computed
/// value against its symbol's range.
static tcc_status compute_symbols(const tcc_model *model, const tcc_model_descriptor *d,
                                  const char *function, const DLTensor *const *inputs,
                                  int64_t *symbol_values) {
  int any = 0;
  for (int32_t s = 0; s < d->num_symbols && !any; ++s)
    any = tcc_descriptor_symbol_computed(d, s);
  if (!any)
    return NULL;
  // The input addresses, as run gets them (a small model needs no allocation).
  enum { kOnStack = 32 };
  void *on_stack[kOnStack];
  size_t count = (size_t)d->num_inputs;
  void **addresses = count <= kOnStack ? on_stack : malloc(count * sizeof(void *));
  if (!addresses)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  // Empty inputs read as zeros (a sequence's empty shapes table: row 0, model_abi.h).
  static _Alignas(64) unsigned char empty[TCC_EMPTY_SHAPES_BYTES];
  for (size_t i = 0; i < count; ++i)
    addresses[i] = tcc_tensor_bytes(&model->inputs[i], inputs[i]) ? tcc_tensor_address(inputs[i])
                                                                   : empty;
  int32_t code = d->compute_symbols(symbol_values, addresses);
  if (addresses != on_stack)
    free(addresses);
  if (code != TCC_RUN_OK)
    return tcc_make_status(code == TCC_RUN_CHECK_FAILED ? TCC_STATUS_CHECK_FAILED
                                                        : TCC_STATUS_INTERNAL,
                           "%s: the model's compute_symbols failed with code %d", function,
                           (int)code);
  for (int32_t s = 0; s < d->num_symbols; ++s) {
    if (!tcc_descriptor_symbol_computed(d, s) || in_range(&d->symbols[s], symbol_values[s]))
      continue;
    char range[64];
    format_range(&d->symbols[s], range, sizeof(range));
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: symbol '%s', computed from the inputs' data, is %lld, outside its "
                           "range %s%s",
                           function, d->symbols[s].name, (long long)symbol_values[s], range,
                           symbol_values[s] == -1 ? " (-1: the inputs give it no value, e.g. a "
                                                    "Range whose delta is 0)"
                                                  : "");
  }
  return NULL;
}

tcc_status tcc_model_bind_inputs(const tcc_model *model, const tcc_model_variant *variant,
                                 const char *function, const DLTensor *const *inputs,
                                 size_t num_inputs, int64_t *symbol_values) {
  const tcc_model_descriptor *d = variant ? variant->descriptor : model->descriptor;
  if (num_inputs != (size_t)d->num_inputs)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: expected %d inputs, got %zu",
                           function, (int)d->num_inputs, num_inputs);
  if (num_inputs > 0 && !inputs)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: inputs is null (%zu inputs)",
                           function, num_inputs);
  for (int32_t s = 0; s < d->num_symbols; ++s)
    symbol_values[s] = -1;
  for (size_t i = 0; i < num_inputs; ++i) {
    const tcc_tensor_entry *entry = &model->inputs[i];
    const DLTensor *tensor = inputs[i];
    uint64_t bytes;
    tcc_status status =
        tcc_check_tensor_layout(model, variant, function, "input", i, entry, tensor, &bytes);
    if (status)
      return status;
    for (int32_t k = 0; k < entry->info.rank; ++k) {
      int64_t extent = tensor->shape[k];
      int64_t declared = entry->info.shape[k];
      if (declared >= 0) {
        if (extent != declared)
          return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                                 "%s: input %zu '%s': dim %d is %lld, expected %lld", function,
                                 i, entry->info.name, (int)k, (long long)extent,
                                 (long long)declared);
        continue;
      }
      int32_t s = entry->dim_symbols[k];
      const tcc_symbol_desc *symbol = &d->symbols[s];
      if (symbol_values[s] == -1) {
        if (!in_range(symbol, extent)) {
          char range[64];
          format_range(symbol, range, sizeof(range));
          return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                                 "%s: input %zu '%s': dim %d (symbol '%s') is %lld, outside the "
                                 "symbol's range %s",
                                 function, i, entry->info.name, (int)k, symbol->name,
                                 (long long)extent, range);
        }
        symbol_values[s] = extent;
        continue;
      }
      if (extent == symbol_values[s])
        continue;
      // The first dim that uses the symbol set its value: name it in the message.
      size_t first_input = 0;
      int32_t first_dim = 0;
      find_first_use(model, s, &first_input, &first_dim);
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: input %zu '%s': dim %d (symbol '%s') is %lld, but input %zu "
                             "'%s' dim %d set %s = %lld",
                             function, i, entry->info.name, (int)k, symbol->name,
                             (long long)extent, first_input, model->inputs[first_input].info.name,
                             (int)first_dim, symbol->name, (long long)symbol_values[s]);
    }
  }
  tcc_status status = tcc_check_sequence_inputs(model, d, function, inputs);
  return status ? status : compute_symbols(model, d, function, inputs, symbol_values);
}

tcc_status tcc_model_compute_output_shapes(const tcc_model *model,
                                           const tcc_model_descriptor *d, const char *function,
                                           const int64_t *symbol_values, int64_t *shapes) {
  for (size_t i = 0; i < model->output_shapes_length; ++i)
    shapes[i] = -1; // entries the model forgets to write show up as negative extents
  int32_t code = d->output_shapes(symbol_values, shapes);
  if (code != TCC_RUN_OK)
    return tcc_make_status(code == TCC_RUN_CHECK_FAILED ? TCC_STATUS_CHECK_FAILED
                                                        : TCC_STATUS_INTERNAL,
                           "%s: the model's output_shapes failed with code %d", function,
                           (int)code);
  size_t offset = 0;
  for (int32_t o = 0; o < d->num_outputs; ++o) {
    const tcc_tensor_entry *entry = &model->outputs[o];
    for (int32_t k = 0; k < entry->info.rank; ++k) {
      int64_t extent = shapes[offset + k];
      int64_t declared = entry->info.shape[k];
      int32_t s = entry->dim_symbols[k];
      if (extent < 0)
        return tcc_make_status(TCC_STATUS_INTERNAL,
                               "%s: the model's output_shapes gave output %d '%s' dim %d the "
                               "negative extent %lld",
                               function, (int)o, entry->info.name, (int)k, (long long)extent);
      if (declared >= 0 && extent != declared)
        return tcc_make_status(TCC_STATUS_INTERNAL,
                               "%s: the model's output_shapes gave output %d '%s' dim %d = %lld, "
                               "but the output is declared with %lld",
                               function, (int)o, entry->info.name, (int)k, (long long)extent,
                               (long long)declared);
      if (s >= 0 && extent != symbol_values[s])
        return tcc_make_status(TCC_STATUS_INTERNAL,
                               "%s: the model's output_shapes gave output %d '%s' dim %d = %lld, "
                               "but its symbol %s is %lld",
                               function, (int)o, entry->info.name, (int)k, (long long)extent,
                               d->symbols[s].name, (long long)symbol_values[s]);
    }
    offset += (size_t)entry->info.rank;
  }
  return NULL;
}

tcc_status tcc_model_bind_symbols(const tcc_model *model, const DLTensor *const *inputs,
                                  size_t num_inputs, int64_t *symbol_values,
                                  size_t symbol_values_length) {
  const char *function = "tcc_model_bind_symbols";
  if (!model)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: model is null", function);
  size_t num_symbols = (size_t)model->descriptor->num_symbols;
  if (symbol_values_length < num_symbols || (num_symbols > 0 && !symbol_values))
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: symbol_values has room for %zu values, the model has %zu symbols",
                           function, symbol_values ? symbol_values_length : 0, num_symbols);
  int64_t *values = malloc((num_symbols ? num_symbols : 1) * sizeof(int64_t));
  if (!values)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  tcc_optional_scratch optionals = {0};
  const DLTensor *const *resolved = inputs;
  tcc_status status = tcc_resolve_optional_inputs(model, model->descriptor, function, inputs,
                                                  num_inputs, &optionals, &resolved);
  if (!status)
    status = tcc_model_bind_inputs(model, NULL, function, resolved, num_inputs, values);
  tcc_optional_scratch_free(&optionals);
  if (!status)
    for (size_t s = 0; s < num_symbols; ++s)
      symbol_values[s] = values[s];
  free(values);
  return status;
}

tcc_status tcc_model_output_shapes(const tcc_model *model, const int64_t *symbol_values,
                                   size_t num_symbol_values, int64_t *const *output_shapes,
                                   size_t num_outputs) {
  const char *function = "tcc_model_output_shapes";
  if (!model)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: model is null", function);
  const tcc_model_descriptor *d = model->descriptor;
  if (num_symbol_values < (size_t)d->num_symbols || (d->num_symbols > 0 && !symbol_values))
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: %zu symbol values given, the model has %d symbols", function,
                           symbol_values ? num_symbol_values : 0, (int)d->num_symbols);
  if (num_outputs != (size_t)d->num_outputs)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: expected %d outputs, got %zu",
                           function, (int)d->num_outputs, num_outputs);
  if (num_outputs > 0 && !output_shapes)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: output_shapes is null", function);
  for (size_t o = 0; o < num_outputs; ++o)
    if (!output_shapes[o] && model->outputs[o].info.rank > 0)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: output_shapes[%zu] is null (output '%s' has rank %d)",
                             function, o, model->outputs[o].info.name,
                             (int)model->outputs[o].info.rank);
  for (int32_t s = 0; s < d->num_symbols; ++s) {
    if (!in_range(&d->symbols[s], symbol_values[s])) {
      char range[64];
      format_range(&d->symbols[s], range, sizeof(range));
      return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                             "%s: symbol %d '%s' is %lld, outside its range %s", function,
                             (int)s, d->symbols[s].name, (long long)symbol_values[s], range);
    }
  }
  size_t length = model->output_shapes_length;
  int64_t *shapes = malloc((length ? length : 1) * sizeof(int64_t));
  if (!shapes)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  tcc_status status =
      tcc_model_compute_output_shapes(model, model->descriptor, function, symbol_values, shapes);
  if (!status) {
    size_t offset = 0;
    for (size_t o = 0; o < num_outputs; ++o) {
      for (int32_t k = 0; k < model->outputs[o].info.rank; ++k)
        output_shapes[o][k] = shapes[offset + k];
      offset += (size_t)model->outputs[o].info.rank;
    }
  }
  free(shapes);
  return status;
}

tcc_status tcc_check_index_range(const tcc_model *model, const tcc_model_descriptor *d,
                                 const char *device, const char *function,
                                 const int64_t *symbol_values, const DLTensor *const *inputs,
                                 const int64_t *output_shapes, int64_t workspace_bytes) {
  const int64_t limit = (int64_t)1 << 31;
  for (int32_t s = 0; s < d->num_symbols; ++s)
    if (symbol_values[s] >= limit)
      return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                             "%s: symbol '%s' is %lld; the %s device's kernels index in 32 bits "
                             "(extents below 2^31)",
                             function, d->symbols[s].name, (long long)symbol_values[s], device);
  size_t offset = 0;
  for (int side = 0; side < 2; ++side) {
    int32_t count = side == 0 ? d->num_inputs : d->num_outputs;
    for (int32_t i = 0; i < count; ++i) {
      const tcc_tensor_entry *entry = side == 0 ? &model->inputs[i] : &model->outputs[i];
      // Products of extents below 2^31 each: stop at the limit before they can overflow.
      int64_t elements = 1;
      for (int32_t k = 0; k < entry->info.rank && elements > 0 && elements < limit; ++k) {
        int64_t extent = side == 0 ? inputs[i]->shape[k] : output_shapes[offset + k];
        elements = extent < limit ? elements * extent : limit;
      }
      if (side == 1)
        offset += (size_t)entry->info.rank;
      if (elements >= limit)
        return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                               "%s: %s %d '%s' has 2^31 elements or more; the %s device's "
                               "kernels index in 32 bits (fewer than 2^31 elements a tensor)",
                               function, side == 0 ? "input" : "output", (int)i,
                               entry->info.name, device);
    }
  }
  if (workspace_bytes >= limit)
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: the model needs %lld bytes of workspace for these shapes; the %s "
                           "device's kernels index in 32 bits (less than 2 GiB of workspace)",
                           function, (long long)workspace_bytes, device);
  return NULL;
}
