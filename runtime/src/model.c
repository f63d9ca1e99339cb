//===- model.c - loading a model.so, validating its descriptors, choosing variants --------===//
//
// A model.so is code: dlopen runs it, so only load files you trust. What this file guards
// against is the honest mistake: a file that is no tcc model, a model of another ABI version
// or for a CPU this host is not, and metadata that contradicts itself (negative ranks, symbol
// indices out of range, missing entry points), each of which would otherwise surface as a
// crash deep inside a run.
//
//===------------------------------------------------------------------------------------===//
#include "cpu_features_internal.h"
#include "model_internal.h"
#include "optionals_internal.h"
#include "sequences_internal.h"
#include "profile_internal.h"
#include "status_internal.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===------------------------------------------------------------------------------------===//
// Descriptor validation
//===------------------------------------------------------------------------------------===//

/// Validates one input or output; `where` prefixes the message.
static tcc_status validate_tensor(const char *where, int is_input, int32_t index,
                                  const tcc_tensor_desc *tensor, int32_t num_symbols) {
  const char *kind = is_input ? "input" : "output";
  if (!tensor->name)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: %s %d has a null name", where, kind,
                           (int)index);
  if (tcc_dtype_size(tensor->dtype) == 0)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: %s %d '%s' has the unknown dtype %d",
                           where, kind, (int)index, tensor->name, (int)tensor->dtype);
  if (tensor->rank < 0 || tensor->rank > TCC_MAX_RANK)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: %s %d '%s' has rank %d, expected 0 to %d", where, kind,
                           (int)index, tensor->name, (int)tensor->rank, TCC_MAX_RANK);
  if (tensor->rank > 0 && !tensor->shape)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: %s %d '%s' has rank %d but no shape",
                           where, kind, (int)index, tensor->name, (int)tensor->rank);
  for (int32_t d = 0; d < tensor->rank; ++d) {
    int64_t extent = tensor->shape[d];
    int32_t symbol = tensor->dim_symbols ? tensor->dim_symbols[d] : -1;
    if (extent < -1)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: %s %d '%s': dim %d has extent %lld, expected >= 0 or -1 "
                             "(symbolic)",
                             where, kind, (int)index, tensor->name, (int)d, (long long)extent);
    if (extent >= 0 && symbol != -1)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: %s %d '%s': dim %d is static (%lld) but names symbol %d", where,
                             kind, (int)index, tensor->name, (int)d, (long long)extent,
                             (int)symbol);
    if (extent == -1 && symbol == TCC_DIM_DATA_DEPENDENT && is_input)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: %s %d '%s': dim %d is data-dependent, which only outputs may be",
                             where, kind, (int)index, tensor->name, (int)d);
    if (extent == -1 && symbol != TCC_DIM_DATA_DEPENDENT && (symbol < -1 || symbol >= num_symbols))
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: %s %d '%s': dim %d names symbol %d, but the model has %d "
                             "symbols",
                             where, kind, (int)index, tensor->name, (int)d, (int)symbol,
                             (int)num_symbols);
    // An input dim must be static or a symbol: the runtime binds symbols from inputs. An
    // output dim of -1 without a symbol is derived from the symbols (2*n, n+1) and is known
    // from output_shapes only.
    if (extent == -1 && symbol == -1 && is_input)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: %s %d '%s': dim %d is dynamic but names no symbol", where,
                             kind, (int)index, tensor->name, (int)d);
  }
  return NULL;
}

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(offsetof(tcc_model_descriptor, batch_symbol) == TCC_MODEL_DESCRIPTOR_V1_SIZE,
               "batch_symbol follows the first release's descriptor");
#endif

/// The descriptor's flags (0 when it predates them).
static uint32_t descriptor_flags(const tcc_model_descriptor *d) {
  return d->size >= offsetof(tcc_model_descriptor, flags) + sizeof(d->flags) ? d->flags : 0;
}

