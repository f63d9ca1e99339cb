//===- OptionalTest.cpp - optionals at the interface: flags, stand-ins, queries ----------===//
//
// A model defined here takes x (float [n, 2]), an optional b (float [n, 2], flag b.present)
// and an optional e (float [m], flag e.present) and returns y = x + b, whatever b's flag
// says: for an empty b the runtime must pass zeros of b's shape (n from x), so y = x. It
// records the m it was given (0, e's minimum, when e is empty and nothing else gives it).
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"
#include "TestModel.h"

#include <cstring>

using namespace tcc_test;

namespace {

constexpr DLDataType kBool = kUInt8; // DLPack 0.6 has no bool: uint8 (dtype.c)
std::atomic<int> runs{0};
std::atomic<int64_t> lastM{-1};

int64_t noWorkspace(const int64_t *) { return 0; }

int32_t xShapes(const int64_t *symbols, int64_t *shapes) {
  shapes[0] = symbols[0];
  shapes[1] = 2;
  return TCC_RUN_OK;
}

int32_t addB(const tcc_import_table *, const int64_t *symbols, void *const *inputs,
             void *const *outputs, void *) {
  runs++;
  lastM = symbols[1];
  const float *x = static_cast<const float *>(inputs[0]);
  const float *b = static_cast<const float *>(inputs[1]);
  float *y = static_cast<float *>(outputs[0]);
  for (int64_t i = 0; i < symbols[0] * 2; ++i)
    y[i] = x[i] + b[i];
  return TCC_RUN_OK;
}

/// TestModel's descriptor with its own symbols, tensors and entry points and two optionals.
struct OptionalModel : TestModel {
  tcc_symbol_desc optionalSymbols[2] = {{"n", 1, 16}, {"m", 0, -1}};
  int64_t xShape[2] = {-1, 2}, flagShape[1] = {0}, eShape[1] = {-1};
  int32_t xSymbols[2] = {0, -1}, eSymbols[1] = {1};
  tcc_tensor_desc optionalInputs[5] = {{"x", TCC_DTYPE_FLOAT32, 2, xShape, xSymbols},
                                       {"b", TCC_DTYPE_FLOAT32, 2, xShape, xSymbols},
                                       {"b.present", TCC_DTYPE_BOOL, 0, flagShape, nullptr},
                                       {"e", TCC_DTYPE_FLOAT32, 1, eShape, eSymbols},
                                       {"e.present", TCC_DTYPE_BOOL, 0, flagShape, nullptr}};
  tcc_tensor_desc sum[1] = {{"y", TCC_DTYPE_FLOAT32, 2, xShape, xSymbols}};
  tcc_optional_desc optionals[2] = {{"b", 0, 2, 1, 1}, {"e", 0, 4, 3, 1}};

  OptionalModel() {
    descriptor.num_symbols = 2;
    descriptor.num_inputs = 5;
    descriptor.symbols = optionalSymbols;
    descriptor.inputs = optionalInputs;
    descriptor.outputs = sum;
    descriptor.workspace_size = noWorkspace;
    descriptor.output_shapes = xShapes;
    descriptor.run = addB;
    descriptor.num_optionals = 2;
    descriptor.optionals = optionals;
  }
};

Model create(const OptionalModel &m) {
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&m.descriptor, nullptr, &raw));
  return Model(raw);
}

} // namespace

