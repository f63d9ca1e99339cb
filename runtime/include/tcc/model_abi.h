/* model_abi.h - the contract between a model compiled by tcc (model.so) and the runtime.
 *
 * A compiled model exports exactly one symbol: TCC_MODEL_SYMBOL, a tcc_model_descriptor, or
 * for a model compiled for several targets at once (a fat model) TCC_MODEL_VARIANTS_SYMBOL,
 * a table of descriptors, one per target. Everything else (entry points, queries, metadata)
 * is reached through the descriptors. The model imports nothing from the runtime: the
 * runtime passes a tcc_import_table to each call.
 *
 * Versioning: abi_version changes when the layout or meaning of anything here changes; a
 * runtime refuses a model of another version. Structs carry their own `size` so that later
 * versions may append fields.
 *
 * This header is C99 and has no dependencies; the compiler (lib/Codegen) writes the same
 * layout into every model.so.
 */
#ifndef TCC_MODEL_ABI_H
#define TCC_MODEL_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCC_ABI_VERSION 1
#define TCC_MODEL_SYMBOL "tcc_model_descriptor_v1"

/* Element types: the ONNX TensorProto.DataType codes. */
typedef enum tcc_dtype {
  TCC_DTYPE_FLOAT32 = 1,
  TCC_DTYPE_UINT8 = 2,
  TCC_DTYPE_INT8 = 3,
  TCC_DTYPE_UINT16 = 4,
  TCC_DTYPE_INT16 = 5,
  TCC_DTYPE_INT32 = 6,
  TCC_DTYPE_INT64 = 7,
  TCC_DTYPE_STRING = 8, /* one tcc_string per element (16 bytes, 16-byte aligned) */
  TCC_DTYPE_BOOL = 9, /* one byte per element, 0 or 1 */
  TCC_DTYPE_FLOAT16 = 10,
  TCC_DTYPE_FLOAT64 = 11,
  TCC_DTYPE_UINT32 = 12,
  TCC_DTYPE_UINT64 = 13,
  TCC_DTYPE_BFLOAT16 = 16
} tcc_dtype;

#if defined(__cplusplus)
#define TCC_ALIGNAS_16 alignas(16)
#else
#define TCC_ALIGNAS_16 _Alignas(16)
#endif

/* An element of a TCC_DTYPE_STRING tensor: `size` bytes at `data` (UTF-8 by convention, not
 * necessarily NUL-terminated; `data` may be NULL when `size` is 0). A string tensor is an
 * array of these, aligned to 16 bytes like every tensor is aligned to its element size; the
 * bytes they point to belong to whoever made them (the caller for inputs; for outputs the
 * session, the model's constants or an input's bytes, valid until the session's next run). */
typedef struct tcc_string {
  TCC_ALIGNAS_16 const char *data;
  int64_t size;
} tcc_string;

/* A symbolic dim of the model (an ONNX dim_param), with the range the model accepts. */
typedef struct tcc_symbol_desc {
  const char *name;
  int64_t min;
  int64_t max; /* -1: unbounded */
} tcc_symbol_desc;

/* One input or output. shape[i] >= 0 is a static extent; shape[i] == -1 is the symbolic
 * dim named dim_symbols[i] (an index into tcc_model_descriptor.symbols). An output dim may
 * also be -1 with dim_symbols[i] == -1: an extent derived from the symbols (e.g. 2*n) that
 * only output_shapes computes; or -1 with dim_symbols[i] == TCC_DIM_DATA_DEPENDENT: an
 * extent known only after the run (NonZero, Unique, Compress). For such a dim output_shapes
 * gives the capacity (an upper bound the output buffer must hold), and run reports the
 * actual extent through imports->set_output_extent; the output is then written compact
 * (row-major in the actual shape) at the start of its buffer. Every symbol appears in some
 * input, else its value could never be known (the runtime refuses such a model). */
#define TCC_DIM_DATA_DEPENDENT (-2)
typedef struct tcc_tensor_desc {
  const char *name;
  int32_t dtype; /* tcc_dtype */
  int32_t rank;
  const int64_t *shape;
  const int32_t *dim_symbols; /* -1 for static dims */
} tcc_tensor_desc;

