//===- SessionTest.cpp - sessions: creation, runs, tensor checks, workspace, errors -----===//
#include "RuntimeTestUtils.h"
#include "TestModel.h"

#include <cstring>
#include <thread>

using namespace tcc_test;

namespace {
/// The expected y of the add fixture for AddTensors(n): y[i] = i + 10 i.
void checkAddResult(const AddTensors &t) {
  for (size_t i = 0; i < t.y.data.size(); ++i)
    REQUIRE(t.y.data[i] == 11.0f * static_cast<float>(i));
}
} // namespace

//===------------------------------------------------------------------------------------===//
// Creation
//===------------------------------------------------------------------------------------===//

TEST_CASE("sessions resolve their thread count", "[session]") {
  Model model = loadModel("add");
  Session automatic = createSession(model.get(), 0);
  CHECK(tcc_session_num_threads(automatic.get()) >= 1);
  CHECK(tcc_session_num_threads(createSession(model.get(), 1).get()) == 1);
  CHECK(tcc_session_num_threads(createSession(model.get(), 4).get()) == 4);
  CHECK(tcc_session_model(automatic.get()) == model.get());
  tcc_session *session = nullptr;
  REQUIRE_OK(tcc_session_create(model.get(), nullptr, &session)); // NULL options: defaults
  CHECK(tcc_session_num_threads(session) == tcc_session_num_threads(automatic.get()));
  tcc_session_release(session);
  CHECK(tcc_session_num_threads(nullptr) == 0);
  CHECK(tcc_session_model(nullptr) == nullptr);
  tcc_session_release(nullptr);
}

TEST_CASE("tcc_session_options_init gives the defaults", "[session]") {
  tcc_session_options options;
  std::memset(&options, 0x7f, sizeof(options));
  tcc_session_options_init(&options);
  CHECK(options.size == sizeof(tcc_session_options));
  CHECK(options.num_threads == 0);
  tcc_session_options_init(nullptr);
}

TEST_CASE("tcc_session_create rejects bad arguments", "[session]") {
  Model model = loadModel("add");
  tcc_session *session = nullptr;
  tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
  options.num_threads = -1;
  requireError(tcc_session_create(model.get(), &options, &session), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_session_create: num_threads is -1, expected 0 (one per core) to 1024"});
  options.num_threads = 1025;
  requireError(tcc_session_create(model.get(), &options, &session), TCC_STATUS_INVALID_ARGUMENT,
               {"num_threads is 1025"});
  options = TCC_SESSION_OPTIONS_INIT;
  options.size = 1;
  requireError(tcc_session_create(model.get(), &options, &session), TCC_STATUS_INVALID_ARGUMENT,
               {"options->size is 1", "TCC_SESSION_OPTIONS_INIT"});
  requireError(tcc_session_create(nullptr, nullptr, &session), TCC_STATUS_INVALID_ARGUMENT,
               {"model is null"});
  requireError(tcc_session_create(model.get(), nullptr, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"out_session is null"});
  CHECK(session == nullptr);
}

TEST_CASE("a session keeps its model alive", "[session]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 2);
  model.reset();
  AddTensors t(5);
  REQUIRE_OK(t.run(session.get()));
  checkAddResult(t);
  tcc_tensor_info info{};
  REQUIRE_OK(tcc_model_input_info(tcc_session_model(session.get()), 0, &info));
  CHECK(std::string(info.name) == "a");
}

//===------------------------------------------------------------------------------------===//
// Good runs
//===------------------------------------------------------------------------------------===//

TEST_CASE("the add model computes a + b", "[session][run]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  REQUIRE_OK(t.run(session.get()));
  checkAddResult(t);
}

TEST_CASE("thread counts 1 and 4 give identical results", "[session][run][threads]") {
  Model model = loadModel("add");
  std::vector<std::vector<float>> results;
  for (int32_t threads : {1, 4, 2, 0}) {
    Session session = createSession(model.get(), threads);
    AddTensors t(64);
    for (size_t i = 0; i < t.a.data.size(); ++i) { // values whose sums round
      t.a.data[i] = 0.1f * static_cast<float>(i) + 1e-3f;
      t.b.data[i] = 1.0f / (1.0f + static_cast<float>(i));
    }
    REQUIRE_OK(t.run(session.get()));
    results.push_back(t.y.data);
  }
  for (size_t k = 1; k < results.size(); ++k)
    CHECK(std::memcmp(results[0].data(), results[k].data(), results[0].size() * 4) == 0);
}

TEST_CASE("sessions of one model run at once on several threads", "[session][run][threads]") {
  Model model = loadModel("add");
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&, k] {
      tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
      options.num_threads = 2;
      tcc_session *session = nullptr;
      if (tcc_status status = tcc_session_create(model.get(), &options, &session)) {
        tcc_status_free(status);
        ++failures;
        return;
      }
      for (int run = 0; run < 200; ++run) {
        AddTensors t(1 + (k * 7 + run) % 64);
        tcc_status status = t.run(session);
        if (status) {
          tcc_status_free(status);
          ++failures;
          continue;
        }
        for (size_t i = 0; i < t.y.data.size(); ++i)
          if (t.y.data[i] != 11.0f * static_cast<float>(i))
            ++failures;
      }
      tcc_session_release(session);
    });
  for (std::thread &thread : threads)
    thread.join();
  CHECK(failures == 0);
}

