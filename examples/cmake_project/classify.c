// Classifies two feature vectors with the tiny_mlp model that the build compiled
// (tcc_add_model): the header gives the shapes and tiny_mlp_run, TINY_MLP_LIBRARY the path.
#include "tiny_mlp.h"

#include <stdio.h>

int main(void) {
  enum { kBatch = 2, kFeatures = 8, kClasses = 4 };
  float x[kBatch * kFeatures], probs[kBatch * kClasses];
  for (int i = 0; i < kBatch * kFeatures; ++i)
    x[i] = (float)(i % 5) * 0.5f - 1.0f;
  int64_t xShape[TINY_MLP_INPUT_X_RANK] = TINY_MLP_INPUT_X_SHAPE;
  int64_t yShape[TINY_MLP_OUTPUT_PROBS_RANK] = TINY_MLP_OUTPUT_PROBS_SHAPE;
  xShape[0] = yShape[0] = kBatch;
  DLTensor xTensor = {x, {kDLCPU, 0}, TINY_MLP_INPUT_X_RANK, {kDLFloat, 32, 1}, xShape, NULL, 0};
  DLTensor yTensor = {probs, {kDLCPU, 0}, TINY_MLP_OUTPUT_PROBS_RANK, {kDLFloat, 32, 1}, yShape,
                      NULL, 0};

  tcc_model *model = NULL;
  tcc_session *session = NULL;
  tcc_status status = tcc_model_load(TINY_MLP_LIBRARY, NULL, &model);
  if (!status)
    status = tcc_session_create(model, NULL, &session);
  if (!status)
    status = tiny_mlp_run(session, &xTensor, &yTensor);
  if (status) {
    fprintf(stderr, "classify: %s\n", tcc_status_message(status));
    tcc_status_free(status);
    return 1;
  }
  for (int b = 0; b < kBatch; ++b) {
    int best = 0;
    for (int c = 1; c < kClasses; ++c)
      if (probs[b * kClasses + c] > probs[b * kClasses + best])
        best = c;
    printf("sample %d: class %d (p = %.3f)\n", b, best, probs[b * kClasses + best]);
  }
  tcc_session_release(session);
  tcc_model_release(model);
  return 0;
}