int32_t tcc_descriptor_batch_symbol(const tcc_model_descriptor *d) {
  return descriptor_flags(d) & TCC_MODEL_IMAGES_ALONE ? d->batch_symbol : -1;
}

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(offsetof(tcc_model_descriptor, symbol_computed) == TCC_MODEL_DESCRIPTOR_V2_SIZE,
               "symbol_computed follows batch_symbol and flags");
#endif

int tcc_descriptor_symbol_computed(const tcc_model_descriptor *d, int32_t s) {
  if (d->size < offsetof(tcc_model_descriptor, compute_symbols) + sizeof(d->compute_symbols) ||
      !d->symbol_computed)
    return 0;
  return d->symbol_computed[s] != 0;
}

/// A batch symbol must be dim 0 of every input and output and no other dim, and the model
/// must have no parameters and no data-dependent outputs (model_abi.h).
static tcc_status validate_batch_symbol(const char *where, const tcc_model_descriptor *d) {
  uint32_t flags = descriptor_flags(d);
  const uint32_t known = TCC_MODEL_IMAGES_ALONE | TCC_MODEL_READS_DEVICE;
  if (flags & ~known)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: unknown descriptor flags 0x%x", where,
                           (unsigned)(flags & ~known));
  if ((flags & TCC_MODEL_READS_DEVICE) && tcc_descriptor_device_type(d) == kDLCPU)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: a CPU model has the flag TCC_MODEL_READS_DEVICE, which only "
                           "device models may have",
                           where);
  if (!(flags & TCC_MODEL_IMAGES_ALONE))
    return NULL;
  int32_t batch = d->batch_symbol;
  if (batch < 0 || batch >= d->num_symbols)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: batch_symbol is %d, expected a symbol (0 to %d)", where,
                           (int)batch, (int)d->num_symbols - 1);
  if (d->num_parameters > 0)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: a model with parameters cannot have a batch_symbol", where);
  for (int side = 0; side < 2; ++side) {
    int32_t count = side == 0 ? d->num_inputs : d->num_outputs;
    for (int32_t i = 0; i < count; ++i) {
      const tcc_tensor_desc *t = side == 0 ? &d->inputs[i] : &d->outputs[i];
      int ok = t->rank >= 1 && t->dim_symbols && t->dim_symbols[0] == batch;
      for (int32_t k = 1; ok && k < t->rank; ++k)
        ok = t->dim_symbols[k] != batch && t->dim_symbols[k] != TCC_DIM_DATA_DEPENDENT;
      if (!ok)
        return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                               "%s: batch_symbol %d '%s' must be dim 0 of every input and output "
                               "and no other dim, but %s %d '%s' is not so (or has a "
                               "data-dependent dim)",
                               where, (int)batch, d->symbols[batch].name,
                               side == 0 ? "input" : "output", (int)i, t->name);
    }
  }
  return NULL;
}