TEST_CASE("explicit row-major strides and any stride of extent-1 dims are accepted",
          "[session][run]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  int64_t strides[] = {4, 1};
  t.a.dl.strides = strides;
  REQUIRE_OK(t.run(session.get()));
  checkAddResult(t);
  AddTensors one(1);
  int64_t odd[] = {999, 1};
  one.b.dl.strides = odd;
  REQUIRE_OK(one.run(session.get()));
  checkAddResult(one);
}

TEST_CASE("byte_offset is honoured", "[session][run]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(2);
  std::vector<float> shifted(1 + t.a.data.size());
  std::memcpy(shifted.data() + 1, t.a.data.data(), t.a.data.size() * 4);
  t.a.dl.data = shifted.data();
  t.a.dl.byte_offset = 4;
  REQUIRE_OK(t.run(session.get()));
  checkAddResult(t);
}

TEST_CASE("bool and int32 and int64 tensors and scalar outputs and derived dims", "[session][run]") {
  Model model = loadModel("mixed");
  Session session = createSession(model.get(), 4);
  for (uint8_t boolCode : {static_cast<uint8_t>(kDLUInt), static_cast<uint8_t>(6)}) {
    INFO("bool code " << int(boolCode));
    HostTensor<uint8_t> mask({5}, DLDataType{boolCode, 8, 1}, {1, 0, 1, 1, 0});
    HostTensor<int32_t> x({5}, kInt32, {1, 2, 3, 4, 5});
    HostTensor<int32_t> y({5}, kInt32);
    HostTensor<int64_t> count({}, kInt64, {-1});
    HostTensor<int32_t> both({10}, kInt32);
    const DLTensor *inputs[] = {mask.get(), x.get()};
    const DLTensor *outputs[] = {y.get(), count.get(), both.get()};
    REQUIRE_OK(tcc_session_run(session.get(), inputs, 2, outputs, 3));
    CHECK(y.data == std::vector<int32_t>{1, 0, 3, 4, 0});
    CHECK(count.data[0] == 3);
    CHECK(both.data == std::vector<int32_t>{1, 0, 3, 4, 0, 1, 2, 3, 4, 5});
  }
}

TEST_CASE("tensors without elements may have null data", "[session][run]") {
  Model model = loadModel("mixed");
  Session session = createSession(model.get(), 2);
  HostTensor<uint8_t> mask({0}, kUInt8);
  HostTensor<int32_t> x({0}, kInt32);
  HostTensor<int32_t> y({0}, kInt32);
  HostTensor<int64_t> count({}, kInt64, {-1});
  HostTensor<int32_t> both({0}, kInt32);
  REQUIRE(mask.dl.data == nullptr);
  REQUIRE(both.dl.data == nullptr);
  const DLTensor *inputs[] = {mask.get(), x.get()};
  const DLTensor *outputs[] = {y.get(), count.get(), both.get()};
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 2, outputs, 3));
  CHECK(count.data[0] == 0);
}

//===------------------------------------------------------------------------------------===//
// Bad tensors: errors, never crashes
//===------------------------------------------------------------------------------------===//

