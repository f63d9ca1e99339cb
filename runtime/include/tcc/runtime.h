//===- runtime.h - the tcc runtime: load a compiled model.so and run it -------------------===//
//
// The public C API of the runtime (C11; usable from C++). It loads a model compiled by tcc
// (a shared library exporting the descriptor of tcc/model_abi.h), checks it against this host,
// answers metadata queries and runs it on DLPack tensors:
//
//   tcc_model *model = NULL;
//   tcc_status status = tcc_model_load("model.so", NULL, &model);
//   tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
//   tcc_session *session = NULL;
//   if (!status) status = tcc_session_create(model, &options, &session);
//   if (!status) status = tcc_session_run(session, inputs, 2, outputs, 1);
//   if (status) { fprintf(stderr, "%s\n", tcc_status_message(status)); tcc_status_free(status); }
//   tcc_session_release(session);
//   tcc_model_release(model);
//
// Conventions (those of IREE's runtime):
// - Handles are opaque. Objects are created through out-parameters (`out_*`), which are set
//   only on success and are left untouched on failure.
// - Every function that can fail returns a tcc_status: NULL means success; otherwise the caller
//   owns the status and must free it with tcc_status_free. A status carries a code and a
//   message that says what went wrong and where (the function, the input's index and name,
//   the dim, expected vs actual).
// - Options structs start with a `size` field; initialize them with their *_INIT macro (or
//   *_init function) and then change the fields you need. NULL options mean the defaults.
// - Each function states who owns what and which threads may call it. In short: a tcc_model is
//   immutable and may be shared by any number of threads; a tcc_session is used by one thread
//   at a time (give each thread its own session of the shared model).
// - Tensors are DLPack 0.6 `DLTensor`s, dense and row-major, in CPU memory (a device model's
//   may also be in its GPU's memory: see tcc_session_run). DLPack 0.6 has no boolean type: a
//   TCC_DTYPE_BOOL tensor is {kDLUInt, 8 bits, 1 lane}, one byte per element
//   holding 0 or 1; the boolean code of later DLPack versions ({6, 8, 1}, kDLBool) is
//   accepted as well. DLPack has no string type: a TCC_DTYPE_STRING tensor is
//   {kDLOpaqueHandle (3), 128 bits, 1 lane}, an array of tcc_string {data, size} (16 bytes,
//   16-byte aligned; see model_abi.h). The bytes of input strings stay the caller's; those
//   of output strings belong to the session (or are an input's or the model's) and stay
//   valid until the session's next run or release, so copy them before passing them to the
//   next run of the same session (a run refuses inputs that point into its own strings).
// - Untrusted data (model files, tensors passed to run) never makes the runtime crash or read
//   out of bounds: every inconsistency is reported as a status.
//
//===--------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_H
#define TCC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include <dlpack/dlpack.h>

#include "tcc/model_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TCC_RUNTIME_BUILDING)
#define TCC_API __attribute__((visibility("default")))
#else
#define TCC_API
#endif

/// The version of the runtime's C API. It changes when a declaration of this header changes in
/// a way that breaks existing callers.
#define TCC_RUNTIME_API_VERSION 1

/// The version of the runtime library, e.g. "0.1.0". Static string; thread-safe.
TCC_API const char *tcc_runtime_version(void);

//===--------------------------------------------------------------------------------------===//
// tcc_status
//===--------------------------------------------------------------------------------------===//

/// What kind of failure a status reports.
typedef enum tcc_status_code {
  TCC_STATUS_OK = 0,
  /// The caller passed something wrong: a null pointer, bad options, a tensor of the wrong
  /// count, dtype, rank, shape, layout or device.
  TCC_STATUS_INVALID_ARGUMENT = 1,
  /// An index or a dim is outside its range (e.g. a symbolic dim outside [min, max]).
  TCC_STATUS_OUT_OF_RANGE = 2,
  /// The model file cannot be opened, or it does not export a tcc descriptor.
  TCC_STATUS_NOT_FOUND = 3,
  /// The model's descriptor is malformed: inconsistent metadata or missing entry points.
  TCC_STATUS_INVALID_MODEL = 4,
  /// The model is valid but cannot run here: another ABI version, CPU features that this
  /// host lacks or that this runtime does not know, or (a device model) no GPU driver, no GPU,
  /// or no kernel image for this GPU.
  TCC_STATUS_INCOMPATIBLE = 5,
  /// A feature this runtime does not support yet (e.g. tensors or models of a device type it
  /// has no backend for).
  TCC_STATUS_UNIMPLEMENTED = 6,
  /// Memory or threads could not be allocated.
  TCC_STATUS_RESOURCE_EXHAUSTED = 7,
  /// A run-time check inside the model failed (a shape assumption, an index out of range);
  /// the message contains the model's own message.
  TCC_STATUS_CHECK_FAILED = 8,
  /// The model broke its own contract (e.g. returned an unknown code or a negative size), or
  /// the session was used by two threads at once.
  TCC_STATUS_INTERNAL = 9,
} tcc_status_code;