static tcc_status validate_descriptor(const char *where, const tcc_model_descriptor *d,
                                      const tcc_device **out_device) {
  if (d->abi_version != TCC_ABI_VERSION)
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "%s: the model has ABI version %u, this runtime reads version %d",
                           where, (unsigned)d->abi_version, TCC_ABI_VERSION);
  if (d->size < TCC_MODEL_DESCRIPTOR_V1_SIZE)
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "%s: the model's descriptor has %u bytes, expected at least %d", where,
                           (unsigned)d->size, TCC_MODEL_DESCRIPTOR_V1_SIZE);
  const char *missing_string = !d->tcc_version     ? "tcc_version"
                               : !d->target_triple ? "target_triple"
                               : !d->cpu           ? "cpu"
                               : !d->cpu_features  ? "cpu_features"
                                                   : NULL;
  if (missing_string)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: the descriptor's %s is null", where,
                           missing_string);
  const char *missing_entry = !d->workspace_size  ? "workspace_size"
                              : !d->output_shapes ? "output_shapes"
                              : !d->run           ? "run"
                                                  : NULL;
  if (missing_entry)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: the descriptor's entry point %s is null",
                           where, missing_entry);
  struct {
    const char *what;
    int32_t count, limit;
    const void *array;
  } counts[] = {{"num_symbols", d->num_symbols, TCC_MAX_SYMBOLS, d->symbols},
                {"num_inputs", d->num_inputs, TCC_MAX_TENSORS, d->inputs},
                {"num_outputs", d->num_outputs, TCC_MAX_TENSORS, d->outputs}};
  for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); ++i) {
    if (counts[i].count < 0 || counts[i].count > counts[i].limit)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: %s is %d, expected 0 to %d", where,
                             counts[i].what, (int)counts[i].count, (int)counts[i].limit);
    if (counts[i].count > 0 && !counts[i].array)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: %s is %d but its array is null",
                             where, counts[i].what, (int)counts[i].count);
  }
  for (int32_t s = 0; s < d->num_symbols; ++s) {
    const tcc_symbol_desc *symbol = &d->symbols[s];
    if (!symbol->name)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: symbol %d has a null name", where,
                             (int)s);
    if (symbol->min < 0 || symbol->max < -1 || (symbol->max != -1 && symbol->max < symbol->min))
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: symbol %d '%s' has the range [%lld, %lld], expected 0 <= min "
                             "<= max (or max = -1)",
                             where, (int)s, symbol->name, (long long)symbol->min,
                             (long long)symbol->max);
    for (int32_t t = 0; t < s; ++t)
      if (strcmp(d->symbols[t].name, symbol->name) == 0)
        return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: symbols %d and %d are both named '%s'",
                               where, (int)t, (int)s, symbol->name);
  }
  for (int32_t i = 0; i < d->num_inputs; ++i) {
    tcc_status status = validate_tensor(where, 1, i, &d->inputs[i], d->num_symbols);
    if (status)
      return status;
  }
  for (int32_t i = 0; i < d->num_outputs; ++i) {
    tcc_status status = validate_tensor(where, 0, i, &d->outputs[i], d->num_symbols);
    if (status)
      return status;
  }
  // Parameters: static shapes, aligned and inside the parameter buffer, which has initial
  // values.
  if (d->num_parameters < 0 || d->num_parameters > TCC_MAX_TENSORS ||
      (d->num_parameters > 0 &&
       (!d->parameters || !d->parameter_offsets || !d->initial_parameters)) ||
      d->parameters_size < 0)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: inconsistent parameters (num_parameters %d, parameters_size %lld)",
                           where, (int)d->num_parameters, (long long)d->parameters_size);
  for (int32_t i = 0; i < d->num_parameters; ++i) {
    const tcc_tensor_desc *p = &d->parameters[i];
    tcc_status status = validate_tensor(where, 0, i, p, 0);
    if (status)
      return status;
    uint64_t bytes = tcc_dtype_size(p->dtype);
    for (int32_t k = 0; k < p->rank; ++k) {
      if (p->shape[k] < 0 || (p->shape[k] > 0 && bytes > UINT64_MAX / (uint64_t)p->shape[k]))
        return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                               "%s: parameter %d '%s' has a dynamic or absurd dim %d", where,
                               (int)i, p->name, (int)k);
      bytes *= (uint64_t)p->shape[k];
    }
    int64_t offset = d->parameter_offsets[i];
    if (offset < 0 || offset % 64 != 0 || (uint64_t)offset > (uint64_t)d->parameters_size ||
        bytes > (uint64_t)d->parameters_size - (uint64_t)offset)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: parameter %d '%s' at offset %lld does not fit the %lld-byte "
                             "parameter buffer (or is not 64-byte aligned)",
                             where, (int)i, p->name, (long long)offset,
                             (long long)d->parameters_size);
  }
  tcc_status status = validate_batch_symbol(where, d);
  if (status)
    return status;
  // Every symbol gets its value from an input dim, or is computed from input elements by
  // compute_symbols; one that no input uses and nothing computes cannot be bound.
  for (int32_t s = 0; s < d->num_symbols; ++s) {
    int bound = 0;
    for (int32_t i = 0; i < d->num_inputs && !bound; ++i)
      for (int32_t k = 0; k < d->inputs[i].rank && !bound; ++k)
        bound = d->inputs[i].dim_symbols && d->inputs[i].dim_symbols[k] == s;
    if (tcc_descriptor_symbol_computed(d, s)) {
      if (bound || !d->compute_symbols || tcc_descriptor_batch_symbol(d) >= 0)
        return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                               "%s: symbol %d '%s' is computed from the inputs' data, but %s",
                               where, (int)s, d->symbols[s].name,
                               bound ? "an input dim binds it too"
                               : !d->compute_symbols ? "compute_symbols is null"
                                                     : "the model has a batch_symbol");
      continue;
    }
    if (!bound)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: symbol %d '%s' is used by no input, so its value cannot be "
                             "known at run time",
                             where, (int)s, d->symbols[s].name);
  }
  status = tcc_validate_device_fields(where, d, out_device);
  if (!status)
    status = tcc_validate_kernel_list(where, d);
  if (!status)
    status = tcc_validate_sequences(where, d);
  return status ? status : tcc_validate_optionals(where, d);
}