TEST_CASE("wrong input and output counts are errors", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  const DLTensor *three[] = {t.a.get(), t.b.get(), t.a.get()};
  const DLTensor *outputs[] = {t.y.get()};
  requireError(tcc_session_run(session.get(), three, 3, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_session_run: expected 2 inputs, got 3"});
  requireError(tcc_session_run(session.get(), three, 1, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"expected 2 inputs, got 1"});
  requireError(tcc_session_run(session.get(), three, 2, outputs, 2), TCC_STATUS_INVALID_ARGUMENT,
               {"expected 1 outputs, got 2"});
  requireError(tcc_session_run(session.get(), three, 2, outputs, 0), TCC_STATUS_INVALID_ARGUMENT,
               {"expected 1 outputs, got 0"});
}

TEST_CASE("null pointers are errors", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  const DLTensor *outputs[] = {t.y.get()};
  requireError(tcc_session_run(session.get(), nullptr, 2, outputs, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"inputs is null"});
  const DLTensor *withNull[] = {t.a.get(), nullptr};
  requireError(tcc_session_run(session.get(), withNull, 2, outputs, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"input 1 'b' is null"});
  const DLTensor *inputs[] = {t.a.get(), t.b.get()};
  requireError(tcc_session_run(session.get(), inputs, 2, nullptr, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"outputs is null"});
  const DLTensor *nullOutput[] = {nullptr};
  requireError(tcc_session_run(session.get(), inputs, 2, nullOutput, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"output 0 'y' is null"});
  requireError(tcc_session_run(nullptr, inputs, 2, outputs, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"session is null"});
  t.b.dl.shape = nullptr;
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"input 1 'b' has rank 2 but a null shape"});
  t.b.dl.shape = t.b.shape.data();
  t.a.dl.data = nullptr;
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"input 0 'a' has null data but 12 elements"});
  t.a.dl.data = t.a.data.data();
  t.y.dl.data = nullptr;
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"output 0 'y' has null data but 12 elements"});
}

TEST_CASE("a wrong dtype is an error naming the input", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  t.b.dl.dtype = kInt32;
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_session_run: input 1 'b' has dtype int32, expected float32"});
  t.b.dl.dtype = DLDataType{kDLFloat, 32, 4};
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT, {"dtype float32x4"});
  t.b.dl.dtype = kFloat32;
  t.y.dl.dtype = DLDataType{kDLFloat, 64, 1};
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"output 0 'y' has dtype float64, expected float32"});
}

TEST_CASE("a bool input does not accept other one-byte types but uint8", "[session][errors]") {
  Model model = loadModel("mixed");
  Session session = createSession(model.get(), 1);
  HostTensor<uint8_t> mask({2}, DLDataType{kDLInt, 8, 1});
  HostTensor<int32_t> x({2}, kInt32);
  HostTensor<int32_t> y({2}, kInt32);
  HostTensor<int64_t> count({}, kInt64);
  HostTensor<int32_t> both({4}, kInt32);
  const DLTensor *inputs[] = {mask.get(), x.get()};
  const DLTensor *outputs[] = {y.get(), count.get(), both.get()};
  requireError(tcc_session_run(session.get(), inputs, 2, outputs, 3),
               TCC_STATUS_INVALID_ARGUMENT, {"input 0 'mask' has dtype int8, expected bool"});
}

TEST_CASE("a wrong rank is an error", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  HostTensor<float> cube({3, 4, 1}, kFloat32);
  const DLTensor *inputs[] = {cube.get(), t.b.get()};
  const DLTensor *outputs[] = {t.y.get()};
  requireError(tcc_session_run(session.get(), inputs, 2, outputs, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"input 0 'a' has rank 3, expected 2"});
  t.y.dl.ndim = -1;
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"output 0 'y' has rank -1, expected 2"});
}

TEST_CASE("static dims must match", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  HostTensor<float> wide({3, 5}, kFloat32);
  const DLTensor *inputs[] = {t.a.get(), wide.get()};
  const DLTensor *outputs[] = {t.y.get()};
  requireError(tcc_session_run(session.get(), inputs, 2, outputs, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"input 1 'b': dim 1 is 5, expected 4"});
  t.a.shape[1] = -4;
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"input 0 'a': dim 1 is -4, expected a non-negative extent"});
}

TEST_CASE("a symbol outside its range is an error", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors big(65);
  requireError(big.run(session.get()), TCC_STATUS_OUT_OF_RANGE,
               {"tcc_session_run: input 0 'a': dim 0 (symbol 'n') is 65, outside the symbol's "
                "range [1, 64]"});
  AddTensors empty(0);
  requireError(empty.run(session.get()), TCC_STATUS_OUT_OF_RANGE,
               {"(symbol 'n') is 0, outside the symbol's range [1, 64]"});
}

