//===- ProfileTest.cpp - per-kernel times of profiling sessions (TCC_SESSION_FLAG_PROFILE) ---===//
#include "RuntimeTestUtils.h"
#include "TestModel.h"

#include <thread>

using namespace tcc_test;

namespace {

const char *const kKernelNames[] = {"kernel_0_scale", "kernel_1_unused"};
const char *const kKernelNodes[] = {"mul, scale_cast", ""};

/// TestModel with a kernel list: its run times kernel 0 through imports->profile.
struct ProfiledModel {
  TestModel testModel;
  Model model;
  ProfiledModel() {
    testModel.descriptor.num_kernels = 2;
    testModel.descriptor.kernel_names = kKernelNames;
    testModel.descriptor.kernel_nodes = kKernelNodes;
    tcc_model *raw = nullptr;
    REQUIRE_OK(tcc_model_create_from_descriptor(&testModel.descriptor, nullptr, &raw));
    model.reset(raw);
  }
};

tcc_kernel_profile profileOf(const Session &session, int32_t kernel) {
  tcc_kernel_profile profile = TCC_KERNEL_PROFILE_INIT;
  REQUIRE_OK(tcc_session_kernel_profile(session.get(), kernel, &profile));
  return profile;
}

} // namespace

TEST_CASE("a profiling session times each listed kernel with its nodes", "[profile]") {
  ProfiledModel profiled;
  Session session = createSession(profiled.model.get(), 2, TCC_SESSION_FLAG_PROFILE);
  REQUIRE(tcc_session_num_kernels(session.get()) == 2);
  HostTensor<float> x({16, 2}, kFloat32);
  HostTensor<float> y({16, 2}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  for (int i = 0; i < 3; ++i)
    REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  tcc_kernel_profile scale = profileOf(session, 0);
  CHECK(std::string(scale.name) == "kernel_0_scale");
  CHECK(std::string(scale.nodes) == "mul, scale_cast");
  CHECK(scale.launches == 3);
  CHECK(scale.nanoseconds > 0);
  tcc_kernel_profile unused = profileOf(session, 1);
  CHECK(std::string(unused.name) == "kernel_1_unused");
  CHECK(std::string(unused.nodes).empty());
  CHECK(unused.launches == 0);
  CHECK(unused.nanoseconds == 0);

  tcc_session_reset_profile(session.get());
  CHECK(profileOf(session, 0).launches == 0);
  CHECK(profileOf(session, 0).nanoseconds == 0);
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  CHECK(profileOf(session, 0).launches == 1);
}

TEST_CASE("images run at once on several threads are all counted", "[profile]") {
  ProfiledModel profiled;
  profiled.testModel.descriptor.flags = TCC_MODEL_IMAGES_ALONE;
  profiled.testModel.descriptor.batch_symbol = 0;
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&profiled.testModel.descriptor, nullptr, &raw));
  Model model(raw);
  REQUIRE(tcc_model_batch_symbol(model.get()) == 0);
  Session session = createSession(model.get(), 4, TCC_SESSION_FLAG_PROFILE);
  HostTensor<float> x({8, 2}, kFloat32);
  HostTensor<float> y({8, 2}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  // One launch per image: the images ran alone, on up to 4 threads.
  CHECK(profileOf(session, 0).launches == 8);
}

TEST_CASE("sessions without the flag count nothing and the model is not called", "[profile]") {
  ProfiledModel profiled;
  Session session = createSession(profiled.model.get(), 1);
  HostTensor<float> x({2, 2}, kFloat32, {1, 2, 3, 4});
  HostTensor<float> y({2, 2}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  CHECK(y.data == std::vector<float>{2, 4, 6, 8});
  tcc_kernel_profile scale = profileOf(session, 0);
  CHECK(std::string(scale.name) == "kernel_0_scale");
  CHECK(scale.launches == 0);
  tcc_session_reset_profile(session.get()); // nothing to reset: no effect
  tcc_session_reset_profile(nullptr);
}

TEST_CASE("a model without a kernel list profiles nothing; bad indices are errors", "[profile]") {
  TestModel testModel; // its run calls profile with kernel 0, which it does not list
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&testModel.descriptor, nullptr, &raw));
  Model model(raw);
  Session session = createSession(model.get(), 1, TCC_SESSION_FLAG_PROFILE);
  CHECK(tcc_session_num_kernels(session.get()) == 0);
  HostTensor<float> x({2, 2}, kFloat32);
  HostTensor<float> y({2, 2}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  REQUIRE_OK(tcc_session_run(session.get(), inputs, 1, outputs, 1));
  tcc_kernel_profile profile = TCC_KERNEL_PROFILE_INIT;
  requireError(tcc_session_kernel_profile(session.get(), 0, &profile), TCC_STATUS_INVALID_ARGUMENT,
               {"kernel 0 is out of range (the model lists 0)"});
  requireError(tcc_session_kernel_profile(nullptr, 0, &profile), TCC_STATUS_INVALID_ARGUMENT,
               {"session is null"});
  requireError(tcc_session_kernel_profile(session.get(), 0, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"out_profile is null"});
  profile.size = 8;
  requireError(tcc_session_kernel_profile(session.get(), 0, &profile), TCC_STATUS_INVALID_ARGUMENT,
               {"out_profile->size is 8", "TCC_KERNEL_PROFILE_INIT"});
  CHECK(tcc_session_num_kernels(nullptr) == 0);
}