/// The result of a call: NULL on success, otherwise an object owned by the caller.
typedef struct tcc_status_object *tcc_status;

/// The code of `status`; TCC_STATUS_OK for NULL. Thread-safe; does not take ownership.
TCC_API tcc_status_code tcc_status_code_of(tcc_status status);

/// The message of `status` ("" for NULL), valid until the status is freed. Messages are one
/// line, lowercase, and start with the function that failed, e.g.
///   "tcc_session_run: input 1 'b': dim 0 is 3, expected 4".
/// Thread-safe; does not take ownership.
TCC_API const char *tcc_status_message(tcc_status status);

/// The name of a code, e.g. "INVALID_ARGUMENT"; "UNKNOWN" for values outside the enum.
/// Static string; thread-safe.
TCC_API const char *tcc_status_code_name(tcc_status_code code);

/// Frees `status` (NULL is fine). Takes ownership; call it once per status.
TCC_API void tcc_status_free(tcc_status status);

//===--------------------------------------------------------------------------------------===//
// Element types (tcc_dtype, from model_abi.h) and DLPack
//===--------------------------------------------------------------------------------------===//

/// The lowercase name of a dtype ("float32", "bool", ...), or "unknown". Static; thread-safe.
TCC_API const char *tcc_dtype_name(int32_t dtype);

/// Bytes per element of a dtype, or 0 for an unknown dtype. Thread-safe.
TCC_API size_t tcc_dtype_size(int32_t dtype);

/// The DLPack type of a dtype (TCC_DTYPE_BOOL -> {kDLUInt, 8, 1}, TCC_DTYPE_STRING ->
/// {kDLOpaqueHandle, 128, 1}). Fails with INVALID_ARGUMENT for an unknown dtype. Thread-safe.
TCC_API tcc_status tcc_dtype_to_dlpack(int32_t dtype, DLDataType *out_type);

/// The dtype of a DLPack type. {kDLUInt, 8, 1} is TCC_DTYPE_UINT8 (DLPack 0.6 cannot tell a
/// bool from a uint8; tensors passed to a TCC_DTYPE_BOOL input are accepted either way);
/// {6 (kDLBool of DLPack >= 0.8), 8, 1} is TCC_DTYPE_BOOL; {kDLOpaqueHandle, 128, 1} is
/// TCC_DTYPE_STRING. Fails with INVALID_ARGUMENT for
/// types tcc has no dtype for (vectors, complex, odd widths). Thread-safe.
TCC_API tcc_status tcc_dtype_from_dlpack(DLDataType type, int32_t *out_dtype);

//===--------------------------------------------------------------------------------------===//
// CPU features
//===--------------------------------------------------------------------------------------===//

/// Sets *out_present to 1 if this host supports the CPU feature `name` (LLVM's spelling, e.g.
/// "avx2", "avx512bf16", "sse4.2" on x86-64; "neon", "fullfp16", "dotprod", "bf16", "sve" on
/// AArch64, where "sve256" and "sve512" also say that SVE's vector length is exactly that many
/// bits, as fixed-length SVE code needs), 0 otherwise. Fails with INCOMPATIBLE if the runtime does not know the name.
/// Detection runs once per process. Thread-safe.
TCC_API tcc_status tcc_cpu_has_feature(const char *name, int *out_present);

/// Checks a feature list in LLVM's form ("+avx2,+fma,-avx512f"; entries without a sign count
/// as required; "-" entries are ignored) against this host. Fails with INCOMPATIBLE naming
/// every unknown feature, or else every missing one. NULL or "" is fine. Thread-safe.
TCC_API tcc_status tcc_cpu_check_features(const char *features);