/* A sequence input or output (ONNX seq(tensor)) whose length is known at run time: two of
 * the model's inputs (is_output 0) or outputs (is_output 1), NAME.shapes at shapes_index,
 * an int64 [count, rank] tensor holding one row of extents per element, and NAME.data at
 * data_index, a 1-d tensor of the elements' dtype holding the elements flattened row-major
 * and concatenated in order (its extent is the sum over rows of the row's product). The
 * runtime checks that an input sequence's rows are >= 0 and add up to its data before the
 * model sees them, and passes a shapes tensor with no rows as a pointer to at least
 * TCC_EMPTY_SHAPES_BYTES zero bytes (the model may read row 0 of it while computing
 * symbols). */
typedef struct tcc_sequence_desc {
  const char *name;
  int32_t is_output;
  int32_t shapes_index;
  int32_t data_index;
  int32_t reserved;
} tcc_sequence_desc;
/* An optional input or output (ONNX optional(tensor) or optional(seq(tensor))) whose
 * presence is known at run time: present_index is its flag NAME.present, a bool tensor of
 * rank 0, and its value is the `count` consecutive tensors from first_index (1: a tensor
 * named NAME; 2: a sequence's NAME.shapes and NAME.data, also in the sequence list). When
 * an input's flag is false the runtime passes zeros in place of its value (its symbolic
 * dims 0 unless another input binds them); when an output's flag is false its value's
 * tensors hold whatever the model computed in their place. */
typedef struct tcc_optional_desc {
  const char *name;
  int32_t is_output;
  int32_t present_index;
  int32_t first_index;
  int32_t count;
} tcc_optional_desc;
/* The most element rank a sequence at the interface may have, and the zero bytes an empty
 * shapes input reaches the model as. */
#define TCC_MAX_SEQUENCE_RANK 64
#define TCC_EMPTY_SHAPES_BYTES (8 * TCC_MAX_SEQUENCE_RANK)
/* What the runtime provides to a running model. Every function is optional except where
 * noted; `context` is passed back unchanged. */
