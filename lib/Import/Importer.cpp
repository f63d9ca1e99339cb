//===- Importer.cpp - ONNX model -> module with func.func @main ------------------------===//
//
// The module carries the model's metadata; each symbolic input dim is a prim.symbol; the
// graph is `func.func @main`, whose entry binds each dynamic input's shape to its symbols
// and then holds the initializers, the nodes and the onnx.yield of the outputs.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Import/Importer.h"

#include "GraphImport.h"
#include "ModelFile.h"
#include "Names.h"
#include "SymbolImport.h"
#include "TensorImport.h"
#include "TypeImport.h"

#include "dialects/onnx/OnnxDialect.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tcc::import;

namespace {

LogicalResult collectModelInfo(const ::onnx::ModelProto &model, Location loc, ModelInfo &info) {
  for (const ::onnx::OperatorSetIdProto &opset : model.opset_import()) {
    StringRef domain = normalizeDomain(opset.domain());
    auto [it, inserted] = info.opsets.try_emplace(domain, opset.version());
    if (!inserted && it->second != opset.version())
      return emitError(loc) << "opset_import lists domain " << quoted(domain)
                            << " twice, with versions " << it->second << " and " << opset.version();
  }
  for (const ::onnx::FunctionProto &function : model.functions())
    info.localFunctions[{normalizeDomain(function.domain()).str(), function.name()}] = &function;
  return success();
}

void setModelAttributes(ModuleOp module, const ::onnx::ModelProto &model, const ModelInfo &info) {
  Builder builder(module.getContext());
  module->setAttr("onnx.ir_version", builder.getI64IntegerAttr(model.ir_version()));
  std::string producer = model.producer_name();
  if (!model.producer_version().empty())
    producer += (producer.empty() ? "" : " ") + model.producer_version();
  module->setAttr("onnx.producer", builder.getStringAttr(producer));
  // The default domain is keyed "ai.onnx" here: MLIR cannot parse an empty attribute name
  // back. (Nodes spell it "", as in `domain` of onnx.node.)
  SmallVector<NamedAttribute> opsets;
  for (const auto &entry : info.opsets)
    opsets.push_back(builder.getNamedAttr(entry.first().empty() ? "ai.onnx" : entry.first(),
                                          builder.getI64IntegerAttr(entry.second)));
  module->setAttr("onnx.opset_import", builder.getDictionaryAttr(opsets));
}

/// `prim.bind_shape %arg [symbols] map` for an input with dynamic dims: the map over all
/// of the module's symbols, compressed to the ones this input uses.
void bindInputShape(OpBuilder &builder, Location loc, Value argument, const InputType &type,
                    const DimSymbols &symbols) {
  unsigned numSymbols = symbols.getNumSymbols();
  AffineMap map = AffineMap::get(0, numSymbols, type.dims, builder.getContext());
  llvm::SmallBitVector unused(numSymbols);
  SmallVector<Attribute> used;
  for (unsigned position = 0; position < numSymbols; ++position) {
    if (map.isFunctionOfSymbol(position))
      used.push_back(symbols.getSymbolRef(position));
    else
      unused.set(position);
  }
  tcc::prim::BindShapeOp::create(builder, loc, argument, builder.getArrayAttr(used),
                                 compressSymbols(map, unused));
}

/// Everything the importer builds from one model file.
class ModelImporter {
public:
  ModelImporter(const tcc::ImportOptions &options, MLIRContext &context, Location fileLoc)
      : context(context), fileLoc(fileLoc), options(options), symbols(context, options) {}

  OwningOpRef<ModuleOp> run(StringRef path);

  /// The files the import read: the model, then its external data files.
  std::vector<std::string> filesRead;

private:
  /// Imports the types of the main graph's inputs (those that are not initializers).
  LogicalResult importInputs(const ::onnx::GraphProto &graph);

