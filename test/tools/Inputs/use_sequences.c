// Runs a model with a sequence input and a sequence output through the C API alone:
// tcc_sequence_pack fills the input's two tensors from a list of tensors, and
// tcc_sequence_element views the output's elements (test/tools/sequence-api.test).
// The model: out = SequenceInsert(seq, x) (append), count = SequenceLength(seq).
#include <stdio.h>
#include <stdlib.h>

#include "tcc/runtime.h"

static int fail(tcc_status status) {
  fprintf(stderr, "error: %s\n", tcc_status_message(status));
  tcc_status_free(status);
  return 1;
}

static DLTensor tensor(void *data, int32_t ndim, int64_t *shape, DLDataType dtype) {
  DLTensor t = {data, {kDLCPU, 0}, ndim, dtype, shape, NULL, 0};
  return t;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const DLDataType f32 = {kDLFloat, 32, 1}, i64 = {kDLInt, 64, 1};
  tcc_model *model = NULL;
  tcc_status status = tcc_model_load(argv[1], NULL, &model);
  if (status)
    return fail(status);
  for (int32_t k = 0; k < tcc_model_num_sequences(model); ++k) {
    tcc_sequence_info info;
    if ((status = tcc_model_sequence_info(model, k, &info)))
      return fail(status);
    printf("sequence '%s': %s %d and %d, dtype %d, element rank %d\n", info.name,
           info.is_output ? "outputs" : "inputs", info.shapes_index, info.data_index,
           info.dtype, info.element_rank);
  }
  // The list [1, 2], [3, 4, 5], [] packed into seq.shapes [3, 1] and seq.data [5].
  float a[] = {1, 2}, b[] = {3, 4, 5}, x[] = {10, 20, 30, 40};
  int64_t shapeA[] = {2}, shapeB[] = {3}, shapeEmpty[] = {0}, shapeX[] = {4};
  DLTensor ta = tensor(a, 1, shapeA, f32), tb = tensor(b, 1, shapeB, f32),
           te = tensor(NULL, 1, shapeEmpty, f32), tx = tensor(x, 1, shapeX, f32);
  const DLTensor *elements[] = {&ta, &tb, &te};
  int64_t rows[3], shapesShape[] = {3, 1}, dataShape[] = {5};
  float data[5];
  DLTensor shapes = tensor(rows, 2, shapesShape, i64), packed = tensor(data, 1, dataShape, f32);
  if ((status = tcc_sequence_pack(elements, 3, &shapes, &packed)))
    return fail(status);
  // Outputs sized by the model for these inputs.
  const DLTensor *inputs[] = {&shapes, &packed, &tx};
  int64_t symbols[16];
  if ((status = tcc_model_bind_symbols(model, inputs, 3, symbols, 16)))
    return fail(status);
  int64_t countShape[1], outRowsShape[2], outDataShape[1];
  int64_t *outputShapes[] = {countShape, outRowsShape, outDataShape};
  if ((status = tcc_model_output_shapes(model, symbols, 16, outputShapes, 3)))
    return fail(status);
  int64_t count = 0;
  int64_t *outRows = malloc(sizeof(int64_t) * (size_t)(outRowsShape[0] * outRowsShape[1]));
  float *outData = malloc(sizeof(float) * (size_t)outDataShape[0]);
  DLTensor tCount = tensor(&count, 0, NULL, i64), tRows = tensor(outRows, 2, outRowsShape, i64),
           tData = tensor(outData, 1, outDataShape, f32);
  const DLTensor *outputs[] = {&tCount, &tRows, &tData};
  tcc_session *session = NULL;
  if ((status = tcc_session_create(model, NULL, &session)) ||
      (status = tcc_session_run(session, inputs, 3, outputs, 3)))
    return fail(status);
  printf("length %lld\n", (long long)count);
  for (int64_t k = 0; k < outRowsShape[0]; ++k) {
    int64_t extent[1];
    DLTensor element;
    if ((status = tcc_sequence_element(&tRows, &tData, k, extent, &element)))
      return fail(status);
    const float *values = (const float *)((const char *)element.data + element.byte_offset);
    printf("element %lld: [%lld]", (long long)k, (long long)element.shape[0]);
    for (int64_t i = 0; i < element.shape[0]; ++i)
      printf(" %g", values[i]);
    printf("\n");
  }
  free(outRows);
  free(outData);
  tcc_session_release(session);
  tcc_model_release(model);
  return 0;
}
