//===- SequenceTest.cpp - sequences at the interface: checks, queries, pack, element views --===//
//
// A model defined here takes a sequence of float vectors as its inputs `s.shapes` (int64
// [count, 1]) and `s.data` (float [size]) and returns the data doubled as `y`, described by the
// descriptor's sequence list. The runtime must check the rows against the data before run
// sees them, and its helpers pack a list of tensors and view an element of a packed one.
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"
#include "TestModel.h"

#include <cstring>

using namespace tcc_test;

namespace {

std::atomic<int> runs{0};

int64_t noWorkspace(const int64_t *) { return 0; }

int32_t dataShapes(const int64_t *symbols, int64_t *shapes) {
  shapes[0] = symbols[1];
  return TCC_RUN_OK;
}

int32_t doubleData(const tcc_import_table *, const int64_t *symbols, void *const *inputs,
                   void *const *outputs, void *) {
  runs++;
  const float *x = static_cast<const float *>(inputs[1]);
  float *y = static_cast<float *>(outputs[0]);
  for (int64_t i = 0; i < symbols[1]; ++i)
    y[i] = 2 * x[i];
  return TCC_RUN_OK;
}

/// TestModel's descriptor with its own symbols, tensors and entry points and a sequence list.
struct SequenceModel : TestModel {
  tcc_symbol_desc sequenceSymbols[2] = {{"s_count", 0, -1}, {"s_size", 0, -1}};
  int64_t shapesShape[2] = {-1, 1}, dataShape[1] = {-1};
  int32_t shapesSymbols[2] = {0, -1}, dataSymbols[1] = {1};
  tcc_tensor_desc sequenceInputs[2] = {{"s.shapes", TCC_DTYPE_INT64, 2, shapesShape, shapesSymbols},
                                       {"s.data", TCC_DTYPE_FLOAT32, 1, dataShape, dataSymbols}};
  tcc_tensor_desc doubled[1] = {{"y", TCC_DTYPE_FLOAT32, 1, dataShape, dataSymbols}};
  tcc_sequence_desc sequences[1] = {{"s", 0, 0, 1, 0}};

  SequenceModel() {
    descriptor.num_symbols = 2;
    descriptor.num_inputs = 2;
    descriptor.symbols = sequenceSymbols;
    descriptor.inputs = sequenceInputs;
    descriptor.outputs = doubled;
    descriptor.workspace_size = noWorkspace;
    descriptor.output_shapes = dataShapes;
    descriptor.run = doubleData;
    descriptor.num_sequences = 1;
    descriptor.sequences = sequences;
  }
};

Model create(const SequenceModel &m) {
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&m.descriptor, nullptr, &raw));
  return Model(raw);
}

} // namespace

TEST_CASE("sequence inputs are described, packed, checked and run", "[sequence]") {
  SequenceModel m;
  Model model = create(m);
  REQUIRE(tcc_model_num_sequences(model.get()) == 1);
  CHECK(tcc_model_num_sequences(nullptr) == 0);
  tcc_sequence_info info{};
  REQUIRE_OK(tcc_model_sequence_info(model.get(), 0, &info));
  CHECK(std::string(info.name) == "s");
  CHECK(info.is_output == 0);
  CHECK(info.shapes_index == 0);
  CHECK(info.data_index == 1);
  CHECK(info.dtype == TCC_DTYPE_FLOAT32);
  CHECK(info.element_rank == 1);
  requireError(tcc_model_sequence_info(model.get(), 1, &info), TCC_STATUS_OUT_OF_RANGE,
               {"index 1 is out of range: the model has 1 sequences"});

  // Pack [1, 2] and [3, 4, 5], run, and view the elements of the packed pair.
  HostTensor<float> a({2}, kFloat32, {1, 2}), b({3}, kFloat32, {3, 4, 5});
  const DLTensor *elements[] = {&a.dl, &b.dl};
  HostTensor<int64_t> shapes({2, 1}, kInt64);
  HostTensor<float> data({5}, kFloat32);
  REQUIRE_OK(tcc_sequence_pack(elements, 2, &shapes.dl, &data.dl));
  CHECK(shapes.data == std::vector<int64_t>{2, 3});
  CHECK(data.data == std::vector<float>{1, 2, 3, 4, 5});
  Session session = createSession(model.get(), 1);
  HostTensor<float> y({5}, kFloat32);
  const DLTensor *inputs[] = {&shapes.dl, &data.dl};
  const DLTensor *outputs[] = {&y.dl};
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 2, outputs, 1));
  CHECK(y.data == std::vector<float>{2, 4, 6, 8, 10});
  int64_t shape[1] = {0};
  DLTensor view{};
  REQUIRE_OK(tcc_sequence_element(&shapes.dl, &data.dl, 1, shape, &view));
  CHECK(view.ndim == 1);
  CHECK(view.shape[0] == 3);
  CHECK(static_cast<const float *>(view.data)[view.byte_offset / sizeof(float)] == 3.0f);
  requireError(tcc_sequence_element(&shapes.dl, &data.dl, 2, shape, &view), TCC_STATUS_OUT_OF_RANGE,
               {"index 2 is outside the sequence of 2 elements"});

  // Rows that do not add up to the data, or a negative extent: refused before the run.
  int before = runs;
  shapes.data = {2, 4};
  requireError(tcc_session_run(session.get(), inputs, 2, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"sequence 's'", "the elements up to 1 hold more than the 5 values of its data"});
  shapes.data = {1, 3};
  requireError(tcc_session_run(session.get(), inputs, 2, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"sequence 's': its 2 elements hold 4 values, but its data has 5"});
  shapes.data = {-1, 6};
  requireError(tcc_session_run(session.get(), inputs, 2, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"element 0 has extent -1 in dim 0"});
  CHECK(runs == before);
  requireError(tcc_sequence_element(&shapes.dl, &data.dl, 1, shape, &view),
               TCC_STATUS_INVALID_ARGUMENT, {"extent -1"});

  // An empty sequence runs.
  HostTensor<int64_t> noShapes({0, 1}, kInt64);
  HostTensor<float> noData({0}, kFloat32), noY({0}, kFloat32);
  const DLTensor *emptyInputs[] = {&noShapes.dl, &noData.dl};
  const DLTensor *emptyOutputs[] = {&noY.dl};
  REQUIRE_OK(tcc_sequence_pack(nullptr, 0, &noShapes.dl, &noData.dl));
  REQUIRE_OK(tcc_session_run(session.get(), emptyInputs, 2, emptyOutputs, 1));
}