typedef struct tcc_import_table {
  uint32_t abi_version;
  uint32_t size; /* sizeof(tcc_import_table) */
  void *context;
  /* Runs body(arg, begin, end) over disjoint chunks covering [0, count), possibly in
   * parallel, and returns when all have finished. Required. */
  void (*parallel_for)(void *context, int64_t count,
                       void (*body)(void *arg, int64_t begin, int64_t end), void *arg);
  /* Records an error raised inside a kernel (message is a static string of the model). */
  void (*report_error)(void *context, const char *message);
  /* Reports the actual extent of a data-dependent output dim (see tcc_tensor_desc), once
   * per such dim and run, before run returns. Required by models with such outputs. */
  void (*set_output_extent)(void *context, int32_t output, int32_t dim, int64_t extent);
  /* The session's parameter buffer (tcc_model_descriptor.parameters_size bytes, 64-byte
   * aligned), which run reads and, for a training step, updates in place. Required by
   * models with parameters. */
  void *parameters;
  /* Appended after the first release: string functions, which models with string tensors
   * call (they check that `size` covers the ones they call). Strings they make belong to the session and
   * stay valid until its next run or release. They may be called from several threads at
   * once (kernels run through parallel_for). A failure (memory, a text that is not a
   * number) is recorded as the run's error, as report_error does, and the function then
   * writes an empty string or zero, so the run goes on and fails when it returns. */
  /* *out = the text of *value, one element of `dtype`: integers in decimal, floats as NumPy
   * prints them (the shortest digits that read back to the same value, positional for
   * 1e-4 <= |x| < 1e16 with ".0" when integral, else "1.5e-07"; "nan", "inf", "-inf"),
   * bools "True" / "False". */
  void (*string_format)(void *context, int32_t dtype, const void *value, tcc_string *out);
  /* *out (one element of `dtype`) = the number *text spells: leading and trailing white
   * space allowed; "NaN", "INF", "+INF", "-INF" in any case; integers in decimal (a float
   * text for an integer dtype is an error); bools "True"/"False"/"1"/"0" (any case).
   * float32 and float64 round once; float16 and bfloat16 round through float64 (a text
   * within 2^-53 of a halfway point between two of their values may round the other way). */
  void (*string_parse)(void *context, const tcc_string *text, int32_t dtype, void *out);
  /* *out = *text with its letters in upper case (upper != 0) or lower case, UTF-8 code point
   * by code point (towupper/towlower of C.UTF-8); invalid UTF-8 bytes are kept as they are. */
  void (*string_change_case)(void *context, const tcc_string *text, int32_t upper,
                             tcc_string *out);
  /* Whether *text is one of the `count` strings packed in `set` (each: its byte count as a
   * little-endian int64, then its bytes); with ignore_case, both sides compare lower-cased. */
  int32_t (*string_find)(void *context, const tcc_string *text, const char *set, int64_t count,
                         int32_t ignore_case);
  /* Whether *a and *b hold the same bytes. */
  int32_t (*string_equal)(void *context, const tcc_string *a, const tcc_string *b);
  /* *out = the bytes of *a followed by those of *b. */
  void (*string_concat)(void *context, const tcc_string *a, const tcc_string *b,
                        tcc_string *out);
  /* Whether all of *text matches `pattern` (pattern_size bytes, RE2 syntax: the model's
   * constant, the same address on every call). A pattern the runtime cannot use is recorded
   * as the run's error, naming the construct. */
  int32_t (*string_match)(void *context, const tcc_string *text, const char *pattern,
                          int64_t pattern_size);
  /* Appended with device models (tcc_model_descriptor.device_type other than kDLCPU); a
   * device model requires all three. */
  /* Queues kernel `kernel` (an index into tcc_model_descriptor.device_kernel_names) on the
   * run's device queue: a 1-D grid of grid_x blocks of block_x threads each, shared_bytes of
   * dynamic shared memory, `args` pointing to the kernel's parameter values in order (as the
   * driver's kernelParams; the values are read before device_launch returns). Returns 0, or
   * nonzero when the launch failed: the runtime has recorded why, and run returns
   * TCC_RUN_CHECK_FAILED without queueing more work. The run's inputs, outputs and workspace
   * are device memory; run returns once its work is queued and the runtime waits for it. */
  int32_t (*device_launch)(void *context, int32_t kernel, int64_t grid_x, int32_t block_x,
                           int32_t shared_bytes, void **args);
  /* The device's copy of tcc_model_descriptor.device_constants (device memory, 64-byte
   * aligned, uploaded once per session). */
  void *device_constants;
  /* The run's check status: 4 bytes of device memory (an int32_t, 4-byte aligned) that the
   * runtime zeroes before run and reads once the run's work has finished. A device-side
   * check that fails (a Gather index out of range) writes its code there, k + 1 for
   * tcc_model_descriptor.device_check_messages[k], and every kernel of the run that starts
   * after it does nothing, so no kernel reads out of bounds; the run then fails with that
   * message (TCC_RUN_CHECK_FAILED). */
  void *device_status;
  /* Appended with device reads: copies `bytes` bytes of device memory at `device` (memory
   * that the run's kernels write: a count, a loop condition) to `host` once the work queued
   * before the call has finished, for models whose host code needs such values (a
   * data-dependent extent, ONNX If and Loop conditions); such a model has
   * TCC_MODEL_READS_DEVICE in its descriptor's flags and requires this function. Returns 0,
   * or nonzero with `host` zeroed when it cannot give the value: a check of the run failed
   * before (its message is the run's error), a kernel failed, or the copy failed (recorded
   * as the run's error); the run then goes on with zeros and fails when it returns, as
   * after a failed device_launch. */
  int32_t (*device_read)(void *context, void *host, const void *device, int64_t bytes);
  /* Appended with kernel profiles; may be NULL (the runtime profiles only when asked to).
   * A CPU model's host code calls profile(context, k, TCC_PROFILE_BEGIN) just before it
   * hands kernel k (an index into tcc_model_descriptor.kernel_names) to parallel_for and
   * profile(context, k, TCC_PROFILE_END) once parallel_for has returned, on the thread that
   * runs the host code (the runtime may run several images at once, each on its own
   * thread). A device model's kernels are timed by the runtime's device_launch instead. */
  void (*profile)(void *context, int32_t kernel, int32_t event);
} tcc_import_table;

