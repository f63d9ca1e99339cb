//===- BatchSplitTest.cpp - sessions run a model that computes images alone image by image --===//
#include "RuntimeTestUtils.h"
#include "TestModel.h"

#include <cstddef>
#include <cstring>

using namespace tcc_test;

namespace {

/// The test model (y = 2 x over [n, 2]) marked as computing each image alone.
struct ImagesAloneModel {
  TestModel testModel;
  Model model;
  explicit ImagesAloneModel(bool imagesAlone = true) {
    if (imagesAlone) {
      testModel.descriptor.flags = TCC_MODEL_IMAGES_ALONE;
      testModel.descriptor.batch_symbol = 0;
    }
    tcc_model *raw = nullptr;
    REQUIRE_OK(tcc_model_create_from_descriptor(&testModel.descriptor, nullptr, &raw));
    model.reset(raw);
  }
};

/// Runs the model on n images (x = 0, 1, 2, ...) and checks y = 2 x.
void runImages(tcc_session *session, int64_t n) {
  std::vector<float> values(static_cast<size_t>(n) * 2);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(i);
  HostTensor<float> x({n, 2}, kFloat32, values);
  HostTensor<float> y({n, 2}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  REQUIRE_OK(tcc_session_run(session, inputs, 1, outputs, 1));
  for (size_t i = 0; i < values.size(); ++i)
    REQUIRE(y.data[i] == 2.0f * values[i]);
}

/// What run saw since the behaviour was reset: calls, the largest n, distinct workspaces.
void checkCalls(int64_t calls, int64_t largestBatch, size_t workspaces) {
  TestModelBehaviour &b = behaviour();
  CHECK(b.runCalls == calls);
  CHECK(b.largestBatch == largestBatch);
  CHECK(b.workspaces.size() == workspaces);
  b.runCalls = 0;
  b.largestBatch = 0;
  b.workspaces.clear();
}

} // namespace

TEST_CASE("the batch symbol is published", "[batch]") {
  ImagesAloneModel alone;
  CHECK(tcc_model_batch_symbol(alone.model.get()) == 0);
  ImagesAloneModel whole(false);
  CHECK(tcc_model_batch_symbol(whole.model.get()) == -1);
  CHECK(tcc_model_batch_symbol(nullptr) == -1);
}

TEST_CASE("one thread runs the images one at a time", "[batch][run]") {
  ImagesAloneModel m;
  Session session = createSession(m.model.get(), 1, 0);
  runImages(session.get(), 5);
  checkCalls(5, 1, 1);
}

TEST_CASE("threads run images at once, each with its own workspace slot", "[batch][run][threads]") {
  ImagesAloneModel m;
  Session session = createSession(m.model.get(), 2, 0);
  // 5 images on 2 threads: 2 lanes of 2 images, then the last image alone.
  runImages(session.get(), 5);
  checkCalls(5, 1, 2);
  tcc_session_stats stats = TCC_SESSION_STATS_INIT;
  REQUIRE_OK(tcc_session_get_stats(session.get(), &stats));
  CHECK(stats.workspace_bytes == 2 * 64); // two 64-byte slots
  // Repeated runs of one size allocate nothing more.
  runImages(session.get(), 5);
  REQUIRE_OK(tcc_session_get_stats(session.get(), &stats));
  CHECK(stats.workspace_allocations == 1);
  CHECK(stats.runs == 2);
  checkCalls(5, 1, 2);

  // More threads than images: one lane per image.
  Session wide = createSession(m.model.get(), 8, 0);
  runImages(wide.get(), 3);
  checkCalls(3, 1, 3);
}

TEST_CASE("a single image and TCC_SESSION_FLAG_WHOLE_BATCH run the batch at once", "[batch][run]") {
  ImagesAloneModel m;
  Session session = createSession(m.model.get(), 2, 0);
  runImages(session.get(), 1);
  checkCalls(1, 1, 1);

  Session whole = createSession(m.model.get(), 2, TCC_SESSION_FLAG_WHOLE_BATCH);
  runImages(whole.get(), 6);
  checkCalls(1, 6, 1);

  // A model without the promise always runs whole batches.
  ImagesAloneModel plain(false);
  Session other = createSession(plain.model.get(), 2, 0);
  runImages(other.get(), 6);
  checkCalls(1, 6, 1);
}

TEST_CASE("a failing image fails the run with the model's message", "[batch][run]") {
  ImagesAloneModel m;
  Session session = createSession(m.model.get(), 2, 0);
  TestModelBehaviour &b = behaviour();
  HostTensor<float> x({4, 2}, kFloat32, {1, 2, 3, 4, 5, 6, 7, 8});
  HostTensor<float> y({4, 2}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  b.runCode = TCC_RUN_CHECK_FAILED;
  b.reportError = true;
  b.reportedError = "an image failed";
  requireError(tcc_session_run(session.get(), inputs, 1, outputs, 1), TCC_STATUS_CHECK_FAILED,
               {"an image failed"});
  b.runCode = TCC_RUN_OK;
  b.reportError = false;
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  CHECK(y.data == std::vector<float>{2, 4, 6, 8, 10, 12, 14, 16});
}

TEST_CASE("descriptors and options of the first release are accepted", "[batch]") {
  // A descriptor that ends before batch_symbol and flags has neither.
  TestModel testModel;
  testModel.descriptor.size = TCC_MODEL_DESCRIPTOR_V1_SIZE;
  testModel.descriptor.flags = TCC_MODEL_IMAGES_ALONE; // beyond its size: not read
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&testModel.descriptor, nullptr, &raw));
  Model model(raw);
  CHECK(tcc_model_batch_symbol(model.get()) == -1);

  // Session options that end before flags.
  tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
  options.size = offsetof(tcc_session_options, flags);
  options.flags = 0xffff; // beyond its size: not read
  tcc_session *session = nullptr;
  REQUIRE_OK(tcc_session_create(model.get(), &options, &session));
  tcc_session_release(session);

  options = TCC_SESSION_OPTIONS_INIT;
  options.flags = 4;
  requireError(tcc_session_create(model.get(), &options, &session), TCC_STATUS_INVALID_ARGUMENT,
               {"unknown flag bits 0x4"});
}
