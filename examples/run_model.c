// run_model.c - load a model compiled by tcc, look at it, and run it: the runtime's C API
// from start to end.
//
//   run_model MODEL.so [SYMBOL=VALUE]...
//
// Every input is filled with 0, 1, 2, ... (converted to its dtype) and every output is
// printed. Symbolic dims (e.g. a batch size "n") take their smallest allowed value unless
// given on the command line, e.g. `run_model model.so n=2`.
//
// Build: examples/CMakeLists.txt links this file with libtcc_runtime.so; nothing else is
// needed (no MLIR, no LLVM): a compiled model needs only libc, and the runtime only libc,
// libdl and pthreads.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcc/runtime.h"

// Prints a failed status, frees it, and tells main to stop. Every runtime call that can fail
// returns a tcc_status: NULL for success, otherwise an object the caller owns.
static int failed(tcc_status status) {
  if (!status)
    return 0;
  fprintf(stderr, "run_model: error: %s\n", tcc_status_message(status));
  tcc_status_free(status);
  return 1;
}

// Prints "[n, 4]" with symbol names for symbolic dims.
static void print_declared_shape(const tcc_tensor_info *info) {
  printf("[");
  for (int32_t d = 0; d < info->rank; ++d) {
    if (info->dim_names[d])
      printf("%s%s", d ? ", " : "", info->dim_names[d]);
    else if (info->shape[d] < 0)
      printf("%s?", d ? ", " : ""); // an output dim derived from the symbols, e.g. 2*n
    else
      printf("%s%lld", d ? ", " : "", (long long)info->shape[d]);
  }
  printf("]");
}

// Writes `value` into element `index` of a buffer of `dtype` (float16/bfloat16 as raw bits
// of small integers, enough for an example).
static void store_element(void *data, int32_t dtype, int64_t index, int64_t value) {
  switch (dtype) {
  case TCC_DTYPE_FLOAT32: ((float *)data)[index] = (float)value; break;
  case TCC_DTYPE_FLOAT64: ((double *)data)[index] = (double)value; break;
  case TCC_DTYPE_INT8: ((int8_t *)data)[index] = (int8_t)value; break;
  case TCC_DTYPE_UINT8: ((uint8_t *)data)[index] = (uint8_t)value; break;
  case TCC_DTYPE_BOOL: ((uint8_t *)data)[index] = (uint8_t)(value & 1); break;
  case TCC_DTYPE_INT16: ((int16_t *)data)[index] = (int16_t)value; break;
  case TCC_DTYPE_UINT16: ((uint16_t *)data)[index] = (uint16_t)value; break;
  case TCC_DTYPE_INT32: ((int32_t *)data)[index] = (int32_t)value; break;
  case TCC_DTYPE_UINT32: ((uint32_t *)data)[index] = (uint32_t)value; break;
  case TCC_DTYPE_INT64: ((int64_t *)data)[index] = value; break;
  case TCC_DTYPE_UINT64: ((uint64_t *)data)[index] = (uint64_t)value; break;
  default: memset((char *)data + index * (int64_t)tcc_dtype_size(dtype), 0, tcc_dtype_size(dtype));
  }
}

static void print_element(const void *data, int32_t dtype, int64_t index) {
  switch (dtype) {
  case TCC_DTYPE_FLOAT32: printf(" %g", ((const float *)data)[index]); break;
  case TCC_DTYPE_FLOAT64: printf(" %g", ((const double *)data)[index]); break;
  case TCC_DTYPE_INT8: printf(" %d", ((const int8_t *)data)[index]); break;
  case TCC_DTYPE_UINT8:
  case TCC_DTYPE_BOOL: printf(" %u", ((const uint8_t *)data)[index]); break;
  case TCC_DTYPE_INT16: printf(" %d", ((const int16_t *)data)[index]); break;
  case TCC_DTYPE_UINT16:
  case TCC_DTYPE_FLOAT16:
  case TCC_DTYPE_BFLOAT16: printf(" 0x%04x", ((const uint16_t *)data)[index]); break;
  case TCC_DTYPE_INT32: printf(" %d", ((const int32_t *)data)[index]); break;
  case TCC_DTYPE_UINT32: printf(" %u", ((const uint32_t *)data)[index]); break;
  case TCC_DTYPE_INT64: printf(" %lld", (long long)((const int64_t *)data)[index]); break;
  case TCC_DTYPE_UINT64:
    printf(" %llu", (unsigned long long)((const uint64_t *)data)[index]);
    break;
  default: printf(" ?");
  }
}

