//===- ModelTest.cpp - loading models, validating descriptors, metadata queries ---------===//
#include "RuntimeTestUtils.h"
#include "TestModel.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <unistd.h>

using namespace tcc_test;

namespace {
tcc_status load(const std::string &path, const tcc_model_options *options = nullptr) {
  tcc_model *model = nullptr;
  tcc_status status = tcc_model_load(path.c_str(), options, &model);
  if (!status) {
    REQUIRE(model != nullptr);
    tcc_model_release(model);
  } else {
    CHECK(model == nullptr); // untouched on failure
  }
  return status;
}

tcc_status create(const TestModel &testModel, const tcc_model_options *options = nullptr) {
  tcc_model *model = nullptr;
  tcc_status status = tcc_model_create_from_descriptor(&testModel.descriptor, options, &model);
  tcc_model_release(model);
  return status;
}
} // namespace

//===------------------------------------------------------------------------------------===//
// Loading
//===------------------------------------------------------------------------------------===//

TEST_CASE("a model loads and reports its metadata", "[model]") {
  Model model = loadModel("add");
  CHECK(std::string(tcc_model_path(model.get())) == fixture("add"));
  CHECK(std::string(tcc_model_tcc_version(model.get())) == "0.1.0-fixture");
  CHECK(std::string(tcc_model_target_triple(model.get())).find("-linux-gnu") !=
        std::string::npos);
  CHECK(std::string(tcc_model_cpu(model.get())) == "generic");
  CHECK(std::string(tcc_model_cpu_features(model.get())).empty());
  CHECK(tcc_model_num_inputs(model.get()) == 2);
  CHECK(tcc_model_num_outputs(model.get()) == 1);
  CHECK(tcc_model_num_symbols(model.get()) == 1);
}

TEST_CASE("input and output info give names and dtypes and symbolic shapes", "[model]") {
  Model model = loadModel("add");
  tcc_tensor_info info{};
  REQUIRE_OK(tcc_model_input_info(model.get(), 1, &info));
  CHECK(std::string(info.name) == "b");
  CHECK(info.dtype == TCC_DTYPE_FLOAT32);
  REQUIRE(info.rank == 2);
  CHECK(info.shape[0] == -1);
  CHECK(info.shape[1] == 4);
  CHECK(info.dim_symbols[0] == 0);
  CHECK(info.dim_symbols[1] == -1);
  CHECK(std::string(info.dim_names[0]) == "n");
  CHECK(info.dim_names[1] == nullptr);
  REQUIRE_OK(tcc_model_output_info(model.get(), 0, &info));
  CHECK(std::string(info.name) == "y");
  CHECK(std::string(info.dim_names[0]) == "n");
}

TEST_CASE("symbol info gives names and ranges", "[model]") {
  Model add = loadModel("add");
  tcc_symbol_info symbol{};
  REQUIRE_OK(tcc_model_symbol_info(add.get(), 0, &symbol));
  CHECK(std::string(symbol.name) == "n");
  CHECK(symbol.min == 1);
  CHECK(symbol.max == 64);
  Model mixed = loadModel("mixed");
  REQUIRE_OK(tcc_model_symbol_info(mixed.get(), 0, &symbol));
  CHECK(std::string(symbol.name) == "m");
  CHECK(symbol.min == 0);
  CHECK(symbol.max == -1);
}

TEST_CASE("scalar outputs and derived output dims are described", "[model]") {
  Model model = loadModel("mixed");
  tcc_tensor_info info{};
  REQUIRE_OK(tcc_model_input_info(model.get(), 0, &info));
  CHECK(info.dtype == TCC_DTYPE_BOOL);
  REQUIRE_OK(tcc_model_output_info(model.get(), 1, &info));
  CHECK(std::string(info.name) == "count");
  CHECK(info.dtype == TCC_DTYPE_INT64);
  CHECK(info.rank == 0);
  REQUIRE_OK(tcc_model_output_info(model.get(), 2, &info));
  CHECK(std::string(info.name) == "both");
  REQUIRE(info.rank == 1);
  CHECK(info.shape[0] == -1);
  CHECK(info.dim_symbols[0] == -1);
  CHECK(info.dim_names[0] == nullptr);
}

