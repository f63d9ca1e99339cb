//===- CompiledModel.h - a compiled library run on evaluator tensors ----------*- C++ -*-===//
//
// The bridge between the reference evaluator's tensors (tcc::eval::Tensor) and the runtime:
// a library tcc compiled, loaded and run on the CPU the way tcc-conformance's compiled mode
// and `tcc verify` run it (string tensors as tcc_string arrays, data-dependent extents cut to
// what the run reports).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_RUN_COMPILEDMODEL_H
#define TCC_RUN_COMPILEDMODEL_H

#include "tcc/Evaluate/Evaluator.h"
#include "tcc/Support/GuardedBytes.h"

#include "mlir/IR/MLIRContext.h"

#include "tcc/runtime.h"

#include <string>
#include <vector>

namespace tcc::run {

/// The element type of a tcc_dtype (the ONNX TensorProto code); null for an unknown one.
mlir::Type elementTypeOfDtype(mlir::MLIRContext &context, int32_t dtype);

class CompiledModel {
public:
  CompiledModel() = default;
  CompiledModel(const CompiledModel &) = delete;
  CompiledModel &operator=(const CompiledModel &) = delete;
  ~CompiledModel();

  /// Loads the library at `path` and creates a session with `numThreads` threads (its
  /// parallel kernels run through the pool, as in use). Returns "" or the error.
  std::string load(const std::string &path, int32_t numThreads = 2);

  /// Runs the model on `inputs` (one per model input, in order); `outputs` get tensors whose
  /// element types live in `context`. Returns "" or the error.
  std::string run(const std::vector<eval::Tensor> &inputs, std::vector<eval::Tensor> &outputs,
                  mlir::MLIRContext &context);

  tcc_model *getModel() const { return model; }

  /// Places the numeric inputs and outputs of later runs against an inaccessible page
  /// (copies of them: tcc-conformance --guard-pages), so that a kernel reading or writing
  /// beyond one faults.
  void setGuardPages(GuardPages where) { guardPages = where; }

private:
  GuardPages guardPages = GuardPages::None;
  tcc_model *model = nullptr;
  tcc_session *session = nullptr;
};

} // namespace tcc::run

#endif // TCC_RUN_COMPILEDMODEL_H