/* The events of tcc_import_table.profile. */
enum { TCC_PROFILE_BEGIN = 0, TCC_PROFILE_END = 1 };

/* The import table's size before the string functions were appended. */
#define TCC_IMPORT_TABLE_V1_SIZE 48

/* The import table's size before the device entries were appended. */
#define TCC_IMPORT_TABLE_V2_SIZE 104

/* The import table's size before device_read was appended. */
#define TCC_IMPORT_TABLE_V3_SIZE 128

/* The import table's size before profile was appended. */
#define TCC_IMPORT_TABLE_V4_SIZE 136

/* A device image: the kernels of a device model compiled for one architecture, in one
 * format. Every image of a model defines every kernel of device_kernel_names. */
typedef enum tcc_image_format {
  TCC_IMAGE_PTX = 1,   /* NVIDIA PTX text (NUL-terminated); the driver compiles it for the GPU */
  TCC_IMAGE_CUBIN = 2, /* NVIDIA cubin (ELF) for exactly `arch` */
  TCC_IMAGE_HSACO = 3, /* AMD HSA code object (ELF, EM_AMDGPU) for exactly `arch` */
  /* A SPIR-V module (32-bit words) for `arch` "vulkan1.2": Vulkan compute with buffer device
   * addresses. Each kernel is an entry point of the GLCompute model whose parameters are one
   * push-constant block of 8-byte slots, slot k holding parameter k (an i32 or f32 in its
   * low 4 bytes); device_launch's args array for such a model ends with a NULL entry. */
  TCC_IMAGE_SPIRV = 4,
  /* Metal Shading Language 3.0 source for `arch` "metal3" (a GPU of Metal's Metal3 family,
   * macOS 13 and later): NUL-terminated text in which each kernel is a translation unit of its
   * own, starting after a line TCC_MSL_KERNEL_MARKER "<name> <function>" and ending at the next
   * such line (or the NUL), that defines `kernel void <function>` (the kernel's name unless MSL
   * reserves it: "a__b" becomes "a_b"). Its parameters are buffer 0, the 8-byte
   * slots of TCC_IMAGE_SPIRV's push constants (the same rule for more than 16); device memory
   * is addressed by 64-bit GPU addresses (MTLBuffer.gpuAddress). Compiled by Metal when the
   * model loads, without fast math. */
  TCC_IMAGE_MSL = 5
} tcc_image_format;

/* The line that starts each kernel of a TCC_IMAGE_MSL image, followed by the kernel's name,
 * a space, its function's name and a newline. */
#define TCC_MSL_KERNEL_MARKER "// tcc-kernel: "

typedef struct tcc_device_image {
  /* e.g. "sm_90": a cubin runs on that architecture, PTX on it or later ("sm_90a" PTX on
   * sm_90 alone, "sm_100f" PTX on 10.x GPUs from 10.0); "gfx942": a code object for that
   * AMD chip alone */
  const char *arch;
  int32_t format;   /* tcc_image_format */
  int32_t reserved;
  const void *data;
  int64_t size; /* bytes of data (for PTX, the terminating NUL included) */
} tcc_device_image;

/* Status codes returned by tcc_model_descriptor.run. */
enum {
  TCC_RUN_OK = 0,
  TCC_RUN_CHECK_FAILED = 1, /* a run-time assumption failed; see report_error's message */
  TCC_RUN_BAD_ARGUMENT = 2
};