TEST_CASE("info queries reject bad indices and null pointers", "[model]") {
  Model model = loadModel("add");
  tcc_tensor_info info{};
  tcc_symbol_info symbol{};
  requireError(tcc_model_input_info(model.get(), 2, &info), TCC_STATUS_OUT_OF_RANGE,
               {"tcc_model_input_info", "index 2 is out of range: the model has 2 inputs"});
  requireError(tcc_model_input_info(model.get(), -1, &info), TCC_STATUS_OUT_OF_RANGE,
               {"index -1"});
  requireError(tcc_model_output_info(model.get(), 1, &info), TCC_STATUS_OUT_OF_RANGE,
               {"tcc_model_output_info", "the model has 1 outputs"});
  requireError(tcc_model_symbol_info(model.get(), 1, &symbol), TCC_STATUS_OUT_OF_RANGE,
               {"tcc_model_symbol_info", "the model has 1 symbols"});
  requireError(tcc_model_input_info(nullptr, 0, &info), TCC_STATUS_INVALID_ARGUMENT,
               {"model is null"});
  requireError(tcc_model_output_info(model.get(), 0, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"out_info is null"});
  requireError(tcc_model_symbol_info(nullptr, 0, &symbol), TCC_STATUS_INVALID_ARGUMENT,
               {"model is null"});
  requireError(tcc_model_symbol_info(model.get(), 0, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"out_info is null"});
}

TEST_CASE("metadata getters tolerate a null model", "[model]") {
  CHECK(std::string(tcc_model_path(nullptr)).empty());
  CHECK(std::string(tcc_model_tcc_version(nullptr)).empty());
  CHECK(std::string(tcc_model_target_triple(nullptr)).empty());
  CHECK(std::string(tcc_model_cpu(nullptr)).empty());
  CHECK(std::string(tcc_model_cpu_features(nullptr)).empty());
  CHECK(tcc_model_num_inputs(nullptr) == 0);
  CHECK(tcc_model_num_outputs(nullptr) == 0);
  CHECK(tcc_model_num_symbols(nullptr) == 0);
}

TEST_CASE("a missing file is an error naming the path", "[model][load]") {
  requireError(load("/nonexistent/model.so"), TCC_STATUS_NOT_FOUND,
               {"tcc_model_load: cannot load '/nonexistent/model.so'"});
}

TEST_CASE("a file that is not a shared library is an error", "[model][load]") {
  char path[] = "/tmp/tcc-runtime-test-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const char junk[] = "this is not an ELF file";
  REQUIRE(write(fd, junk, sizeof(junk)) == static_cast<ssize_t>(sizeof(junk)));
  close(fd);
  requireError(load(path), TCC_STATUS_NOT_FOUND, {"cannot load", path});
  unlink(path);
}

TEST_CASE("a library without the descriptor symbol is rejected", "[model][load]") {
  requireError(load(fixture("no_symbol")), TCC_STATUS_NOT_FOUND,
               {"no_symbol.so", "does not export the symbol tcc_model_descriptor_v1",
                "not a model compiled by tcc"});
}

TEST_CASE("a model of another ABI version is rejected", "[model][load]") {
  requireError(load(fixture("bad_abi")), TCC_STATUS_INCOMPATIBLE,
               {"bad_abi.so", "the model has ABI version 2, this runtime reads version 1"});
  requireError(load(fixture("future_abi")), TCC_STATUS_INCOMPATIBLE,
               {"exports tcc_model_descriptor_v2", "compiled for ABI version 2"});
}

TEST_CASE("unknown CPU features are an error naming them", "[model][load]") {
  tcc_status raw = load(fixture("unknown_feature"));
  REQUIRE(raw != nullptr);
  std::string message = tcc_status_message(raw);
  CHECK(message.find("ignored-feature") == std::string::npos); // a '-' entry requires nothing
  requireError(raw, TCC_STATUS_INCOMPATIBLE,
               {"unknown_feature.so", "unknown to this runtime", "not-a-feature, also-not-one"});
  // Skipping the CPU check does not make unknown names acceptable.
  tcc_model_options options = TCC_MODEL_OPTIONS_INIT;
  options.flags = TCC_MODEL_FLAG_SKIP_CPU_CHECK;
  requireError(load(fixture("unknown_feature"), &options), TCC_STATUS_INCOMPATIBLE,
               {"not-a-feature"});
}

TEST_CASE("inconsistent metadata in a model file is rejected", "[model][load]") {
  requireError(load(fixture("bad_metadata")), TCC_STATUS_INVALID_MODEL,
               {"bad_metadata.so", "input 0 'x': dim 0 names symbol 3, but the model has 1 "
                                   "symbols"});
}

