//===- TestModel.h - a model defined inside the test process ----------------------------===//
//
// y = 2 * x for x, y: float32 [n, 2], n in [1, 16], as a mutable descriptor: tests change its
// metadata to exercise validation (tcc_model_create_from_descriptor), and set `behaviour` to
// make its entry points break the ABI contract in one specific way.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_TEST_RUNTIME_TESTMODEL_H
#define TCC_TEST_RUNTIME_TESTMODEL_H

#include "tcc/runtime.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>

namespace tcc_test {

/// How the entry points of TestModel misbehave; reset by each TestModel's constructor.
struct TestModelBehaviour {
  int64_t workspaceSize = 64;          // returned by workspace_size
  int32_t outputShapesCode = TCC_RUN_OK;
  int64_t outputExtentOverride = -100; // > -100: written as y's dim 0
  int32_t runCode = TCC_RUN_OK;
  const char *reportedError = nullptr; // passed to report_error when reportError is set
  bool reportError = false;
  bool nestedParallelFor = false;      // each chunk runs an inner parallel_for
  tcc_session *reenter = nullptr;      // run calls tcc_session_run on it
  tcc_status reenterStatus = nullptr;  // what that call returned
  std::atomic<int64_t> innerIterations{0};
  // What run saw: calls, the largest n, and the distinct workspace addresses.
  std::atomic<int64_t> runCalls{0};
  std::atomic<int64_t> largestBatch{0};
  std::mutex mutex;
  std::set<void *> workspaces;
};

inline TestModelBehaviour &behaviour() {
  static TestModelBehaviour instance;
  return instance;
}

struct TestModel {
  tcc_symbol_desc symbols[2] = {{"n", 1, 16}, {"m", 1, 16}};
  int64_t shape[2] = {-1, 2};
  int32_t dimSymbols[2] = {0, -1};
  int32_t staticDims[2] = {-1, -1};
  tcc_tensor_desc inputs[1] = {{"x", TCC_DTYPE_FLOAT32, 2, shape, dimSymbols}};
  tcc_tensor_desc outputs[1] = {{"y", TCC_DTYPE_FLOAT32, 2, shape, dimSymbols}};
  tcc_model_descriptor descriptor{};

  TestModel() {
    TestModelBehaviour &b = behaviour();
    b.workspaceSize = 64;
    b.outputShapesCode = TCC_RUN_OK;
    b.outputExtentOverride = -100;
    b.runCode = TCC_RUN_OK;
    b.reportedError = nullptr;
    b.reportError = false;
    b.nestedParallelFor = false;
    b.reenter = nullptr;
    b.reenterStatus = nullptr;
    b.innerIterations = 0;
    b.runCalls = 0;
    b.largestBatch = 0;
    b.workspaces.clear();
    descriptor.abi_version = TCC_ABI_VERSION;
    descriptor.size = sizeof(tcc_model_descriptor);
    descriptor.tcc_version = "test";
    descriptor.target_triple = "host";
    descriptor.cpu = "generic";
    descriptor.cpu_features = "";
    descriptor.num_symbols = 1;
    descriptor.num_inputs = 1;
    descriptor.num_outputs = 1;
    descriptor.symbols = symbols;
    descriptor.inputs = inputs;
    descriptor.outputs = outputs;
    descriptor.workspace_size = workspaceSize;
    descriptor.output_shapes = outputShapes;
    descriptor.run = run;
  }
  TestModel(const TestModel &) = delete;
  TestModel &operator=(const TestModel &) = delete;

  static int64_t workspaceSize(const int64_t *) { return behaviour().workspaceSize; }

  static int32_t outputShapes(const int64_t *symbolValues, int64_t *shapes) {
    const TestModelBehaviour &b = behaviour();
    shapes[0] = b.outputExtentOverride > -100 ? b.outputExtentOverride : symbolValues[0];
    shapes[1] = 2;
    return b.outputShapesCode;
  }

  struct Args {
    const tcc_import_table *imports;
    const float *x;
    float *y;
  };

  static void inner(void *, int64_t begin, int64_t end) {
    behaviour().innerIterations += end - begin;
  }

  static void scale(void *arg, int64_t begin, int64_t end) {
    Args *args = static_cast<Args *>(arg);
    for (int64_t i = begin * 2; i < end * 2; ++i)
      args->y[i] = 2.0f * args->x[i];
    if (behaviour().nestedParallelFor)
      args->imports->parallel_for(args->imports->context, 100, inner, nullptr);
  }

  static int32_t run(const tcc_import_table *imports, const int64_t *symbolValues,
                     void *const *inputs, void *const *outputs, void *workspace) {
    TestModelBehaviour &b = behaviour();
    b.runCalls++;
    for (int64_t seen = b.largestBatch; seen < symbolValues[0];)
      b.largestBatch.compare_exchange_weak(seen, symbolValues[0]);
    {
      std::lock_guard<std::mutex> lock(b.mutex);
      b.workspaces.insert(workspace);
    }
    Args args{imports, static_cast<const float *>(inputs[0]), static_cast<float *>(outputs[0])};
    // Kernel 0 of the kernel list (when the test gives one), as compiled host code times it.
    bool profiled = imports->size >= TCC_IMPORT_TABLE_V4_SIZE + sizeof(void *) && imports->profile;
    if (profiled)
      imports->profile(imports->context, 0, TCC_PROFILE_BEGIN);
    imports->parallel_for(imports->context, symbolValues[0], scale, &args);
    if (profiled)
      imports->profile(imports->context, 0, TCC_PROFILE_END);
    if (b.reportError)
      imports->report_error(imports->context, b.reportedError);
    if (b.reenter)
      b.reenterStatus = tcc_session_run(b.reenter, nullptr, 0, nullptr, 0);
    return b.runCode;
  }
};

} // namespace tcc_test

#endif // TCC_TEST_RUNTIME_TESTMODEL_H