static tcc_status check_cpu_features(const char *where, const tcc_model_descriptor *d,
                                     int skip_missing) {
  tcc_cpu_feature_check check;
  if (tcc_cpu_check_feature_list(d->cpu_features, &check) != 0)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", where);
  tcc_status status = NULL;
  if (check.unknown)
    status = tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                             "%s: the model requires CPU features unknown to this runtime on "
                             "%s: %s",
                             where, tcc_cpu_host_arch(), check.unknown);
  else if (check.missing && !skip_missing)
    status = tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                             "%s: the model requires CPU features this host lacks: %s (it was "
                             "compiled for cpu '%s', target %s)",
                             where, check.missing, d->cpu, d->target_triple);
  tcc_cpu_feature_check_free(&check);
  return status;
}

//===------------------------------------------------------------------------------------===//
// Creation and release
//===------------------------------------------------------------------------------------===//

static void free_entries(tcc_tensor_entry *entries, int32_t count) {
  if (!entries)
    return;
  for (int32_t i = 0; i < count; ++i) {
    free(entries[i].dim_symbols);
    free(entries[i].dim_names);
  }
  free(entries);
}

static void destroy_model(tcc_model *model) {
  const tcc_model_descriptor *d = model->descriptor;
  tcc_model_device_states_free(model); // before the library that holds the images
  pthread_mutex_destroy(&model->device_mutex);
  free_entries(model->inputs, d ? d->num_inputs : 0);
  free_entries(model->outputs, d ? d->num_outputs : 0);
  free_entries(model->parameters, d ? d->num_parameters : 0);
  for (int32_t v = 0; model->variants && v < model->num_variants; ++v)
    free(model->variants[v].unavailable);
  free(model->variants);
  if (model->library)
    dlclose(model->library);
  free(model->path);
  free(model);
}

static int build_entries(const tcc_model_descriptor *d, const tcc_tensor_desc *tensors,
                         int32_t count, tcc_tensor_entry **out_entries) {
  tcc_tensor_entry *entries = calloc(count > 0 ? (size_t)count : 1, sizeof(*entries));
  if (!entries)
    return -1;
  *out_entries = entries;
  for (int32_t i = 0; i < count; ++i) {
    const tcc_tensor_desc *tensor = &tensors[i];
    tcc_tensor_entry *entry = &entries[i];
    size_t rank = (size_t)tensor->rank;
    entry->dim_symbols = malloc((rank ? rank : 1) * sizeof(int32_t));
    entry->dim_names = malloc((rank ? rank : 1) * sizeof(const char *));
    if (!entry->dim_symbols || !entry->dim_names)
      return -1;
    for (size_t k = 0; k < rank; ++k) {
      int32_t symbol = tensor->dim_symbols ? tensor->dim_symbols[k] : -1;
      entry->dim_symbols[k] = symbol;
      entry->dim_names[k] = symbol >= 0 ? d->symbols[symbol].name : NULL;
    }
    entry->element_size = tcc_dtype_size(tensor->dtype);
    entry->info.name = tensor->name;
    entry->info.dtype = tensor->dtype;
    entry->info.rank = tensor->rank;
    entry->info.shape = tensor->shape;
    entry->info.dim_symbols = entry->dim_symbols;
    entry->info.dim_names = entry->dim_names;
  }
  return 0;
}

