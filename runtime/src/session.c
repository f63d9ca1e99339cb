//===- session.c - a session: device queue, workspace and the run entry point ------------===//
//
// Everything a run needs is allocated when the session is created (the per-run tables) or
// the first time a run needs it (the workspace, which then only grows), so that repeated runs
// of one size allocate nothing. The strings a run makes live in the session's string arena
// (strings.c), which is reset when the next run starts. The workspace, the parameters and the
// parallel loops belong to the model's device (device.h): the CPU's heap and thread pool.
//
// A device model (a GPU's) also has its kernels loaded and its constants uploaded when the
// session is created. Its run only queues kernels (imports.device_launch) on the session's
// queue, which the session then waits for, and reads the status word in which the kernels'
// checks report a failure. CPU tensors go through device buffers that the session keeps,
// like the workspace, between runs.
//
// Where the device records graphs (CUDA graphs), the first run of a device model with given
// symbol values and given device addresses is recorded while it runs, and later runs with the
// same ones replay the recording instead of calling the model's run: one launch instead of
// one per kernel. What is particular to device models is in session_device.c.
//
//===------------------------------------------------------------------------------------===//
#include "device.h"
#include "model_internal.h"
#include "session_internal.h"
#include "session_state.h"
#include "status_internal.h"
#include "strings_internal.h"
#include "threads_internal.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Stands in for the data of tensors without elements, which may be NULL.
// What empty tensors point to: zeros, which an empty sequence shapes input reads as its row 0
// (model_abi.h), never written (an empty output has nothing to write).
static _Alignas(WORKSPACE_ALIGNMENT) unsigned char empty_tensor_data[TCC_EMPTY_SHAPES_BYTES];

//===------------------------------------------------------------------------------------===//
// Creation and release
//===------------------------------------------------------------------------------------===//

void tcc_session_options_init(tcc_session_options *options) {
  if (!options)
    return;
  tcc_session_options defaults = TCC_SESSION_OPTIONS_INIT;
  *options = defaults;
}

void *tcc_session_allocate_array(size_t count, size_t element_size) {
  return calloc(count ? count : 1, element_size);
}

static tcc_status create_on_variant(tcc_model *model, const tcc_session_options *options,
                                    const tcc_model_variant *variant, const tcc_device *device,
                                    const char *function, tcc_session **out_session);

tcc_status tcc_session_create(tcc_model *model, const tcc_session_options *options,
                              tcc_session **out_session) {
  return tcc_session_create_on(model, options, NULL, out_session);
}

