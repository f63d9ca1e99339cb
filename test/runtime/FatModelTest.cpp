//===- FatModelTest.cpp - models compiled for several targets (tcc_model_variants) -------===//
//
// The fat fixture: y = x + x as three variants (CPU code no host runs, CPU code, CUDA code).
// Loading checks the table and the variants against each other; sessions run the default
// variant or the one of the device type they ask for.
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"

#include <cstddef>
#include <cstring>

using namespace tcc_test;

namespace {

/// The fat fixture's table of variants (its library stays loaded).
const tcc_model_variants &fatTable() {
  return *static_cast<const tcc_model_variants *>(fixtureSymbol("fat", TCC_MODEL_VARIANTS_SYMBOL));
}

/// A table of `variants` as tcc_model_create_from_variants takes it; the status of creating
/// a model from it (released at once).
tcc_status createFromVariants(const std::vector<const tcc_model_descriptor *> &variants,
                              uint32_t modelFlags = 0) {
  tcc_model_variants table{TCC_ABI_VERSION, sizeof(tcc_model_variants),
                           static_cast<int32_t>(variants.size()), 0, variants.data()};
  tcc_model_options options = TCC_MODEL_OPTIONS_INIT;
  options.flags = modelFlags;
  tcc_model *model = nullptr;
  tcc_status status = tcc_model_create_from_variants(&table, &options, &model);
  tcc_model_release(model);
  return status;
}

/// Runs y = x + x on a session of the fat model for x = 0, 1, ..., n - 1 and checks y.
void runDouble(tcc_session *session, int64_t n) {
  HostTensor<float> x({n}, kFloat32), y({n}, kFloat32);
  for (int64_t i = 0; i < n; ++i)
    x.data[static_cast<size_t>(i)] = static_cast<float>(i) + 0.5f;
  const DLTensor *inputs[] = {x.get()};
  const DLTensor *outputs[] = {y.get()};
  REQUIRE_OK(tcc_session_run(session, inputs, 1, outputs, 1));
  for (int64_t i = 0; i < n; ++i)
    CHECK(y.data[static_cast<size_t>(i)] == 2.0f * (static_cast<float>(i) + 0.5f));
}

Session sessionOn(tcc_model *model, int32_t deviceType) {
  tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
  options.num_threads = 2;
  options.device_type = deviceType;
  tcc_session *session = nullptr;
  REQUIRE_OK(tcc_session_create(model, &options, &session));
  return Session(session);
}

} // namespace

TEST_CASE("a fat model lists its variants, and says which this host cannot run", "[model][fat]") {
  Model model = loadModel("fat");
  REQUIRE(tcc_model_num_variants(model.get()) == 3);
  // Variant 0 requires a CPU feature no runtime knows: the default is the first runnable one.
  CHECK(tcc_model_default_variant(model.get()) == 1);
  CHECK(tcc_model_device_type(model.get()) == kDLCPU);
  CHECK(std::string(tcc_model_cpu(model.get())) == "generic");
  tcc_variant_info info{};
  REQUIRE_OK(tcc_model_variant_info(model.get(), 0, &info));
  CHECK(info.device_type == kDLCPU);
  CHECK(std::string(info.cpu) == "future-cpu");
  REQUIRE(info.unavailable != nullptr);
  CHECK(std::string(info.unavailable).find("variant 0: the model requires CPU features unknown") ==
        0);
  REQUIRE_OK(tcc_model_variant_info(model.get(), 1, &info));
  CHECK(info.device_type == kDLCPU);
  CHECK(info.unavailable == nullptr);
  CHECK(info.num_device_images == 0);
  REQUIRE_OK(tcc_model_variant_info(model.get(), 2, &info));
  CHECK(info.device_type == kDLCUDA);
  CHECK(info.unavailable == nullptr);
  REQUIRE(info.num_device_images == 1);
  CHECK(std::string(info.device_images[0].arch) == "sm_80");
  CHECK(info.device_images[0].format == TCC_IMAGE_PTX);
  requireError(tcc_model_variant_info(model.get(), 3, &info), TCC_STATUS_OUT_OF_RANGE,
               {"tcc_model_variant_info: index 3 is out of range: the model has 3 variants"});
  requireError(tcc_model_variant_info(model.get(), -1, &info), TCC_STATUS_OUT_OF_RANGE, {});
  requireError(tcc_model_variant_info(nullptr, 0, &info), TCC_STATUS_INVALID_ARGUMENT, {});
  CHECK(tcc_model_num_variants(nullptr) == 0);

  // A single-target model is its one variant.
  Model single = loadModel("add");
  CHECK(tcc_model_num_variants(single.get()) == 1);
  CHECK(tcc_model_default_variant(single.get()) == 0);
  REQUIRE_OK(tcc_model_variant_info(single.get(), 0, &info));
  CHECK(info.device_type == kDLCPU);
  CHECK(info.unavailable == nullptr);
  CHECK(std::string(info.target_triple) == tcc_model_target_triple(single.get()));
}