TEST_CASE("optional inputs are described, and an empty one's value is zeros", "[optional]") {
  OptionalModel m;
  Model model = create(m);
  REQUIRE(tcc_model_num_optionals(model.get()) == 2);
  CHECK(tcc_model_num_optionals(nullptr) == 0);
  tcc_optional_info info{};
  REQUIRE_OK(tcc_model_optional_info(model.get(), 1, &info));
  CHECK(std::string(info.name) == "e");
  CHECK(info.is_output == 0);
  CHECK(info.present_index == 4);
  CHECK(info.first_index == 3);
  CHECK(info.count == 1);
  requireError(tcc_model_optional_info(model.get(), 2, &info), TCC_STATUS_OUT_OF_RANGE,
               {"index 2 is out of range: the model has 2 optionals"});

  HostTensor<float> x({3, 2}, kFloat32, {1, 2, 3, 4, 5, 6});
  HostTensor<float> b({3, 2}, kFloat32, {10, 20, 30, 40, 50, 60});
  HostTensor<float> e({4}, kFloat32, {7, 7, 7, 7});
  HostTensor<uint8_t> yes({}, kBool, {1}), no({}, kBool, {0});
  HostTensor<float> y({3, 2}, kFloat32);
  const DLTensor *outputs[] = {&y.dl};
  Session session = createSession(model.get(), 1);

  // Both present: the values as given.
  const DLTensor *present[] = {&x.dl, &b.dl, &yes.dl, &e.dl, &yes.dl};
  REQUIRE_OK(tcc_session_run(session.get(), present, 5, outputs, 1));
  CHECK(y.data == std::vector<float>{11, 22, 33, 44, 55, 66});
  CHECK(lastM == 4);

  // Both empty, their values null: zeros of b's shape (n from x), e of extent m's minimum.
  const DLTensor *empty[] = {&x.dl, nullptr, &no.dl, nullptr, &no.dl};
  REQUIRE_OK(tcc_session_run(session.get(), empty, 5, outputs, 1));
  CHECK(y.data == std::vector<float>{1, 2, 3, 4, 5, 6});
  CHECK(lastM == 0);
  int64_t symbols[2] = {-5, -5};
  REQUIRE_OK(tcc_model_bind_symbols(model.get(), empty, 5, symbols, 2));
  CHECK(symbols[0] == 3);
  CHECK(symbols[1] == 0);

  // An empty optional's value is ignored, whatever was passed: a tensor of the wrong shape
  // and data here.
  HostTensor<float> wrong({1, 7}, kFloat32, {9, 9, 9, 9, 9, 9, 9});
  const DLTensor *ignored[] = {&x.dl, &wrong.dl, &no.dl, &e.dl, &yes.dl};
  REQUIRE_OK(tcc_session_run(session.get(), ignored, 5, outputs, 1));
  CHECK(y.data == std::vector<float>{1, 2, 3, 4, 5, 6});

  // The flags: non-null bool scalars on the CPU; a present value must be given.
  int before = runs;
  const DLTensor *noFlag[] = {&x.dl, &b.dl, nullptr, &e.dl, &yes.dl};
  requireError(tcc_session_run(session.get(), noFlag, 5, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"input 2 'b.present' is null"});
  HostTensor<float> floatFlag({}, kFloat32, {1});
  const DLTensor *badFlag[] = {&x.dl, &b.dl, &floatFlag.dl, &e.dl, &yes.dl};
  requireError(tcc_session_run(session.get(), badFlag, 5, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"'b.present' has dtype float32, expected bool"});
  HostTensor<uint8_t> vectorFlag({1}, kBool, {1});
  const DLTensor *rankFlag[] = {&x.dl, &b.dl, &vectorFlag.dl, &e.dl, &yes.dl};
  requireError(tcc_session_run(session.get(), rankFlag, 5, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"'b.present' has rank 1, expected 0"});
  const DLTensor *missing[] = {&x.dl, nullptr, &yes.dl, &e.dl, &yes.dl};
  requireError(tcc_session_run(session.get(), missing, 5, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"input 1 'b' is null"});
  CHECK(runs == before);
}

TEST_CASE("a descriptor's optional list is validated", "[optional][model]") {
  OptionalModel m;
  m.optionals[0].present_index = 0; // x is not a bool scalar
  requireError(createFrom(m.descriptor), TCC_STATUS_INVALID_MODEL,
               {"optional 0 is not a bool scalar flag and a value of 1 tensor"});
  m.optionals[0] = {"b", 0, 2, 1, 2}; // two tensors, but no sequence of the list
  requireError(createFrom(m.descriptor), TCC_STATUS_INVALID_MODEL, {"optional 0"});
  m.optionals[0] = {"b", 0, 2, 4, 1}; // e's tensors
  m.optionals[1] = {"e", 0, 4, 3, 1};
  requireError(createFrom(m.descriptor), TCC_STATUS_INVALID_MODEL, {"optional 1"});
  m.optionals[0] = {"b", 0, 2, 1, 1};
  m.optionals[1] = {"e", 2, 4, 3, 1};
  requireError(createFrom(m.descriptor), TCC_STATUS_INVALID_MODEL, {"optional 1"});
  m.optionals[1] = {"e", 0, 4, 5, 1}; // past the inputs
  requireError(createFrom(m.descriptor), TCC_STATUS_INVALID_MODEL, {"optional 1"});
  m.optionals[1] = {"e", 0, 4, 3, 1};
  m.descriptor.num_optionals = 3;
  m.descriptor.optionals = nullptr;
  requireError(createFrom(m.descriptor), TCC_STATUS_INVALID_MODEL,
               {"num_optionals is 3 with optionals null"});
  // A descriptor that ends before the list has no optionals.
  m.descriptor.optionals = m.optionals;
  m.descriptor.size = TCC_MODEL_DESCRIPTOR_V6_SIZE;
  Model model = create(m);
  CHECK(tcc_model_num_optionals(model.get()) == 0);
}