tcc_status tcc_session_create_on(tcc_model *model, const tcc_session_options *options,
                                 const tcc_device *device, tcc_session **out_session) {
  const char *function = "tcc_session_create";
  if (!model || !out_session)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           model ? "out_session" : "model");
  tcc_session_options resolved = TCC_SESSION_OPTIONS_INIT;
  if (options) {
    size_t minimum = offsetof(tcc_session_options, num_threads) + sizeof(options->num_threads);
    if (options->size < minimum)
      return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                             "%s: options->size is %zu, expected at least %zu (initialize "
                             "options with TCC_SESSION_OPTIONS_INIT)",
                             function, options->size, minimum);
    resolved.num_threads = options->num_threads;
    // flags was appended; a smaller struct has none.
    if (options->size >= offsetof(tcc_session_options, flags) + sizeof(options->flags))
      resolved.flags = options->flags;
    // device_type was appended after flags.
    if (options->size >=
        offsetof(tcc_session_options, device_type) + sizeof(options->device_type))
      resolved.device_type = options->device_type;
  }
  const uint32_t known = TCC_SESSION_FLAG_WHOLE_BATCH | TCC_SESSION_FLAG_PROFILE;
  if (resolved.flags & ~known)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: unknown flag bits 0x%x", function,
                           (unsigned)(resolved.flags & ~known));
  if (resolved.num_threads < 0 || resolved.num_threads > TCC_MAX_THREADS)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: num_threads is %d, expected 0 (one per core) to %d", function,
                           (int)resolved.num_threads, TCC_MAX_THREADS);
  if (device && resolved.device_type != 0 && resolved.device_type != (int32_t)device->type)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: options->device_type is %d, but the session is created on the %s "
                           "device",
                           function, (int)resolved.device_type, device->name);
  if (device || resolved.device_type != 0 || model->num_variants == 1) {
    const tcc_model_variant *variant = NULL;
    tcc_status status = tcc_model_choose_variant(
        model, device ? (int32_t)device->type : resolved.device_type, function, &variant);
    return status ? status
                  : create_on_variant(model, &resolved, variant, device, function, out_session);
  }
  // A fat model on no device in particular: the variants in order from the default, past
  // those whose device is not here (no driver, no GPU, no backend in this runtime).
  tcc_status first_failure = NULL;
  for (int32_t v = model->default_variant; v < model->num_variants; ++v) {
    const tcc_model_variant *variant = &model->variants[v];
    if (variant->unavailable && !(model->flags & TCC_MODEL_FLAG_SKIP_CPU_CHECK))
      continue;
    tcc_status status = create_on_variant(model, &resolved, variant, NULL, function, out_session);
    if (!status) {
      tcc_status_free(first_failure);
      return NULL;
    }
    tcc_status_code code = tcc_status_code_of(status);
    if (code != TCC_STATUS_INCOMPATIBLE && code != TCC_STATUS_UNIMPLEMENTED) {
      tcc_status_free(first_failure);
      return status;
    }
    if (!first_failure)
      first_failure = tcc_annotate_status(status, "%s: no variant of the model runs here; the "
                                                  "first tried (variant %d)",
                                          function, (int)v);
    else
      tcc_status_free(status);
  }
  return first_failure;
}

