//===- sequences.c - sequences at the model's interface: checks, queries, pack, views -----===//
//
// A sequence input or output is two tensors (model_abi.h's tcc_sequence_desc): NAME.shapes,
// int64 [count, rank], and NAME.data, the elements flattened and concatenated. The rows of an
// input come from the caller and are not trusted: each extent must be >= 0 and the rows'
// element counts must add up to data's extent exactly (checked without overflow), before
// the model reads a row.
//
//===------------------------------------------------------------------------------------===//
#include "dtype_internal.h"
#include "model_internal.h"
#include "sequences_internal.h"
#include "status_internal.h"

#include <string.h>

/// Bytes per element of a DLPack type of whole bytes and one lane; 0 otherwise.
static size_t element_size_of(DLDataType type) {
  return type.lanes == 1 && type.bits % 8 == 0 ? type.bits / 8 : 0;
}

#define SEQUENCE_FIELDS_END                                                                        \
  (offsetof(tcc_model_descriptor, sequences) + sizeof(((tcc_model_descriptor *)0)->sequences))

int32_t tcc_descriptor_num_sequences(const tcc_model_descriptor *d) {
  return d->size >= SEQUENCE_FIELDS_END && d->sequences ? d->num_sequences : 0;
}

tcc_status tcc_validate_sequences(const char *where, const tcc_model_descriptor *d) {
  if (d->size < SEQUENCE_FIELDS_END)
    return NULL;
  if (d->num_sequences < 0 || d->num_sequences > TCC_MAX_TENSORS ||
      (d->num_sequences > 0 && !d->sequences))
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: num_sequences is %d with sequences %s, expected 0 to %d and an "
                           "array",
                           where, (int)d->num_sequences, d->sequences ? "non-null" : "null",
                           TCC_MAX_TENSORS);
  for (int32_t k = 0; k < d->num_sequences; ++k) {
    const tcc_sequence_desc *s = &d->sequences[k];
    int32_t count = s->is_output ? d->num_outputs : d->num_inputs;
    const tcc_tensor_desc *tensors = s->is_output ? d->outputs : d->inputs;
    int ok = s->name && (s->is_output == 0 || s->is_output == 1) && s->shapes_index >= 0 &&
             s->shapes_index < count && s->data_index >= 0 && s->data_index < count &&
             s->shapes_index != s->data_index;
    if (ok) {
      const tcc_tensor_desc *shapes = &tensors[s->shapes_index];
      const tcc_tensor_desc *data = &tensors[s->data_index];
      ok = shapes->dtype == TCC_DTYPE_INT64 && shapes->rank == 2 && shapes->shape[1] >= 0 &&
           shapes->shape[1] <= TCC_MAX_SEQUENCE_RANK && data->rank == 1;
    }
    for (int32_t j = 0; ok && j < k; ++j) {
      const tcc_sequence_desc *t = &d->sequences[j];
      ok = t->is_output != s->is_output ||
           (t->shapes_index != s->shapes_index && t->shapes_index != s->data_index &&
            t->data_index != s->shapes_index && t->data_index != s->data_index);
    }
    if (!ok)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: sequence %d is not a pair of distinct %s, an int64 [count, rank "
                             "<= %d] and a 1-d tensor, used by no other sequence",
                             where, (int)k, s->is_output ? "outputs" : "inputs",
                             TCC_MAX_SEQUENCE_RANK);
  }
  return NULL;
}