//===--------------------------------------------------------------------------------------===//
// tcc_model: a loaded model.so (immutable; shareable across threads)
//===--------------------------------------------------------------------------------------===//

typedef struct tcc_model tcc_model;

/// Bits of tcc_model_options.flags.
enum {
  /// Load even if this host lacks the model's CPU features (the feature list must still name
  /// known features), e.g. to inspect a model compiled for another machine. Sessions of such
  /// a model check the features again and refuse to run where they are missing.
  TCC_MODEL_FLAG_SKIP_CPU_CHECK = 1u << 0,
};

/// How to load a model.
typedef struct tcc_model_options {
  /// sizeof(tcc_model_options), for versioning; set by TCC_MODEL_OPTIONS_INIT.
  size_t size;
  /// TCC_MODEL_FLAG_* bits; unknown bits are an error.
  uint32_t flags;
} tcc_model_options;

#define TCC_MODEL_OPTIONS_INIT {sizeof(tcc_model_options), 0u}

/// Sets `options` to the defaults (same as TCC_MODEL_OPTIONS_INIT), for callers that cannot
/// use the macro. Thread-safe.
TCC_API void tcc_model_options_init(tcc_model_options *options);

/// Loads the model at `path` (dlopen with RTLD_NOW | RTLD_LOCAL; a path without '/' is taken
/// relative to the working directory, not searched for), finds TCC_MODEL_SYMBOL (or, for a
/// model compiled for several targets, TCC_MODEL_VARIANTS_SYMBOL), validates its descriptors
/// (ABI version and size, metadata consistency, entry points; a fat model's variants must
/// describe the same model) and checks their CPU features against the host: a single-target
/// model the host cannot run is refused; a fat model is refused only when the host can run
/// none of its variants. `options` may be NULL.
/// On success *out_model holds one reference, owned by the caller (tcc_model_release).
/// Thread-safe.
TCC_API tcc_status tcc_model_load(const char *path, const tcc_model_options *options,
                                  tcc_model **out_model);

/// Wraps a descriptor that is already in memory (a model linked statically into the program),
/// with the same validation as tcc_model_load. The descriptor must outlive the model; it is
/// not copied. On success *out_model holds one reference owned by the caller. Thread-safe.
TCC_API tcc_status tcc_model_create_from_descriptor(const tcc_model_descriptor *descriptor,
                                                    const tcc_model_options *options,
                                                    tcc_model **out_model);

/// Wraps a fat model's table of variants that is already in memory, as
/// tcc_model_create_from_descriptor does a descriptor.
TCC_API tcc_status tcc_model_create_from_variants(const tcc_model_variants *variants,
                                                  const tcc_model_options *options,
                                                  tcc_model **out_model);

/// Adds a reference to `model` (NULL is ignored). Thread-safe.
TCC_API void tcc_model_retain(tcc_model *model);

/// Drops a reference to `model` (NULL is ignored); the last one unloads the library. Sessions
/// hold their own reference, so a model may be released while its sessions live on.
/// Thread-safe.
TCC_API void tcc_model_release(tcc_model *model);

/// The path the model was loaded from ("" for tcc_model_create_from_descriptor). The strings
/// returned by this and the following queries live as long as the model. Those that describe
/// the code (target, CPU, device, images) describe a fat model's default variant (see
/// tcc_model_num_variants). Thread-safe.
TCC_API const char *tcc_model_path(const tcc_model *model);
/// The version of tcc that compiled the model. Thread-safe.
TCC_API const char *tcc_model_tcc_version(const tcc_model *model);
/// The target triple of the model's code, e.g. "x86_64-unknown-linux-gnu". Thread-safe.
TCC_API const char *tcc_model_target_triple(const tcc_model *model);
/// The CPU the code was tuned for, e.g. "x86-64-v3". Thread-safe.
TCC_API const char *tcc_model_cpu(const tcc_model *model);
/// The CPU features the code requires, e.g. "+avx2,+fma". Thread-safe.
TCC_API const char *tcc_model_cpu_features(const tcc_model *model);
/// The number of inputs of the model. Thread-safe.
TCC_API int32_t tcc_model_num_inputs(const tcc_model *model);
/// The number of outputs of the model. Thread-safe.
TCC_API int32_t tcc_model_num_outputs(const tcc_model *model);
/// The number of symbolic dims of the model. Thread-safe.
TCC_API int32_t tcc_model_num_symbols(const tcc_model *model);
/// The symbol that is the batch (dim 0 of every input and output) of a model that computes
/// each image alone, so that sessions may run it image by image; -1 when there is none.
TCC_API int32_t tcc_model_batch_symbol(const tcc_model *model);
/// 1 when symbol `index` is computed from the inputs' elements (the length of a Range whose
/// bounds are inputs) rather than bound by an input dim; 0 otherwise or for a bad index.
/// tcc_model_bind_symbols computes such symbols too. Thread-safe.
TCC_API int32_t tcc_model_symbol_computed(const tcc_model *model, int32_t index);