/// Creates a session of `model` that runs `variant` (on `device`, else the variant's).
static tcc_status create_on_variant(tcc_model *model, const tcc_session_options *options,
                                    const tcc_model_variant *variant, const tcc_device *device,
                                    const char *function, tcc_session **out_session) {
  tcc_session_options resolved = *options;
  tcc_status status = tcc_model_check_cpu_again(model, variant->descriptor, function);
  if (status)
    return status;
  int32_t num_threads = resolved.num_threads ? resolved.num_threads : tcc_available_cores();

  const tcc_model_descriptor *d = variant->descriptor;
  tcc_session *session = calloc(1, sizeof(*session));
  if (!session)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  session->model = model;
  session->variant = variant;
  session->descriptor = d;
  session->device = device ? device : variant->device;
  tcc_model_retain(model);
  // A device model's host code runs on the caller's thread; its work runs on the device.
  session->device_model = session->device->type != kDLCPU;
  if (session->device_model)
    num_threads = 1;
  else
    snprintf(session->graph_fallback, sizeof(session->graph_fallback),
             "a CPU model runs without graphs");
  session->num_threads = num_threads;
  atomic_init(&session->running, 0);
  atomic_init(&session->error_reported, 0);
  session->symbol_values = tcc_session_allocate_array((size_t)d->num_symbols, sizeof(int64_t));
  session->output_shapes = tcc_session_allocate_array(model->output_shapes_length, sizeof(int64_t));
  session->actual_shapes = tcc_session_allocate_array(model->output_shapes_length, sizeof(int64_t));
  session->input_data = tcc_session_allocate_array((size_t)d->num_inputs, sizeof(void *));
  session->output_data = tcc_session_allocate_array((size_t)d->num_outputs, sizeof(void *));
  session->input_begin = tcc_session_allocate_array((size_t)d->num_inputs, sizeof(uintptr_t));
  session->input_end = tcc_session_allocate_array((size_t)d->num_inputs, sizeof(uintptr_t));
  session->output_begin = tcc_session_allocate_array((size_t)d->num_outputs, sizeof(uintptr_t));
  session->output_end = tcc_session_allocate_array((size_t)d->num_outputs, sizeof(uintptr_t));
  session->batch_symbol = resolved.flags & TCC_SESSION_FLAG_WHOLE_BATCH || session->device_model
                              ? -1
                              : tcc_descriptor_batch_symbol(d);
  if (session->batch_symbol >= 0) {
    size_t lanes = (size_t)num_threads;
    session->lane_symbol_values = tcc_session_allocate_array(lanes * (size_t)d->num_symbols, sizeof(int64_t));
    session->lane_input_data = tcc_session_allocate_array(lanes * (size_t)d->num_inputs, sizeof(void *));
    session->lane_output_data = tcc_session_allocate_array(lanes * (size_t)d->num_outputs, sizeof(void *));
    session->input_image_bytes = tcc_session_allocate_array((size_t)d->num_inputs, sizeof(int64_t));
    session->output_image_bytes = tcc_session_allocate_array((size_t)d->num_outputs, sizeof(int64_t));
    session->lane_codes = tcc_session_allocate_array(lanes, sizeof(int32_t));
    if (!session->lane_symbol_values || !session->lane_input_data ||
        !session->lane_output_data || !session->input_image_bytes ||
        !session->output_image_bytes || !session->lane_codes) {
      tcc_session_release(session);
      return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
    }
  }
  if (!session->symbol_values || !session->output_shapes || !session->actual_shapes ||
      !session->input_data ||
      !session->output_data || !session->input_begin || !session->input_end ||
      !session->output_begin || !session->output_end) {
    tcc_session_release(session);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  }
  status = session->device->create_queue(session->device, num_threads, &session->queue);
  if (status && session->device_model) // the CPU's pool names tcc_session_create itself
    status = tcc_annotate_status(status, "%s", function);
  if (!status)
    status = tcc_strings_create(tcc_session_import_report_error, session, &session->strings);
  if (status) {
    tcc_session_release(session);
    return status;
  }
  tcc_session_fill_imports(session);
  if ((resolved.flags & TCC_SESSION_FLAG_PROFILE) && !tcc_session_start_profile(session)) {
    tcc_session_release(session);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  }
  if (session->device_model) {
    status = tcc_session_prepare_device_model(session, function);
    if (status) {
      tcc_session_release(session);
      return status;
    }
  }
  if (d->num_parameters > 0) {
    const tcc_device *device = session->device;
    size_t bytes = ((size_t)d->parameters_size + WORKSPACE_ALIGNMENT - 1) / WORKSPACE_ALIGNMENT *
                   WORKSPACE_ALIGNMENT;
    status = device->allocate(device, bytes ? bytes : WORKSPACE_ALIGNMENT, WORKSPACE_ALIGNMENT,
                              &session->parameters);
    if (status)
      status = tcc_annotate_status(status, "%s: cannot allocate the %lld-byte parameter buffer",
                                   function, (long long)d->parameters_size);
    else
      status = tcc_annotate_status(device->copy(device, session->parameters,
                                                d->initial_parameters,
                                                (size_t)d->parameters_size,
                                                TCC_COPY_HOST_TO_DEVICE),
                                   "%s: cannot initialize the parameter buffer", function);
    if (status) {
      tcc_session_release(session);
      return status;
    }
  }
  session->imports.parameters = session->parameters;
  tcc_session_stats stats = TCC_SESSION_STATS_INIT;
  session->stats = stats;
  *out_session = session;
  return NULL;
}

void tcc_session_release(tcc_session *session) {
  if (!session)
    return;
  const tcc_device *device = session->device;
  device->destroy_queue(device, session->queue); // waits for the queue's work
  tcc_session_release_device_model(session);
  tcc_strings_destroy(session->strings);
  tcc_optional_scratch_free(&session->optionals);
  device->free(device, session->workspace);
  device->free(device, session->parameters);
  free(session->symbol_values);
  free(session->output_shapes);
  free(session->actual_shapes);
  free(session->input_data);
  free(session->output_data);
  free(session->input_begin);
  free(session->input_end);
  free(session->output_begin);
  free(session->output_end);
  free(session->lane_symbol_values);
  free(session->lane_input_data);
  free(session->lane_output_data);
  free(session->input_image_bytes);
  free(session->output_image_bytes);
  free(session->lane_codes);
  free(session->profile);
  tcc_model_release(session->model);
  free(session);
}

