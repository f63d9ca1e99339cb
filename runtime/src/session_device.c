//===- session_device.c - a session of a device model: kernels, staging, graphs ----------===//
//
// A device model (a GPU's) has its kernels loaded and its constants uploaded once per device,
// by the first session created there (the model keeps them: model_device.c). Its run only queues kernels (imports.device_launch) on the session's queue,
// which the session then waits for, and reads the status word in which the kernels' checks
// report a failure. CPU tensors go through device buffers that the session keeps, like the
// workspace, between runs. Where the device records graphs, runs are replayed
// (tcc_session_run_device_model says why that is the same run).
//
//===------------------------------------------------------------------------------------===//
#include "model_internal.h"
#include "session_internal.h"
#include "session_state.h"
#include "status_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Records a failure of the device during the run as the run's error (kept with its code),
/// unless another error came first.
static void record_device_failure(tcc_session *session, tcc_status status) {
  if (tcc_session_record_error(session, tcc_status_message(status)) && !session->launch_status)
    session->launch_status = status;
  else
    tcc_status_free(status);
}

/// Makes launch slot `slot` of a profiling session's marks exist (2 marks a slot).
static tcc_status reserve_mark_slot(tcc_session *session, size_t slot) {
  if (slot < session->profile_mark_slots)
    return NULL;
  const tcc_device *device = session->device;
  size_t slots = session->profile_mark_slots ? 2 * session->profile_mark_slots : 64;
  tcc_device_mark **marks = realloc(session->profile_marks, 2 * slots * sizeof(*marks));
  if (!marks)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "profile: out of memory");
  session->profile_marks = marks;
  int32_t *kernels = realloc(session->profile_mark_kernels, slots * sizeof(*kernels));
  if (!kernels)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "profile: out of memory");
  session->profile_mark_kernels = kernels;
  for (size_t m = 2 * session->profile_mark_slots; m < 2 * slots; ++m) {
    tcc_status status = device->create_mark(device, &marks[m]);
    if (status) {
      session->profile_mark_slots = m / 2; // whole slots only; the rest are destroyed later
      for (size_t k = 2 * (m / 2); k < m; ++k)
        device->destroy_mark(device, marks[k]);
      return status;
    }
  }
  session->profile_mark_slots = slots;
  return NULL;
}

/// A profiling session's launch: between two marks where the device has them (read after
/// the run: tcc_session_finish_device_run), else alone, the queue drained before and after it.
static tcc_status launch_profiled(tcc_session *session, int32_t kernel, int64_t grid_x,
                                  int32_t block_x, int32_t shared_bytes, void **args) {
  const tcc_device *device = session->device;
  tcc_device_queue *queue = session->queue;
  if (device->record_mark) {
    size_t slot = session->profile_marks_used;
    tcc_status status = reserve_mark_slot(session, slot);
    if (!status)
      status = device->record_mark(device, queue, session->profile_marks[2 * slot]);
    if (!status)
      status = device->launch_kernel(device, queue, session->module, kernel, grid_x, block_x,
                                     shared_bytes, args);
    if (!status)
      status = device->record_mark(device, queue, session->profile_marks[2 * slot + 1]);
    if (!status) {
      session->profile_mark_kernels[slot] = kernel;
      session->profile_marks_used = slot + 1;
    }
    return status;
  }
  tcc_status status = device->synchronize(device, queue);
  uint64_t began = tcc_profile_now();
  if (!status)
    status = device->launch_kernel(device, queue, session->module, kernel, grid_x, block_x,
                                   shared_bytes, args);
  if (!status)
    status = device->synchronize(device, queue);
  if (!status)
    tcc_profile_add(session->profile, session->num_kernels, kernel, tcc_profile_now() - began);
  return status;
}

/// Adds the launches the marks of this run timed to the profile (the run's work has
/// finished), and frees the slots for the next run.
static tcc_status read_profile_marks(tcc_session *session) {
  const tcc_device *device = session->device;
  size_t used = session->profile_marks_used;
  session->profile_marks_used = 0;
  for (size_t slot = 0; slot < used; ++slot) {
    float milliseconds = 0;
    tcc_status status = device->mark_elapsed(device, session->profile_marks[2 * slot],
                                             session->profile_marks[2 * slot + 1], &milliseconds);
    if (status)
      return status;
    tcc_profile_add(session->profile, session->num_kernels, session->profile_mark_kernels[slot],
                    milliseconds > 0 ? (uint64_t)(milliseconds * 1e6) : 0);
  }
  return NULL;
}

