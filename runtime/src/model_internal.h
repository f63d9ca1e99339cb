//===- model_internal.h - the tcc_model object, shared by model.c and session.c ---------===//
#ifndef TCC_RUNTIME_MODEL_INTERNAL_H
#define TCC_RUNTIME_MODEL_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "device.h"
#include "tcc/runtime.h"

/// Limits beyond which a descriptor's counts are treated as corrupt.
#define TCC_MAX_TENSORS 65536
#define TCC_MAX_SYMBOLS 65536
#define TCC_MAX_RANK 256

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

/// An input or output, with the per-dim tables the public tcc_tensor_info points into.
typedef struct tcc_tensor_entry {
  tcc_tensor_info info;
  int32_t *dim_symbols;   // owned; rank entries
  const char **dim_names; // owned; rank entries
  size_t element_size;
} tcc_tensor_entry;

/// A device model's kernels and constants on one device, shared by all its sessions there:
/// loaded and uploaded by the first session that runs on the device, freed with the model.
typedef struct tcc_model_device_state {
  const tcc_device *device;
  tcc_device_module *module;
  void *device_constants; // NULL when the model has none
  struct tcc_model_device_state *next;
} tcc_model_device_state;

/// The code of one target of a model: the only one of a single-target model, one of several
/// of a fat model (model_abi.h's tcc_model_variants).
typedef struct tcc_model_variant {
  const tcc_model_descriptor *descriptor;
  const tcc_device *device; // the backend of its device type
  char *unavailable; // owned: why this host cannot run it (its CPU features), or NULL
} tcc_model_variant;

struct tcc_model {
  _Atomic int32_t references;
  void *library; // dlopen handle; NULL for tcc_model_create_from_descriptor
  char *path;
  // The default variant's descriptor and device (the first variant the host can run): what
  // the metadata queries describe and what a session runs unless it asks for a device.
  const tcc_model_descriptor *descriptor;
  const tcc_device *device; // tcc_model_device
  int32_t num_variants;
  int32_t default_variant;
  tcc_model_variant *variants; // num_variants
  uint32_t flags;
  tcc_tensor_entry *inputs;
  tcc_tensor_entry *outputs;
  tcc_tensor_entry *parameters; // num_parameters entries (tcc --grad/--train models)
  size_t output_shapes_length; // sum of the output ranks
  pthread_mutex_t device_mutex;          // guards device_states
  tcc_model_device_state *device_states; // one per device its sessions ran on
};

/// Describes a tensor for messages: "input 1 'b'".
#define TCC_TENSOR_FORMAT "%s %zu '%s'"

/// The device the model's code runs on: its sessions allocate their workspace and parameters
/// there and its tensors must be in its memory (a device model's may also be CPU tensors,
/// which sessions copy). The descriptor's device_type, looked up with tcc_device_for_type when
/// the model is loaded. Static; thread-safe.
const tcc_device *tcc_model_device(const tcc_model *model);

/// The variant a session of `model` runs: the default one for device type 0, else the first
/// of `device_type` that the host can run. Fails (INCOMPATIBLE) when the model has no code for
/// that device type or the host cannot run it; `function` prefixes the message.
tcc_status tcc_model_choose_variant(const tcc_model *model, int32_t device_type,
                                    const char *function, const tcc_model_variant **out_variant);

/// The DLPack device type of a descriptor's kernels: device_type, or kDLCPU for a descriptor
/// without the device fields or with device_type 0.
int32_t tcc_descriptor_device_type(const tcc_model_descriptor *d);

/// The message of device check `code` (imports->device_status: k + 1 for message k), or NULL
/// for a code the descriptor has no message for (descriptors before the check messages have
/// none).
const char *tcc_descriptor_device_check_message(const tcc_model_descriptor *d, int32_t code);

/// Validates the device fields of a descriptor whose other fields are valid (model_device.c)
/// and sets *out_device to the model's device (the CPU for a CPU model). `where` prefixes the
/// message.
tcc_status tcc_validate_device_fields(const char *where, const tcc_model_descriptor *d,
                                      const tcc_device **out_device);

