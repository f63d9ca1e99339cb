//===- Verify.h - tcc verify: compiled numbers against the reference evaluator -*- C++ -*-===//
#ifndef TCC_TOOLS_TCC_VERIFY_H
#define TCC_TOOLS_TCC_VERIFY_H

#include "tcc/Import/Importer.h"
#include "tcc/Pipelines/Compiler.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>
#include <vector>

namespace tcc_tool {

struct VerifyRequest {
  std::string model;
  tcc::ImportOptions import;
  /// Makes the compile options (targets, kernel stage, fault injection) for each compile.
  std::function<tcc::CompileOptions()> compileOptions;
  std::vector<std::string> inputs; ///< .npy files, in the model's input order; none: random
  uint64_t seed = 0;
  int64_t dynamicExtent = 2; ///< the extent of a dim left symbolic, for random inputs
  double rtol = 1e-4, atol = 1e-5;
  std::string scratch; ///< a folder for the compiled libraries
};

/// `tcc verify`: compiles the model, runs it on the given (or random) inputs, and compares
/// every output with the reference evaluator's. When one differs, bisects: compiles the
/// model again with intermediate values of the decomposed graph as extra outputs, narrowing
/// down to the first value (in graph order, among those the differing output depends on)
/// whose compiled value differs while every value it reads agrees, and names its ONNX node
/// and the kernels of the library that compute that node, with the two values. Returns the
/// exit status: 0 all outputs agree, 1 they differ (or an error).
int verifyModel(const VerifyRequest &request, mlir::MLIRContext &context, llvm::raw_ostream &os);

} // namespace tcc_tool

#endif // TCC_TOOLS_TCC_VERIFY_H