/// Queues a kernel of a device model on the session's queue (only device models get it).
static int32_t import_device_launch(void *context, int32_t kernel, int64_t grid_x,
                                    int32_t block_x, int32_t shared_bytes, void **args) {
  tcc_session *session = context;
  const tcc_device *device = session->device;
  tcc_status status =
      session->profile
          ? launch_profiled(session, kernel, grid_x, block_x, shared_bytes, args)
          : device->launch_kernel(device, session->queue, session->module, kernel, grid_x,
                                  block_x, shared_bytes, args);
  if (!status)
    return 0;
  // The run fails with this status, its code kept, unless another error came first.
  record_device_failure(session, status);
  return 1;
}

/// Copies device memory the run's kernels wrote to the host, once they have finished (only
/// models with TCC_MODEL_READS_DEVICE call it; their runs are never recorded as graphs, so
/// waiting here is allowed). Zeroes `host` and returns 1 when the run has already failed, a
/// check of the run failed (the status word, which finish_device_run reports), or the wait
/// or the copy fails (recorded as the run's error).
static int32_t import_device_read(void *context, void *host, const void *device_memory,
                                  int64_t bytes) {
  tcc_session *session = context;
  const tcc_device *device = session->device;
  if (bytes <= 0 || !host)
    return 1;
  int failed = session->launch_status != NULL || atomic_load(&session->error_reported);
  if (!failed) {
    tcc_status status = device->synchronize(device, session->queue);
    int32_t check = 0;
    if (!status)
      status = device->copy(device, &check, session->device_status, sizeof(check),
                            TCC_COPY_DEVICE_TO_HOST);
    if (!status && check == 0)
      status = device->copy(device, host, device_memory, (size_t)bytes, TCC_COPY_DEVICE_TO_HOST);
    if (status)
      record_device_failure(session,
                            tcc_annotate_status(status, "the model's read of %lld bytes of "
                                                        "device memory failed",
                                                (long long)bytes));
    failed = status != NULL || check != 0;
  }
  if (failed)
    memset(host, 0, (size_t)bytes);
  return failed;
}

tcc_status tcc_session_prepare_device_model(tcc_session *session, const char *function) {
  const tcc_device *device = session->device;
  const tcc_model_descriptor *d = session->descriptor;
  if (!device->load_module || !device->unload_module || !device->launch_kernel)
    return tcc_make_status(TCC_STATUS_UNIMPLEMENTED,
                           "%s: the %s device cannot run a device model's kernels", function,
                           device->name);
  session->input_staging = tcc_session_allocate_array((size_t)d->num_inputs, sizeof(staging_buffer));
  session->output_staging = tcc_session_allocate_array((size_t)d->num_outputs, sizeof(staging_buffer));
  if (!session->input_staging || !session->output_staging)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  const tcc_model_device_state *state = NULL;
  tcc_status status = tcc_model_device_state_acquire(session->model, d, device, function, &state);
  if (status)
    return status;
  session->module = state->module;
  session->device_constants = state->device_constants;
  status = device->allocate(device, sizeof(int32_t), sizeof(int32_t), &session->device_status);
  if (status)
    return tcc_annotate_status(status, "%s: cannot allocate the device status word", function);
  session->imports.device_launch = import_device_launch;
  session->imports.device_constants = session->device_constants;
  session->imports.device_status = session->device_status;
  session->imports.device_read = import_device_read;
  session->num_graph_addresses = (size_t)d->num_inputs + (size_t)d->num_outputs + 3;
  session->graph_symbols = tcc_session_allocate_array((size_t)d->num_symbols, sizeof(int64_t));
  session->graph_addresses = tcc_session_allocate_array(session->num_graph_addresses, sizeof(void *));
  session->run_addresses = tcc_session_allocate_array(session->num_graph_addresses, sizeof(void *));
  if (!session->graph_symbols || !session->graph_addresses || !session->run_addresses)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", function);
  if (!device->begin_capture || !device->end_capture || !device->launch_graph ||
      !device->destroy_graph)
    snprintf(session->graph_fallback, sizeof(session->graph_fallback),
             "the %s device records no graphs", device->name);
  else if (session->profile)
    snprintf(session->graph_fallback, sizeof(session->graph_fallback),
             "the session profiles its kernels (each launch is timed)");
  else if (d->flags & TCC_MODEL_READS_DEVICE)
    snprintf(session->graph_fallback, sizeof(session->graph_fallback),
             "the model reads device memory during its runs (a data-dependent extent or "
             "condition), so they cannot be replayed");
  return NULL;
}