/// The DLPack device type (DLDeviceType) the model's kernels run on: kDLCPU (1) for a model
/// compiled for the CPU, kDLCUDA (2) for a device model whose kernels run on an NVIDIA GPU;
/// kDLCPU for NULL. Loading a device model needs no GPU; creating a session of it loads the
/// driver (libcuda.so.1) and uses GPU $TCC_CUDA_DEVICE (an ordinal, default 0, read once per
/// process). Its sessions replay runs as CUDA graphs (see tcc_session_run) unless
/// $TCC_CUDA_GRAPHS is 0 (1 or unset: they do; read when a session is created). Thread-safe.
TCC_API int32_t tcc_model_device_type(const tcc_model *model);

/// The number of kernel images of a device model (one per GPU architecture and format); 0 for
/// a CPU model. Thread-safe.
TCC_API int32_t tcc_model_num_device_images(const tcc_model *model);

/// Copies the description of kernel image `index` (0 <= index < tcc_model_num_device_images)
/// to *out_image: its architecture ("sm_90"), format (tcc_image_format) and size; its pointers
/// live as long as the model. Fails with OUT_OF_RANGE for other indices. Thread-safe.
TCC_API tcc_status tcc_model_device_image(const tcc_model *model, int32_t index,
                                          tcc_device_image *out_image);

/// The number of variants of the model: 1, or for a fat model (tcc --target
/// cpu,nvidia:sm_90,...) one per target, each the model's code for one device type (several
/// CPU variants: for different CPU levels). 0 for NULL. Thread-safe.
TCC_API int32_t tcc_model_num_variants(const tcc_model *model);

/// The variant that sessions run unless they ask for a device (tcc_session_options
/// .device_type): the first the host can run (the first of all when the model was loaded with
/// TCC_MODEL_FLAG_SKIP_CPU_CHECK and the host can run none). Thread-safe.
TCC_API int32_t tcc_model_default_variant(const tcc_model *model);

/// What one variant of a model is compiled for. Pointers live as long as the model.
typedef struct tcc_variant_info {
  int32_t device_type; ///< DLDeviceType of its kernels (kDLCPU for CPU code)
  int32_t num_device_images;
  const tcc_device_image *device_images; ///< num_device_images (see tcc_model_device_image)
  const char *target_triple;
  const char *cpu;
  const char *cpu_features;
  /// NULL when this host can run the variant; else why not (e.g. "the model requires CPU
  /// features this host lacks: +avx512f ...").
  const char *unavailable;
} tcc_variant_info;

/// Describes variant `index` (0 <= index < tcc_model_num_variants) into *out_info; fails with
/// OUT_OF_RANGE for other indices. Thread-safe.
TCC_API tcc_status tcc_model_variant_info(const tcc_model *model, int32_t index,
                                          tcc_variant_info *out_info);

/// The tcc options variant `variant` was compiled with, as a command line without paths
/// ("--target cpu --cpu x86-64-v4 --precision fp32 --attention auto"); "" when the model does
/// not record them, NULL for a null model or an index out of range. Thread-safe.
TCC_API const char *tcc_model_compile_options(const tcc_model *model, int32_t variant);

/// The kernels of variant `variant` that a profile times (TCC_SESSION_FLAG_PROFILE): 0 for a
/// model compiled before profiles, a null model or an index out of range. Thread-safe.
TCC_API int32_t tcc_model_num_kernels(const tcc_model *model, int32_t variant);