TEST_CASE("a path without '/' is relative to the working directory", "[model][load]") {
  char saved[4096];
  REQUIRE(getcwd(saved, sizeof(saved)) != nullptr);
  REQUIRE(chdir(fixturesDir().c_str()) == 0);
  tcc_status fromCwd = load("add.so");
  // libc is on the library path but not in this directory: not found.
  tcc_status notSearched = load("libc.so.6");
  REQUIRE(chdir(saved) == 0);
  REQUIRE_OK(fromCwd);
  requireError(notSearched, TCC_STATUS_NOT_FOUND, {"cannot load 'libc.so.6'"});
}

TEST_CASE("tcc_model_load rejects bad arguments and options", "[model][load]") {
  tcc_model *model = nullptr;
  requireError(tcc_model_load(nullptr, nullptr, &model), TCC_STATUS_INVALID_ARGUMENT,
               {"path is null"});
  requireError(tcc_model_load(fixture("add").c_str(), nullptr, nullptr),
               TCC_STATUS_INVALID_ARGUMENT, {"out_model is null"});
  requireError(tcc_model_load("", nullptr, &model), TCC_STATUS_INVALID_ARGUMENT,
               {"the path is empty"});
  tcc_model_options options = TCC_MODEL_OPTIONS_INIT;
  options.size = 4;
  requireError(tcc_model_load(fixture("add").c_str(), &options, &model),
               TCC_STATUS_INVALID_ARGUMENT, {"options->size is 4", "TCC_MODEL_OPTIONS_INIT"});
  options = TCC_MODEL_OPTIONS_INIT;
  options.flags = 0x10;
  requireError(tcc_model_load(fixture("add").c_str(), &options, &model),
               TCC_STATUS_INVALID_ARGUMENT, {"unknown bits 0x10"});
  CHECK(model == nullptr);
}

TEST_CASE("tcc_model_options_init gives the defaults", "[model]") {
  tcc_model_options options;
  std::memset(&options, 0xff, sizeof(options));
  tcc_model_options_init(&options);
  CHECK(options.size == sizeof(tcc_model_options));
  CHECK(options.flags == 0);
  tcc_model_options_init(nullptr); // a no-op
}

TEST_CASE("models are reference counted", "[model]") {
  Model model = loadModel("add");
  tcc_model_retain(model.get());
  tcc_model_release(model.get()); // back to one reference
  CHECK(tcc_model_num_inputs(model.get()) == 2);
  tcc_model_retain(nullptr);
  tcc_model_release(nullptr);
}

TEST_CASE("the same file may be loaded twice", "[model]") {
  Model first = loadModel("add");
  Model second = loadModel("add");
  first.reset();
  CHECK(tcc_model_num_inputs(second.get()) == 2);
}

//===------------------------------------------------------------------------------------===//
// Descriptor validation, through tcc_model_create_from_descriptor
//===------------------------------------------------------------------------------------===//

TEST_CASE("a valid in-memory descriptor is accepted", "[model][descriptor]") {
  TestModel testModel;
  tcc_model *model = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&testModel.descriptor, nullptr, &model));
  CHECK(std::string(tcc_model_path(model)).empty());
  CHECK(std::string(tcc_model_tcc_version(model)) == "test");
  tcc_model_release(model);
  requireError(tcc_model_create_from_descriptor(nullptr, nullptr, &model),
               TCC_STATUS_INVALID_ARGUMENT, {"descriptor is null"});
  requireError(tcc_model_create_from_descriptor(&testModel.descriptor, nullptr, nullptr),
               TCC_STATUS_INVALID_ARGUMENT, {"out_model is null"});
  tcc_model_options options = TCC_MODEL_OPTIONS_INIT;
  options.size = 0;
  requireError(tcc_model_create_from_descriptor(&testModel.descriptor, &options, &model),
               TCC_STATUS_INVALID_ARGUMENT, {"options->size is 0"});
}

TEST_CASE("all-static tensors may omit dim_symbols and outputs may have derived dims",
          "[model][descriptor]") {
  TestModel testModel;
  int64_t staticShape[2] = {3, 2};
  tcc_tensor_desc extra[2] = {{"s", TCC_DTYPE_INT8, 2, staticShape, nullptr},
                              testModel.inputs[0]};
  testModel.descriptor.inputs = extra;
  testModel.descriptor.num_inputs = 2;
  int64_t derivedShape[1] = {-1};
  int32_t noSymbol[1] = {-1};
  testModel.outputs[0] = {"d", TCC_DTYPE_FLOAT32, 1, derivedShape, noSymbol};
  REQUIRE_OK(create(testModel));
}

namespace {
struct InvalidCase {
  const char *what;
  std::function<void(TestModel &)> change;
  tcc_status_code code;
  const char *message;
};
} // namespace