static tcc_status read_options(const char *function, const tcc_model_options *options,
                               uint32_t *out_flags) {
  *out_flags = 0;
  if (!options)
    return NULL;
  if (options->size < sizeof(tcc_model_options))
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: options->size is %zu, expected at least %zu (initialize "
                           "options with TCC_MODEL_OPTIONS_INIT)",
                           function, options->size, sizeof(tcc_model_options));
  if (options->flags & ~(uint32_t)TCC_MODEL_FLAG_SKIP_CPU_CHECK)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: unknown bits 0x%x in options->flags",
                           function,
                           (unsigned)(options->flags & ~(uint32_t)TCC_MODEL_FLAG_SKIP_CPU_CHECK));
  *out_flags = options->flags;
  return NULL;
}

/// Whether two tensor descriptions are the same (name, dtype, rank, shape, dim symbols).
static int same_tensor(const tcc_tensor_desc *a, const tcc_tensor_desc *b) {
  if (strcmp(a->name, b->name) != 0 || a->dtype != b->dtype || a->rank != b->rank)
    return 0;
  for (int32_t k = 0; k < a->rank; ++k) {
    int32_t sa = a->dim_symbols ? a->dim_symbols[k] : -1;
    int32_t sb = b->dim_symbols ? b->dim_symbols[k] : -1;
    if (a->shape[k] != b->shape[k] || sa != sb)
      return 0;
  }
  return 1;
}

/// A fat model's variant `v` (valid on its own) must describe the model variant 0 describes
/// (model_abi.h): the same symbols, inputs, outputs and parameters.
static tcc_status check_same_model(const char *where, int32_t v, const tcc_model_descriptor *a,
                                   const tcc_model_descriptor *b) {
  const char *difference = NULL;
  if (a->num_symbols != b->num_symbols)
    difference = "the number of symbols";
  for (int32_t s = 0; !difference && s < a->num_symbols; ++s)
    if (strcmp(a->symbols[s].name, b->symbols[s].name) != 0 ||
        a->symbols[s].min != b->symbols[s].min || a->symbols[s].max != b->symbols[s].max ||
        tcc_descriptor_symbol_computed(a, s) != tcc_descriptor_symbol_computed(b, s))
      difference = "a symbol";
  const struct {
    const char *what;
    int32_t count_a, count_b;
    const tcc_tensor_desc *tensors_a, *tensors_b;
  } lists[] = {{"inputs", a->num_inputs, b->num_inputs, a->inputs, b->inputs},
               {"outputs", a->num_outputs, b->num_outputs, a->outputs, b->outputs},
               {"parameters", a->num_parameters, b->num_parameters, a->parameters,
                b->parameters}};
  for (size_t l = 0; !difference && l < sizeof(lists) / sizeof(lists[0]); ++l) {
    if (lists[l].count_a != lists[l].count_b)
      difference = lists[l].what;
    for (int32_t i = 0; !difference && i < lists[l].count_a; ++i)
      if (!same_tensor(&lists[l].tensors_a[i], &lists[l].tensors_b[i]))
        difference = lists[l].what;
  }
  if (!difference)
    return NULL;
  return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                         "%s: variant %d describes another model than variant 0 (%s differ)",
                         where, (int)v, difference);
}