// One tensor of the example: its DLTensor and the memory it points to.
typedef struct example_tensor {
  DLTensor dl;
  int64_t shape[16];
  int64_t count;
} example_tensor;

// Points `tensor` at a fresh buffer of `dtype` and `shape`. The runtime requires CPU memory,
// dense row-major (strides NULL), of exactly the model's dtype; for bool that is
// {kDLUInt, 8, 1} (DLPack 0.6 has no bool code), which tcc_dtype_to_dlpack gives.
static tcc_status make_tensor(int32_t dtype, int32_t rank, const int64_t *shape,
                              example_tensor *tensor) {
  memset(tensor, 0, sizeof(*tensor));
  tensor->count = 1;
  for (int32_t d = 0; d < rank && d < 16; ++d) {
    tensor->shape[d] = shape[d];
    tensor->count *= shape[d];
  }
  tcc_status status = tcc_dtype_to_dlpack(dtype, &tensor->dl.dtype);
  if (status)
    return status;
  tensor->dl.device.device_type = kDLCPU;
  tensor->dl.ndim = rank;
  tensor->dl.shape = tensor->shape;
  tensor->dl.data = calloc((size_t)(tensor->count ? tensor->count : 1), tcc_dtype_size(dtype));
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: run_model MODEL.so [SYMBOL=VALUE]...\n");
    return 2;
  }

  // 1. Load the model. This dlopens the file, checks that it is a tcc model of this ABI
  //    version with consistent metadata, and that this CPU has the features its code needs.
  //    A tcc_model is immutable: any number of threads may share it.
  tcc_model *model = NULL;
  if (failed(tcc_model_load(argv[1], NULL, &model)))
    return 1;
  printf("model %s: compiled by tcc %s for %s (cpu %s)\n", argv[1], tcc_model_tcc_version(model),
         tcc_model_target_triple(model), tcc_model_cpu(model));

  // 2. Look at its signature. Strings and arrays in the infos belong to the model.
  int32_t num_symbols = tcc_model_num_symbols(model);
  int32_t num_inputs = tcc_model_num_inputs(model);
  int32_t num_outputs = tcc_model_num_outputs(model);
  int64_t *symbol_values = calloc((size_t)num_symbols + 1, sizeof(int64_t));
  for (int32_t s = 0; s < num_symbols; ++s) {
    tcc_symbol_info symbol;
    tcc_model_symbol_info(model, s, &symbol);
    symbol_values[s] = symbol.min;
    size_t length = strlen(symbol.name);
    for (int a = 2; a < argc; ++a)
      if (strncmp(argv[a], symbol.name, length) == 0 && argv[a][length] == '=')
        symbol_values[s] = strtoll(argv[a] + length + 1, NULL, 10);
    if (symbol.max < 0) // -1: no upper bound
      printf("symbol %s in [%lld, inf): using %lld\n", symbol.name, (long long)symbol.min,
             (long long)symbol_values[s]);
    else
      printf("symbol %s in [%lld, %lld]: using %lld\n", symbol.name, (long long)symbol.min,
             (long long)symbol.max, (long long)symbol_values[s]);
  }
  for (int32_t i = 0; i < num_inputs + num_outputs; ++i) {
    tcc_tensor_info info;
    int is_input = i < num_inputs;
    if (is_input)
      tcc_model_input_info(model, i, &info);
    else
      tcc_model_output_info(model, i - num_inputs, &info);
    printf("%s %d '%s': %s ", is_input ? "input" : "output", is_input ? i : i - num_inputs,
           info.name, tcc_dtype_name(info.dtype));
    print_declared_shape(&info);
    printf("\n");
  }

  // 3. Create a session: the state of runs (a thread pool, a workspace). A session is used by
  //    one thread at a time; give each thread its own. num_threads 0 means one per core.
  tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
  tcc_session *session = NULL;
  int exit_code = 1;
  example_tensor *tensors = calloc((size_t)(num_inputs + num_outputs) + 1, sizeof(*tensors));
  const DLTensor **pointers =
      calloc((size_t)(num_inputs + num_outputs) + 1, sizeof(*pointers));
  int64_t **output_shapes = calloc((size_t)num_outputs + 1, sizeof(*output_shapes));
  if (failed(tcc_session_create(model, &options, &session)))
    goto cleanup;

  // 4. Make the inputs: symbolic dims take the chosen symbol values.
  for (int32_t i = 0; i < num_inputs; ++i) {
    tcc_tensor_info info;
    tcc_model_input_info(model, i, &info);
    if (info.rank > 16) {
      fprintf(stderr, "run_model: error: input %d has rank %d; this example stops at 16\n", i,
              info.rank);
      goto cleanup;
    }
    int64_t shape[16];
    for (int32_t d = 0; d < info.rank && d < 16; ++d)
      shape[d] = info.dim_symbols[d] >= 0 ? symbol_values[info.dim_symbols[d]] : info.shape[d];
    if (failed(make_tensor(info.dtype, info.rank, shape, &tensors[i])))
      goto cleanup;
    for (int64_t k = 0; k < tensors[i].count; ++k)
      store_element(tensors[i].dl.data, info.dtype, k, k);
    pointers[i] = &tensors[i].dl;
  }

  // 5. Ask the model for its output shapes, and allocate the outputs. (The runtime checks the
  //    symbol values against their ranges here, and again, with the inputs, in run.)
  for (int32_t o = 0; o < num_outputs; ++o) {
    tcc_tensor_info info;
    tcc_model_output_info(model, o, &info);
    if (info.rank > 16) {
      fprintf(stderr, "run_model: error: output %d has rank %d; this example stops at 16\n", o,
              info.rank);
      goto cleanup;
    }
    output_shapes[o] = tensors[num_inputs + o].shape;
  }
  if (failed(tcc_model_output_shapes(model, symbol_values, (size_t)num_symbols, output_shapes,
                                     (size_t)num_outputs)))
    goto cleanup;
  for (int32_t o = 0; o < num_outputs; ++o) {
    tcc_tensor_info info;
    tcc_model_output_info(model, o, &info);
    int64_t shape[16];
    memcpy(shape, tensors[num_inputs + o].shape, sizeof(shape));
    if (failed(make_tensor(info.dtype, info.rank, shape, &tensors[num_inputs + o])))
      goto cleanup;
    pointers[num_inputs + o] = &tensors[num_inputs + o].dl;
  }

  // 6. Run. Every input and output is checked first (count, dtype, rank, dims, symbols,
  //    layout); a mismatch is an error status that names the tensor and the dim, never a
  //    crash. A failed check inside the model (say, a gather index out of range) comes back
  //    as TCC_STATUS_CHECK_FAILED with the model's message.
  if (failed(tcc_session_run(session, pointers, (size_t)num_inputs, pointers + num_inputs,
                             (size_t)num_outputs)))
    goto cleanup;

  // 7. Print the outputs.
  for (int32_t o = 0; o < num_outputs; ++o) {
    tcc_tensor_info info;
    tcc_model_output_info(model, o, &info);
    const example_tensor *tensor = &tensors[num_inputs + o];
    printf("output %d '%s': %s [", o, info.name, tcc_dtype_name(info.dtype));
    for (int32_t d = 0; d < info.rank; ++d)
      printf("%s%lld", d ? ", " : "", (long long)tensor->shape[d]);
    printf("]:");
    for (int64_t k = 0; k < tensor->count && k < 32; ++k)
      print_element(tensor->dl.data, info.dtype, k);
    printf("%s\n", tensor->count > 32 ? " ..." : "");
  }
  exit_code = 0;

cleanup:
  // 8. Release in any order: a session holds its own reference to the model.
  for (int32_t i = 0; i < num_inputs + num_outputs; ++i)
    free(tensors[i].dl.data);
  free(tensors);
  free(pointers);
  free(output_shapes);
  free(symbol_values);
  tcc_session_release(session);
  tcc_model_release(model);
  return exit_code;
}