TEST_CASE("inconsistent descriptors are rejected with a message", "[model][descriptor]") {
  static const char *const nullName = nullptr;
  const std::vector<InvalidCase> cases = {
      {"abi version", [](TestModel &m) { m.descriptor.abi_version = 3; },
       TCC_STATUS_INCOMPATIBLE, "the model has ABI version 3, this runtime reads version 1"},
      {"small size",
       [](TestModel &m) { m.descriptor.size = TCC_MODEL_DESCRIPTOR_V1_SIZE - 8; },
       TCC_STATUS_INCOMPATIBLE, "expected at least"},
      {"unknown descriptor flags", [](TestModel &m) { m.descriptor.flags = 12; },
       TCC_STATUS_INVALID_MODEL, "unknown descriptor flags 0xc"},
      {"batch symbol out of range",
       [](TestModel &m) {
         m.descriptor.flags = TCC_MODEL_IMAGES_ALONE;
         m.descriptor.batch_symbol = 1;
       },
       TCC_STATUS_INVALID_MODEL, "batch_symbol is 1, expected a symbol (0 to 0)"},
      {"batch symbol not leading an output",
       [](TestModel &m) {
         m.descriptor.flags = TCC_MODEL_IMAGES_ALONE;
         m.outputs[0].dim_symbols = m.staticDims;
       },
       TCC_STATUS_INVALID_MODEL,
       "batch_symbol 0 'n' must be dim 0 of every input and output and no other dim, but output "
       "0 'y' is not so"},
      {"null tcc_version", [](TestModel &m) { m.descriptor.tcc_version = nullName; },
       TCC_STATUS_INVALID_MODEL, "the descriptor's tcc_version is null"},
      {"null target", [](TestModel &m) { m.descriptor.target_triple = nullName; },
       TCC_STATUS_INVALID_MODEL, "target_triple is null"},
      {"null cpu", [](TestModel &m) { m.descriptor.cpu = nullName; }, TCC_STATUS_INVALID_MODEL,
       "cpu is null"},
      {"null features", [](TestModel &m) { m.descriptor.cpu_features = nullName; },
       TCC_STATUS_INVALID_MODEL, "cpu_features is null"},
      {"null workspace_size", [](TestModel &m) { m.descriptor.workspace_size = nullptr; },
       TCC_STATUS_INVALID_MODEL, "entry point workspace_size is null"},
      {"null output_shapes", [](TestModel &m) { m.descriptor.output_shapes = nullptr; },
       TCC_STATUS_INVALID_MODEL, "entry point output_shapes is null"},
      {"null run", [](TestModel &m) { m.descriptor.run = nullptr; }, TCC_STATUS_INVALID_MODEL,
       "entry point run is null"},
      {"negative symbol count", [](TestModel &m) { m.descriptor.num_symbols = -1; },
       TCC_STATUS_INVALID_MODEL, "num_symbols is -1, expected 0 to 65536"},
      {"absurd input count", [](TestModel &m) { m.descriptor.num_inputs = 70000; },
       TCC_STATUS_INVALID_MODEL, "num_inputs is 70000"},
      {"negative output count", [](TestModel &m) { m.descriptor.num_outputs = -2; },
       TCC_STATUS_INVALID_MODEL, "num_outputs is -2"},
      {"null symbols", [](TestModel &m) { m.descriptor.symbols = nullptr; },
       TCC_STATUS_INVALID_MODEL, "num_symbols is 1 but its array is null"},
      {"null inputs", [](TestModel &m) { m.descriptor.inputs = nullptr; },
       TCC_STATUS_INVALID_MODEL, "num_inputs is 1 but its array is null"},
      {"null outputs", [](TestModel &m) { m.descriptor.outputs = nullptr; },
       TCC_STATUS_INVALID_MODEL, "num_outputs is 1 but its array is null"},
      {"null symbol name", [](TestModel &m) { m.symbols[0].name = nullName; },
       TCC_STATUS_INVALID_MODEL, "symbol 0 has a null name"},
      {"negative min", [](TestModel &m) { m.symbols[0].min = -1; }, TCC_STATUS_INVALID_MODEL,
       "symbol 0 'n' has the range [-1, 16]"},
      {"max below min", [](TestModel &m) { m.symbols[0].max = 0; }, TCC_STATUS_INVALID_MODEL,
       "the range [1, 0]"},
      {"max below -1", [](TestModel &m) { m.symbols[0].max = -5; }, TCC_STATUS_INVALID_MODEL,
       "the range [1, -5]"},
      {"duplicate symbol",
       [](TestModel &m) {
         m.symbols[1].name = "n";
         m.descriptor.num_symbols = 2;
       },
       TCC_STATUS_INVALID_MODEL, "symbols 0 and 1 are both named 'n'"},
      {"unused symbol", [](TestModel &m) { m.descriptor.num_symbols = 2; },
       TCC_STATUS_INVALID_MODEL, "symbol 1 'm' is used by no input"},
      {"null input name", [](TestModel &m) { m.inputs[0].name = nullName; },
       TCC_STATUS_INVALID_MODEL, "input 0 has a null name"},
      {"unknown dtype", [](TestModel &m) { m.inputs[0].dtype = 14; }, TCC_STATUS_INVALID_MODEL,
       "input 0 'x' has the unknown dtype 14"}, // ONNX COMPLEX64
      {"negative rank", [](TestModel &m) { m.inputs[0].rank = -1; }, TCC_STATUS_INVALID_MODEL,
       "input 0 'x' has rank -1, expected 0 to 256"},
      {"absurd rank", [](TestModel &m) { m.outputs[0].rank = 100000; },
       TCC_STATUS_INVALID_MODEL, "output 0 'y' has rank 100000"},
      {"null shape", [](TestModel &m) { m.inputs[0].shape = nullptr; },
       TCC_STATUS_INVALID_MODEL, "input 0 'x' has rank 2 but no shape"},
      {"extent below -1", [](TestModel &m) { m.shape[1] = -2; }, TCC_STATUS_INVALID_MODEL,
       "dim 1 has extent -2"},
      {"static dim with a symbol", [](TestModel &m) { m.dimSymbols[1] = 0; },
       TCC_STATUS_INVALID_MODEL, "dim 1 is static (2) but names symbol 0"},
      {"symbol index too large", [](TestModel &m) { m.dimSymbols[0] = 5; },
       TCC_STATUS_INVALID_MODEL, "dim 0 names symbol 5, but the model has 1 symbols"},
      {"symbol index negative", [](TestModel &m) { m.dimSymbols[0] = -7; },
       TCC_STATUS_INVALID_MODEL, "names symbol -7"},
      {"dynamic input dim without symbol",
       [](TestModel &m) {
         m.dimSymbols[0] = -1;
         m.descriptor.num_symbols = 0;
       },
       TCC_STATUS_INVALID_MODEL, "input 0 'x': dim 0 is dynamic but names no symbol"},
      {"unknown cpu feature", [](TestModel &m) { m.descriptor.cpu_features = "+bogus"; },
       TCC_STATUS_INCOMPATIBLE, "unknown to this runtime"},
  };
  for (const InvalidCase &c : cases) {
    INFO("case: " << c.what);
    TestModel testModel;
    c.change(testModel);
    requireError(create(testModel), c.code, {"tcc_model_create_from_descriptor", c.message});
  }
}

