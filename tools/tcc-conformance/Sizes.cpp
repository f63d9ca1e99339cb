//===- Sizes.cpp - data sets at other sizes of a model's symbolic dims ----------------===//
#include "Sizes.h"

#include "tcc/Import/Importer.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace mlir;
using tcc::eval::Tensor;

std::string tcc::conformance::parseSymbolSizes(const std::string &text, SymbolSizes &out) {
  llvm::StringRef name, list;
  std::tie(name, list) = llvm::StringRef(text).split('=');
  if (name.empty() || list.empty())
    return "expected NAME=V[,V...], got '" + text + "'";
  out.name = name.str();
  out.values.clear();
  llvm::SmallVector<llvm::StringRef> items;
  list.split(items, ',');
  for (llvm::StringRef item : items) {
    int64_t value;
    if (item.getAsInteger(10, value) || value < 0)
      return "'" + item.str() + "' in '" + text + "' is not a size";
    out.values.push_back(value);
  }
  return "";
}

std::string tcc::conformance::readInputSymbols(const std::string &dir, MLIRContext &context,
                                               std::vector<std::vector<std::string>> &symbols) {
  OwningOpRef<ModuleOp> module = tcc::importOnnxModel(dir + "/model.onnx", {}, context);
  if (!module)
    return "cannot import " + dir + "/model.onnx";
  auto main = module->lookupSymbol<func::FuncOp>("main");
  if (!main)
    return "no @main function";
  symbols.assign(main.getNumArguments(), {});
  for (auto [i, type] : llvm::enumerate(main.getArgumentTypes()))
    if (auto shaped = dyn_cast<ShapedType>(type); shaped && shaped.hasRank())
      symbols[i].assign(shaped.getRank(), "");
  for (Operation &op : main.getBody().front()) {
    if (op.getName().getStringRef() != "prim.bind_shape")
      continue;
    auto arg = dyn_cast<BlockArgument>(op.getOperand(0));
    auto map = op.getAttrOfType<AffineMapAttr>("shape");
    auto names = op.getAttrOfType<ArrayAttr>("symbols");
    if (!arg || !map || !names)
      continue;
    for (auto [d, expr] : llvm::enumerate(map.getValue().getResults()))
      if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
        if (d < symbols[arg.getArgNumber()].size())
          symbols[arg.getArgNumber()][d] =
              cast<FlatSymbolRefAttr>(names[symbol.getPosition()]).getValue().str();
  }
  return "";
}

namespace {
/// `base` cycled to `shape`: element i of the result is base's element at (i_d mod n_d).
Tensor cycle(const Tensor &base, llvm::ArrayRef<int64_t> shape) {
  Tensor result = Tensor::zeros(base.elementType, shape);
  int64_t count = result.getNumElements(), baseCount = base.getNumElements();
  if (count == 0 || baseCount == 0)
    return result;
  // A string tensor's elements are its strings; others', their bytes.
  bool strings = isa<tcc::prim::StringType>(base.elementType);
  if (strings)
    result.strings.assign(static_cast<size_t>(count), std::string());
  if (strings && static_cast<int64_t>(base.strings.size()) != baseCount)
    return result;
  size_t elementSize = base.bytes.size() / baseCount;
  size_t rank = shape.size();
  llvm::SmallVector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t source = 0;
    for (size_t d = 0; d < rank; ++d)
      source = source * base.shape[d] + index[d] % base.shape[d];
    if (strings)
      result.strings[i] = base.strings[source];
    else
      std::memcpy(result.bytes.data() + i * elementSize,
                  base.bytes.data() + source * elementSize, elementSize);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}
} // namespace

std::string tcc::conformance::makeSizedDataSets(
    const DataSet &base, const std::vector<std::vector<std::string>> &inputSymbols,
    const std::vector<SymbolSizes> &sizes, std::vector<DataSet> &out) {
  if (inputSymbols.size() != base.inputs.size())
    return "the model has " + std::to_string(inputSymbols.size()) + " inputs, the data " +
           std::to_string(base.inputs.size());
  for (const SymbolSizes &s : sizes) {
    bool used = false;
    for (const auto &dims : inputSymbols)
      used |= llvm::is_contained(dims, s.name);
    if (!used)
      return "no input dim is bound to the symbol '" + s.name + "'";
  }
  std::vector<size_t> choice(sizes.size(), 0);
  while (true) {
    DataSet set;
    for (auto [k, s] : llvm::enumerate(sizes))
      set.name += (k ? "," : "") + s.name + "=" + std::to_string(s.values[choice[k]]);
    for (auto [i, input] : llvm::enumerate(base.inputs)) {
      llvm::SmallVector<int64_t> shape = input.shape;
      for (auto [d, name] : llvm::enumerate(inputSymbols[i]))
        for (auto [k, s] : llvm::enumerate(sizes))
          if (d < shape.size() && name == s.name)
            shape[d] = s.values[choice[k]];
      set.inputs.push_back(cycle(input, shape));
    }
    out.push_back(std::move(set));
    size_t k = sizes.size();
    while (k > 0 && ++choice[k - 1] == sizes[k - 1].values.size())
      choice[--k] = 0;
    if (k == 0)
      return "";
  }
}