TEST_CASE("a symbol must have one value across inputs", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  HostTensor<float> five({5, 4}, kFloat32);
  const DLTensor *inputs[] = {t.a.get(), five.get()};
  const DLTensor *outputs[] = {t.y.get()};
  requireError(tcc_session_run(session.get(), inputs, 2, outputs, 1),
               TCC_STATUS_INVALID_ARGUMENT,
               {"input 1 'b': dim 0 (symbol 'n') is 5, but input 0 'a' dim 0 set n = 3"});
}

TEST_CASE("tensors must be compact row-major", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  int64_t padded[] = {8, 1};
  t.a.dl.strides = padded;
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"input 0 'a' is not compact row-major: dim 0 has stride 8, expected 4"});
  int64_t columnMajor[] = {1, 3};
  t.a.dl.strides = columnMajor;
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"dim 1 has stride 3, expected 1"});
}

TEST_CASE("a CPU model accepts only CPU tensors", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  // The runtime has a CUDA backend, but a CPU model's code reads its tensors on the host.
  t.b.dl.device = DLDevice{kDLCUDA, 0};
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"input 1 'b' is on device type 2 (CUDA); only CPU tensors (kDLCPU)"});
}

TEST_CASE("misaligned data is an error", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(2);
  std::vector<float> buffer(t.a.data.size() + 1);
  t.a.dl.data = buffer.data();
  t.a.dl.byte_offset = 2;
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"input 0 'a': data + byte_offset is not aligned to its 4-byte elements"});
}

TEST_CASE("absurd shapes are errors and not overflows", "[session][errors]") {
  Model model = loadModel("gather");
  Session session = createSession(model.get(), 1);
  HostTensor<float> data({8}, kFloat32);
  HostTensor<int64_t> indices({1}, kInt64);
  indices.shape[0] = INT64_MAX / 2; // outside k's range, but the byte size overflows first
  HostTensor<float> y({1}, kFloat32);
  const DLTensor *inputs[] = {data.get(), indices.get()};
  const DLTensor *outputs[] = {y.get()};
  requireError(tcc_session_run(session.get(), inputs, 2, outputs, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"input 1 'indices' is too large"});
}

TEST_CASE("outputs must have the computed shapes", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  HostTensor<float> y({4, 4}, kFloat32);
  const DLTensor *inputs[] = {t.a.get(), t.b.get()};
  const DLTensor *outputs[] = {y.get()};
  requireError(tcc_session_run(session.get(), inputs, 2, outputs, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"output 0 'y': dim 0 is 4, expected 3"});
  Model mixed = loadModel("mixed");
  Session mixedSession = createSession(mixed.get(), 1);
  HostTensor<uint8_t> mask({2}, kUInt8);
  HostTensor<int32_t> x({2}, kInt32);
  HostTensor<int32_t> y2({2}, kInt32);
  HostTensor<int64_t> count({}, kInt64);
  HostTensor<int32_t> both({2}, kInt32); // should be 2 * m = 4
  const DLTensor *mixedInputs[] = {mask.get(), x.get()};
  const DLTensor *mixedOutputs[] = {y2.get(), count.get(), both.get()};
  requireError(tcc_session_run(mixedSession.get(), mixedInputs, 2, mixedOutputs, 3),
               TCC_STATUS_INVALID_ARGUMENT, {"output 2 'both': dim 0 is 2, expected 4"});
}

TEST_CASE("outputs must not overlap inputs or each other", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  AddTensors t(3);
  t.y.dl.data = t.b.data.data();
  requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"output 0 'y' overlaps input 1 'b' in memory"});
  Model mixed = loadModel("mixed");
  Session mixedSession = createSession(mixed.get(), 1);
  HostTensor<uint8_t> mask({2}, kUInt8);
  HostTensor<int32_t> x({2}, kInt32);
  HostTensor<int32_t> y({2}, kInt32);
  HostTensor<int64_t> count({}, kInt64);
  HostTensor<int32_t> both({4}, kInt32);
  y.dl.data = both.data.data() + 1;
  const DLTensor *inputs[] = {mask.get(), x.get()};
  const DLTensor *outputs[] = {y.get(), count.get(), both.get()};
  requireError(tcc_session_run(mixedSession.get(), inputs, 2, outputs, 3),
               TCC_STATUS_INVALID_ARGUMENT, {"output 2 'both' overlaps output 0 'y' in memory"});
}

