//===- KernelDialect.cpp - the `kernel` dialect: verifiers and accessors -------------===//
#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tcc::kernel;

#include "dialects/kernel/KernelDialect.cpp.inc"
#include "dialects/kernel/KernelEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/kernel/KernelAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/kernel/KernelOps.cpp.inc"

void KernelDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/kernel/KernelAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/kernel/KernelOps.cpp.inc"
      >();
}

/// A byte count attribute: an integer of at least `minimum`.
static LogicalResult verifyByteCount(Operation *op, StringRef name, Attribute value,
                                     int64_t minimum) {
  auto size = dyn_cast<IntegerAttr>(value);
  if (!size || size.getInt() < minimum)
    return op->emitError() << "'" << name << "' expects a byte count "
                           << (minimum == 0 ? ">= 0" : "> 0") << ", got " << value;
  return success();
}

LogicalResult KernelDialect::verifyOperationAttribute(Operation *op, NamedAttribute attribute) {
  StringRef name = attribute.getName().strref();
  if (name == kKernelAttrName) {
    if (!isa<KernelAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' expects a #kernel.kernel attribute, got "
                             << attribute.getValue();
    if (!isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << name << "' is only valid on a function, not on '"
                             << op->getName() << "'";
    return success();
  }
  if (name == kCheckMessagesAttrName || name == kDeviceCheckMessagesAttrName) {
    auto messages = dyn_cast<ArrayAttr>(attribute.getValue());
    if (!messages || !llvm::all_of(messages, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitError() << "'" << name << "' expects an array of strings, got "
                             << attribute.getValue();
    if (!isa<ModuleOp>(op))
      return op->emitError() << "'" << name << "' is only valid on a module, not on '"
                             << op->getName() << "'";
    return success();
  }
  // The host function's contract with packaging.
  Attribute value = attribute.getValue();
  if (name == kWorkspaceSizeAttrName) {
    if (failed(verifyByteCount(op, name, value, 0)))
      return failure();
    if (!isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << name << "' is only valid on a function, not on '"
                             << op->getName() << "'";
    return success();
  }
  bool onModule = name == kOutputSymbolsAttrName || name == kBatchSplitAttrName ||
                  name == kParametersSizeAttrName || name == kStringTableSizeAttrName ||
                  name == kDeviceConstantsSizeAttrName || name == kDeviceKernelsAttrName ||
                  name == kDeviceImagesAttrName || name == kReadsDeviceAttrName ||
                  name == kKernelNodesAttrName || name == kProfiledKernelsAttrName;
  if (onModule && !isa<ModuleOp>(op))
    return op->emitError() << "'" << name << "' is only valid on a module, not on '"
                           << op->getName() << "'";
  if (name == kOutputSymbolsAttrName) {
    auto outputs = dyn_cast<ArrayAttr>(value);
    if (!outputs || !llvm::all_of(outputs, [](Attribute a) { return isa<DenseI32ArrayAttr>(a); }))
      return op->emitError() << "'" << name
                             << "' expects one array<i32> per output (a symbol index, -1 or "
                                "-2 per dim), got "
                             << value;
    return success();
  }
  if (name == kBatchSplitAttrName) {
    if (!isa<FlatSymbolRefAttr>(value))
      return op->emitError() << "'" << name << "' expects a symbol reference (@name), got "
                             << value;
    return success();
  }
  if (name == kStringTableSizeAttrName)
    return verifyByteCount(op, name, value, 1);
  if (name == kParametersAttrName) {
    auto entries = dyn_cast<ArrayAttr>(value);
    auto valid = [](Attribute a) {
      auto entry = dyn_cast<DictionaryAttr>(a);
      auto offset = entry ? entry.getAs<IntegerAttr>("offset") : IntegerAttr();
      return entry && entry.size() == 3 && entry.getAs<StringAttr>("name") && offset &&
             offset.getInt() >= 0 && entry.getAs<ElementsAttr>("value");
    };
    if (!entries || !llvm::all_of(entries, valid))
      return op->emitError() << "'" << name
                             << "' expects one {name = \"...\", offset = N >= 0, value = "
                                "<elements>} per parameter, got "
                             << value;
    if (!isa<ModuleOp>(op))
      return op->emitError() << "'" << name << "' is only valid on a module, not on '"
                             << op->getName() << "' (on an argument, it marks the buffer)";
    return success();
  }
  if (name == kParametersSizeAttrName)
    return verifyByteCount(op, name, value, 0);
  if (name == kParameterAttrName || name == kUpdateOfAttrName)
    return op->emitError() << "'" << name << "' is an argument or result attribute, not one of '"
                           << op->getName() << "'";
  if (name == kDeviceConstantsSizeAttrName)
    return verifyByteCount(op, name, value, 0);
  if (name == kDeviceKernelsAttrName) {
    auto names = dyn_cast<ArrayAttr>(value);
    if (!names || names.empty() ||
        !llvm::all_of(names, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitError() << "'" << name << "' expects a non-empty array of kernel names, got "
                             << value;
    return success();
  }
  if (name == kDeviceImagesAttrName) {
    auto images = dyn_cast<ArrayAttr>(value);
    auto valid = [](Attribute a) {
      auto image = dyn_cast<DictionaryAttr>(a);
      if (!image || image.size() != 3)
        return false;
      auto format = image.getAs<StringAttr>("format");
      return image.getAs<StringAttr>("arch") && image.getAs<FlatSymbolRefAttr>("symbol") &&
             format &&
             llvm::is_contained({StringRef("ptx"), StringRef("cubin"), StringRef("hsaco"),
                                 StringRef("spirv"), StringRef("msl")},
                                format.getValue());
    };
    if (!images || !llvm::all_of(images, valid))
      return op->emitError() << "'" << name
                             << "' expects an array of {arch = \"sm_NN\", \"gfxNNN\", "
                                "\"vulkan1.2\" or \"metal3\", format = \"ptx\", \"cubin\", "
                                "\"hsaco\", \"spirv\" or \"msl\", symbol = @global}, got "
                             << value;
    return success();
  }
  if (name == kKernelNodesAttrName) {
    auto strings = [](Attribute a) {
      auto list = dyn_cast<ArrayAttr>(a);
      return list && llvm::all_of(list, [](Attribute s) { return isa<StringAttr>(s); });
    };
    auto kernels = dyn_cast<DictionaryAttr>(value);
    if (!kernels || !llvm::all_of(kernels, [&](NamedAttribute k) { return strings(k.getValue()); }))
      return op->emitError() << "'" << name << "' expects {kernel = [\"node\", ...], ...}, got "
                             << value;
    return success();
  }
  if (name == kProfiledKernelsAttrName) {
    auto names = dyn_cast<ArrayAttr>(value);
    if (!names || !llvm::all_of(names, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitError() << "'" << name << "' expects an array of kernel names, got " << value;
    return success();
  }
  if (name == kReadsDeviceAttrName) {
    if (!isa<UnitAttr>(value))
      return op->emitError() << "'" << name << "' expects a unit attribute, got " << value;
    return success();
  }
  if (name == kBlockThreadsAttrName) {
    auto threads = dyn_cast<IntegerAttr>(value);
    if (!threads || threads.getInt() < 1 || threads.getInt() > 1024)
      return op->emitError() << "'" << name << "' expects a thread count of 1 to 1024, got "
                             << value;
    if (op->getName().getStringRef() != "scf.parallel")
      return op->emitError() << "'" << name << "' is only valid on an scf.parallel, not on '"
                             << op->getName() << "'";
    return success();
  }
  if (name == kSymbolAttrName || name == kWorkspaceAttrName || name == kDeviceConstantsAttrName ||
      name == kDeviceStatusAttrName)
    return op->emitError() << "'" << name << "' is an argument attribute, not one of '"
                           << op->getName() << "'";
  return op->emitError() << "unknown attribute '" << name << "' of the kernel dialect";
}

LogicalResult KernelDialect::verifyRegionArgAttribute(Operation *op, unsigned region,
                                                      unsigned argument, NamedAttribute attribute) {
  StringRef name = attribute.getName().strref();
  if (!isa<FunctionOpInterface>(op))
    return op->emitError() << "'" << name << "' is only valid on a function's arguments";
  if (name == kSymbolAttrName) {
    if (!isa<StringAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' of argument " << argument
                             << " expects the symbol's name as a string, got "
                             << attribute.getValue();
    return success();
  }
  if (name == kWorkspaceAttrName || name == kDeviceConstantsAttrName ||
      name == kDeviceStatusAttrName) {
    if (!isa<UnitAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' of argument " << argument
                             << " expects no value, got " << attribute.getValue();
    return success();
  }
  if (name == kParameterAttrName) {
    if (!isa<ElementsAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' of argument " << argument
                             << " expects the parameter's initial value (elements), got "
                             << attribute.getValue();
    return success();
  }
  if (name == kParametersAttrName) {
    if (!isa<UnitAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' of argument " << argument
                             << " expects no value (it marks the parameter buffer), got "
                             << attribute.getValue();
    return success();
  }
  if (name == kCacheAttrName) {
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (!isa<UnitAttr>(attribute.getValue()) || !function ||
        !function.getArgAttr(argument, kParameterAttrName))
      return op->emitError() << "'" << name << "' of argument " << argument
                             << " expects no value, on a kernel.parameter argument";
    return success();
  }
  return op->emitError() << "unknown argument attribute '" << name << "' of the kernel dialect";
}

LogicalResult KernelDialect::verifyRegionResultAttribute(Operation *op, unsigned region,
                                                         unsigned result,
                                                         NamedAttribute attribute) {
  StringRef name = attribute.getName().strref();
  if (!isa<FunctionOpInterface>(op))
    return op->emitError() << "'" << name << "' is only valid on a function's results";
  if (name == kUpdateOfAttrName) {
    if (!isa<StringAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' of result " << result
                             << " expects the name of the parameter it updates, got "
                             << attribute.getValue();
    return success();
  }
  return op->emitError() << "unknown result attribute '" << name << "' of the kernel dialect";
}

LogicalResult KernelAttr::verify(function_ref<InFlightDiagnostic()> emitError, KernelKind kind,
                                 bool epilogue, ArrayAttr nodes) {
  for (Attribute node : nodes ? nodes.getValue() : ArrayRef<Attribute>())
    if (!isa<StringAttr>(node))
      return emitError() << "#kernel.kernel expects node names as strings, got " << node;
  if (epilogue && kind != KernelKind::contraction)
    return emitError() << "#kernel.kernel: only a contraction has an epilogue, not a "
                       << stringifyKernelKind(kind) << " kernel";
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &tables) {
  Operation *callee = tables.lookupNearestSymbolFrom(*this, getKernelAttr());
  if (!callee)
    return emitOpError() << "launches '" << getKernelAttr() << "', which is not defined";
  // After the host code's lowering to the LLVM dialect the kernel is an llvm.func whose
  // arguments are the memref descriptors' fields: the launch's lowering checks those.
  if (isa<LLVM::LLVMFuncOp>(callee))
    return success();
  auto function = dyn_cast<func::FuncOp>(callee);
  if (!function || !isKernel(function))
    return emitOpError() << "launches '" << getKernelAttr()
                         << "', which is not a kernel function (kernel.kernel)";
  FunctionType type = function.getFunctionType();
  bool ranged = static_cast<bool>(getRange());
  unsigned expected = getKernelOperands().size() + (ranged ? 2 : 0);
  if (type.getNumInputs() != expected || type.getNumResults() != 0)
    return emitOpError() << "expects '" << getKernelAttr() << "' to take " << expected
                         << (ranged ? " arguments (the operands, then begin and end)"
                                    : " arguments (the operands)")
                         << " and return nothing, but it has type " << type;
  for (auto [k, operand] : llvm::enumerate(getKernelOperands()))
    if (operand.getType() != type.getInput(k))
      return emitOpError() << "operand " << k << " has type " << operand.getType() << ", but '"
                           << getKernelAttr() << "' takes " << type.getInput(k);
  if (ranged && (!type.getInput(expected - 2).isIndex() || !type.getInput(expected - 1).isIndex()))
    return emitOpError() << "expects the last two arguments of '" << getKernelAttr()
                         << "' (begin, end) to be index values";
  return success();
}

KernelAttr tcc::kernel::getKernelAttr(Operation *function) {
  return function ? function->getAttrOfType<KernelAttr>(KernelDialect::kKernelAttrName)
                  : KernelAttr();
}

void tcc::kernel::setKernelAttr(Operation *function, KernelAttr attr) {
  function->setAttr(KernelDialect::kKernelAttrName, attr);
}

ArrayAttr tcc::kernel::getCheckMessages(ModuleOp module) {
  return module->getAttrOfType<ArrayAttr>(KernelDialect::kCheckMessagesAttrName);
}

void tcc::kernel::setCheckMessages(ModuleOp module, ArrayRef<Attribute> messages) {
  module->setAttr(KernelDialect::kCheckMessagesAttrName,
                  ArrayAttr::get(module.getContext(), messages));
}

void tcc::kernel::recordKernelNodes(ModuleOp module) {
  SmallVector<NamedAttribute> kernels;
  for (Operation &op : module.getBody()->getOperations()) {
    KernelAttr attr = getKernelAttr(&op);
    auto symbol = op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!attr || !symbol)
      continue;
    // `nodes` lists the last node first (fusion prepends what it merges).
    SmallVector<Attribute> nodes;
    llvm::SmallDenseSet<Attribute> seen;
    if (ArrayAttr list = attr.getNodes())
      for (Attribute node : llvm::reverse(list.getValue()))
        if (seen.insert(node).second)
          nodes.push_back(node);
    kernels.emplace_back(symbol, ArrayAttr::get(module.getContext(), nodes));
  }
  module->setAttr(KernelDialect::kKernelNodesAttrName,
                  DictionaryAttr::get(module.getContext(), kernels));
}

std::string tcc::kernel::kernelNodesOf(ModuleOp module, StringRef name) {
  auto kernels = module->getAttrOfType<DictionaryAttr>(KernelDialect::kKernelNodesAttrName);
  if (!kernels)
    return "";
  ArrayAttr found;
  size_t longest = 0;
  for (NamedAttribute kernel : kernels) {
    StringRef key = kernel.getName().strref();
    bool matches = key == name ||
                   (name.size() > key.size() && name.starts_with(key) && name[key.size()] == '_');
    if (matches && (!found || key.size() > longest)) {
      found = dyn_cast<ArrayAttr>(kernel.getValue());
      longest = key.size();
    }
  }
  std::string text;
  for (Attribute node : found ? found.getValue() : ArrayRef<Attribute>()) {
    if (!text.empty())
      text += ", ";
    text += cast<StringAttr>(node).getValue();
  }
  return text;
}

//===- kernel.attention ------------------------------------------------------------===//

MutableOperandRange AttentionOp::getDpsInitsMutable() { return getInitMutable(); }

int64_t AttentionOp::getKeyGroup() {
  int64_t rank = getRank(), heads = rank - 3;
  if (heads < 0)
    return 1;
  int64_t qh = cast<ShapedType>(getQuery().getType()).getDimSize(heads);
  int64_t kh = cast<ShapedType>(getKey().getType()).getDimSize(heads);
  if (ShapedType::isDynamic(qh) || ShapedType::isDynamic(kh) || kh < 1 || qh == kh || qh % kh != 0)
    return 1;
  return qh / kh;
}

LogicalResult AttentionOp::verify() {
  auto shaped = [](Value v) { return cast<ShapedType>(v.getType()); };
  ShapedType q = shaped(getQuery()), k = shaped(getKey()), v = shaped(getValue()),
             out = shaped(getInit());
  if (!q.hasRank() || !k.hasRank() || !v.hasRank() || !out.hasRank())
    return emitOpError("expects ranked operands");
  int64_t rank = q.getRank();
  if (rank < 2 || k.getRank() != rank || v.getRank() != rank || out.getRank() != rank)
    return emitOpError("expects query, key, value and init of one rank >= 2, got ")
           << q.getRank() << ", " << k.getRank() << ", " << v.getRank() << ", " << out.getRank();
  for (ShapedType t : {q, k, v, out})
    if (!t.getElementType().isF32())
      return emitOpError("expects f32 operands, got ") << t;
  if (isa<TensorType>(out) != (getNumResults() == 1) ||
      (getNumResults() == 1 && getResult()[0].getType() != getInit().getType()))
    return emitOpError("expects one result of init's type on tensors, none on buffers");
  // Extents that must agree, where both are static.
  auto agree = [&](ShapedType a, int64_t i, ShapedType b, int64_t j, StringRef what) {
    int64_t x = a.getDimSize(i), y = b.getDimSize(j);
    if (ShapedType::isStatic(x) && ShapedType::isStatic(y) && x != y)
      return emitOpError() << what << " disagree: " << x << " vs " << y, false;
    return true;
  };
  if (std::optional<llvm::APFloat> cap = getSoftcap(); cap && !(cap->convertToFloat() > 0.0f))
    return emitOpError("expects a softcap above 0, got ") << cap->convertToFloat();
  if (std::optional<int64_t> causal = getCausal(); causal && *causal < 0)
    return emitOpError("expects a causal diagonal t >= 0 (row 0 keeps key 0), got ") << *causal;
  if (getCausal() && getZeroMaskedRows())
    return emitOpError("expects zero_masked_rows without a causal diagonal (the rows are told "
                       "apart by all their bias values)");
  bool transposed = getKeyTransposed();
  int64_t kSeq = transposed ? rank - 1 : rank - 2, kDepth = transposed ? rank - 2 : rank - 1;
  // Grouped heads: the last batch dim of key and value a static divisor of the queries'.
  int64_t heads = rank - 3;
  if (heads >= 0 && ShapedType::isStatic(q.getDimSize(heads)) &&
      ShapedType::isStatic(k.getDimSize(heads)) && k.getDimSize(heads) != q.getDimSize(heads)) {
    int64_t qh = q.getDimSize(heads), kh = k.getDimSize(heads);
    if (kh < 1 || qh % kh != 0 || v.getDimSize(heads) != kh)
      return emitOpError() << "expects the key and value heads (dim " << heads
                           << ") to equal the queries' or to be one static divisor of them, got "
                           << qh << " query, " << kh << " key and " << v.getDimSize(heads)
                           << " value heads";
  }
  for (int64_t d = 0; d + 2 < rank; ++d)
    if ((d != heads || getKeyGroup() == 1) && (!agree(q, d, k, d, "batch dims of query and key") ||
                                               !agree(q, d, v, d, "batch dims of query and value")))
      return failure();
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (!agree(q, d, out, d, "batch dims of query and init"))
      return failure();
  if (!agree(q, rank - 1, k, kDepth, "query and key depths") ||
      !agree(k, kSeq, v, rank - 2, "key and value lengths") ||
      !agree(q, rank - 2, out, rank - 2, "query and init lengths") ||
      !agree(v, rank - 1, out, rank - 1, "value and init depths"))
    return failure();
  std::optional<ArrayRef<int64_t>> dims = getBiasDims();
  if (!getBias() && getZeroMaskedRows())
    return emitOpError("has zero_masked_rows without a bias (the rows it zeroes are the bias's)");
  if (!getBias())
    return dims ? emitOpError("has bias_dims without a bias") : success();
  ShapedType bias = shaped(getBias());
  if (!bias.hasRank() || !bias.getElementType().isF32() || !dims ||
      static_cast<int64_t>(dims->size()) != bias.getRank())
    return emitOpError("expects an f32 bias with one bias_dims entry per dim");
  // The scores' shape: [B..., M, N].
  auto scoreDim = [&](int64_t d) {
    if (d == rank - 1 && getKeyCount())
      return ShapedType::kDynamic; // the key count, known at run time
    return d < rank - 1 ? q.getDimSize(d) : k.getDimSize(kSeq);
  };
  for (auto [t, d] : llvm::enumerate(*dims)) {
    if (d < 0 || d >= rank || (t > 0 && d <= (*dims)[t - 1]))
      return emitOpError("expects strictly increasing bias_dims within the scores' rank");
    int64_t extent = bias.getDimSize(t), score = scoreDim(d);
    if (extent != 1 && ShapedType::isStatic(extent) && ShapedType::isStatic(score) &&
        extent != score)
      return emitOpError() << "bias dim " << t << " (" << extent
                           << ") neither broadcasts nor equals score dim " << d << " (" << score
                           << ")";
  }
  return success();
}