void tcc_session_release_device_model(tcc_session *session) {
  const tcc_device *device = session->device;
  const tcc_model_descriptor *d = session->descriptor;
  if (session->graph) // before the model's module, whose kernels it holds
    device->destroy_graph(device, session->graph);
  for (int32_t i = 0; session->input_staging && i < d->num_inputs; ++i)
    device->free(device, session->input_staging[i].memory);
  for (int32_t o = 0; session->output_staging && o < d->num_outputs; ++o)
    device->free(device, session->output_staging[o].memory);
  free(session->input_staging);
  free(session->output_staging);
  device->free(device, session->device_status);
  tcc_status_free(session->launch_status);
  for (size_t m = 0; m < 2 * session->profile_mark_slots; ++m)
    device->destroy_mark(device, session->profile_marks[m]);
  free(session->profile_marks);
  free(session->profile_mark_kernels);
  free(session->graph_symbols);
  free(session->graph_addresses);
  free(session->run_addresses);
}

uint64_t tcc_session_staging_allocations(const tcc_session *session) {
  return session->staging_allocations;
}

uint64_t tcc_session_graph_captures(const tcc_session *session) {
  return session->graph_captures;
}

uint64_t tcc_session_graph_replays(const tcc_session *session) { return session->graph_replays; }

const char *tcc_session_graph_fallback(const tcc_session *session) {
  return session->graph_fallback[0] ? session->graph_fallback : NULL;
}

/// Makes `buffer` hold at least `bytes` bytes of device memory (0 bytes: a block of its own,
/// the address of a tensor without elements); grows it only when needed.
static tcc_status reserve_staging(tcc_session *session, const char *function,
                                  staging_buffer *buffer, size_t bytes, const char *kind,
                                  size_t index, const char *name) {
  if (buffer->memory && bytes <= buffer->capacity)
    return NULL;
  const tcc_device *device = session->device;
  void *memory = NULL;
  tcc_status status = device->allocate(device, bytes, WORKSPACE_ALIGNMENT, &memory);
  if (status)
    return tcc_annotate_status(status,
                               "%s: cannot allocate %zu bytes of %s device memory for "
                               TCC_TENSOR_FORMAT,
                               function, bytes, device->name, kind, index, name);
  device->free(device, buffer->memory);
  buffer->memory = memory;
  buffer->capacity = bytes;
  session->staging_allocations++;
  return NULL;
}

/// Points a device model's run at device memory: CPU tensors at their device buffers (inputs
/// copied there), tensors without elements at a block of their own; zeroes the status word.
tcc_status tcc_session_stage_tensors(tcc_session *session, const char *function,
                                     const DLTensor *const *inputs,
                                     const DLTensor *const *outputs) {
  const tcc_model *model = session->model;
  const tcc_device *device = session->device;
  session->profile_marks_used = 0; // what a failed run left is not this run's
  tcc_status status = device->fill(device, session->device_status, 0, sizeof(int32_t));
  if (status)
    return tcc_annotate_status(status, "%s: cannot reset the device status word", function);
  for (int side = 0; side < 2; ++side) {
    int is_input = side == 0;
    int32_t count = is_input ? session->descriptor->num_inputs : session->descriptor->num_outputs;
    for (int32_t i = 0; i < count; ++i) {
      const tcc_tensor_entry *entry = is_input ? &model->inputs[i] : &model->outputs[i];
      const DLTensor *tensor = is_input ? inputs[i] : outputs[i];
      staging_buffer *buffer =
          is_input ? &session->input_staging[i] : &session->output_staging[i];
      void **data = is_input ? &session->input_data[i] : &session->output_data[i];
      const char *kind = is_input ? "input" : "output";
      size_t bytes = (size_t)tcc_tensor_bytes(entry, tensor);
      int on_host = tensor->device.device_type == kDLCPU;
      buffer->host = on_host && bytes > 0 ? tcc_tensor_address(tensor) : NULL;
      buffer->bytes = bytes;
      if (!on_host && bytes > 0)
        continue; // the tensor's own address, set by the checks
      status =
          reserve_staging(session, function, buffer, bytes, kind, (size_t)i, entry->info.name);
      if (!status && is_input && on_host)
        status = device->copy(device, buffer->memory, buffer->host, bytes,
                              TCC_COPY_HOST_TO_DEVICE);
      if (status)
        return tcc_annotate_status(status, "%s: cannot copy " TCC_TENSOR_FORMAT " to the device",
                                   function, kind, (size_t)i, entry->info.name);
      *data = buffer->memory;
    }
  }
  return NULL;
}

