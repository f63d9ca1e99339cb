//===- ModelInterface.cpp - what a compiled model publishes --------------------------===//
#include "dialects/kernel/KernelDialect.h"
#include "tcc/Package/Package.h"

#include "dialects/onnx/OnnxDialect.h"
#include "dialects/prim/PrimDialect.h"
#include "runtime/include/tcc/model_abi.h"
#include "tcc/Support/DataTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace tcc;

namespace {
/// The ONNX TensorProto code of an element type, or 0; strings are !prim.string, or the i128
/// (tcc_string's bits) they lower to.
int32_t dtypeOf(Type type) {
  if (isa<prim::StringType>(type) || type.isInteger(128))
    return 8;
  return getOnnxDataType(type);
}
} // namespace

FailureOr<tcc::ModelInterface> tcc::getModelInterface(ModuleOp module) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return module.emitError() << "the module has no @main function";
  ModelInterface interface;
  DenseMap<Attribute, int32_t> symbolIndex;
  for (auto symbol : module.getOps<prim::SymbolOp>()) {
    symbolIndex[symbol.getSymNameAttr()] = static_cast<int32_t>(interface.symbols.size());
    interface.symbols.push_back(
        {symbol.getSymName().str(), static_cast<int64_t>(symbol.getMin()),
         symbol.getMax() ? static_cast<int64_t>(*symbol.getMax()) : int64_t(-1),
         symbol.getComputed()});
  }
  // Dims bound to a lone symbol name it.
  DenseMap<std::pair<Value, int64_t>, int32_t> boundDims;
  for (auto bind : main.getOps<prim::BindShapeOp>())
    for (auto [d, expr] : llvm::enumerate(bind.getShape().getResults()))
      if (auto s = dyn_cast<AffineSymbolExpr>(expr)) {
        auto name = cast<FlatSymbolRefAttr>(bind.getSymbols()[s.getPosition()]).getAttr();
        if (symbolIndex.count(name))
          boundDims[{bind.getOperand(), static_cast<int64_t>(d)}] = symbolIndex[name];
      }
  auto describe = [&](Type type, StringRef name, Value value, StringRef what,
                      unsigned index) -> FailureOr<TensorInterface> {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return main.emitError() << what << " " << index << " ('" << name << "') has type " << type
                              << ", expected a ranked tensor";
    TensorInterface t;
    t.name = name.str();
    t.dtype = dtypeOf(tensor.getElementType());
    if (!t.dtype)
      return main.emitError() << what << " " << index << " ('" << name << "') has element type "
                              << tensor.getElementType() << ", which the model ABI cannot describe";
    for (int64_t d = 0; d < tensor.getRank(); ++d) {
      t.shape.push_back(tensor.isDynamicDim(d) ? -1 : tensor.getDimSize(d));
      auto it = value ? boundDims.find({value, d}) : boundDims.end();
      t.symbols.push_back(tensor.isDynamicDim(d) && it != boundDims.end() ? it->second : -1);
    }
    return t;
  };
  // The parts of packed sequences (onnx.sequence: the sequence's name), in pairs.
  auto noteSequencePart = [&](StringAttr sequence, bool isOutput, size_t index) {
    if (!sequence)
      return;
    SequenceInterface *entry = nullptr;
    for (SequenceInterface &s : interface.sequences)
      if (s.name == sequence.getValue() && s.isOutput == isOutput)
        entry = &s;
    if (!entry) {
      interface.sequences.push_back({sequence.getValue().str(), isOutput, -1, -1});
      entry = &interface.sequences.back();
    }
    (entry->shapesIndex < 0 ? entry->shapesIndex : entry->dataIndex) = static_cast<int32_t>(index);
  };
  // The parts of optionals present or empty at run time: the value's tensors (in a row)
  // and the flag.
  auto noteOptionalPart = [&](StringAttr value, StringAttr flag, bool isOutput, size_t index) {
    StringAttr optional = value ? value : flag;
    if (!optional)
      return;
    OptionalInterface *entry = nullptr;
    for (OptionalInterface &o : interface.optionals)
      if (o.name == optional.getValue() && o.isOutput == isOutput)
        entry = &o;
    if (!entry) {
      interface.optionals.push_back({optional.getValue().str(), isOutput, -1, -1, 0});
      entry = &interface.optionals.back();
    }
    if (flag) {
      entry->presentIndex = static_cast<int32_t>(index);
      return;
    }
    if (entry->count == 0)
      entry->firstIndex = static_cast<int32_t>(index);
    // Not in a row: the check below refuses it.
    entry->count =
        entry->firstIndex + entry->count == static_cast<int32_t>(index) ? entry->count + 1 : -1000;
  };
  // Parameters (arguments marked kernel.parameter, see tcc-autodiff) live in the session, and
  // their in-place updates (results marked kernel.update_of) are not outputs.
  for (auto [i, arg] : llvm::enumerate(main.getArguments())) {
    auto name = main.getArgAttrOfType<StringAttr>(i, "onnx.name");
    auto t = describe(arg.getType(), name ? name.getValue() : "", arg, "input", i);
    if (failed(t))
      return failure();
    if (main.getArgAttr(i, tcc::kernel::KernelDialect::kParameterAttrName)) {
      if (!ShapedType(cast<ShapedType>(arg.getType())).hasStaticShape())
        return main.emitError() << "parameter '" << t->name << "' has a dynamic shape";
      interface.parameters.push_back(*t);
      continue;
    }
    noteSequencePart(main.getArgAttrOfType<StringAttr>(i, onnx::kSequenceAttrName), false,
                     interface.inputs.size());
    noteOptionalPart(main.getArgAttrOfType<StringAttr>(i, onnx::kOptionalAttrName),
                     main.getArgAttrOfType<StringAttr>(i, onnx::kOptionalPresentAttrName), false,
                     interface.inputs.size());
    interface.inputs.push_back(*t);
  }
  for (auto [i, type] : llvm::enumerate(main.getResultTypes())) {
    if (main.getResultAttr(i, tcc::kernel::KernelDialect::kUpdateOfAttrName))
      continue;
    auto name = main.getResultAttrOfType<StringAttr>(i, "onnx.name");
    auto t = describe(type, name ? name.getValue() : "", Value(), "output", i);
    if (failed(t))
      return failure();
    noteSequencePart(main.getResultAttrOfType<StringAttr>(i, onnx::kSequenceAttrName), true,
                     interface.outputs.size());
    noteOptionalPart(main.getResultAttrOfType<StringAttr>(i, onnx::kOptionalAttrName),
                     main.getResultAttrOfType<StringAttr>(i, onnx::kOptionalPresentAttrName), true,
                     interface.outputs.size());
    interface.outputs.push_back(*t);
  }
  for (const SequenceInterface &s : interface.sequences) {
    const auto &tensors = s.isOutput ? interface.outputs : interface.inputs;
    if (s.shapesIndex < 0 || s.dataIndex < 0 || tensors[s.shapesIndex].shape.size() != 2 ||
        tensors[s.shapesIndex].dtype != 7 || tensors[s.dataIndex].shape.size() != 1 ||
        tensors[s.shapesIndex].shape[1] > TCC_MAX_SEQUENCE_RANK)
      return main.emitError() << "the sequence " << (s.isOutput ? "output" : "input") << " '"
                              << s.name
                              << "' is not an int64 [count, rank <= " << TCC_MAX_SEQUENCE_RANK
                              << "] NAME.shapes and a 1-d NAME.data";
  }
  for (const OptionalInterface &o : interface.optionals) {
    const auto &tensors = o.isOutput ? interface.outputs : interface.inputs;
    bool sequence = llvm::any_of(interface.sequences, [&](const SequenceInterface &s) {
      return s.isOutput == o.isOutput && s.shapesIndex == o.firstIndex &&
             s.dataIndex == o.firstIndex + 1;
    });
    if (o.presentIndex < 0 || (o.count != 1 && !(o.count == 2 && sequence)) ||
        tensors[o.presentIndex].dtype != 9 || !tensors[o.presentIndex].shape.empty())
      return main.emitError() << "the optional " << (o.isOutput ? "output" : "input") << " '"
                              << o.name
                              << "' is not a tensor or a sequence followed by a bool scalar "
                                 "NAME.present";
  }
  return interface;
}