TEST_CASE("sessions of a fat model run the default variant or the device's", "[session][fat]") {
  Model model = loadModel("fat");
  Session byDefault = sessionOn(model.get(), 0);
  CHECK(tcc_session_variant(byDefault.get()) == 1);
  runDouble(byDefault.get(), 37);
  Session onCpu = sessionOn(model.get(), kDLCPU);
  CHECK(tcc_session_variant(onCpu.get()) == 1);
  runDouble(onCpu.get(), 5);
  CHECK(tcc_session_variant(nullptr) == 0);

  // An options struct from before device_type means the default variant.
  tcc_session_options older = TCC_SESSION_OPTIONS_INIT;
  older.size = offsetof(tcc_session_options, device_type);
  older.device_type = kDLROCM; // beyond `size`: not read
  tcc_session *session = nullptr;
  REQUIRE_OK(tcc_session_create(model.get(), &older, &session));
  Session olderSession(session);
  runDouble(olderSession.get(), 3);

  tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
  options.device_type = kDLROCM;
  session = nullptr;
  requireError(tcc_session_create(model.get(), &options, &session), TCC_STATUS_INCOMPATIBLE,
               {"tcc_session_create: the model has no code for ROCm (kDLROCM): it was compiled "
                "for CPU, CUDA"});
  CHECK(session == nullptr);

  // The CUDA variant: a session there needs the driver and a GPU (the CUDA backend's tests
  // run it where there is one); without them, the CUDA backend says so.
  options.device_type = kDLCUDA;
  tcc_status status = tcc_session_create(model.get(), &options, &session);
  if (status) {
    std::string message = tcc_status_message(status);
    INFO(message);
    CHECK(message.find("cuda device") != std::string::npos);
    tcc_status_free(status);
  } else {
    Session onGpu(session);
    CHECK(tcc_session_variant(onGpu.get()) == 2);
    runDouble(onGpu.get(), 300);
  }
}

TEST_CASE("a fat model's default session runs the first variant whose device is here",
          "[session][fat]") {
  const tcc_model_variants &table = fatTable();
  const tcc_model_descriptor *future = table.variants[0];
  const tcc_model_descriptor *cpu = table.variants[1];
  const tcc_model_descriptor *cuda = table.variants[2];
  // Whether this machine runs the CUDA variant (a driver and a GPU).
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(cuda, nullptr, &raw));
  Model cudaOnly(raw);
  tcc_session *session = nullptr;
  tcc_status status = tcc_session_create(cudaOnly.get(), nullptr, &session);
  bool gpu = status == nullptr;
  std::string cudaError = gpu ? "" : tcc_status_message(status);
  tcc_status_free(status);
  tcc_session_release(session);

  // CUDA first, then the CPU: the GPU where there is one, else the CPU.
  const tcc_model_descriptor *gpuFirst[] = {cuda, cpu};
  tcc_model_variants both{TCC_ABI_VERSION, sizeof(tcc_model_variants), 2, 0, gpuFirst};
  REQUIRE_OK(tcc_model_create_from_variants(&both, nullptr, &raw));
  Model model(raw);
  CHECK(tcc_model_default_variant(model.get()) == 0);
  Session chosen = sessionOn(model.get(), 0);
  CHECK(tcc_session_variant(chosen.get()) == (gpu ? 0 : 1));
  runDouble(chosen.get(), 300);

  // Asked for by device type, there is no falling back.
  tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
  options.device_type = kDLCUDA;
  session = nullptr;
  status = tcc_session_create(model.get(), &options, &session);
  CHECK((status == nullptr) == gpu);
  tcc_status_free(status);
  tcc_session_release(session);

  // No variant runs: the first failure, said as such (the CPU variant is ruled out by the
  // host's features, so only CUDA is tried).
  if (!gpu) {
    const tcc_model_descriptor *none[] = {cuda, future};
    tcc_model_variants nowhere{TCC_ABI_VERSION, sizeof(tcc_model_variants), 2, 0, none};
    REQUIRE_OK(tcc_model_create_from_variants(&nowhere, nullptr, &raw));
    Model unrunnable(raw);
    session = nullptr;
    requireError(tcc_session_create(unrunnable.get(), nullptr, &session), TCC_STATUS_INCOMPATIBLE,
                 {"tcc_session_create: no variant of the model runs here; the first tried "
                  "(variant 0): ",
                  cudaError});
    CHECK(session == nullptr);
  }
}