TEST_CASE("a session keeps working after rejected runs", "[session][errors]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 4);
  AddTensors bad(65);
  tcc_status_free(bad.run(session.get()));
  AddTensors good(7);
  REQUIRE_OK(good.run(session.get()));
  checkAddResult(good);
}

//===------------------------------------------------------------------------------------===//
// Errors raised by the model
//===------------------------------------------------------------------------------------===//

TEST_CASE("a failed run-time check returns the model's message", "[session][check]") {
  Model model = loadModel("gather");
  Session session = createSession(model.get(), 4);
  HostTensor<float> data({8}, kFloat32, {0, 10, 20, 30, 40, 50, 60, 70});
  HostTensor<int64_t> indices({4}, kInt64, {7, 0, 9, 2});
  HostTensor<float> y({4}, kFloat32);
  const DLTensor *inputs[] = {data.get(), indices.get()};
  const DLTensor *outputs[] = {y.get()};
  requireError(tcc_session_run(session.get(), inputs, 2, outputs, 1), TCC_STATUS_CHECK_FAILED,
               {"tcc_session_run: a run-time check of the model failed: gather 'y': an index is "
                "out of range [0, 8)"});
  indices.data[2] = 3;
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 2, outputs, 1));
  CHECK(y.data == std::vector<float>{70, 0, 30, 20});
}

TEST_CASE("broken model contracts are errors", "[session][check]") {
  TestModel testModel;
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&testModel.descriptor, nullptr, &raw));
  Model model(raw);
  Session session = createSession(model.get(), 2);
  HostTensor<float> x({3, 2}, kFloat32, {1, 2, 3, 4, 5, 6});
  HostTensor<float> y({3, 2}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  auto run = [&] { return tcc_session_run(session.get(), inputs, 1, outputs, 1); };
  TestModelBehaviour &b = behaviour();

  REQUIRE_OK(run());
  CHECK(y.data == std::vector<float>{2, 4, 6, 8, 10, 12});

  b.workspaceSize = -2;
  requireError(run(), TCC_STATUS_INTERNAL,
               {"the model's workspace_size returned the negative size -2"});
  // -1: the sizes saturated (PlanBuffers.cpp): values from the inputs ask for 2^48 bytes or
  // more.
  b.workspaceSize = -1;
  requireError(run(), TCC_STATUS_RESOURCE_EXHAUSTED,
               {"the intermediates these input values give need 256 TiB or more"});
  b.workspaceSize = INT64_MAX;
  requireError(run(), TCC_STATUS_RESOURCE_EXHAUSTED, {"cannot allocate a workspace of"});
  b.workspaceSize = 0;

  b.outputShapesCode = TCC_RUN_CHECK_FAILED;
  requireError(run(), TCC_STATUS_CHECK_FAILED, {"the model's output_shapes failed with code 1"});
  b.outputShapesCode = 42;
  requireError(run(), TCC_STATUS_INTERNAL, {"output_shapes failed with code 42"});
  b.outputShapesCode = TCC_RUN_OK;

  b.outputExtentOverride = 5;
  requireError(run(), TCC_STATUS_INTERNAL,
               {"output_shapes gave output 0 'y' dim 0 = 5, but its symbol n is 3"});
  b.outputExtentOverride = -1;
  requireError(run(), TCC_STATUS_INTERNAL, {"output 0 'y' dim 0 the negative extent -1"});
  b.outputExtentOverride = -100;

  b.runCode = 7;
  requireError(run(), TCC_STATUS_INTERNAL, {"the model's run returned the unknown code 7"});
  b.runCode = TCC_RUN_BAD_ARGUMENT;
  requireError(run(), TCC_STATUS_INVALID_ARGUMENT, {"the model rejected its arguments"});
  b.runCode = TCC_RUN_CHECK_FAILED;
  requireError(run(), TCC_STATUS_CHECK_FAILED, {"(the model gave no message)"});

  b.runCode = TCC_RUN_OK;
  b.reportError = true;
  b.reportedError = "reported while returning OK";
  requireError(run(), TCC_STATUS_CHECK_FAILED, {"reported while returning OK"});
  b.reportedError = nullptr;
  requireError(run(), TCC_STATUS_CHECK_FAILED, {"(the model gave no message)"});
  std::string longMessage(5000, 'x');
  b.reportedError = longMessage.c_str();
  tcc_status status = run();
  CHECK(std::strlen(tcc_status_message(status)) < 1000); // truncated
  tcc_status_free(status);
  b.reportError = false;

  REQUIRE_OK(run());
}