/// Kernel `kernel` of variant `variant`: its name and the ONNX nodes it computes (in graph
/// order, separated by ", "; "" when not known), both owned by the model. OUT_OF_RANGE for
/// an index out of range. Thread-safe.
TCC_API tcc_status tcc_model_kernel_info(const tcc_model *model, int32_t variant, int32_t kernel,
                                         const char **out_name, const char **out_nodes);

/// One input or output of a model. All pointers are owned by the model and live as long as it.
typedef struct tcc_tensor_info {
  const char *name;
  int32_t dtype; ///< a tcc_dtype
  int32_t rank;
  const int64_t *shape;         ///< rank extents; -1 for a symbolic dim
  /// rank symbol indices; -1 for a static dim (or one derived from the symbols),
  /// TCC_DIM_DATA_DEPENDENT for an output dim known only after a run (tcc_session_output_shape)
  const int32_t *dim_symbols;
  const char *const *dim_names; ///< rank entries: the symbol's name, or NULL for a static dim
} tcc_tensor_info;

/// A symbolic dim of a model and the values it accepts. `name` lives as long as the model.
typedef struct tcc_symbol_info {
  const char *name;
  int64_t min;
  int64_t max; ///< -1: unbounded
} tcc_symbol_info;

/// Describes input `index` (0 <= index < tcc_model_num_inputs) in *out_info. Fails with
/// OUT_OF_RANGE for other indices. Thread-safe.
TCC_API tcc_status tcc_model_input_info(const tcc_model *model, int32_t index,
                                        tcc_tensor_info *out_info);

/// Describes output `index` in *out_info; as tcc_model_input_info. Thread-safe.
TCC_API tcc_status tcc_model_output_info(const tcc_model *model, int32_t index,
                                         tcc_tensor_info *out_info);

/// Describes symbol `index` (0 <= index < tcc_model_num_symbols) in *out_info. Thread-safe.
TCC_API tcc_status tcc_model_symbol_info(const tcc_model *model, int32_t index,
                                         tcc_symbol_info *out_info);

/// Checks `inputs` (num_inputs pointers, in the model's input order) exactly as
/// tcc_session_run does and writes the value of every symbol (tcc_model_num_symbols of them,
/// `symbol_values_length` must be at least that) to `symbol_values`. A symbol takes its value
/// from the first input dim that uses it; every other use must agree, and the value must be
/// within the symbol's range. Does not read the tensors' data. Thread-safe.
TCC_API tcc_status tcc_model_bind_symbols(const tcc_model *model, const DLTensor *const *inputs,
                                          size_t num_inputs, int64_t *symbol_values,
                                          size_t symbol_values_length);

/// Computes the shape of every output for the given symbol values (e.g. from
/// tcc_model_bind_symbols), so that callers can allocate outputs: output k's extents
/// (its rank of them) are written to output_shapes[k]. `num_outputs` must equal
/// tcc_model_num_outputs. Thread-safe.
TCC_API tcc_status tcc_model_output_shapes(const tcc_model *model, const int64_t *symbol_values,
                                           size_t num_symbol_values,
                                           int64_t *const *output_shapes, size_t num_outputs);

/// A sequence input or output (ONNX seq(tensor) whose length is known at run time): two of
/// the model's inputs (or outputs), NAME.shapes at shapes_index, an int64 [count,
/// element_rank] tensor with one row of extents per element, and NAME.data at data_index, a
/// 1-d tensor of `dtype` holding the elements flattened row-major and concatenated in order.
/// tcc_sequence_pack fills an input's pair from a list of tensors; tcc_sequence_element
/// views element k of an output's pair. `name` lives as long as the model.
typedef struct tcc_sequence_info {
  const char *name;
  int32_t is_output;
  int32_t shapes_index;
  int32_t data_index;
  int32_t dtype; ///< a tcc_dtype
  int32_t element_rank;
} tcc_sequence_info;

/// The number of sequence inputs and outputs (0 for a null model). Thread-safe.
TCC_API int32_t tcc_model_num_sequences(const tcc_model *model);

/// Describes sequence `index` (0 <= index < tcc_model_num_sequences) in *out_info; other
/// indices fail with OUT_OF_RANGE. Thread-safe.
TCC_API tcc_status tcc_model_sequence_info(const tcc_model *model, int32_t index,
                                           tcc_sequence_info *out_info);