/// After a device model's run: waits for its work, reads the status word and copies the CPU
/// outputs back. A kernel that could not be queued, failed, or failed a check is the run's
/// error.
tcc_status tcc_session_finish_device_run(tcc_session *session, const char *function,
                                         int copy_back) {
  const tcc_device *device = session->device;
  const tcc_model_descriptor *d = session->descriptor;
  tcc_status status = device->synchronize(device, session->queue);
  if (!status && session->profile_marks_used)
    status = read_profile_marks(session);
  session->profile_marks_used = 0;
  if (session->launch_status) {
    tcc_status_free(status);
    status = session->launch_status;
    session->launch_status = NULL;
    return tcc_annotate_status(status, "%s", function);
  }
  if (status)
    return tcc_annotate_status(status, "%s: the %s device failed while running the model",
                               function, device->name);
  int32_t check = 0;
  status = device->copy(device, &check, session->device_status, sizeof(check),
                        TCC_COPY_DEVICE_TO_HOST);
  if (status)
    return tcc_annotate_status(status, "%s: cannot read the device status word", function);
  if (check != 0) {
    const char *message = tcc_descriptor_device_check_message(d, check);
    if (!message)
      return tcc_make_status(TCC_STATUS_INTERNAL,
                             "%s: the model's kernels reported check %d, for which the model has "
                             "no message",
                             function, (int)check);
    return tcc_make_status(TCC_STATUS_CHECK_FAILED,
                           "%s: a run-time check of the model failed: %s", function, message);
  }
  for (int32_t o = 0; copy_back && o < session->descriptor->num_outputs; ++o) {
    const staging_buffer *buffer = &session->output_staging[o];
    if (!buffer->host || buffer->bytes == 0)
      continue;
    status = device->copy(device, buffer->host, buffer->memory, buffer->bytes,
                          TCC_COPY_DEVICE_TO_HOST);
    if (status)
      return tcc_annotate_status(status, "%s: cannot copy output %d '%s' back from the device",
                                 function, (int)o, session->model->outputs[o].info.name);
  }
  return NULL;
}

static void drop_graph(tcc_session *session) {
  if (!session->graph)
    return;
  session->device->destroy_graph(session->device, session->graph);
  session->graph = NULL;
}

/// Runs the session without graphs from now on, keeping `reason`'s message (and freeing it)
/// for tcc_session_graph_fallback. Not an error of the run: it runs normally instead.
static void stop_graphs(tcc_session *session, tcc_status reason) {
  snprintf(session->graph_fallback, sizeof(session->graph_fallback), "%s",
           reason ? tcc_status_message(reason) : "graphs failed");
  tcc_status_free(reason);
  drop_graph(session);
}

/// Writes this run's key into run_addresses (the symbol values are the session's) and says
/// whether the graph the session holds was recorded with the same key.
static int graph_key_matches(tcc_session *session) {
  const tcc_model_descriptor *d = session->descriptor;
  void **addresses = session->run_addresses;
  size_t k = 0;
  for (int32_t i = 0; i < d->num_inputs; ++i)
    addresses[k++] = session->input_data[i];
  for (int32_t o = 0; o < d->num_outputs; ++o)
    addresses[k++] = session->output_data[o];
  addresses[k++] = session->workspace;
  addresses[k++] = session->device_constants;
  addresses[k++] = session->device_status;
  return session->graph &&
         memcmp(session->graph_symbols, session->symbol_values,
                (size_t)d->num_symbols * sizeof(int64_t)) == 0 &&
         memcmp(session->graph_addresses, addresses,
                session->num_graph_addresses * sizeof(void *)) == 0;
}

