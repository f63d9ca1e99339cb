// train_mlp.c - trains a small MLP from C with a model compiled by `tcc --train`.
//
//   tcc examples/train_mlp/model.onnx --train sgd --lr 0.05 --loss loss -o train_mlp.so
//   train_mlp train_mlp.so [steps]
//
// The compiled library is one SGD training step: each tcc_session_run computes the loss on
// the batch, its gradients with respect to every weight (by tcc's reverse-mode autodiff),
// and updates the weights in place in the session (p -= lr * dloss/dp). The weights are
// "parameters": the session owns a writable copy, readable and writable by name.
//
// The data is synthetic: points x in [-2, 2]^2 with target t = sin(x0) * cos(x1) / 2, a new
// random batch each step. The program prints the loss as training goes; it must fall.
#include <tcc/runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BATCH 32

static int fail(tcc_status status) {
  fprintf(stderr, "error: %s\n", tcc_status_message(status));
  tcc_status_free(status);
  return 1;
}

/// A DLTensor over `data` with `ndim` extents from `shape` (float32, on the CPU).
static DLTensor tensor(float *data, int32_t ndim, int64_t *shape) {
  DLTensor t = {0};
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

/// A uniform random number in [lo, hi) from a small linear congruential generator.
static float uniform(unsigned long long *state, float lo, float hi) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return lo + (hi - lo) * (float)((*state >> 40) & 0xFFFFFF) / 16777216.0f;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s train_mlp.so [steps]\n", argv[0]);
    return 2;
  }
  int steps = argc > 2 ? atoi(argv[2]) : 300;
  tcc_model *model = NULL;
  tcc_status status = tcc_model_load(argv[1], NULL, &model);
  if (status)
    return fail(status);
  tcc_session *session = NULL;
  if ((status = tcc_session_create(model, NULL, &session))) {
    tcc_model_release(model);
    return fail(status);
  }
  // The parameters the step updates.
  for (int32_t i = 0; i < tcc_model_num_parameters(model); ++i) {
    tcc_tensor_info info;
    if (!tcc_model_parameter_info(model, i, &info))
      printf("parameter %s: rank %d\n", info.name, (int)info.rank);
  }

  float x[BATCH * 2], t[BATCH], y[BATCH], loss = 0, grads[16 * 2 + 16 + 16 + 1];
  int64_t xShape[] = {BATCH, 2}, tShape[] = {BATCH, 1}, yShape[] = {BATCH, 1};
  DLTensor xT = tensor(x, 2, xShape), tT = tensor(t, 2, tShape), yT = tensor(y, 2, yShape);
  DLTensor lossT = tensor(&loss, 0, NULL);
  // The library also returns the gradients (grad.W1, grad.b1, grad.W2, grad.b2).
  int64_t g1[] = {2, 16}, g2[] = {16}, g3[] = {16, 1}, g4[] = {1};
  DLTensor gW1 = tensor(grads, 2, g1), gb1 = tensor(grads + 32, 1, g2),
           gW2 = tensor(grads + 48, 2, g3), gb2 = tensor(grads + 64, 1, g4);
  const DLTensor *inputs[] = {&xT, &tT};
  const DLTensor *outputs[] = {&yT, &lossT, &gW1, &gb1, &gW2, &gb2};
  unsigned long long state = 42;
  float first = 0, average = 0;
  for (int step = 0; step < steps; ++step) {
    for (int i = 0; i < BATCH; ++i) {
      x[2 * i] = uniform(&state, -2, 2);
      x[2 * i + 1] = uniform(&state, -2, 2);
      t[i] = sinf(x[2 * i]) * cosf(x[2 * i + 1]) / 2;
    }
    if ((status = tcc_session_run(session, inputs, 2, outputs, 6)))
      break;
    if (step == 0)
      first = loss;
    average = step < 20 ? loss : 0.95f * average + 0.05f * loss;
    if (step % 50 == 0 || step == steps - 1)
      printf("step %3d  loss %.5f  (running average %.5f)\n", step, loss, average);
  }
  // A weight, read back by name from the session.
  float b2 = 0;
  int64_t b2Shape[] = {1};
  DLTensor b2T = tensor(&b2, 1, b2Shape);
  if (!status)
    status = tcc_session_read_parameter(session, "b2", &b2T);
  if (!status)
    printf("first loss %.5f, last running average %.5f, b2 = %.5f\n", first, average, b2);
  tcc_session_release(session);
  tcc_model_release(model);
  return status ? fail(status) : 0;
}