/// Checks that the rows of `shapes` (int64 [count, rank], compact, on the CPU) are >= 0 and
/// that their element counts add up to `size`; on success, *out_offset is the offset of
/// element `index` in data and its row is at *out_row (when index is in [0, count)).
static tcc_status check_rows(const char *function, const char *name, const DLTensor *shapes,
                             int64_t size, int64_t index, int64_t *out_offset,
                             const int64_t **out_row) {
  int64_t count = shapes->shape[0], rank = shapes->shape[1];
  const int64_t *rows = count > 0 ? (const int64_t *)tcc_tensor_address(shapes) : NULL;
  uint64_t total = 0;
  for (int64_t k = 0; k < count; ++k) {
    const int64_t *row = rows + k * rank;
    uint64_t elements = 1;
    int overflow = 0, zero = 0;
    for (int64_t j = 0; j < rank; ++j) {
      if (row[j] < 0)
        return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                               "%s: sequence '%s': element %lld has extent %lld in dim %lld; "
                               "extents must be >= 0",
                               function, name, (long long)k, (long long)row[j], (long long)j);
      zero |= row[j] == 0;
      if (__builtin_mul_overflow(elements, (uint64_t)row[j], &elements))
        overflow = 1;
    }
    if (k == index) {
      *out_offset = (int64_t)total;
      *out_row = row;
    }
    // A zero extent makes any overflow of the others moot.
    if (zero)
      elements = 0;
    else if (overflow)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: sequence '%s': element %lld has 2^64 elements or more", function,
                             name, (long long)k);
    if (__builtin_add_overflow(total, elements, &total) || total > (uint64_t)size)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: sequence '%s': the elements up to %lld hold more than the "
                             "%lld values of its data",
                             function, name, (long long)k, (long long)size);
  }
  if (total != (uint64_t)size)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: sequence '%s': its %lld elements hold %llu values, but its data "
                           "has %lld",
                           function, name, (long long)count, (unsigned long long)total,
                           (long long)size);
  return NULL;
}

tcc_status tcc_check_sequence_inputs(const tcc_model *model, const tcc_model_descriptor *d,
                                     const char *function, const DLTensor *const *inputs) {
  for (int32_t k = 0; k < tcc_descriptor_num_sequences(d); ++k) {
    const tcc_sequence_desc *s = &d->sequences[k];
    if (s->is_output)
      continue;
    const DLTensor *shapes = inputs[s->shapes_index];
    if (shapes->device.device_type != kDLCPU)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: input %d '%s' (the element shapes of sequence '%s') must be a "
                             "CPU tensor: the runtime checks it before the run",
                             function, (int)s->shapes_index,
                             model->inputs[s->shapes_index].info.name, s->name);
    int64_t offset = 0;
    const int64_t *row = NULL;
    tcc_status status =
        check_rows(function, s->name, shapes, inputs[s->data_index]->shape[0], -1, &offset, &row);
    if (status)
      return status;
  }
  return NULL;
}

int32_t tcc_model_num_sequences(const tcc_model *model) {
  return model ? tcc_descriptor_num_sequences(model->descriptor) : 0;
}

tcc_status tcc_model_sequence_info(const tcc_model *model, int32_t index,
                                   tcc_sequence_info *out_info) {
  const char *function = "tcc_model_sequence_info";
  if (!model || !out_info)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           model ? "out_info" : "model");
  int32_t count = tcc_descriptor_num_sequences(model->descriptor);
  if (index < 0 || index >= count)
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: index %d is out of range: the model has %d sequences", function,
                           (int)index, (int)count);
  const tcc_sequence_desc *s = &model->descriptor->sequences[index];
  const tcc_tensor_entry *tensors = s->is_output ? model->outputs : model->inputs;
  out_info->name = s->name;
  out_info->is_output = s->is_output;
  out_info->shapes_index = s->shapes_index;
  out_info->data_index = s->data_index;
  out_info->dtype = tensors[s->data_index].info.dtype;
  out_info->element_rank = (int32_t)tensors[s->shapes_index].info.shape[1];
  return NULL;
}

/// Checks that `tensor` is a compact CPU tensor of `rank` (and, with dtype >= 0, of dtype
/// `dtype`); `what` names it.
static tcc_status check_cpu_tensor(const char *function, const char *what, const DLTensor *tensor,
                                   int32_t rank, int32_t dtype) {
  if (!tensor)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function, what);
  if (tensor->device.device_type != kDLCPU)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is not a CPU tensor", function,
                           what);
  if (tensor->ndim != rank || (rank > 0 && !tensor->shape))
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s has rank %d, expected %d", function,
                           what, (int)tensor->ndim, (int)rank);
  if (dtype >= 0 && !tcc_dtype_accepts_dlpack(dtype, tensor->dtype))
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s does not have the dtype expected",
                           function, what);
  if (element_size_of(tensor->dtype) == 0)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s has an unsupported dtype", function,
                           what);
  int64_t stride = 1;
  for (int32_t d = rank - 1; d >= 0; --d) {
    if (tensor->shape[d] < 0)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s has a negative dim %d", function,
                             what, (int)d);
    if (tensor->strides && tensor->shape[d] > 1 && tensor->strides[d] != stride)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is not compact row-major",
                             function, what);
    if (__builtin_mul_overflow(stride, tensor->shape[d] ? tensor->shape[d] : 1, &stride))
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is too large", function, what);
  }
  return NULL;
}