/// Validates every variant of a model, checks the host against their CPU features and fills
/// `variants` (num_variants entries). `fat`: the descriptors came from a variants table, whose
/// variants the host may not all run; a single-target model the host cannot run is refused.
static tcc_status prepare_variants(const char *where, const tcc_model_descriptor *const *list,
                                   int32_t num_variants, int fat, uint32_t flags,
                                   tcc_model_variant *variants, int32_t *out_default) {
  int skip = (flags & TCC_MODEL_FLAG_SKIP_CPU_CHECK) != 0;
  *out_default = -1;
  for (int32_t v = 0; v < num_variants; ++v) {
    char variant_where[512];
    if (fat)
      snprintf(variant_where, sizeof(variant_where), "%s: variant %d", where, (int)v);
    const char *at = fat ? variant_where : where;
    if (!list[v])
      return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: the descriptor is null", at);
    tcc_status status = validate_descriptor(at, list[v], &variants[v].device);
    if (!status && v > 0)
      status = check_same_model(where, v, list[0], list[v]);
    int32_t type = tcc_descriptor_device_type(list[v]);
    for (int32_t u = 0; !status && u < v && type != kDLCPU; ++u)
      if (tcc_descriptor_device_type(list[u]) == type)
        status = tcc_make_status(TCC_STATUS_INVALID_MODEL,
                                 "%s: variants %d and %d are both for %s (%s); a fat model has "
                                 "one variant per device type but the CPU",
                                 where, (int)u, (int)v, tcc_device_type_name(type),
                                 tcc_device_type_enumerator(type));
    // A single-target model keeps to its one variant: the host runs it, or it is refused.
    if (!status && !fat)
      status = check_cpu_features(at, list[v], skip);
    if (status)
      return status;
    variants[v].descriptor = list[v];
    char name[32];
    snprintf(name, sizeof(name), "variant %d", (int)v);
    tcc_status missing = check_cpu_features(name, list[v], 0);
    if (missing) {
      variants[v].unavailable = strdup(tcc_status_message(missing));
      tcc_status_free(missing);
      if (!variants[v].unavailable)
        return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", where);
    } else if (*out_default < 0) {
      *out_default = v;
    }
  }
  if (*out_default >= 0)
    return NULL;
  *out_default = 0;
  if (!fat || skip)
    return NULL;
  // Runnable nowhere here: say why for each.
  char reasons[2048] = "";
  size_t used = 0;
  for (int32_t v = 0; v < num_variants && used < sizeof(reasons); ++v)
    used += (size_t)snprintf(reasons + used, sizeof(reasons) - used, "%s%s", v ? "; " : "",
                             variants[v].unavailable);
  return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                         "%s: this host can run none of the model's %d variants: %s", where,
                         (int)num_variants, reasons);
}

/// Validates the model's descriptors (`list`, num_variants of them: one, or a fat model's
/// variants when `fat`) and wraps them in a model that owns `library` (closed on failure).
static tcc_status create_model(const char *where, const tcc_model_descriptor *const *list,
                               int32_t num_variants, int fat, uint32_t flags, void *library,
                               const char *path, tcc_model **out_model) {
  tcc_model_variant *variants = calloc((size_t)num_variants, sizeof(*variants));
  int32_t default_variant = 0;
  tcc_status status =
      variants ? prepare_variants(where, list, num_variants, fat, flags, variants,
                                  &default_variant)
               : tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", where);
  tcc_model *model = status ? NULL : calloc(1, sizeof(*model));
  if (!status && (!model || pthread_mutex_init(&model->device_mutex, NULL) != 0))
    status = tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", where);
  if (status) {
    for (int32_t v = 0; variants && v < num_variants; ++v)
      free(variants[v].unavailable);
    free(variants);
    free(model);
    if (library)
      dlclose(library);
    return status;
  }
  model->library = library;
  model->variants = variants;
  model->num_variants = num_variants;
  model->default_variant = default_variant;
  const tcc_model_descriptor *descriptor = variants[default_variant].descriptor;
  model->device = variants[default_variant].device;
  model->flags = flags;
  atomic_init(&model->references, 1);
  model->path = strdup(path);
  int failed = !model->path;
  if (!failed) {
    model->descriptor = descriptor;
    failed = build_entries(descriptor, descriptor->inputs, descriptor->num_inputs,
                           &model->inputs) != 0 ||
             build_entries(descriptor, descriptor->outputs, descriptor->num_outputs,
                           &model->outputs) != 0 ||
             build_entries(descriptor, descriptor->parameters, descriptor->num_parameters,
                           &model->parameters) != 0;
  }
  if (failed) {
    destroy_model(model);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", where);
  }
  for (int32_t i = 0; i < descriptor->num_outputs; ++i)
    model->output_shapes_length += (size_t)descriptor->outputs[i].rank;
  *out_model = model;
  return NULL;
}

