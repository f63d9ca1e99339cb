//===- optionals.c - optionals at the model's interface: checks, queries, stand-ins -------===//
//
// An optional input or output present or empty at run time is a bool scalar flag,
// NAME.present, and its value's tensors (model_abi.h's tcc_optional_desc). A caller passes
// an empty optional input as its flag set to false and anything (or null) for the value:
// the runtime hands the model zeros in its place, so that nothing downstream of the flag
// ever reads memory the caller did not provide.
//
//===------------------------------------------------------------------------------------===//
#include "dtype_internal.h"
#include "model_internal.h"
#include "optionals_internal.h"
#include "sequences_internal.h"
#include "status_internal.h"

#include <stdlib.h>
#include <string.h>

#define OPTIONAL_FIELDS_END                                                                        \
  (offsetof(tcc_model_descriptor, optionals) + sizeof(((tcc_model_descriptor *)0)->optionals))

int32_t tcc_descriptor_num_optionals(const tcc_model_descriptor *d) {
  return d->size >= OPTIONAL_FIELDS_END && d->optionals ? d->num_optionals : 0;
}

/// Whether optional `o`'s value is a sequence of the descriptor's list.
static int value_is_sequence(const tcc_model_descriptor *d, const tcc_optional_desc *o) {
  for (int32_t k = 0; k < tcc_descriptor_num_sequences(d); ++k) {
    const tcc_sequence_desc *s = &d->sequences[k];
    if (s->is_output == o->is_output && s->shapes_index == o->first_index &&
        s->data_index == o->first_index + 1)
      return 1;
  }
  return 0;
}

/// Whether index `i` is one of optional `o`'s tensors.
static int uses(const tcc_optional_desc *o, int32_t i) {
  return i == o->present_index || (i >= o->first_index && i - o->first_index < o->count);
}

tcc_status tcc_validate_optionals(const char *where, const tcc_model_descriptor *d) {
  if (d->size < OPTIONAL_FIELDS_END)
    return NULL;
  if (d->num_optionals < 0 || d->num_optionals > TCC_MAX_TENSORS ||
      (d->num_optionals > 0 && !d->optionals))
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: num_optionals is %d with optionals %s, expected 0 to %d and an "
                           "array",
                           where, (int)d->num_optionals, d->optionals ? "non-null" : "null",
                           TCC_MAX_TENSORS);
  for (int32_t k = 0; k < d->num_optionals; ++k) {
    const tcc_optional_desc *o = &d->optionals[k];
    int32_t count = o->is_output ? d->num_outputs : d->num_inputs;
    const tcc_tensor_desc *tensors = o->is_output ? d->outputs : d->inputs;
    int ok = o->name && (o->is_output == 0 || o->is_output == 1) && o->present_index >= 0 &&
             o->present_index < count && o->first_index >= 0 &&
             (o->count == 1 || (o->count == 2 && value_is_sequence(d, o))) &&
             o->first_index <= count - o->count;
    // The flag is none of the value's tensors.
    ok =
        ok && !(o->present_index >= o->first_index && o->present_index - o->first_index < o->count);
    if (ok)
      ok = tensors[o->present_index].dtype == TCC_DTYPE_BOOL && tensors[o->present_index].rank == 0;
    for (int32_t j = 0; ok && j < k; ++j) {
      const tcc_optional_desc *t = &d->optionals[j];
      if (t->is_output != o->is_output)
        continue;
      ok = !uses(t, o->present_index);
      for (int32_t i = 0; ok && i < o->count; ++i)
        ok = !uses(t, o->first_index + i);
    }
    if (!ok)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: optional %d is not a bool scalar flag and a value of 1 tensor "
                             "(or a sequence's 2) among the %s, shared with no other optional",
                             where, (int)k, o->is_output ? "outputs" : "inputs");
  }
  return NULL;
}

void tcc_optional_scratch_free(tcc_optional_scratch *scratch) {
  if (!scratch)
    return;
  free(scratch->inputs);
  free(scratch->holders);
  free(scratch->shapes);
  free(scratch->zeros);
  memset(scratch, 0, sizeof(*scratch));
}

/// Makes room in `scratch` for a model of `num_inputs` inputs whose ranks add up to
/// `total_rank`; 0 when out of memory.
static int reserve(tcc_optional_scratch *scratch, size_t num_inputs, size_t total_rank) {
  if (scratch->inputs && scratch->num_inputs == num_inputs)
    return 1;
  tcc_optional_scratch fresh = {0};
  fresh.inputs = calloc(num_inputs ? num_inputs : 1, sizeof(DLTensor *));
  fresh.holders = calloc(num_inputs ? num_inputs : 1, sizeof(DLTensor));
  fresh.shapes = calloc(total_rank ? total_rank : 1, sizeof(int64_t));
  fresh.num_inputs = num_inputs;
  if (!fresh.inputs || !fresh.holders || !fresh.shapes) {
    tcc_optional_scratch_free(&fresh);
    return 0;
  }
  tcc_optional_scratch_free(scratch);
  *scratch = fresh;
  return 1;
}

