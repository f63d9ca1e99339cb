//===- session_state.h - the session object, shared by session.c and session_device.c ---===//
#ifndef TCC_RUNTIME_SESSION_STATE_H
#define TCC_RUNTIME_SESSION_STATE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "model_internal.h"
#include "optionals_internal.h"
#include "profile_internal.h"
#include "strings_internal.h"
#include "tcc/runtime.h"

/// The workspace's alignment, as model_abi.h promises.
#define WORKSPACE_ALIGNMENT 64
/// The longest model error message kept (longer ones are truncated).
#define MAX_ERROR_MESSAGE 512

/// A device buffer that stands in for a CPU tensor in a device model's run.
typedef struct staging_buffer {
  void *memory;    // device memory (NULL until a run needs it), `capacity` bytes
  size_t capacity;
  void *host;      // this run's CPU tensor data; NULL when the tensor is on the device
  size_t bytes;    // this run's bytes of it
} staging_buffer;

struct tcc_session {
  tcc_model *model; // one reference
  // The variant of the model the session runs (tcc_session_options.device_type), its
  // descriptor, and the device: the variant's (or the one tcc_session_create_on was given).
  const tcc_model_variant *variant;
  const tcc_model_descriptor *descriptor;
  const tcc_device *device;
  int32_t num_threads;
  tcc_device_queue *queue; // runs the parallel loops (the CPU's: a thread pool)
  _Atomic int running;

  // Per-run tables, sized for the model when the session is created.
  int64_t *symbol_values;
  int64_t *output_shapes; // the outputs' extents, output after output
  // The extents after the run (data-dependent dims as reported); valid when has_run.
  int64_t *actual_shapes;
  int has_run;
  void **input_data;
  void **output_data;
  // Byte ranges of the tensors of this run, for the overlap check; empty ones are [0, 0).
  uintptr_t *input_begin, *input_end, *output_begin, *output_end;
  void *workspace; // device memory
  size_t workspace_capacity;
  void *parameters; // device memory, parameters_size bytes, 64-byte aligned (or NULL: none)
  tcc_strings *strings; // the bytes of the strings runs make; reset by each run
  tcc_optional_scratch optionals; // the stand-ins of absent optional inputs

  // Image by image (the model's batch_symbol, unless TCC_SESSION_FLAG_WHOLE_BATCH): up to
  // num_threads lanes, each running images alone with its own symbol values, tensor
  // addresses and workspace slot.
  int32_t batch_symbol; // -1: whole batches
  int64_t *lane_symbol_values; // num_threads x num_symbols
  void **lane_input_data;      // num_threads x num_inputs
  void **lane_output_data;     // num_threads x num_outputs
  int64_t *input_image_bytes, *output_image_bytes; // per tensor, this run
  int32_t *lane_codes;         // num_threads

  // A device model's (device_model): its kernels and the device's copy of its constants (the
  // model's, shared by its sessions on the device), the status word of its checks
  // (imports.device_status), and the device buffers of its CPU tensors (num_inputs and
  // num_outputs of them).
  int device_model;
  tcc_device_module *module;
  void *device_constants;
  void *device_status;
  staging_buffer *input_staging, *output_staging;
  uint64_t staging_allocations;

  // A device model's graph (device.h: begin_capture): a run recorded, replayed by the runs
  // whose key is the same: the symbol values, and the addresses run() is given (inputs,
  // outputs, then the workspace, the device constants and the status word).
  tcc_device_graph *graph;  // NULL: none
  int64_t *graph_symbols;   // num_symbols: the key of `graph`...
  void **graph_addresses;   // ...num_graph_addresses of them
  void **run_addresses;     // this run's addresses
  size_t num_graph_addresses;
  char graph_fallback[MAX_ERROR_MESSAGE]; // why the session uses no graphs; "" while it does
  uint64_t graph_captures, graph_replays;

  tcc_import_table imports;
  // Set by report_error (from any thread of the pool); read after the run returns.
  _Atomic int error_reported;
  char error_message[MAX_ERROR_MESSAGE];
  tcc_status launch_status; // owned: the failed device_launch that is the run's error

  tcc_session_stats stats;

  // A profiling session's (TCC_SESSION_FLAG_PROFILE) counts, one per kernel of the model's
  // list (profile.c); NULL when the session does not profile.
  tcc_kernel_counter *profile;
  int32_t num_kernels;
  // On a device with marks (device.h), a profiling session's launches are timed by marks
  // placed before and after each, read once the run's work has finished: 2 marks per launch
  // slot (created as runs need more, reused), the kernel of each slot this run used.
  tcc_device_mark **profile_marks;
  int32_t *profile_mark_kernels;
  size_t profile_mark_slots, profile_marks_used;
};

/// Records `message` as the run's error; returns 0 when an error was recorded already
/// (session_imports.c).
int tcc_session_record_error(tcc_session *session, const char *message);
/// The import table's report_error: tcc_session_record_error on the session `context`
/// (session_imports.c).
void tcc_session_import_report_error(void *context, const char *message);
/// Fills the session's import table (model_abi.h) with the runtime's functions
/// (session_imports.c).
void tcc_session_fill_imports(tcc_session *session);
/// Offset of output `output` in the output-after-output shape tables (session_imports.c).
size_t tcc_session_output_offset(const tcc_model *model, int32_t output);
/// calloc of at least one element (session.c).
void *tcc_session_allocate_array(size_t count, size_t element_size);
/// Calls the model's run on this run's tables, a whole batch at once (session.c).
int32_t tcc_session_call_run(tcc_session *session);

// A device model's part of a session (session_device.c).

/// Loads a device model's kernels and uploads its constants (tcc_model_load has validated its
/// device fields), and gives the model device_launch, device_constants and device_status.
tcc_status tcc_session_prepare_device_model(tcc_session *session, const char *function);
/// Frees what tcc_session_prepare_device_model and the runs made (the queue is gone).
void tcc_session_release_device_model(tcc_session *session);
/// Points a device model's run at device memory: CPU tensors at their device buffers (inputs
/// copied there), tensors without elements at a block of their own; zeroes the status word.
tcc_status tcc_session_stage_tensors(tcc_session *session, const char *function,
                                     const DLTensor *const *inputs,
                                     const DLTensor *const *outputs);
/// Runs a device model: replays its graph, records one, or calls the model's run.
tcc_status tcc_session_run_device_model(tcc_session *session, const char *function,
                                        int32_t *out_code);
/// After a device model's run: waits for its work, reads the status word and copies the CPU
/// outputs back (`copy_back`).
tcc_status tcc_session_finish_device_run(tcc_session *session, const char *function,
                                         int copy_back);

#endif // TCC_RUNTIME_SESSION_STATE_H