TEST_CASE("corrupt kernel lists are refused when the model loads", "[profile][descriptor]") {
  static const char *const nullNames[] = {nullptr};
  static const char *const emptyNames[] = {""};
  static const char *const nodes[] = {""};
  static const char *const nullNodes[] = {nullptr};
  struct Case {
    const char *what;
    uint32_t size;
    int32_t count;
    const char *const *names, *const *nodes;
    const char *message;
  } cases[] = {
      {"negative count", sizeof(tcc_model_descriptor), -1, kKernelNames, kKernelNodes,
       "num_kernels is -1"},
      {"no names", sizeof(tcc_model_descriptor), 1, nullptr, nodes, "kernel_names null"},
      {"no nodes", sizeof(tcc_model_descriptor), 1, kKernelNames, nullptr, "kernel_nodes null"},
      {"a null name", sizeof(tcc_model_descriptor), 1, nullNames, nodes,
       "kernel 0 has a null name"},
      {"an empty name", sizeof(tcc_model_descriptor), 1, emptyNames, nodes,
       "kernel 0 has an empty name"},
      {"null nodes", sizeof(tcc_model_descriptor), 1, kKernelNames, nullNodes,
       "kernel 0 has null nodes"},
      {"ends inside the list", TCC_MODEL_DESCRIPTOR_V4_SIZE + 8, 0, nullptr, nullptr,
       "it ends inside the kernel list"},
  };
  for (const Case &c : cases) {
    INFO(c.what);
    TestModel testModel;
    testModel.descriptor.size = c.size;
    testModel.descriptor.num_kernels = c.count;
    testModel.descriptor.kernel_names = c.names;
    testModel.descriptor.kernel_nodes = c.nodes;
    requireError(createFrom(testModel.descriptor), TCC_STATUS_INVALID_MODEL, {c.message});
  }
  // A descriptor that ends before the list (a model compiled before profiles) has none.
  TestModel older;
  older.descriptor.size = TCC_MODEL_DESCRIPTOR_V4_SIZE;
  older.descriptor.num_kernels = 5; // past its size: never read
  REQUIRE_OK(createFrom(older.descriptor));
}

TEST_CASE("a model describes its kernels and its compile options", "[profile][model]") {
  ProfiledModel profiled;
  tcc_model *model = profiled.model.get();
  CHECK(tcc_model_num_kernels(model, 0) == 2);
  const char *name = nullptr, *nodes = nullptr;
  REQUIRE_OK(tcc_model_kernel_info(model, 0, 0, &name, &nodes));
  CHECK(std::string(name) == "kernel_0_scale");
  CHECK(std::string(nodes) == "mul, scale_cast");
  requireError(tcc_model_kernel_info(model, 0, 2, &name, &nodes), TCC_STATUS_OUT_OF_RANGE,
               {"kernel 2 is out of range: variant 0 lists 2 kernels"});
  requireError(tcc_model_kernel_info(model, 1, 0, &name, &nodes), TCC_STATUS_OUT_OF_RANGE,
               {"variant 1 is out of range"});
  requireError(tcc_model_kernel_info(model, 0, 0, nullptr, &nodes), TCC_STATUS_INVALID_ARGUMENT,
               {"out_name is null"});
  CHECK(tcc_model_num_kernels(model, 1) == 0);
  CHECK(tcc_model_num_kernels(nullptr, 0) == 0);
  // Not recorded (NULL in the descriptor): "".
  CHECK(std::string(tcc_model_compile_options(model, 0)).empty());
  CHECK(tcc_model_compile_options(model, 1) == nullptr);
  CHECK(tcc_model_compile_options(nullptr, 0) == nullptr);

  TestModel recorded;
  recorded.descriptor.compile_options = "--target cpu --precision fp32";
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&recorded.descriptor, nullptr, &raw));
  Model withOptions(raw);
  CHECK(std::string(tcc_model_compile_options(withOptions.get(), 0)) ==
        "--target cpu --precision fp32");
}