typedef struct tcc_model_descriptor {
  uint32_t abi_version; /* TCC_ABI_VERSION */
  uint32_t size;        /* sizeof(tcc_model_descriptor) */
  const char *tcc_version;
  const char *target_triple;
  const char *cpu;          /* the CPU the code was tuned for, e.g. "x86-64-v3" */
  /* Features the code requires: LLVM feature names, comma-separated, each "+name"
   * ("-name" entries need nothing); a runtime that does not know a name refuses the model. */
  const char *cpu_features;
  int32_t num_symbols;
  int32_t num_inputs;
  int32_t num_outputs;
  int32_t reserved;
  const tcc_symbol_desc *symbols;
  const tcc_tensor_desc *inputs;
  const tcc_tensor_desc *outputs;
  /* Bytes of scratch memory (64-byte aligned) that run needs, for the given symbol values
   * (num_symbols of them, in order). A negative size is an error. */
  int64_t (*workspace_size)(const int64_t *symbol_values);
  /* Writes the extents of every output, output after output (sum of the output ranks
   * entries), for the given symbol values. Returns a TCC_RUN_* code. */
  int32_t (*output_shapes)(const int64_t *symbol_values, int64_t *shapes);
  /* Runs the model: inputs[i] and outputs[i] point to dense row-major buffers of the
   * described dtypes and shapes, aligned to their element size at least; workspace to
   * workspace_size bytes. run never writes its inputs; outputs must not alias inputs or each
   * other. Returns a TCC_RUN_* code. Thread-safe for distinct workspaces and outputs. */
  int32_t (*run)(const tcc_import_table *imports, const int64_t *symbol_values,
                 void *const *inputs, void *const *outputs, void *workspace);
  /* Parameters (models compiled with tcc --grad or --train): named tensors of static shape
   * that live in a writable buffer owned by the session, initialized from
   * initial_parameters, at parameter_offsets[i] bytes (64-byte aligned). run reads them, and
   * a training step overwrites them with their updated values. */
  int32_t num_parameters;
  int32_t reserved2;
  const tcc_tensor_desc *parameters;
  const int64_t *parameter_offsets;
  const void *initial_parameters;
  int64_t parameters_size;
  /* Appended after the first release (a descriptor that ends before them has neither).
   * With TCC_MODEL_IMAGES_ALONE in flags, batch_symbol names the symbol that is dim 0 of
   * every input and output and no other dim, and the model promises that it computes each
   * image alone: for any b, images [b, b+k) of the outputs are what run gives for images
   * [b, b+k) of the inputs with the symbol set to k (k >= 1), whatever the other images
   * hold. The runtime may then run the model image by image, or several images at once on
   * different threads with their own workspaces. Such a model has no parameters and no
   * data-dependent outputs. */
  int32_t batch_symbol;
  uint32_t flags; /* TCC_MODEL_* bits; others must be 0 */
  /* Appended with computed symbols. symbol_computed has num_symbols entries, 1 for a
   * symbol that no input dim binds: the model computes its value from input elements (the
   * length of a Range whose bounds are inputs); NULL when there is none. compute_symbols
   * (required then) is called after the other symbols are bound from the input shapes and
   * before output_shapes or workspace_size: it reads the input buffers (as run gets them)
   * and the bound symbol values, and writes the value of every computed symbol into
   * symbol_values. A value outside the symbol's range fails the run; the model writes -1
   * when there is no value (a Range with delta 0, a length that is not finite). Returns a
   * TCC_RUN_* code. A model with computed symbols has no batch_symbol. */
  const uint8_t *symbol_computed;
  int32_t (*compute_symbols)(int64_t *symbol_values, void *const *inputs);
  /* Appended with device models. device_type is the DLPack device type the kernels run on
   * (DLDeviceType: kDLCPU = 1, kDLCUDA = 2, kDLROCM = 10); a CPU model has 1 (0, and a
   * descriptor that ends before device_type, mean the CPU too) and zero counts below. For a
   * device model, run's inputs, outputs and workspace are device memory and its host code
   * launches kernels through imports->device_launch; it has no parameters, no computed
   * symbols and no string tensors, and data-dependent outputs only with
   * TCC_MODEL_READS_DEVICE (their extents are read back). The runtime loads the image
   * that suits the device: a cubin of its architecture, else the PTX of the newest
   * architecture not newer than the device's (NVIDIA); the code object of its chip (AMD).
   * device_constants (device_constants_size bytes, the weights) are uploaded once per
   * session and reach run as imports->device_constants. A device model without kernels
   * (nothing to compute: every output is empty) has no images and loads no module. */
  int32_t device_type;
  int32_t num_device_images;
  const tcc_device_image *device_images;
  int32_t num_device_kernels;
  int32_t reserved3;
  const char *const *device_kernel_names;
  const void *device_constants;
  int64_t device_constants_size;
  /* The messages of the device-side checks (imports->device_status), in code order. */
  int32_t num_device_check_messages;
  int32_t reserved4;
  const char *const *device_check_messages;
  /* Appended with kernel profiles (a descriptor that ends before them has no kernel list;
   * a CPU model then also has the device fields above, with device_type kDLCPU and zero
   * counts). The model's kernels that a profile can time, num_kernels of them: their names
   * (kernel_names[k], non-empty) and the ONNX nodes each computes (kernel_nodes[k]: node
   * names in graph order, separated by ", "; "" when not known). For a device model the
   * list is device_kernel_names, in the same order (the index device_launch gets); for a
   * CPU model the kernels its host code launches through parallel_for, in the order of the
   * indices it gives imports->profile. Kernels that host code calls directly (inside the
   * bodies of control flow) are not listed: their time is the host code's. */
  int32_t num_kernels;
  int32_t reserved5;
  const char *const *kernel_names;
  const char *const *kernel_nodes;
  /* Appended with the kernel list: the tcc options the model was compiled with, as a
   * command line without paths ("--target cpu --cpu x86-64-v4 --precision fp32 ..."), for
   * tools that show how an artifact was made (tcc inspect); NULL or "" when not recorded. */
  const char *compile_options;
  /* Appended with run-time sequences: the sequence inputs and outputs (see
   * tcc_sequence_desc), num_sequences of them; a descriptor that ends before them has none. */
  int32_t num_sequences;
  int32_t reserved6;
  const tcc_sequence_desc *sequences;
  /* Appended with run-time optionals: the optional inputs and outputs (see
   * tcc_optional_desc), num_optionals of them; a descriptor that ends before them has none. */
  int32_t num_optionals;
  int32_t reserved7;
  const tcc_optional_desc *optionals;
} tcc_model_descriptor;