/// Packs `count` tensors (compact CPU tensors of one DLPack type and the sequence's element
/// rank) into a sequence's two tensors, which the caller allocated on the CPU: `shapes`,
/// int64 [count, rank], gets their extents, and `data`, 1-d of their type with as many
/// elements as they hold together, their elements in order. Any mismatch is an error and
/// writes nothing. Thread-safe (for distinct destinations).
TCC_API tcc_status tcc_sequence_pack(const DLTensor *const *elements, size_t count,
                                     const DLTensor *shapes, const DLTensor *data);

/// Element `index` of a sequence given as its two tensors (CPU; e.g. outputs of a run): a
/// view into `data` (no copy) written to *out_element, whose shape points to
/// `shape_storage` (element-rank entries that the caller provides and keeps alive). The rows
/// are checked (extents >= 0, adding up to data's extent); OUT_OF_RANGE for an index outside
/// [0, count). Thread-safe.
TCC_API tcc_status tcc_sequence_element(const DLTensor *shapes, const DLTensor *data,
                                        int64_t index, int64_t *shape_storage,
                                        DLTensor *out_element);

/// An optional input or output (ONNX optional(tensor) or optional(seq(tensor))) whose
/// presence is known at run time: its flag NAME.present (a bool scalar) at present_index
/// and its value, the `count` consecutive tensors from first_index (1: the tensor NAME; 2: a
/// sequence's NAME.shapes and NAME.data, see tcc_sequence_info), among the model's inputs
/// (or outputs). An empty optional input is its flag set to false (a CPU tensor: the runtime
/// reads it); its value's tensors may then be NULL, and whatever is passed there is ignored:
/// the model sees zeros of the declared shape (a symbolic dim takes the extent another input
/// gives it, else its minimum). When an output's flag is false, its value's tensors hold
/// whatever the model computed in their place (their extents as tcc_model_output_shapes
/// says). `name` lives as long as the model.
typedef struct tcc_optional_info {
  const char *name;
  int32_t is_output;
  int32_t present_index;
  int32_t first_index;
  int32_t count;
} tcc_optional_info;

/// The number of optional inputs and outputs (0 for a null model). Thread-safe.
TCC_API int32_t tcc_model_num_optionals(const tcc_model *model);

/// Describes optional `index` (0 <= index < tcc_model_num_optionals) in *out_info; other
/// indices fail with OUT_OF_RANGE. Thread-safe.
TCC_API tcc_status tcc_model_optional_info(const tcc_model *model, int32_t index,
                                           tcc_optional_info *out_info);

//===--------------------------------------------------------------------------------------===//
// tcc_session: the state to run a model (one thread at a time)
//===--------------------------------------------------------------------------------------===//

typedef struct tcc_session tcc_session;

/// How to create a session.
typedef struct tcc_session_options {
  /// sizeof(tcc_session_options), for versioning; set by TCC_SESSION_OPTIONS_INIT.
  size_t size;
  /// Threads that run the model's parallel loops, counting the caller of tcc_session_run:
  /// 0 = one per core available to the process, 1 = everything runs on the caller's thread,
  /// T > 1 = T - 1 worker threads created with the session (at most 1024). A device model's
  /// host code runs on the caller's thread alone: its sessions have 1 thread.
  int32_t num_threads;
  /// TCC_SESSION_FLAG_* bits; unknown bits are an error. (Appended after the first release:
  /// an options struct whose size ends before it means no flags.)
  uint32_t flags;
  /// The DLPack device type (DLDeviceType) to run on: the model's variant for it (a fat
  /// model's, see tcc_model_num_variants); a device the model has no code for, or a variant
  /// this host cannot run, fails with INCOMPATIBLE. 0 (the default): the model's default
  /// variant, and for a fat model the variants after it in turn while a variant's device is
  /// not here (session creation fails with INCOMPATIBLE or UNIMPLEMENTED: no driver, no GPU,
  /// no backend), so that `tcc --target nvidia:sm_90,cpu` runs on the GPU where there is one
  /// and on the CPU elsewhere (tcc_session_variant says which). (Appended after flags; a
  /// smaller struct means 0.)
  int32_t device_type;
} tcc_session_options;