TEST_CASE("a session refuses to run twice at once", "[session][check]") {
  TestModel testModel;
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&testModel.descriptor, nullptr, &raw));
  Model model(raw);
  Session session = createSession(model.get(), 1);
  HostTensor<float> x({1, 2}, kFloat32);
  HostTensor<float> y({1, 2}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  behaviour().reenter = session.get();
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  behaviour().reenter = nullptr;
  requireError(behaviour().reenterStatus, TCC_STATUS_INTERNAL,
               {"the session is already running"});
}

TEST_CASE("nested parallel loops run inline", "[session][threads]") {
  TestModel testModel;
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&testModel.descriptor, nullptr, &raw));
  Model model(raw);
  Session session = createSession(model.get(), 4);
  HostTensor<float> x({16, 2}, kFloat32);
  HostTensor<float> y({16, 2}, kFloat32);
  for (size_t i = 0; i < x.data.size(); ++i)
    x.data[i] = static_cast<float>(i);
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  behaviour().nestedParallelFor = true;
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  behaviour().nestedParallelFor = false;
  CHECK(behaviour().innerIterations > 0);
  CHECK(behaviour().innerIterations % 100 == 0);
  for (size_t i = 0; i < y.data.size(); ++i)
    CHECK(y.data[i] == 2.0f * static_cast<float>(i));
}

//===------------------------------------------------------------------------------------===//
// Workspace and statistics
//===------------------------------------------------------------------------------------===//

TEST_CASE("the workspace is reused and grows only when needed", "[session][workspace]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 2);
  tcc_session_stats stats = TCC_SESSION_STATS_INIT;
  REQUIRE_OK(tcc_session_get_stats(session.get(), &stats));
  CHECK(stats.runs == 0);
  CHECK(stats.workspace_allocations == 0);
  for (int i = 0; i < 5; ++i) {
    AddTensors t(8);
    REQUIRE_OK(t.run(session.get()));
  }
  REQUIRE_OK(tcc_session_get_stats(session.get(), &stats));
  CHECK(stats.runs == 5);
  CHECK(stats.workspace_allocations == 1);
  CHECK(stats.workspace_bytes >= 8 * 4 * 4);
  CHECK(stats.workspace_bytes % 64 == 0);
  AddTensors smaller(4);
  REQUIRE_OK(smaller.run(session.get()));
  REQUIRE_OK(tcc_session_get_stats(session.get(), &stats));
  CHECK(stats.workspace_allocations == 1);
  AddTensors larger(64);
  REQUIRE_OK(larger.run(session.get()));
  REQUIRE_OK(larger.run(session.get()));
  REQUIRE_OK(tcc_session_get_stats(session.get(), &stats));
  CHECK(stats.workspace_allocations == 2);
  CHECK(stats.workspace_bytes >= 64 * 4 * 4);
  CHECK(stats.runs == 8);
  checkAddResult(larger);
}

TEST_CASE("tcc_session_get_stats checks its arguments", "[session][workspace]") {
  Model model = loadModel("add");
  Session session = createSession(model.get(), 1);
  tcc_session_stats stats = TCC_SESSION_STATS_INIT;
  requireError(tcc_session_get_stats(nullptr, &stats), TCC_STATUS_INVALID_ARGUMENT,
               {"session is null"});
  requireError(tcc_session_get_stats(session.get(), nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"out_stats is null"});
  stats.size = 8;
  requireError(tcc_session_get_stats(session.get(), &stats), TCC_STATUS_INVALID_ARGUMENT,
               {"out_stats->size is 8", "TCC_SESSION_STATS_INIT"});
}

//===------------------------------------------------------------------------------------===//
// Binding symbols and output shapes
//===------------------------------------------------------------------------------------===//