tcc_model *tcc_session_model(const tcc_session *session) {
  return session ? session->model : NULL;
}

int32_t tcc_session_variant(const tcc_session *session) {
  return session ? (int32_t)(session->variant - session->model->variants) : 0;
}

int32_t tcc_session_num_threads(const tcc_session *session) {
  return session ? session->num_threads : 0;
}

tcc_status tcc_session_get_stats(const tcc_session *session, tcc_session_stats *out_stats) {
  if (!session || !out_stats)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "tcc_session_get_stats: %s is null",
                           session ? "out_stats" : "session");
  if (out_stats->size < sizeof(tcc_session_stats))
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "tcc_session_get_stats: out_stats->size is %zu, expected at least %zu "
                           "(initialize it with TCC_SESSION_STATS_INIT)",
                           out_stats->size, sizeof(tcc_session_stats));
  size_t size = out_stats->size;
  *out_stats = session->stats;
  out_stats->size = size;
  return NULL;
}

//===------------------------------------------------------------------------------------===//
// Running
//===------------------------------------------------------------------------------------===//

/// Checks the outputs against the shapes computed for this run and records the data
/// pointers; also rejects outputs that overlap an input or another output.
static tcc_status check_outputs(tcc_session *session, const char *function,
                                const DLTensor *const *outputs, size_t num_outputs) {
  const tcc_model *model = session->model;
  const tcc_model_descriptor *d = session->descriptor;
  if (num_outputs != (size_t)d->num_outputs)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: expected %d outputs, got %zu",
                           function, (int)d->num_outputs, num_outputs);
  if (num_outputs > 0 && !outputs)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: outputs is null (%zu outputs)",
                           function, num_outputs);
  size_t offset = 0;
  for (size_t o = 0; o < num_outputs; ++o) {
    const tcc_tensor_entry *entry = &model->outputs[o];
    const DLTensor *tensor = outputs[o];
    uint64_t bytes;
    tcc_status status =
        tcc_check_tensor_layout(model, session->variant, function, "output", o, entry, tensor,
                                &bytes);
    if (status)
      return status;
    for (int32_t k = 0; k < entry->info.rank; ++k) {
      int64_t expected = session->output_shapes[offset + k];
      if (tensor->shape[k] != expected)
        return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                               "%s: output %zu '%s': dim %d is %lld, expected %lld (see "
                               "tcc_model_output_shapes)",
                               function, o, entry->info.name, (int)k,
                               (long long)tensor->shape[k], (long long)expected);
    }
    offset += (size_t)entry->info.rank;
    session->output_data[o] = bytes ? tcc_tensor_address(tensor) : empty_tensor_data;
    uintptr_t begin = bytes ? (uintptr_t)session->output_data[o] : 0;
    uintptr_t end = bytes ? begin + bytes : 0;
    session->output_begin[o] = begin;
    session->output_end[o] = end;
    for (int32_t i = 0; i < d->num_inputs; ++i)
      if (begin < session->input_end[i] && session->input_begin[i] < end)
        return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                               "%s: output %zu '%s' overlaps input %d '%s' in memory", function,
                               o, entry->info.name, (int)i, model->inputs[i].info.name);
    for (size_t p = 0; p < o; ++p)
      if (begin < session->output_end[p] && session->output_begin[p] < end)
        return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                               "%s: output %zu '%s' overlaps output %zu '%s' in memory", function,
                               o, entry->info.name, p, model->outputs[p].info.name);
  }
  return NULL;
}