/// Bits of tcc_session_options.flags.
enum {
  /// Always run the whole batch at once. By default, a model whose compiler proved that it
  /// computes each image alone (tcc_model_batch_symbol) runs one image at a time, and with
  /// several threads, several images at once, each on its own thread and workspace slot
  /// (its intermediates stay in cache and its threads never wait on each other). Results
  /// are the same either way. Device models always run the whole batch.
  TCC_SESSION_FLAG_WHOLE_BATCH = 1u << 0,
  /// Time every kernel launch of the session's runs (tcc_session_kernel_profile). On the CPU
  /// a kernel's time is the wall time of its parallel loop, summed over its launches (with
  /// images run at once on several threads, the sum over those threads). On a device, each
  /// launch is waited for (the queue drained before it starts, and it finished after it), so
  /// its time includes the launch's latency, and runs are never recorded as graphs: profile
  /// to see where the time goes, time without the flag.
  TCC_SESSION_FLAG_PROFILE = 1u << 1,
};

#define TCC_SESSION_OPTIONS_INIT {sizeof(tcc_session_options), 0, 0, 0}

/// Sets `options` to the defaults (same as TCC_SESSION_OPTIONS_INIT). Thread-safe.
TCC_API void tcc_session_options_init(tcc_session_options *options);

/// Creates a session of `model` with its thread pool and an empty workspace. The session
/// retains the model (the caller keeps its own reference). `options` may be NULL.
/// On success *out_session is owned by the caller (tcc_session_release). Thread-safe with
/// respect to the model: any number of sessions of one model may exist and run at once.
TCC_API tcc_status tcc_session_create(tcc_model *model, const tcc_session_options *options,
                                      tcc_session **out_session);

/// Stops the session's threads, frees its workspace and drops its model reference (NULL is
/// ignored). Must not be called while the session is running.
TCC_API void tcc_session_release(tcc_session *session);

/// The model of the session (borrowed: the session keeps it alive). Thread-safe.
TCC_API tcc_model *tcc_session_model(const tcc_session *session);

/// The variant of the model the session runs (tcc_model_variant_info); 0 for a single-target
/// model or NULL. Thread-safe.
TCC_API int32_t tcc_session_variant(const tcc_session *session);

/// The number of threads that run the session's parallel loops (the resolved
/// tcc_session_options.num_threads). Thread-safe.
TCC_API int32_t tcc_session_num_threads(const tcc_session *session);

/// Runs the model. `inputs` and `outputs` are arrays of num_inputs / num_outputs pointers to
/// DLTensors in the model's order; the counts must match the model. Every tensor must be on
/// kDLCPU or, for a device model, on its device (kDLCUDA with device_id $TCC_CUDA_DEVICE):
/// those are passed to the kernels as they are, while CPU tensors are copied to device buffers
/// that the session keeps (and grows when a run needs more) and outputs copied back once the
/// GPU has finished; the run returns when all is done. Every tensor must be of the model's
/// dtype (lanes 1), rank and shape (static dims equal; symbolic dims
/// consistent and in range, see tcc_model_bind_symbols; output shapes as
/// tcc_model_output_shapes says), compact row-major (strides NULL or equal to the row-major
/// strides), aligned to its element size, with non-NULL data unless it has no elements.
/// Outputs must not overlap inputs or each other. Every element of a string input must have
/// a size >= 0 and, unless empty, non-NULL data. Any violation is an error that names the
/// tensor, the dim or element, and expected vs actual; nothing is run then. String outputs
/// point to bytes valid until the session's next run or release (see the conventions above).
/// The caller keeps ownership of all tensors; the outputs' data is written. The workspace is
/// kept between runs and grows only when a run needs more. A device model's session records
/// the kernels of its first run with given shapes and device addresses (the GPU tensors', or
/// the session's buffers for CPU tensors) as a CUDA graph, and replays it for later runs with
/// the same ones: one launch instead of one per kernel ($TCC_CUDA_GRAPHS=0: no graphs; where
/// recording fails, the session runs without them). Not thread-safe: one thread at a
/// time per session (a concurrent call fails with INTERNAL rather than corrupting state).
TCC_API tcc_status tcc_session_run(tcc_session *session, const DLTensor *const *inputs,
                                   size_t num_inputs, const DLTensor *const *outputs,
                                   size_t num_outputs);

