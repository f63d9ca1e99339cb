//===- Sizes.h - data sets at other sizes of a model's symbolic dims -------------*- C++ -*-===//
//
// A model with symbolic dims (batch, seq) is compiled once and must be right at every size.
// From a case's own inputs, these helpers make inputs at other sizes (the data cycled along
// the dims bound to symbols), so that one compiled model.so can be compared with the
// reference evaluator at each size, in one process.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_TOOLS_CONFORMANCE_SIZES_H
#define TCC_TOOLS_CONFORMANCE_SIZES_H

#include "CaseData.h"

#include <string>
#include <vector>

namespace tcc::conformance {

/// The values one symbol takes: "batch=1,2,5".
struct SymbolSizes {
  std::string name;
  std::vector<int64_t> values;
};

/// Parses NAME=V[,V...] (each V >= 0); returns "" or what is wrong.
std::string parseSymbolSizes(const std::string &text, SymbolSizes &out);

/// For each input of `dir`/model.onnx, the symbol each dim is bound to ("" when none).
std::string readInputSymbols(const std::string &dir, mlir::MLIRContext &context,
                             std::vector<std::vector<std::string>> &symbols);

/// One data set per combination of `sizes` (the first varies slowest), named like
/// "batch=2,seq=7": each input's dims bound to a listed symbol take its value, and element
/// (i0, i1, ...) is the base input's element (i0 mod n0, i1 mod n1, ...). Expected outputs
/// are left empty. Returns "" or why the sets cannot be made.
std::string makeSizedDataSets(const DataSet &base,
                              const std::vector<std::vector<std::string>> &inputSymbols,
                              const std::vector<SymbolSizes> &sizes, std::vector<DataSet> &out);

} // namespace tcc::conformance

#endif // TCC_TOOLS_CONFORMANCE_SIZES_H