TEST_CASE("tcc_model_bind_symbols and tcc_model_output_shapes size outputs", "[session][shapes]") {
  Model model = loadModel("mixed");
  HostTensor<uint8_t> mask({5}, kUInt8);
  HostTensor<int32_t> x({5}, kInt32);
  const DLTensor *inputs[] = {mask.get(), x.get()};
  int64_t m = -1;
  REQUIRE_OK(tcc_model_bind_symbols(model.get(), inputs, 2, &m, 1));
  CHECK(m == 5);
  int64_t yShape[1] = {0}, bothShape[1] = {0};
  int64_t *shapes[] = {yShape, nullptr, bothShape}; // count is a scalar: no extents
  REQUIRE_OK(tcc_model_output_shapes(model.get(), &m, 1, shapes, 3));
  CHECK(yShape[0] == 5);
  CHECK(bothShape[0] == 10);

  Model add = loadModel("add");
  AddTensors t(3);
  const DLTensor *addInputs[] = {t.a.get(), t.b.get()};
  int64_t n = 0;
  REQUIRE_OK(tcc_model_bind_symbols(add.get(), addInputs, 2, &n, 1));
  CHECK(n == 3);
  int64_t shape[2] = {0, 0};
  int64_t *addShapes[] = {shape};
  REQUIRE_OK(tcc_model_output_shapes(add.get(), &n, 1, addShapes, 1));
  CHECK(shape[0] == 3);
  CHECK(shape[1] == 4);
}

TEST_CASE("tcc_model_bind_symbols checks inputs like a run", "[session][shapes]") {
  Model model = loadModel("add");
  AddTensors t(3);
  HostTensor<float> five({5, 4}, kFloat32);
  const DLTensor *inputs[] = {t.a.get(), five.get()};
  int64_t n = -7;
  requireError(tcc_model_bind_symbols(model.get(), inputs, 2, &n, 1),
               TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_model_bind_symbols: input 1 'b': dim 0 (symbol 'n') is 5, but input 0 'a' "
                "dim 0 set n = 3"});
  CHECK(n == -7); // untouched on failure
  requireError(tcc_model_bind_symbols(model.get(), inputs, 2, &n, 0),
               TCC_STATUS_INVALID_ARGUMENT, {"room for 0 values, the model has 1 symbols"});
  requireError(tcc_model_bind_symbols(model.get(), inputs, 1, &n, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"expected 2 inputs, got 1"});
  requireError(tcc_model_bind_symbols(nullptr, inputs, 2, &n, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"model is null"});
}

TEST_CASE("tcc_model_output_shapes checks its arguments", "[session][shapes]") {
  Model model = loadModel("add");
  int64_t shape[2];
  int64_t *shapes[] = {shape};
  int64_t n = 65;
  requireError(tcc_model_output_shapes(model.get(), &n, 1, shapes, 1), TCC_STATUS_OUT_OF_RANGE,
               {"tcc_model_output_shapes: symbol 0 'n' is 65, outside its range [1, 64]"});
  n = 3;
  requireError(tcc_model_output_shapes(model.get(), &n, 0, shapes, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"0 symbol values given, the model has 1 symbols"});
  requireError(tcc_model_output_shapes(model.get(), &n, 1, shapes, 2),
               TCC_STATUS_INVALID_ARGUMENT, {"expected 1 outputs, got 2"});
  requireError(tcc_model_output_shapes(model.get(), &n, 1, nullptr, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"output_shapes is null"});
  int64_t *nullShapes[] = {nullptr};
  requireError(tcc_model_output_shapes(model.get(), &n, 1, nullShapes, 1),
               TCC_STATUS_INVALID_ARGUMENT, {"output_shapes[0] is null (output 'y' has rank 2)"});
  requireError(tcc_model_output_shapes(nullptr, &n, 1, shapes, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"model is null"});
  Model mixed = loadModel("mixed");
  int64_t m = 1LL << 40; // unbounded symbol: any value
  int64_t y[1], both[1];
  int64_t *mixedShapes[] = {y, nullptr, both};
  REQUIRE_OK(tcc_model_output_shapes(mixed.get(), &m, 1, mixedShapes, 3));
  CHECK(both[0] == 2 * m);
}

//===------------------------------------------------------------------------------------===//
// Data-dependent outputs
//===------------------------------------------------------------------------------------===//