/// Parameters (models compiled with tcc --grad or --train): tensors of static shape that
/// each session keeps in a writable buffer, initialized from the model's values. A training
/// step (tcc --train) updates them in place on every run. The number of them; thread-safe.
TCC_API int32_t tcc_model_num_parameters(const tcc_model *model);

/// Parameter `index` (name, dtype, static shape; dim_symbols all -1). Thread-safe.
TCC_API tcc_status tcc_model_parameter_info(const tcc_model *model, int32_t index,
                                            tcc_tensor_info *out_info);

/// Copies the session's current value of parameter `name` into `destination` (a CPU tensor
/// of the parameter's dtype and shape, compact row-major). Not thread-safe (as run).
TCC_API tcc_status tcc_session_read_parameter(const tcc_session *session, const char *name,
                                              const DLTensor *destination);

/// Sets the session's parameter `name` from `source` (a CPU tensor of its dtype and shape,
/// compact row-major); later runs use the new value. Not thread-safe (as run).
TCC_API tcc_status tcc_session_write_parameter(tcc_session *session, const char *name,
                                               const DLTensor *source);

/// The actual shape of output `output` after the last successful tcc_session_run of this
/// session: its rank of extents are written to `out_shape`. It differs from the shape passed
/// to the run only in data-dependent dims (tcc_tensor_info.dim_symbols[k] ==
/// TCC_DIM_DATA_DEPENDENT: NonZero, Unique, Compress...), which are passed with their
/// capacity (from tcc_model_output_shapes) and come back with the extent the data gave; the
/// output's elements are then compact row-major in that shape at the start of its buffer.
/// An error before any successful run. Not thread-safe (as tcc_session_run).
TCC_API tcc_status tcc_session_output_shape(const tcc_session *session, size_t output,
                                            int64_t *out_shape);

/// One kernel's share of a profiling session's runs (TCC_SESSION_FLAG_PROFILE).
typedef struct tcc_kernel_profile {
  /// sizeof(tcc_kernel_profile); set by TCC_KERNEL_PROFILE_INIT.
  size_t size;
  /// The kernel's name in the model ("kernel_12_conv"), and the ONNX nodes it computes,
  /// in graph order, separated by ", " ("" when the model does not say). Borrowed from the
  /// model.
  const char *name;
  const char *nodes;
  /// Launches of the kernel, and the nanoseconds they took in all, since the session was
  /// created or its profile reset.
  uint64_t launches;
  uint64_t nanoseconds;
} tcc_kernel_profile;

#define TCC_KERNEL_PROFILE_INIT {sizeof(tcc_kernel_profile), NULL, NULL, 0u, 0u}

/// The number of kernels a profile of the session's model can time (0 for a model compiled
/// before profiles, or one whose kernels all run inside control flow). Thread-safe.
TCC_API int32_t tcc_session_num_kernels(const tcc_session *session);

/// Fills *out_profile (whose `size` must be set, see TCC_KERNEL_PROFILE_INIT) for kernel
/// `kernel` (0 to tcc_session_num_kernels - 1). Counts are zero unless the session was
/// created with TCC_SESSION_FLAG_PROFILE. Same threading rule as tcc_session_run.
TCC_API tcc_status tcc_session_kernel_profile(const tcc_session *session, int32_t kernel,
                                              tcc_kernel_profile *out_profile);

/// Sets every kernel's counts back to zero (after warm-up runs). Same threading rule as
/// tcc_session_run.
TCC_API void tcc_session_reset_profile(tcc_session *session);

/// Counters of a session, for tests and tools.
typedef struct tcc_session_stats {
  /// sizeof(tcc_session_stats); set by TCC_SESSION_STATS_INIT.
  size_t size;
  /// Runs of the model: calls of its run entry point, and for a device model the runs that
  /// replayed a recorded run instead (see tcc_session_run).
  uint64_t runs;
  /// Times the workspace was (re)allocated.
  uint64_t workspace_allocations;
  /// Bytes of workspace the session holds now.
  uint64_t workspace_bytes;
} tcc_session_stats;

#define TCC_SESSION_STATS_INIT {sizeof(tcc_session_stats), 0u, 0u, 0u}

/// Fills *out_stats (whose `size` must be set, see TCC_SESSION_STATS_INIT). Same threading rule
/// as tcc_session_run.
TCC_API tcc_status tcc_session_get_stats(const tcc_session *session,
                                         tcc_session_stats *out_stats);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_H