TEST_CASE("tcc_sequence_pack refuses what does not fit", "[sequence]") {
  HostTensor<float> a({2}, kFloat32, {1, 2});
  HostTensor<int32_t> wrongType({1}, kInt32, {7});
  HostTensor<float> matrix({1, 1}, kFloat32, {1});
  HostTensor<int64_t> shapes({2, 1}, kInt64, {-5, -5});
  HostTensor<float> data({3}, kFloat32, {9, 9, 9});
  const DLTensor *mixed[] = {&a.dl, &wrongType.dl};
  requireError(tcc_sequence_pack(mixed, 2, &shapes.dl, &data.dl), TCC_STATUS_INVALID_ARGUMENT,
               {"element 1's dtype differs from data's"});
  const DLTensor *ranks[] = {&a.dl, &matrix.dl};
  requireError(tcc_sequence_pack(ranks, 2, &shapes.dl, &data.dl), TCC_STATUS_INVALID_ARGUMENT,
               {"element 1 has rank 2, expected 1"});
  const DLTensor *tooFew[] = {&a.dl, &a.dl};
  requireError(tcc_sequence_pack(tooFew, 2, &shapes.dl, &data.dl), TCC_STATUS_INVALID_ARGUMENT,
               {"the elements hold 4 values, but data has 3"});
  requireError(tcc_sequence_pack(tooFew, 1, &shapes.dl, &data.dl), TCC_STATUS_INVALID_ARGUMENT,
               {"shapes has 2 rows for 1 elements"});
  // Nothing was written.
  CHECK(shapes.data == std::vector<int64_t>{-5, -5});
  CHECK(data.data == std::vector<float>{9, 9, 9});
}

TEST_CASE("a descriptor's sequence list is validated", "[sequence][model]") {
  SequenceModel m;
  m.sequences[0].data_index = 2;
  requireError(createFrom(m.descriptor), TCC_STATUS_INVALID_MODEL,
               {"sequence 0 is not a pair of distinct inputs"});
  m.sequences[0].data_index = 0;
  requireError(createFrom(m.descriptor), TCC_STATUS_INVALID_MODEL, {"sequence 0"});
  m.sequences[0] = {"s", 0, 1, 0, 0}; // shapes would be the float vector
  requireError(createFrom(m.descriptor), TCC_STATUS_INVALID_MODEL, {"an int64 [count, rank"});
  m.sequences[0] = {"s", 0, 0, 1, 0};
  m.descriptor.num_sequences = -1;
  requireError(createFrom(m.descriptor), TCC_STATUS_INVALID_MODEL, {"num_sequences is -1"});
  // A descriptor that ends before the list has no sequences.
  m.descriptor.num_sequences = 1;
  m.descriptor.size = TCC_MODEL_DESCRIPTOR_V5_SIZE;
  Model model = create(m);
  CHECK(tcc_model_num_sequences(model.get()) == 0);
}