TEST_CASE("data-dependent outputs: capacity in, actual shape out", "[session][data-dependent]") {
  Model model = loadModel("nonzero");
  tcc_tensor_info info;
  REQUIRE_OK(tcc_model_output_info(model.get(), 0, &info));
  CHECK(info.shape[0] == -1);
  CHECK(info.dim_symbols[0] == TCC_DIM_DATA_DEPENDENT);
  Session session = createSession(model.get(), 1);
  int64_t shape[1] = {-7};
  requireError(tcc_session_output_shape(session.get(), 0, shape), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_session_output_shape: the session has no successful run yet"});
  HostTensor<float> x({6}, kFloat32, {0, 3, 0, 0, 5, 1});
  HostTensor<int64_t> y({6}, kInt64); // the capacity, as tcc_model_output_shapes says
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  int64_t capacity[1];
  int64_t *capacities[] = {capacity};
  int64_t n = 6;
  REQUIRE_OK(tcc_model_output_shapes(model.get(), &n, 1, capacities, 1));
  CHECK(capacity[0] == 6);
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  REQUIRE_OK(tcc_session_output_shape(session.get(), 0, shape));
  CHECK(shape[0] == 3);
  CHECK(std::vector<int64_t>(y.data.begin(), y.data.begin() + 3) == std::vector<int64_t>{1, 4, 5});
  requireError(tcc_session_output_shape(session.get(), 1, shape), TCC_STATUS_INVALID_ARGUMENT,
               {"output 1 does not exist (the model has 1 outputs)"});
  // A model that does not report the extent broke its contract.
  x.data[0] = -1;
  requireError(tcc_session_run(session.get(), inputs, 1, outputs, 1), TCC_STATUS_INTERNAL,
               {"the model did not report the extent of a data-dependent output dim"});
  requireError(tcc_session_output_shape(session.get(), 0, shape), TCC_STATUS_INVALID_ARGUMENT,
               {"no successful run yet"});
}

//===------------------------------------------------------------------------------------===//
// Parameters
//===------------------------------------------------------------------------------------===//

TEST_CASE("parameters: per-session copies, read and written by name, updated by runs",
          "[session][parameters]") {
  Model model = loadModel("params");
  REQUIRE(tcc_model_num_parameters(model.get()) == 1);
  tcc_tensor_info info;
  REQUIRE_OK(tcc_model_parameter_info(model.get(), 0, &info));
  CHECK(std::string(info.name) == "w");
  CHECK(info.rank == 1);
  CHECK(info.shape[0] == 4);
  requireError(tcc_model_parameter_info(model.get(), 1, &info), TCC_STATUS_OUT_OF_RANGE,
               {"tcc_model_parameter_info: index 1 is out of range: the model has 1 parameters"});
  Session a = createSession(model.get(), 1), b = createSession(model.get(), 1);
  HostTensor<float> w({4}, kFloat32);
  REQUIRE_OK(tcc_session_read_parameter(a.get(), "w", w.get()));
  CHECK(w.data == std::vector<float>{1, 2, 3, 4});
  HostTensor<float> x({4}, kFloat32, {1, 1, 1, 1});
  HostTensor<float> y({4}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  REQUIRE_OK(tcc_session_run(a.get(), inputs, 1, outputs, 1));
  CHECK(y.data == std::vector<float>{1, 2, 3, 4});
  REQUIRE_OK(tcc_session_run(a.get(), inputs, 1, outputs, 1)); // w was updated in place
  CHECK(y.data == std::vector<float>{2, 3, 4, 5});
  REQUIRE_OK(tcc_session_read_parameter(b.get(), "w", w.get())); // b has its own copy
  CHECK(w.data == std::vector<float>{1, 2, 3, 4});
  HostTensor<float> set({4}, kFloat32, {10, 20, 30, 40});
  REQUIRE_OK(tcc_session_write_parameter(b.get(), "w", set.get()));
  REQUIRE_OK(tcc_session_run(b.get(), inputs, 1, outputs, 1));
  CHECK(y.data == std::vector<float>{10, 20, 30, 40});
  HostTensor<float> wrongShape({5}, kFloat32);
  requireError(tcc_session_write_parameter(b.get(), "w", wrongShape.get()),
               TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_session_write_parameter: parameter 'w': dim 0 is 5, expected 4"});
  requireError(tcc_session_read_parameter(b.get(), "v", w.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_session_read_parameter: the model has no parameter 'v'"});
}
