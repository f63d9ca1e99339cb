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
/// elements and absent optionals into nothing; `importOptions` holds the sequence inputs'
/// lengths and element shapes and the absent and present optional inputs, for a model
/// specialized to the data set.
struct DataSet {
  std::string name;
  std::vector<eval::Tensor> inputs, expected;
  tcc::ImportOptions importOptions;
  /// How `inputs` and `expected` group into the graph's values: a tensor is one entry, a
  /// sequence its elements, an absent optional none.
  struct Group {
    bool sequence = false;
    size_t first = 0, count = 0;
    /// An optional graph value, present in this data set or not. At the interface it is its
    /// value's `valueCount` tensors (1; 2 for a sequence) and a bool flag; `standIn` holds
    /// the zeros passed for an absent input's value (its declared type, dynamic dims 0).
    bool optional = false, present = true;
    size_t valueCount = 1;
    std::vector<eval::Tensor> standIn;
  };
  std::vector<Group> inputGroups, expectedGroups;
};

/// `tensors` (a data set's inputs or expected outputs, grouped by `groups`) as a model
/// compiled without sequence and optional settings takes or gives them: each sequence packed
/// into its two tensors (NAME.shapes, int64 [count, rank]; NAME.data, the elements
/// concatenated), each optional its value's tensors (the stand-in when absent) and a bool
/// flag. "" or why it cannot be packed (elements of different ranks or types).
std::string packSequences(const std::vector<eval::Tensor> &tensors,
                          const std::vector<DataSet::Group> &groups, mlir::MLIRContext &context,
                          std::vector<eval::Tensor> &packed);

/// The model's `outputs`, where each sequence output is packed (two tensors) and each
/// optional one is its value's tensors and a flag, unpacked into what `set.expected` lists
/// (an absent optional: nothing, once its flag says so). "" or what does not fit.
std::string unpackSequenceOutputs(const DataSet &set, std::vector<eval::Tensor> &outputs);

/// Whether `set` has a sequence or an optional among its inputs or expected outputs.
bool hasSequences(const DataSet &set);

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