  MLIRContext &context;
  Location fileLoc;
  const tcc::ImportOptions &options;
  DimSymbols symbols;
  ModelFile file;
  ModelInfo info;
  SmallVector<const ::onnx::ValueInfoProto *> inputs;
  SmallVector<GraphInputType> inputTypes;
};

LogicalResult ModelImporter::importInputs(const ::onnx::GraphProto &graph) {
  // Before IR version 4, initializers were listed among the inputs too: they stay
  // initializers, not function arguments.
  llvm::StringSet<> initializerNames;
  for (const ::onnx::TensorProto &initializer : graph.initializer())
    initializerNames.insert(initializer.name());
  llvm::StringSet<> inputNames;
  for (const auto &[index, input] : llvm::enumerate(graph.input())) {
    if (initializerNames.contains(input.name()))
      continue;
    if (input.name().empty())
      return emitError(fileLoc) << "graph input " << index << " has no name";
    if (!inputNames.insert(input.name()).second)
      return emitError(fileLoc) << "graph input " << quoted(input.name()) << " is listed twice";
    FailureOr<GraphInputType> type = importGraphInputType(input, symbols, options, fileLoc);
    if (failed(type))
      return failure();
    inputs.push_back(&input);
    inputTypes.push_back(*type);
  }
  for (const auto &entry : options.sequences)
    if (!inputNames.contains(entry.first()))
      return emitError(fileLoc) << "the sequence setting " << quoted(entry.first())
                                << " names no graph input";
  for (const auto &[setting, names] :
       {std::pair{"absent", &options.absentInputs}, std::pair{"present", &options.presentInputs}})
    for (const auto &entry : *names)
      if (!inputNames.contains(entry.first()))
        return emitError(fileLoc) << "the " << setting << "-input setting "
                                  << quoted(entry.first()) << " names no graph input";
  // The dims of an optional's value are 0 when it is empty at run time, unless another
  // input gives them.
  llvm::SmallDenseSet<unsigned> required;
  auto symbolsOf = [](const InputType &element) {
    SmallVector<unsigned> positions;
    for (AffineExpr dim : element.dims)
      dim.walk([&](AffineExpr e) {
        if (auto symbol = dyn_cast<AffineSymbolExpr>(e))
          positions.push_back(symbol.getPosition());
      });
    return positions;
  };
  for (const GraphInputType &type : inputTypes)
    if (!type.runtimeOptional)
      for (const InputType &element : type.elements)
        for (unsigned position : symbolsOf(element))
          required.insert(position);
  for (const GraphInputType &type : inputTypes)
    if (type.runtimeOptional)
      for (const InputType &element : type.elements)
        for (unsigned position : symbolsOf(element))
          if (!required.contains(position))
            symbols.allowZeroAt(position);
  return symbols.verifySettingNames(fileLoc);
}

OwningOpRef<ModuleOp> ModelImporter::run(StringRef path) {
  if (failed(readModelFile(path, fileLoc, file)) ||
      failed(collectModelInfo(file.model, fileLoc, info)) ||
      failed(symbols.verifySettingRanges(fileLoc)))
    return nullptr;
  ::onnx::GraphProto &graph = *file.model.mutable_graph();
  if (failed(importInputs(graph)))
    return nullptr;
  SmallVector<Type> resultTypes;
  for (const ::onnx::ValueInfoProto &output : graph.output()) {
    // An optional output's hint is its value's.
    ::onnx::ValueInfoProto hint = output;
    if (output.type().value_case() == ::onnx::TypeProto::kOptionalType)
      *hint.mutable_type() = output.type().optional_type().elem_type();
    FailureOr<Type> type =
        importHintType(hint, symbols, "output " + quoted(output.name()), fileLoc);
    if (failed(type))
      return nullptr;
    resultTypes.push_back(*type);
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  setModelAttributes(*module, file.model, info);
  OpBuilder builder(&context);
  builder.setInsertionPointToEnd(module->getBody());
  symbols.createSymbolOps(builder, fileLoc);

  // A sequence input is one argument per element (NAME[k]) or, packed, two (NAME.shapes,
  // NAME.data); an absent optional none; one present or empty at run time its value's
  // arguments and NAME.present.
  SmallVector<Type> argumentTypes;
  SmallVector<std::string> argumentNames;
  SmallVector<NamedAttrList> argumentAttrs;
  for (const auto &[input, type] : llvm::zip(inputs, inputTypes))
    for (const auto &[k, element] : llvm::enumerate(type.elements)) {
      StringAttr name = builder.getStringAttr(input->name());
      bool flag = type.runtimeOptional && k + 1 == type.elements.size();
      argumentTypes.push_back(element.type);
      argumentNames.push_back(
          flag ? input->name() + ".present"
          : type.kind == GraphInputType::Sequence
              ? input->name() + "[" + std::to_string(k) + "]"
          : type.kind == GraphInputType::PackedSequence
              ? input->name() + (k == 0 ? ".shapes" : ".data")
              : input->name());
      NamedAttrList &attrs = argumentAttrs.emplace_back();
      attrs.append("onnx.name", builder.getStringAttr(argumentNames.back()));
      if (type.kind == GraphInputType::PackedSequence && !flag)
        attrs.append(tcc::onnx::kSequenceAttrName, name);
      if (type.runtimeOptional)
        attrs.append(flag ? tcc::onnx::kOptionalPresentAttrName : tcc::onnx::kOptionalAttrName,
                     name);
    }
  auto function = func::FuncOp::create(builder, fileLoc, "main",
                                       builder.getFunctionType(argumentTypes, resultTypes));
  for (const auto &[index, attrs] : llvm::enumerate(argumentAttrs))
    function.setArgAttrs(index, attrs.getDictionary(&context));
  for (const auto &[index, output] : llvm::enumerate(graph.output())) {
    function.setResultAttr(index, "onnx.name", builder.getStringAttr(output.name()));
    // A declared optional output is one at the ABI, whatever decomposition makes of it.
    if (output.type().value_case() == ::onnx::TypeProto::kOptionalType)
      function.setResultAttr(index, tcc::onnx::kOptionalAttrName,
                             builder.getStringAttr(output.name()));
  }

  Block *entry = function.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  Scope scope;
  unsigned next = 0;
  for (const auto &[input, type] : llvm::zip(inputs, inputTypes)) {
    Location loc = NameLoc::get(builder.getStringAttr(printable(input->name())), fileLoc);
    SmallVector<Value> elements;
    for (const InputType &element : type.elements) {
      BlockArgument argument = entry->getArgument(next++);
      elements.push_back(argument);
      if (!element.type.hasStaticShape())
        bindInputShape(builder, loc, argument, element, symbols);
    }
    Value present = type.runtimeOptional ? elements.pop_back_val() : Value();
    Value value;
    if (type.kind == GraphInputType::Tensor)
      value = elements.front();
    else if (type.kind == GraphInputType::Sequence)
      value = tcc::onnx::SequenceOp::create(builder, loc, tcc::onnx::SequenceType::get(&context),
                                            elements);
    else if (type.kind == GraphInputType::PackedSequence)
      value = tcc::onnx::PackedSequenceOp::create(
          builder, loc, tcc::onnx::SequenceType::get(&context), elements[0], elements[1]);
    else
      value = tcc::onnx::NoneOp::create(builder, loc, builder.getNoneType()).getResult();
    if (present)
      value = tcc::onnx::RuntimeOptionalOp::create(
          builder, loc, tcc::onnx::OptionalType::get(&context), present, value);
    scope.define(input->name(), value);
  }

  TensorImporter tensors(file);
  GraphImporter graphImporter(info, symbols, tensors, fileLoc, builder);
  LogicalResult imported = graphImporter.importGraphBody(graph, *entry, scope, &file.rawData);
  filesRead.assign(1, path.str());
  llvm::append_range(filesRead, tensors.externalDataFiles());
  if (failed(imported))
    return nullptr;
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

} // namespace

OwningOpRef<ModuleOp> tcc::importOnnxModel(StringRef path, const ImportOptions &options,
                                           MLIRContext &context,
                                           std::vector<std::string> *filesRead) {
  context.loadDialect<tcc::onnx::OnnxDialect, tcc::prim::PrimDialect, func::FuncDialect>();
  Location fileLoc = FileLineColLoc::get(&context, path, 0, 0);
  // The parsed protobuf is large; it is freed when the import returns, while the weight
  // blobs keep what they point into.
  auto importer = std::make_unique<ModelImporter>(options, context, fileLoc);
  OwningOpRef<ModuleOp> module = importer->run(path);
  if (filesRead)
    *filesRead = std::move(importer->filesRead);
  return module;
}