/// Makes the workspace hold `slots` slots of `bytes` each (the model's workspace_size, one slot
/// per lane of an image-by-image run, else one), every slot 64-byte aligned; grows it only
/// when needed. *out_stride is the distance between slots.
static tcc_status reserve_workspace(tcc_session *session, const char *function, int64_t bytes,
                                    int64_t slots, size_t *out_stride) {
  // -1: the sizes these symbol values give reach 2^48 bytes (PlanBuffers.cpp saturates them
  // there rather than let a product wrap).
  if (bytes == -1)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "%s: the intermediates these input values give need 256 TiB or more "
                           "(the model's workspace_size saturated)",
                           function);
  if (bytes < 0)
    return tcc_make_status(TCC_STATUS_INTERNAL,
                           "%s: the model's workspace_size returned the negative size %lld",
                           function, (long long)bytes);
  uint64_t stride = ((uint64_t)bytes + WORKSPACE_ALIGNMENT - 1) / WORKSPACE_ALIGNMENT *
                    WORKSPACE_ALIGNMENT;
  if (stride > SIZE_MAX / (uint64_t)slots)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "%s: cannot allocate a workspace of %lld slots of %lld bytes", function,
                           (long long)slots, (long long)bytes);
  *out_stride = (size_t)stride;
  uint64_t needed = stride * (uint64_t)slots;
  if (session->workspace && needed <= session->workspace_capacity)
    return NULL;
  uint64_t rounded = needed ? needed : WORKSPACE_ALIGNMENT;
  const tcc_device *device = session->device;
  void *workspace = NULL;
  tcc_status status = device->allocate(device, (size_t)rounded, WORKSPACE_ALIGNMENT, &workspace);
  if (status)
    return tcc_annotate_status(status, "%s: cannot allocate a workspace of %lld bytes", function,
                               (long long)rounded);
  device->free(device, session->workspace);
  session->workspace = workspace;
  session->workspace_capacity = (size_t)rounded;
  session->stats.workspace_allocations++;
  session->stats.workspace_bytes = rounded;
  return NULL;
}

/// Runs images [first, first + count) of this run's tensors through lane `lane`'s tables and
/// workspace slot, one image per call of the model, and returns the first failing code.
static int32_t run_images(tcc_session *session, int32_t lane, int64_t first, int64_t count,
                          void *workspace) {
  const tcc_model_descriptor *d = session->descriptor;
  int64_t *symbols = session->lane_symbol_values + (size_t)lane * (size_t)d->num_symbols;
  void **inputs = session->lane_input_data + (size_t)lane * (size_t)d->num_inputs;
  void **outputs = session->lane_output_data + (size_t)lane * (size_t)d->num_outputs;
  memcpy(symbols, session->symbol_values, (size_t)d->num_symbols * sizeof(int64_t));
  symbols[session->batch_symbol] = 1;
  for (int64_t image = first; image < first + count; ++image) {
    if (atomic_load_explicit(&session->error_reported, memory_order_relaxed))
      return TCC_RUN_OK; // another lane failed; its message is the run's
    for (int32_t i = 0; i < d->num_inputs; ++i)
      inputs[i] = session->input_image_bytes[i]
                      ? (char *)session->input_data[i] + image * session->input_image_bytes[i]
                      : session->input_data[i];
    for (int32_t o = 0; o < d->num_outputs; ++o)
      outputs[o] = session->output_image_bytes[o]
                       ? (char *)session->output_data[o] + image * session->output_image_bytes[o]
                       : session->output_data[o];
    int32_t code = d->run(&session->imports, symbols, inputs, outputs, workspace);
    if (code != TCC_RUN_OK)
      return code;
  }
  return TCC_RUN_OK;
}

/// What the lanes of one split run share.
typedef struct lane_plan {
  tcc_session *session;
  int64_t images_per_lane;
  size_t slot_bytes;
} lane_plan;

