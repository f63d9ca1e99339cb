//===- ComputedSymbolTest.cpp - symbols computed from input elements ---------------------===//
//
// A Range whose bounds are inputs has a length known only from the inputs' elements: the
// descriptor marks that symbol computed (symbol_computed) and compute_symbols writes its value
// once the shapes have bound the others, before anything is sized. TestModel's second symbol
// `m` becomes such a symbol here: m = the first element of x, truncated (-1 when negative).
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"
#include "TestModel.h"

using namespace tcc_test;

namespace {

std::atomic<int> computeCalls{0};

int32_t computeM(int64_t *symbolValues, void *const *inputs) {
  computeCalls++;
  float first = static_cast<const float *>(inputs[0])[0];
  symbolValues[1] = first < 0 ? -1 : static_cast<int64_t>(first);
  return TCC_RUN_OK;
}

int32_t failingCompute(int64_t *, void *const *) { return TCC_RUN_CHECK_FAILED; }

/// TestModel with `m` computed from x.
struct ComputedModel : TestModel {
  uint8_t computed[2] = {0, 1};
  ComputedModel() {
    descriptor.num_symbols = 2;
    descriptor.symbol_computed = computed;
    descriptor.compute_symbols = computeM;
  }
};

tcc_status create(const TestModel &testModel, tcc_model **model) {
  return tcc_model_create_from_descriptor(&testModel.descriptor, nullptr, model);
}

} // namespace

TEST_CASE("computed symbols come from compute_symbols, after the shapes", "[model][computed]") {
  ComputedModel testModel;
  tcc_model *raw = nullptr;
  REQUIRE_OK(create(testModel, &raw));
  Model model(raw);
  CHECK(tcc_model_symbol_computed(raw, 0) == 0);
  CHECK(tcc_model_symbol_computed(raw, 1) == 1);
  CHECK(tcc_model_symbol_computed(raw, 2) == 0);
  CHECK(tcc_model_symbol_computed(nullptr, 1) == 0);

  HostTensor<float> x({3, 2}, kFloat32, {7.5f, 1, 2, 3, 4, 5});
  const DLTensor *inputs[] = {&x.dl};
  int64_t values[2] = {0, 0};
  computeCalls = 0;
  REQUIRE_OK(tcc_model_bind_symbols(raw, inputs, 1, values, 2));
  CHECK(values[0] == 3);
  CHECK(values[1] == 7);
  CHECK(computeCalls == 1);

  // Outside the symbol's range [1, 16]: an error naming the symbol and the value.
  x.data[0] = 40.0f;
  requireError(tcc_model_bind_symbols(raw, inputs, 1, values, 2), TCC_STATUS_OUT_OF_RANGE,
               {"symbol 'm', computed from the inputs' data, is 40, outside its range [1, 16]"});
  x.data[0] = -3.0f;
  requireError(tcc_model_bind_symbols(raw, inputs, 1, values, 2), TCC_STATUS_OUT_OF_RANGE,
               {"is -1", "(-1: the inputs give it no value, e.g. a Range whose delta is 0)"});

  // A session computes it before every run.
  Session session = createSession(raw, 1);
  x.data[0] = 2.0f;
  HostTensor<float> y({3, 2}, kFloat32);
  const DLTensor *outputs[] = {&y.dl};
  computeCalls = 0;
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  CHECK(computeCalls == 1);
  CHECK(y.data[1] == 2.0f);
  x.data[0] = -1.0f;
  requireError(tcc_session_run(session.get(), inputs, 1, outputs, 1), TCC_STATUS_OUT_OF_RANGE,
               {"tcc_session_run: symbol 'm', computed from the inputs' data, is -1"});
}

TEST_CASE("a failing compute_symbols fails the binding", "[model][computed]") {
  ComputedModel testModel;
  testModel.descriptor.compute_symbols = failingCompute;
  tcc_model *raw = nullptr;
  REQUIRE_OK(create(testModel, &raw));
  Model model(raw);
  HostTensor<float> x({1, 2}, kFloat32, {1, 2});
  const DLTensor *inputs[] = {&x.dl};
  int64_t values[2];
  requireError(tcc_model_bind_symbols(raw, inputs, 1, values, 2), TCC_STATUS_CHECK_FAILED,
               {"the model's compute_symbols failed with code 1"});
}

TEST_CASE("inconsistent computed symbols are rejected", "[model][computed][descriptor]") {
  tcc_model *raw = nullptr;
  {
    ComputedModel testModel;
    testModel.descriptor.compute_symbols = nullptr;
    requireError(create(testModel, &raw), TCC_STATUS_INVALID_MODEL,
                 {"symbol 1 'm' is computed from the inputs' data, but compute_symbols is null"});
  }
  {
    ComputedModel testModel; // n is bound by x's dim 0 and cannot be computed too
    testModel.computed[0] = 1;
    requireError(create(testModel, &raw), TCC_STATUS_INVALID_MODEL,
                 {"symbol 0 'n' is computed from the inputs' data, but an input dim binds it too"});
  }
  {
    ComputedModel testModel; // a batch split computes images alone; m is for the whole batch
    testModel.descriptor.flags = TCC_MODEL_IMAGES_ALONE;
    testModel.descriptor.batch_symbol = 0;
    requireError(create(testModel, &raw), TCC_STATUS_INVALID_MODEL,
                 {"but the model has a batch_symbol"});
  }
  {
    // A descriptor from before computed symbols: m is used by no input.
    ComputedModel testModel;
    testModel.descriptor.size = TCC_MODEL_DESCRIPTOR_V2_SIZE;
    requireError(create(testModel, &raw), TCC_STATUS_INVALID_MODEL,
                 {"symbol 1 'm' is used by no input"});
  }
}