/// Validates a fat model's table of variants and wraps them (create_model).
static tcc_status create_fat_model(const char *where, const tcc_model_variants *table,
                                   uint32_t flags, void *library, const char *path,
                                   tcc_model **out_model) {
  const char *problem = NULL;
  if (table->abi_version != TCC_ABI_VERSION) {
    if (library)
      dlclose(library);
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "%s: the model has ABI version %u, this runtime reads version %d",
                           where, (unsigned)table->abi_version, TCC_ABI_VERSION);
  }
  if (table->size < sizeof(tcc_model_variants))
    problem = "its size is smaller than a tcc_model_variants";
  else if (table->num_variants < 1 || table->num_variants > TCC_MAX_VARIANTS)
    problem = "its number of variants is not 1 to TCC_MAX_VARIANTS (64)";
  else if (!table->variants)
    problem = "its list of variants is null";
  if (problem) {
    if (library)
      dlclose(library);
    return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: the table of variants is invalid: %s",
                           where, problem);
  }
  return create_model(where, table->variants, table->num_variants, 1, flags, library, path,
                      out_model);
}

void tcc_model_options_init(tcc_model_options *options) {
  if (!options)
    return;
  tcc_model_options defaults = TCC_MODEL_OPTIONS_INIT;
  *options = defaults;
}

/// dlopens `open_path` and wraps its descriptor; `where` prefixes messages.
static tcc_status load_library(const char *where, const char *open_path, uint32_t flags,
                               const char *path, tcc_model **out_model) {
  dlerror();
  void *library = dlopen(open_path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    return tcc_make_status(TCC_STATUS_NOT_FOUND, "tcc_model_load: cannot load '%s': %s", path,
                           error ? error : "unknown dlopen error");
  }
  const tcc_model_variants *table = dlsym(library, TCC_MODEL_VARIANTS_SYMBOL);
  if (table)
    return create_fat_model(where, table, flags, library, path, out_model);
  const tcc_model_descriptor *descriptor = dlsym(library, TCC_MODEL_SYMBOL);
  if (!descriptor) {
    // A model of another ABI version exports another symbol: say which, if so.
    for (int version = 0; version <= 2 * (TCC_ABI_VERSION + 16) + 1; ++version) {
      char name[64];
      snprintf(name, sizeof(name), version % 2 ? "tcc_model_variants_v%d" : "tcc_model_descriptor_v%d",
               version / 2);
      if (version / 2 != TCC_ABI_VERSION && dlsym(library, name)) {
        dlclose(library);
        return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                               "%s: the model exports %s: it was compiled for ABI version %d, "
                               "this runtime reads version %d",
                               where, name, version / 2, TCC_ABI_VERSION);
      }
    }
    dlclose(library);
    return tcc_make_status(TCC_STATUS_NOT_FOUND,
                           "%s: the library does not export the symbol %s: it is not a model "
                           "compiled by tcc",
                           where, TCC_MODEL_SYMBOL);
  }
  return create_model(where, &descriptor, 1, 0, flags, library, path, out_model);
}

tcc_status tcc_model_load(const char *path, const tcc_model_options *options,
                          tcc_model **out_model) {
  if (!path || !out_model)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "tcc_model_load: %s is null",
                           path ? "out_model" : "path");
  if (!*path)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "tcc_model_load: the path is empty");
  uint32_t flags;
  tcc_status status = read_options("tcc_model_load", options, &flags);
  if (status)
    return status;

  // dlopen searches the library path for names without a '/': make them relative to the
  // working directory, as for any other file a user names.
  size_t length = strlen(path);
  char *open_path = malloc(length + 3);
  char *where = malloc(length + 32);
  if (!open_path || !where) {
    free(open_path);
    free(where);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "tcc_model_load: out of memory");
  }
  snprintf(open_path, length + 3, "%s%s", strchr(path, '/') ? "" : "./", path);
  snprintf(where, length + 32, "tcc_model_load: '%s'", path);
  status = load_library(where, open_path, flags, path, out_model);
  free(open_path);
  free(where);
  return status;
}