static int64_t element_count(const DLTensor *tensor) {
  int64_t count = 1;
  for (int32_t d = 0; d < tensor->ndim; ++d)
    count *= tensor->shape[d];
  return count;
}

static int same_dlpack_type(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

tcc_status tcc_sequence_pack(const DLTensor *const *elements, size_t count, const DLTensor *shapes,
                             const DLTensor *data) {
  const char *function = "tcc_sequence_pack";
  if (count > 0 && !elements)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: elements is null", function);
  tcc_status status = check_cpu_tensor(function, "shapes", shapes, 2, TCC_DTYPE_INT64);
  if (!status)
    status = check_cpu_tensor(function, "data", data, 1, -1);
  if (status)
    return status;
  int64_t rank = shapes->shape[1];
  if ((uint64_t)shapes->shape[0] != count)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: shapes has %lld rows for %zu elements",
                           function, (long long)shapes->shape[0], count);
  uint64_t total = 0;
  size_t element_size = element_size_of(data->dtype);
  for (size_t k = 0; k < count; ++k) {
    char what[48];
    snprintf(what, sizeof(what), "element %zu", k);
    status = check_cpu_tensor(function, what, elements[k], (int32_t)rank, -1);
    if (status)
      return status;
    if (!same_dlpack_type(elements[k]->dtype, data->dtype))
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: element %zu's dtype differs from data's", function, k);
    total += (uint64_t)element_count(elements[k]);
  }
  if (total != (uint64_t)data->shape[0])
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: the elements hold %llu values, but data has %lld", function,
                           (unsigned long long)total, (long long)data->shape[0]);
  int64_t *rows = count > 0 ? (int64_t *)tcc_tensor_address(shapes) : NULL;
  char *out = total > 0 ? (char *)tcc_tensor_address(data) : NULL;
  for (size_t k = 0; k < count; ++k) {
    for (int64_t j = 0; j < rank; ++j)
      rows[k * rank + j] = elements[k]->shape[j];
    size_t bytes = (size_t)element_count(elements[k]) * element_size;
    if (bytes) {
      memcpy(out, tcc_tensor_address(elements[k]), bytes);
      out += bytes;
    }
  }
  return NULL;
}

tcc_status tcc_sequence_element(const DLTensor *shapes, const DLTensor *data, int64_t index,
                                int64_t *shape_storage, DLTensor *out_element) {
  const char *function = "tcc_sequence_element";
  tcc_status status = check_cpu_tensor(function, "shapes", shapes, 2, TCC_DTYPE_INT64);
  if (!status)
    status = check_cpu_tensor(function, "data", data, 1, -1);
  if (status)
    return status;
  if (!out_element || (shapes->shape[1] > 0 && !shape_storage))
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           out_element ? "shape_storage" : "out_element");
  if (index < 0 || index >= shapes->shape[0])
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: index %lld is outside the sequence of %lld elements", function,
                           (long long)index, (long long)shapes->shape[0]);
  int64_t offset = 0;
  const int64_t *row = NULL;
  status = check_rows(function, "(given)", shapes, data->shape[0], index, &offset, &row);
  if (status)
    return status;
  int64_t rank = shapes->shape[1];
  for (int64_t j = 0; j < rank; ++j)
    shape_storage[j] = row[j];
  DLTensor element = *data;
  element.ndim = (int32_t)rank;
  element.shape = rank > 0 ? shape_storage : NULL;
  element.strides = NULL;
  element.byte_offset = data->byte_offset + (uint64_t)offset * element_size_of(data->dtype);
  *out_element = element;
  return NULL;
}