TEST_CASE("TCC_MODEL_FLAG_SKIP_CPU_CHECK loads and sessions refuse where features lack",
          "[model][descriptor]") {
#if defined(__x86_64__)
  std::vector<const char *> candidates = {"avx512fp16", "avx512bf16", "avxvnni",
                                          "avx512f",    "fma4",       "avx2"};
#elif defined(__aarch64__)
  std::vector<const char *> candidates = {"sve2", "sve", "i8mm", "bf16"};
#else
  std::vector<const char *> candidates;
#endif
  std::string absent;
  for (const char *name : candidates) {
    int present = 1;
    REQUIRE_OK(tcc_cpu_has_feature(name, &present));
    if (!present) {
      absent = name;
      break;
    }
  }
  if (absent.empty()) {
    WARN("this host has every candidate feature; nothing to check");
    return;
  }
  TestModel testModel;
  std::string features = "+" + absent;
  testModel.descriptor.cpu_features = features.c_str();
  requireError(create(testModel), TCC_STATUS_INCOMPATIBLE,
               {"the model requires CPU features this host lacks: " + absent,
                "compiled for cpu 'generic'"});
  tcc_model_options options = TCC_MODEL_OPTIONS_INIT;
  options.flags = TCC_MODEL_FLAG_SKIP_CPU_CHECK;
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&testModel.descriptor, &options, &raw));
  Model model(raw);
  CHECK(tcc_model_num_inputs(model.get()) == 1);
  tcc_session *session = nullptr;
  requireError(tcc_session_create(model.get(), nullptr, &session), TCC_STATUS_INCOMPATIBLE,
               {"tcc_session_create", absent});
  CHECK(session == nullptr);
}