static void run_lanes(void *arg, int64_t begin, int64_t end) {
  const lane_plan *plan = arg;
  tcc_session *session = plan->session;
  for (int64_t lane = begin; lane < end; ++lane)
    session->lane_codes[lane] =
        run_images(session, (int32_t)lane, lane * plan->images_per_lane, plan->images_per_lane,
                   (char *)session->workspace + (size_t)lane * plan->slot_bytes);
}

/// The image-by-image run of a model with a batch symbol (batch >= 2): `lanes` threads
/// each run a contiguous block of images alone, then the images left over (batch % lanes)
/// run one at a time with the whole pool inside each kernel. Returns the model's code.
static tcc_status run_split(tcc_session *session, const char *function, int32_t *out_code) {
  const tcc_model_descriptor *d = session->descriptor;
  int64_t batch = session->symbol_values[session->batch_symbol];
  int64_t lanes = batch < session->num_threads ? batch : session->num_threads;
  memcpy(session->lane_symbol_values, session->symbol_values,
         (size_t)d->num_symbols * sizeof(int64_t));
  session->lane_symbol_values[session->batch_symbol] = 1;
  size_t slot;
  tcc_status status = reserve_workspace(session, function,
                                        d->workspace_size(session->lane_symbol_values), lanes, &slot);
  if (status)
    return status;
  // Tensors are dense and row-major with the batch as dim 0: image k starts k * size/batch
  // bytes in.
  for (int32_t i = 0; i < d->num_inputs; ++i)
    session->input_image_bytes[i] =
        (int64_t)((session->input_end[i] - session->input_begin[i]) / (uint64_t)batch);
  for (int32_t o = 0; o < d->num_outputs; ++o)
    session->output_image_bytes[o] =
        (int64_t)((session->output_end[o] - session->output_begin[o]) / (uint64_t)batch);

  lane_plan plan = {session, batch / lanes, slot};
  const tcc_device *device = session->device;
  if (lanes == 1)
    run_lanes(&plan, 0, 1);
  else
    status = device->launch(device, session->queue, lanes, run_lanes, &plan);
  if (!status)
    status = device->synchronize(device, session->queue);
  if (status)
    return tcc_annotate_status(status, "%s: cannot run the batch image by image", function);
  int32_t code = TCC_RUN_OK;
  for (int64_t lane = 0; lane < lanes && code == TCC_RUN_OK; ++lane)
    code = session->lane_codes[lane];
  int64_t done = plan.images_per_lane * lanes;
  if (code == TCC_RUN_OK && done < batch)
    code = run_images(session, 0, done, batch - done, session->workspace);
  *out_code = code;
  return NULL;
}

/// Calls the model's run on this run's tables (a whole batch at once).
int32_t tcc_session_call_run(tcc_session *session) {
  return session->descriptor->run(&session->imports, session->symbol_values,
                                  session->input_data, session->output_data, session->workspace);
}