/// A model already in memory: `descriptor`, or a fat model's `table` (the other is NULL);
/// `what` names the one the caller passed.
static tcc_status create_in_memory(const char *where, const char *what,
                                   const tcc_model_descriptor *descriptor,
                                   const tcc_model_variants *table,
                                   const tcc_model_options *options, tcc_model **out_model) {
  if ((!descriptor && !table) || !out_model)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", where,
                           out_model ? what : "out_model");
  uint32_t flags;
  tcc_status status = read_options(where, options, &flags);
  if (status)
    return status;
  return table ? create_fat_model(where, table, flags, NULL, "", out_model)
               : create_model(where, &descriptor, 1, 0, flags, NULL, "", out_model);
}

tcc_status tcc_model_create_from_descriptor(const tcc_model_descriptor *descriptor,
                                            const tcc_model_options *options,
                                            tcc_model **out_model) {
  return create_in_memory("tcc_model_create_from_descriptor", "descriptor", descriptor, NULL,
                          options, out_model);
}

tcc_status tcc_model_create_from_variants(const tcc_model_variants *variants,
                                          const tcc_model_options *options,
                                          tcc_model **out_model) {
  return create_in_memory("tcc_model_create_from_variants", "variants", NULL, variants, options,
                          out_model);
}

void tcc_model_retain(tcc_model *model) {
  if (model)
    atomic_fetch_add_explicit(&model->references, 1, memory_order_relaxed);
}

void tcc_model_release(tcc_model *model) {
  if (model && atomic_fetch_sub_explicit(&model->references, 1, memory_order_acq_rel) == 1)
    destroy_model(model);
}

const tcc_device *tcc_model_device(const tcc_model *model) { return model->device; }

tcc_status tcc_model_check_cpu_again(const tcc_model *model,
                                     const tcc_model_descriptor *descriptor, const char *where) {
  if (!(model->flags & TCC_MODEL_FLAG_SKIP_CPU_CHECK))
    return NULL;
  return check_cpu_features(where, descriptor, 0);
}

tcc_status tcc_model_choose_variant(const tcc_model *model, int32_t device_type,
                                    const char *function, const tcc_model_variant **out_variant) {
  if (device_type == 0) {
    *out_variant = &model->variants[model->default_variant];
    return NULL;
  }
  const tcc_model_variant *first = NULL;
  int skip = (model->flags & TCC_MODEL_FLAG_SKIP_CPU_CHECK) != 0;
  for (int32_t v = 0; v < model->num_variants; ++v) {
    const tcc_model_variant *variant = &model->variants[v];
    if (tcc_descriptor_device_type(variant->descriptor) != device_type)
      continue;
    if (!variant->unavailable || skip) { // (skipped: the session checks the features again)
      *out_variant = variant;
      return NULL;
    }
    if (!first)
      first = variant;
  }
  const char *name = tcc_device_type_name((DLDeviceType)device_type);
  const char *enumerator = tcc_device_type_enumerator((DLDeviceType)device_type);
  if (first)
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "%s: the model's code for %s (%s) cannot run on this host: %s",
                           function, name, enumerator, first->unavailable);
  // The device types it has code for, each once, in variant order.
  char compiled[256] = "";
  size_t used = 0;
  for (int32_t v = 0; v < model->num_variants && used < sizeof(compiled); ++v) {
    int32_t type = tcc_descriptor_device_type(model->variants[v].descriptor);
    int seen = 0;
    for (int32_t u = 0; u < v && !seen; ++u)
      seen = tcc_descriptor_device_type(model->variants[u].descriptor) == type;
    if (!seen)
      used += (size_t)snprintf(compiled + used, sizeof(compiled) - used, "%s%s",
                               used ? ", " : "", tcc_device_type_name((DLDeviceType)type));
  }
  return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                         "%s: the model has no code for %s (%s): it was compiled for %s", function,
                         name, enumerator, compiled);
}