TEST_CASE("a table of variants and the variants in it are validated", "[model][fat][errors]") {
  const tcc_model_variants &table = fatTable();
  REQUIRE(table.num_variants == 3);
  const tcc_model_descriptor *future = table.variants[0];
  const tcc_model_descriptor *cpu = table.variants[1];
  const tcc_model_descriptor *cuda = table.variants[2];

  REQUIRE_OK(createFromVariants({cpu, cuda}));
  REQUIRE_OK(createFromVariants({cuda, cpu}));
  requireError(createFromVariants({}), TCC_STATUS_INVALID_MODEL,
               {"tcc_model_create_from_variants: the table of variants is invalid: its number "
                "of variants is not 1 to TCC_MAX_VARIANTS"});
  requireError(createFromVariants({cpu, nullptr}), TCC_STATUS_INVALID_MODEL,
               {"variant 1: the descriptor is null"});
  requireError(createFromVariants({cuda, cpu, cuda}), TCC_STATUS_INVALID_MODEL,
               {"variants 0 and 2 are both for CUDA (kDLCUDA)"});
  // Each variant is validated as a model of its own.
  tcc_model_descriptor broken = *cpu;
  broken.run = nullptr;
  requireError(createFromVariants({cpu, &broken}), TCC_STATUS_INVALID_MODEL,
               {"variant 1: the descriptor's entry point run is null"});
  // All describe one model.
  tcc_tensor_desc renamed = cpu->inputs[0];
  renamed.name = "z";
  tcc_model_descriptor other = *cpu;
  other.inputs = &renamed;
  requireError(createFromVariants({cuda, &other}), TCC_STATUS_INVALID_MODEL,
               {"variant 1 describes another model than variant 0 (inputs differ)"});
  tcc_symbol_desc narrower = cpu->symbols[0];
  narrower.max = 7;
  other = *cpu;
  other.symbols = &narrower;
  requireError(createFromVariants({cuda, &other}), TCC_STATUS_INVALID_MODEL, {"(a symbol differ"});
  // A host that can run none of them is refused, each reason given...
  requireError(createFromVariants({future}), TCC_STATUS_INCOMPATIBLE,
               {"this host can run none of the model's 1 variants",
                "variant 0: the model requires CPU features unknown to this runtime",
                "not-a-feature"});
  // ...unless the caller skips the check; a session then checks its variant.
  tcc_model_variants onlyFuture{TCC_ABI_VERSION, sizeof(tcc_model_variants), 1, 0, &future};
  tcc_model_options skip = TCC_MODEL_OPTIONS_INIT;
  skip.flags = TCC_MODEL_FLAG_SKIP_CPU_CHECK;
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_variants(&onlyFuture, &skip, &raw));
  Model skipped(raw);
  tcc_session *session = nullptr;
  requireError(tcc_session_create(skipped.get(), nullptr, &session), TCC_STATUS_INCOMPATIBLE,
               {"tcc_session_create", "not-a-feature"});
  // A table of another ABI version, or too small.
  tcc_model_variants future_abi = table;
  future_abi.abi_version = TCC_ABI_VERSION + 1;
  raw = nullptr;
  requireError(tcc_model_create_from_variants(&future_abi, nullptr, &raw), TCC_STATUS_INCOMPATIBLE,
               {"ABI version"});
  tcc_model_variants small = table;
  small.size = 8;
  requireError(tcc_model_create_from_variants(&small, nullptr, &raw), TCC_STATUS_INVALID_MODEL,
               {"its size is smaller than a tcc_model_variants"});
  requireError(tcc_model_create_from_variants(nullptr, nullptr, &raw), TCC_STATUS_INVALID_ARGUMENT,
               {"variants is null"});
}