static tcc_status run_checked(tcc_session *session, const DLTensor *const *inputs,
                              size_t num_inputs, const DLTensor *const *outputs,
                              size_t num_outputs) {
  const char *function = "tcc_session_run";
  const tcc_model *model = session->model;
  const tcc_model_descriptor *d = session->descriptor;

  // Absent optional inputs: zeros stand in for their values from here on.
  tcc_status status = tcc_resolve_optional_inputs(model, d, function, inputs, num_inputs,
                                                  &session->optionals, &inputs);
  if (status)
    return status;
  status = tcc_model_bind_inputs(model, session->variant, function, inputs, num_inputs,
                                 session->symbol_values);
  if (status)
    return status;
  status = tcc_check_string_inputs(model, function, inputs, session->strings);
  if (status)
    return status;
  for (size_t i = 0; i < num_inputs; ++i) {
    uint64_t bytes = tcc_tensor_bytes(&model->inputs[i], inputs[i]);
    void *address = bytes ? tcc_tensor_address(inputs[i]) : empty_tensor_data;
    session->input_data[i] = address;
    session->input_begin[i] = bytes ? (uintptr_t)address : 0;
    session->input_end[i] = bytes ? (uintptr_t)address + bytes : 0;
  }
  status = tcc_model_compute_output_shapes(model, d, function, session->symbol_values,
                                           session->output_shapes);
  int split = session->batch_symbol >= 0 && session->symbol_values[session->batch_symbol] >= 2;
  int64_t workspace_bytes = split || status ? 0 : d->workspace_size(session->symbol_values);
  // (Before the outputs' checks, whose byte ranges are computed from these extents.)
  if (!status && session->device->index_bits == 32)
    status = tcc_check_index_range(model, d, session->device->name, function,
                                   session->symbol_values, inputs, session->output_shapes,
                                   workspace_bytes);
  if (!status)
    status = check_outputs(session, function, outputs, num_outputs);
  size_t stride;
  if (!status && !split)
    status = reserve_workspace(session, function, workspace_bytes, 1, &stride);
  if (!status && session->device_model)
    status = tcc_session_stage_tensors(session, function, inputs, outputs);
  if (status)
    return status;

  atomic_store(&session->error_reported, 0);
  session->has_run = 0;
  // The previous run's strings end here (model_abi.h: valid until the next run).
  tcc_strings_reset(session->strings);
  // Data-dependent extents start unknown (-1); the run reports them.
  size_t offset = 0;
  for (int32_t o = 0; o < d->num_outputs; ++o) {
    const tcc_tensor_entry *entry = &model->outputs[o];
    for (int32_t k = 0; k < entry->info.rank; ++k)
      session->actual_shapes[offset + k] = entry->dim_symbols[k] == TCC_DIM_DATA_DEPENDENT
                                               ? -1
                                               : session->output_shapes[offset + k];
    offset += (size_t)entry->info.rank;
  }
  int32_t code = TCC_RUN_OK;
  if (split) {
    status = run_split(session, function, &code);
    if (status)
      return status;
  } else if (session->device_model) {
    status = tcc_session_run_device_model(session, function, &code);
    if (status)
      return status;
  } else {
    code = tcc_session_call_run(session);
  }
  session->stats.runs++;
  int reported = atomic_load(&session->error_reported);
  if (session->device_model) {
    // The run has only queued its kernels: wait for them, whatever the code says.
    status = tcc_session_finish_device_run(session, function, code == TCC_RUN_OK && !reported);
    if (status)
      return status;
  }
  if (tcc_strings_out_of_memory(session->strings))
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "%s: out of memory for the strings the model makes (first error: "
                           "%s)",
                           function, session->error_message);
  if (code == TCC_RUN_OK && !reported) {
    for (size_t k = 0; k < model->output_shapes_length; ++k)
      if (session->actual_shapes[k] < 0)
        return tcc_make_status(TCC_STATUS_INTERNAL,
                               "%s: the model did not report the extent of a data-dependent "
                               "output dim",
                               function);
    session->has_run = 1;
    return NULL;
  }
  if (code == TCC_RUN_CHECK_FAILED || (code == TCC_RUN_OK && reported))
    return tcc_make_status(TCC_STATUS_CHECK_FAILED, "%s: a run-time check of the model failed: %s",
                           function,
                           reported ? session->error_message : "(the model gave no message)");
  if (code == TCC_RUN_BAD_ARGUMENT)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: the model rejected its arguments%s%s", function,
                           reported ? ": " : "", reported ? session->error_message : "");
  return tcc_make_status(TCC_STATUS_INTERNAL, "%s: the model's run returned the unknown code %d",
                         function, (int)code);
}

