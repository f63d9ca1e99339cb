// Runs tiny_mlp through the header tcc --emit-header wrote: its shape macros size the tensors,
// tiny_mlp_run takes them by name. Prints the output's shape and whether its rows (softmax
// probabilities) sum to 1.
#include "tiny_mlp.h"

#include <math.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  enum { kBatch = 3 };
  int64_t xShape[TINY_MLP_INPUT_X_RANK] = TINY_MLP_INPUT_X_SHAPE;
  int64_t yShape[TINY_MLP_OUTPUT_PROBS_RANK] = TINY_MLP_OUTPUT_PROBS_SHAPE;
  xShape[0] = yShape[0] = kBatch; // the symbolic dim (-1 in the macros)
  float x[kBatch * 8], y[kBatch * 4];
  for (int i = 0; i < kBatch * 8; ++i)
    x[i] = 0.25f * (float)(i % 7) - 0.5f;
  DLTensor xTensor = {x, {kDLCPU, 0}, TINY_MLP_INPUT_X_RANK, {kDLFloat, 32, 1}, xShape, NULL, 0};
  DLTensor yTensor = {y, {kDLCPU, 0}, TINY_MLP_OUTPUT_PROBS_RANK, {kDLFloat, 32, 1}, yShape, NULL,
                      0};
  tcc_model *model = NULL;
  tcc_session *session = NULL;
  tcc_status status = tcc_model_load(argv[1], NULL, &model);
  if (!status)
    status = tcc_session_create(model, NULL, &session);
  if (!status)
    status = tiny_mlp_run(session, &xTensor, &yTensor);
  if (status) {
    fprintf(stderr, "%s\n", tcc_status_message(status));
    return 1;
  }
  int ok = 1;
  for (int r = 0; r < kBatch; ++r) {
    float sum = 0;
    for (int c = 0; c < 4; ++c)
      sum += y[r * 4 + c];
    ok &= fabsf(sum - 1.0f) < 1e-5f;
  }
  printf("probs [%lld, %lld], rows sum to 1: %s\n", (long long)yShape[0], (long long)yShape[1],
         ok ? "yes" : "no");
  tcc_session_release(session);
  tcc_model_release(model);
  return 0;
}
