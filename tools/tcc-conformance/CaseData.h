//===- CaseData.h - an ONNX test case's data sets --------------------------------*- C++ -*-===//
#ifndef TCC_TOOLS_CONFORMANCE_CASEDATA_H
#define TCC_TOOLS_CONFORMANCE_CASEDATA_H

#include "tcc/Evaluate/Evaluator.h"
#include "tcc/Import/Importer.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tcc::conformance {

/// Inputs and expected outputs of one run of a case. Sequences are flattened into their
/// elements and absent optionals into nothing, as in the compiled signature; `importOptions`
/// holds the sequence inputs' lengths and element shapes and the absent optional inputs
/// that the model must be specialized to.
struct DataSet {
  std::string name;
  std::vector<eval::Tensor> inputs, expected;
  tcc::ImportOptions importOptions;
};

/// Reads a case's data sets: test_data_set_*/{input,output}_N.pb (the ONNX backend layout)
/// or input_<k>_<name>.npy / output_<k>_<name>.npy beside the model (the corpus layout).
/// Returns "" or why the data cannot be read.
std::string readDataSets(const std::string &dir, mlir::MLIRContext &context,
                         std::vector<DataSet> &sets);

/// "" when `actual` matches `expected` within |a - e| <= atol + rtol |e| (NaN == NaN), or,
/// for string tensors, holds exactly the same elements; otherwise what differs.
std::string compareTensors(const eval::Tensor &actual, const eval::Tensor &expected, double rtol,
                           double atol);

} // namespace tcc::conformance

#endif // TCC_TOOLS_CONFORMANCE_CASEDATA_H