/// A graph launch failed: the run goes on without graphs, from a zero status word (in case
/// some of the graph ran).
static tcc_status graph_launch_failed(tcc_session *session, const char *function,
                                      tcc_status reason) {
  stop_graphs(session, reason);
  const tcc_device *device = session->device;
  return tcc_annotate_status(device->fill(device, session->device_status, 0, sizeof(int32_t)),
                             "%s: cannot reset the device status word", function);
}

/// The first run of a key: records the model's run into a graph, then launches the graph,
/// which queues what the run would have queued; the graph is kept for the later runs of the
/// key. *out_done is 0 when nothing of the run was queued and it must run normally: when
/// recording failed (graphs then stop for the session; a launch that failed while recording
/// counts, as it may have failed only because of the recording), or when the model failed
/// (its run then fails again the same way, its kernels queued as they would have been).
static tcc_status capture_run(tcc_session *session, const char *function, int *out_done) {
  const tcc_device *device = session->device;
  const tcc_model_descriptor *d = session->descriptor;
  *out_done = 0;
  drop_graph(session);
  tcc_status status = device->begin_capture(device, session->queue);
  if (status) {
    stop_graphs(session, status);
    return NULL;
  }
  int32_t code = tcc_session_call_run(session);
  tcc_device_graph *graph = NULL;
  status = device->end_capture(device, session->queue, &graph);
  if (session->launch_status) { // the launch that failed is the reason
    tcc_status_free(status);
    status = session->launch_status;
    session->launch_status = NULL;
    device->destroy_graph(device, graph);
    graph = NULL;
  }
  int failed = code != TCC_RUN_OK || atomic_load(&session->error_reported);
  // Nothing of the recorded run ran: what it reported is reported again by the normal run.
  atomic_store(&session->error_reported, 0);
  if (status) {
    stop_graphs(session, status);
    return NULL;
  }
  if (failed) {
    device->destroy_graph(device, graph);
    return NULL;
  }
  status = device->launch_graph(device, session->queue, graph);
  if (status) {
    device->destroy_graph(device, graph);
    return graph_launch_failed(session, function, status);
  }
  session->graph = graph;
  memcpy(session->graph_symbols, session->symbol_values,
         (size_t)d->num_symbols * sizeof(int64_t));
  memcpy(session->graph_addresses, session->run_addresses,
         session->num_graph_addresses * sizeof(void *));
  session->graph_captures++;
  *out_done = 1;
  return NULL;
}

/// Runs a device model: replays the session's graph when this run's key (the symbol values
/// and the addresses given to run) is the graph's, else records the run into a new graph
/// (capture_run), else (no graphs) calls the model's run. *out_code is the run's code.
///
/// A replay is the same run because a device model's run does nothing on the host but compute
/// kernel arguments and grids from its arguments and queue kernels through device_launch
/// (its host loops touch host memory only, it has no parameters or strings: model_abi.h; a
/// model that reads device memory, and only such a model has data-dependent outputs, is
/// never recorded: prepare_device_model); its arguments are the key, the import
/// table and the module, which stay the session's. So the run queues the same kernels with
/// the same arguments each time, which is what the graph holds. The status word is zeroed
/// before each run outside the graph (stage_tensors), and read after it as for any run.
tcc_status tcc_session_run_device_model(tcc_session *session, const char *function,
                                        int32_t *out_code) {
  const tcc_device *device = session->device;
  *out_code = TCC_RUN_OK;
  if (!session->graph_fallback[0]) {
    tcc_status status;
    if (graph_key_matches(session)) {
      status = device->launch_graph(device, session->queue, session->graph);
      if (!status) {
        session->graph_replays++;
        return NULL;
      }
      status = graph_launch_failed(session, function, status);
      if (status)
        return status;
    } else {
      int done = 0;
      status = capture_run(session, function, &done);
      if (status || done)
        return status;
    }
  }
  *out_code = tcc_session_call_run(session);
  return NULL;
}