/* A fat model (tcc --target cpu,nvidia:sm_90,...: one library, code for several targets of
 * one host OS) exports this table instead of TCC_MODEL_SYMBOL. Each variant is a complete
 * descriptor, as a model compiled for its target alone would export it, and all describe the
 * same model: the same symbols (names and ranges, computed or not), inputs, outputs and
 * parameters (names, dtypes, shapes, the symbols of their dims). No two variants have the
 * same device type other than kDLCPU; CPU variants (code for different CPU levels) are
 * tried in table order. A runtime runs each session on one variant: the first of the
 * device type the session asks for whose CPU features the host has; by default, the first
 * variant the host can run. */
#define TCC_MODEL_VARIANTS_SYMBOL "tcc_model_variants_v1"
/* The most variants a table may have. */
#define TCC_MAX_VARIANTS 64
typedef struct tcc_model_variants {
  uint32_t abi_version; /* TCC_ABI_VERSION */
  uint32_t size;        /* sizeof(tcc_model_variants) */
  int32_t num_variants; /* 1 to TCC_MAX_VARIANTS */
  int32_t reserved;
  const tcc_model_descriptor *const *variants;
} tcc_model_variants;

/* tcc_model_descriptor.flags: batch_symbol is valid (see there). */
#define TCC_MODEL_IMAGES_ALONE 1u
/* tcc_model_descriptor.flags: a device model whose run reads device memory through
 * imports->device_read (its host code needs values the kernels computed), so the run waits
 * for its kernels midway and cannot be recorded and replayed as a graph. */
#define TCC_MODEL_READS_DEVICE 2u

/* The descriptor's size before batch_symbol was appended; smaller ones are refused. */
#define TCC_MODEL_DESCRIPTOR_V1_SIZE 144
/* ... and before symbol_computed was appended (after batch_symbol and flags). */
#define TCC_MODEL_DESCRIPTOR_V2_SIZE 152
/* ... and before the device fields were appended (after compute_symbols). */
#define TCC_MODEL_DESCRIPTOR_V3_SIZE 168
/* ... and before the kernel list was appended (after device_check_messages). */
#define TCC_MODEL_DESCRIPTOR_V4_SIZE 232
/* ... and before the sequence list was appended (after compile_options). */
#define TCC_MODEL_DESCRIPTOR_V5_SIZE 264
/* ... and before the optional list was appended (after the sequence list). */
#define TCC_MODEL_DESCRIPTOR_V6_SIZE 280

#ifdef __cplusplus
}
#endif

#endif /* TCC_MODEL_ABI_H */