/// The extent an input that is present gives symbol `s` (`absent`: one entry per input,
/// set for the values of empty optionals); the symbol's minimum when none does.
static int64_t symbol_extent(const tcc_model *model, const tcc_model_descriptor *d,
                             const DLTensor *const *inputs, const unsigned char *absent,
                             int32_t s) {
  for (int32_t j = 0; j < d->num_inputs; ++j) {
    const tcc_tensor_entry *entry = &model->inputs[j];
    if (absent[j] || !inputs[j] || inputs[j]->ndim != entry->info.rank || !inputs[j]->shape)
      continue;
    for (int32_t m = 0; m < entry->info.rank; ++m)
      if (entry->dim_symbols[m] == s && inputs[j]->shape[m] >= 0)
        return inputs[j]->shape[m];
  }
  return d->symbols[s].min;
}

tcc_status tcc_resolve_optional_inputs(const tcc_model *model, const tcc_model_descriptor *d,
                                       const char *function, const DLTensor *const *inputs,
                                       size_t num_inputs, tcc_optional_scratch *scratch,
                                       const DLTensor *const **out_inputs) {
  *out_inputs = inputs;
  int any = 0;
  for (int32_t k = 0; k < tcc_descriptor_num_optionals(d); ++k)
    any |= !d->optionals[k].is_output;
  if (!any || num_inputs != (size_t)d->num_inputs || !inputs)
    return NULL; // (binding reports a wrong count)
  size_t total_rank = 0;
  for (int32_t i = 0; i < d->num_inputs; ++i)
    total_rank += (size_t)model->inputs[i].info.rank;
  if (!reserve(scratch, num_inputs, total_rank))
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  unsigned char *absent = calloc(num_inputs, 1);
  if (!absent)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  tcc_status status = NULL;
  for (int32_t k = 0; k < tcc_descriptor_num_optionals(d) && !status; ++k) {
    const tcc_optional_desc *o = &d->optionals[k];
    if (o->is_output)
      continue;
    const DLTensor *flag = inputs[o->present_index];
    uint64_t bytes = 0;
    status = tcc_check_tensor_layout(model, NULL, function, "input", (size_t)o->present_index,
                                     &model->inputs[o->present_index], flag, &bytes);
    if (!status && flag->device.device_type != kDLCPU)
      status = tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                               "%s: input %d '%s' (whether optional '%s' is present) must be a "
                               "CPU tensor: the runtime reads it before the run",
                               function, (int)o->present_index,
                               model->inputs[o->present_index].info.name, o->name);
    if (!status && *(const unsigned char *)tcc_tensor_address(flag) == 0)
      for (int32_t i = 0; i < o->count; ++i)
        absent[o->first_index + i] = 1;
  }
  // Stand-ins for the absent values: zeros of the declared shape.
  size_t offset = 0, most = 0;
  for (int32_t i = 0; i < d->num_inputs && !status; ++i) {
    const tcc_tensor_entry *entry = &model->inputs[i];
    scratch->inputs[i] = inputs[i];
    int32_t rank = entry->info.rank;
    if (!absent[i]) {
      offset += (size_t)rank;
      continue;
    }
    DLTensor *holder = &scratch->holders[i];
    int64_t *shape = scratch->shapes + offset;
    offset += (size_t)rank;
    uint64_t elements = 1;
    int overflow = 0;
    for (int32_t m = 0; m < rank; ++m) {
      int64_t declared = entry->info.shape[m];
      shape[m] =
          declared >= 0 ? declared : symbol_extent(model, d, inputs, absent, entry->dim_symbols[m]);
      overflow |= __builtin_mul_overflow(elements, (uint64_t)shape[m], &elements);
    }
    uint64_t bytes = 0;
    overflow |= __builtin_mul_overflow(elements, (uint64_t)entry->element_size, &bytes);
    if (overflow || bytes > (uint64_t)INT64_MAX)
      status = tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                               "%s: input %d '%s' is absent, and zeros of its shape would not fit "
                               "in memory",
                               function, (int)i, entry->info.name);
    if (bytes > most)
      most = (size_t)bytes;
    memset(holder, 0, sizeof(*holder));
    holder->device.device_type = kDLCPU;
    holder->ndim = rank;
    holder->shape = shape;
    tcc_dtype_to_dlpack(entry->info.dtype, &holder->dtype);
    scratch->inputs[i] = holder;
  }
  if (!status && most > scratch->zeros_capacity) {
    void *zeros = calloc(1, most);
    if (!zeros) {
      status = tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                               "%s: out of memory for the zeros of absent optional inputs (%zu "
                               "bytes)",
                               function, most);
    } else {
      free(scratch->zeros);
      scratch->zeros = zeros;
      scratch->zeros_capacity = most;
    }
  }
  for (int32_t i = 0; i < d->num_inputs && !status; ++i)
    if (absent[i])
      scratch->holders[i].data = most ? scratch->zeros : NULL;
  free(absent);
  if (!status)
    *out_inputs = scratch->inputs;
  return status;
}

int32_t tcc_model_num_optionals(const tcc_model *model) {
  return model ? tcc_descriptor_num_optionals(model->descriptor) : 0;
}

tcc_status tcc_model_optional_info(const tcc_model *model, int32_t index,
                                   tcc_optional_info *out_info) {
  const char *function = "tcc_model_optional_info";
  if (!model || !out_info)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           model ? "out_info" : "model");
  int32_t count = tcc_descriptor_num_optionals(model->descriptor);
  if (index < 0 || index >= count)
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: index %d is out of range: the model has %d optionals", function,
                           (int)index, (int)count);
  const tcc_optional_desc *o = &model->descriptor->optionals[index];
  out_info->name = o->name;
  out_info->is_output = o->is_output;
  out_info->present_index = o->present_index;
  out_info->first_index = o->first_index;
  out_info->count = o->count;
  return NULL;
}