/// Checks one tensor passed for `entry` of `model` (everything but the dims' values and the
/// symbols): not null, on the device of `variant` (NULL: of any variant; a device model's may
/// also be a CPU tensor), of the right dtype and rank, with non-negative dims, compact
/// row-major strides, data present and aligned. On success *out_bytes is its size in bytes.
/// `function` and `kind` ("input"/"output") go into the message.
tcc_status tcc_check_tensor_layout(const tcc_model *model, const tcc_model_variant *variant,
                                   const char *function,
                                   const char *kind, size_t index, const tcc_tensor_entry *entry,
                                   const DLTensor *tensor, uint64_t *out_bytes);

/// Checks the inputs (count, each tensor, dims) and binds every symbol to its value in
/// `symbol_values` (num_symbols entries), computed symbols by `variant`'s code (NULL: the
/// default variant; tensors then may be on any variant's device).
tcc_status tcc_model_bind_inputs(const tcc_model *model, const tcc_model_variant *variant,
                                 const char *function,
                                 const DLTensor *const *inputs, size_t num_inputs,
                                 int64_t *symbol_values);

/// Checks the elements of the string inputs (they passed tcc_model_bind_inputs): sizes not
/// negative, data present for non-empty strings and not wrapping around, and not bytes of
/// `strings` (a previous run's outputs, which the run about to start would overwrite).
struct tcc_strings;
tcc_status tcc_check_string_inputs(const tcc_model *model, const char *function,
                                   const DLTensor *const *inputs,
                                   const struct tcc_strings *strings);

/// Calls `descriptor`'s output_shapes (a variant of `model`) for `symbol_values` (already in
/// range) into `shapes` (output_shapes_length entries) and checks the result against the
/// declared outputs.
tcc_status tcc_model_compute_output_shapes(const tcc_model *model,
                                           const tcc_model_descriptor *descriptor,
                                           const char *function,
                                           const int64_t *symbol_values, int64_t *shapes);

/// For a device whose kernels index in 32 bits (device.h's index_bits, named `device`):
/// every symbol value, every tensor's element count (the inputs as passed, the outputs by
/// `output_shapes`) and the workspace's bytes below 2^31, else OUT_OF_RANGE, or the indices
/// would wrap around (reading and writing outside the buffers). `d` is the run's variant.
tcc_status tcc_check_index_range(const tcc_model *model, const tcc_model_descriptor *d,
                                 const char *device, const char *function,
                                 const int64_t *symbol_values, const DLTensor *const *inputs,
                                 const int64_t *output_shapes, int64_t workspace_bytes);

/// The descriptor's batch_symbol, or -1 when the descriptor predates the field.
/// The kernels and constants of `model`'s variant `descriptor` on `device`, loaded and
/// uploaded the first time a session asks (under the model's lock, so once however many
/// sessions are created at once); the model owns them. `function` names the caller in
/// messages.
tcc_status tcc_model_device_state_acquire(tcc_model *model,
                                          const tcc_model_descriptor *descriptor,
                                          const tcc_device *device,
                                          const char *function,
                                          const tcc_model_device_state **out_state);

/// Frees every device state of the model (its destruction: no session is left).
void tcc_model_device_states_free(tcc_model *model);

int32_t tcc_descriptor_batch_symbol(const tcc_model_descriptor *d);

/// Whether symbol `s` is computed from input elements (compute_symbols) rather than bound
/// from an input dim (0 for descriptors that predate computed symbols).
int tcc_descriptor_symbol_computed(const tcc_model_descriptor *d, int32_t s);

/// For a model loaded with TCC_MODEL_FLAG_SKIP_CPU_CHECK, checks the CPU features of its
/// variant `descriptor` now.
tcc_status tcc_model_check_cpu_again(const tcc_model *model,
                                     const tcc_model_descriptor *descriptor, const char *where);

/// The data address of a tensor (data + byte_offset).
static inline void *tcc_tensor_address(const DLTensor *tensor) {
  return (char *)tensor->data + tensor->byte_offset;
}

/// The byte size of a tensor that passed tcc_check_tensor_layout (which rules out overflow).
static inline uint64_t tcc_tensor_bytes(const tcc_tensor_entry *entry, const DLTensor *tensor) {
  uint64_t bytes = entry->element_size;
  for (int d = 0; d < tensor->ndim; ++d)
    bytes *= (uint64_t)tensor->shape[d];
  return bytes;
}

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_MODEL_INTERNAL_H