tcc_status tcc_session_run(tcc_session *session, const DLTensor *const *inputs,
                           size_t num_inputs, const DLTensor *const *outputs,
                           size_t num_outputs) {
  if (!session)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "tcc_session_run: session is null");
  if (atomic_exchange(&session->running, 1) != 0)
    return tcc_make_status(TCC_STATUS_INTERNAL,
                           "tcc_session_run: the session is already running (a session is used "
                           "by one thread at a time)");
  tcc_status status = run_checked(session, inputs, num_inputs, outputs, num_outputs);
  atomic_store(&session->running, 0);
  return status;
}

tcc_status tcc_session_output_shape(const tcc_session *session, size_t output,
                                    int64_t *out_shape) {
  const char *function = "tcc_session_output_shape";
  if (!session)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: session is null", function);
  const tcc_model *model = session->model;
  if (output >= (size_t)model->descriptor->num_outputs)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: output %zu does not exist (the model has %d outputs)", function,
                           output, (int)model->descriptor->num_outputs);
  int32_t rank = model->outputs[output].info.rank;
  if (rank > 0 && !out_shape)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: out_shape is null", function);
  if (!session->has_run)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: the session has no successful run yet", function);
  size_t offset = tcc_session_output_offset(model, (int32_t)output);
  for (int32_t k = 0; k < rank; ++k)
    out_shape[k] = session->actual_shapes[offset + k];
  return NULL;
}

/// The entry and bytes of parameter `name`, or an error naming what is wrong with `tensor`.
static tcc_status find_parameter(const tcc_session *session, const char *function,
                                 const char *name, const DLTensor *tensor, void **out_address,
                                 uint64_t *out_bytes) {
  if (!session || !name)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           session ? "name" : "session");
  const tcc_model *model = session->model;
  const tcc_model_descriptor *d = session->descriptor;
  for (int32_t i = 0; i < d->num_parameters; ++i) {
    const tcc_tensor_entry *entry = &model->parameters[i];
    if (strcmp(entry->info.name, name) != 0)
      continue;
    uint64_t bytes;
    tcc_status status = tcc_check_tensor_layout(model, session->variant, function, "parameter",
                                                (size_t)i, entry, tensor, &bytes);
    if (status)
      return status;
    for (int32_t k = 0; k < entry->info.rank; ++k)
      if (tensor->shape[k] != entry->info.shape[k])
        return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                               "%s: parameter '%s': dim %d is %lld, expected %lld", function, name,
                               (int)k, (long long)tensor->shape[k],
                               (long long)entry->info.shape[k]);
    *out_address = (char *)session->parameters + d->parameter_offsets[i];
    *out_bytes = bytes;
    return NULL;
  }
  return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: the model has no parameter '%s'",
                         function, name);
}

tcc_status tcc_session_read_parameter(const tcc_session *session, const char *name,
                                      const DLTensor *destination) {
  void *address;
  uint64_t bytes;
  tcc_status status = find_parameter(session, "tcc_session_read_parameter", name, destination,
                                     &address, &bytes);
  if (status)
    return status;
  // The destination passed the check of the model's device: a copy within the device.
  if (bytes)
    status = session->device->copy(session->device, tcc_tensor_address(destination), address,
                                   (size_t)bytes, TCC_COPY_DEVICE_TO_DEVICE);
  return tcc_annotate_status(status, "tcc_session_read_parameter: parameter '%s'", name);
}

tcc_status tcc_session_write_parameter(tcc_session *session, const char *name,
                                       const DLTensor *source) {
  void *address;
  uint64_t bytes;
  tcc_status status =
      find_parameter(session, "tcc_session_write_parameter", name, source, &address, &bytes);
  if (status)
    return status;
  if (atomic_load(&session->running))
    return tcc_make_status(TCC_STATUS_INTERNAL,
                           "tcc_session_write_parameter: the session is running");
  // A copy within the device, as for read; the CPU's tolerates overlap (memmove).
  if (bytes)
    status = session->device->copy(session->device, address, tcc_tensor_address(source),
                                   (size_t)bytes, TCC_COPY_DEVICE_TO_DEVICE);
  return tcc_annotate_status(status, "tcc_session_write_parameter: parameter '%s'", name);
}
