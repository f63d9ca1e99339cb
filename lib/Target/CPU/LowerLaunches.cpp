//===- LowerLaunches.cpp - kernel.launch -> the runtime's parallel_for ----------------===//
//
// The CPU runs a launch's range on the runtime's thread pool: the import table's
// parallel_for calls a body(arg, begin, end) per chunk. The body is a trampoline per kernel
// that unpacks the launch's operands from an array of 8-byte slots (pointers and integers:
// memref descriptors are both) and calls the kernel on the chunk.
//
// Profiles: each kernel that @main runs, through parallel_for or by a plain call, gets an
// index (the module's kernel.profiled_kernels lists them in order), and the run is bracketed
// by calls of @tcc_profile(imports, index, begin/end), which calls the import table's profile
// function where the runtime gives one (a profiling session) and otherwise only returns.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Package/ModelAbi.h"
#include "tcc/Target/CPU/Passes.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tcc {
#define GEN_PASS_DEF_CPULOWERLAUNCHES
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;
namespace abi = tcc::abi;

namespace {

/// Whether a kernel argument travels in an 8-byte slot: a pointer or an integer of up to 64
/// bits.
bool fitsSlot(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  return isa<LLVM::LLVMPointerType>(type) || (integer && integer.getWidth() <= 64);
}

struct CpuLowerLaunchesPass : tcc::impl::CpuLowerLaunchesBase<CpuLowerLaunchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<tcc::kernel::LaunchOp> launches;
    module.walk([&](tcc::kernel::LaunchOp launch) { launches.push_back(launch); });
    for (tcc::kernel::LaunchOp launch : launches)
      if (failed(lower(launch, module)))
        return signalPassFailure();
    if (auto main = module.lookupSymbol<LLVM::LLVMFuncOp>("main"))
      if (!main.isExternal() && main.getNumArguments() > 0 &&
          isa<LLVM::LLVMPointerType>(main.getArgument(0).getType()))
        bracketKernels(main, module);
  }

  /// Which kernel each call of @tcc_parallel_for in @main runs.
  llvm::DenseMap<Operation *, StringAttr> dispatched;

  /// Brackets every kernel that @main runs (a plain call of a kernel function, or a
  /// dispatch to parallel_for) by @tcc_profile calls, in program order, and lists the kernels.
  void bracketKernels(LLVM::LLVMFuncOp main, ModuleOp module) {
    SmallVector<std::pair<LLVM::CallOp, StringAttr>> runs;
    main.walk([&](LLVM::CallOp call) {
      if (StringAttr kernel = dispatched.lookup(call)) {
        runs.push_back({call, kernel});
        return;
      }
      FlatSymbolRefAttr callee = call.getCalleeAttr();
      auto function = callee ? module.lookupSymbol<LLVM::LLVMFuncOp>(callee) : nullptr;
      if (function && tcc::kernel::isKernel(function))
        runs.push_back({call, function.getSymNameAttr()});
    });
    if (runs.empty())
      return;
    LLVM::LLVMFuncOp hook = getOrCreateProfileHook(module);
    SmallVector<Attribute> listed;
    llvm::DenseMap<Attribute, int32_t> indices;
    for (auto [call, kernel] : runs) {
      auto [entry, added] = indices.try_emplace(kernel, listed.size());
      if (added)
        listed.push_back(kernel);
      OpBuilder b(call);
      Location loc = call.getLoc();
      Value index =
          LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(entry->second));
      auto event = [&](int32_t e) {
        return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(e));
      };
      Value imports = main.getArgument(0);
      LLVM::CallOp::create(b, loc, hook, ValueRange{imports, index, event(TCC_PROFILE_BEGIN)});
      b.setInsertionPointAfter(call);
      LLVM::CallOp::create(b, loc, hook, ValueRange{imports, index, event(TCC_PROFILE_END)});
    }
    module->setAttr(tcc::kernel::KernelDialect::kProfiledKernelsAttrName,
                    ArrayAttr::get(&getContext(), listed));
  }

  /// `@tcc_profile(imports, kernel, event)`: imports->profile(context, kernel, event) when
  /// there is a table, of a size that has profile, and profile is not null.
  LLVM::LLVMFuncOp getOrCreateProfileHook(ModuleOp module) {
    constexpr llvm::StringLiteral name = "tcc_profile";
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return existing;
    MLIRContext *ctx = &getContext();
    Types types = llvmTypes();
    LLVM::LLVMPointerType ptr = types.ptr;
    auto i32 = IntegerType::get(ctx, 32);
    Location loc = module.getLoc();
    OpBuilder b = atModuleEnd(module);
    auto hook = LLVM::LLVMFuncOp::create(
        b, loc, name, LLVM::LLVMFunctionType::get(types.voidType, {ptr, i32, i32}),
        LLVM::Linkage::Internal);
    Block *entry = hook.addEntryBlock(b);
    Region &region = hook.getBody();
    Block *sized = b.createBlock(&region, region.end());
    Block *present = b.createBlock(&region, region.end());
    Block *call = b.createBlock(&region, region.end());
    Block *done = b.createBlock(&region, region.end());
    Value imports = hook.getArgument(0);
    auto table = abi::llvmDialectStructType(ctx, abi::kImportKinds);
    auto address = [&](int32_t index) {
      return LLVM::GEPOp::create(b, loc, ptr, table, imports, ArrayRef<LLVM::GEPArg>{0, index});
    };
    b.setInsertionPointToEnd(entry);
    Value null = LLVM::ZeroOp::create(b, loc, ptr);
    LLVM::CondBrOp::create(
        b, loc, LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, imports, null), done, sized);
    // A table of the size before profile (TCC_IMPORT_TABLE_V4_SIZE) has none.
    b.setInsertionPointToEnd(sized);
    Value size = LLVM::LoadOp::create(b, loc, i32, address(abi::kImport_size));
    Value end = LLVM::ConstantOp::create(
        b, loc, i32,
        b.getI32IntegerAttr(abi::offsetOf(abi::kImportKinds, abi::kImport_profile) + 8));
    LLVM::CondBrOp::create(
        b, loc, LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, size, end), present, done);
    b.setInsertionPointToEnd(present);
    Value function = LLVM::LoadOp::create(b, loc, ptr, address(abi::kImport_profile));
    LLVM::CondBrOp::create(
        b, loc, LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, function, null), done, call);
    b.setInsertionPointToEnd(call);
    Value context = LLVM::LoadOp::create(b, loc, ptr, address(abi::kImport_context));
    auto profileType = LLVM::LLVMFunctionType::get(types.voidType, {ptr, i32, i32});
    LLVM::CallOp::create(b, loc, profileType,
                         ValueRange{function, context, hook.getArgument(1), hook.getArgument(2)});
    LLVM::BrOp::create(b, loc, done);
    b.setInsertionPointToEnd(done);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return hook;
  }

  /// The value an operand of a not-yet-converted op had before the conversion to the LLVM
  /// dialect: the input of the materialization cast, or the operand itself.
  Value converted(Value operand) {
    if (auto cast = operand.getDefiningOp<UnrealizedConversionCastOp>())
      if (cast.getNumOperands() == 1)
        return cast.getOperand(0);
    return operand;
  }

  LogicalResult lower(tcc::kernel::LaunchOp launch, ModuleOp module) {
    MLIRContext *ctx = &getContext();
    auto main = launch->getParentOfType<LLVM::LLVMFuncOp>();
    auto kernel = module.lookupSymbol<LLVM::LLVMFuncOp>(launch.getKernel());
    if (!main || !kernel ||
        (main.getSymName() == "main" &&
         (main.getNumArguments() == 0 ||
          !isa<LLVM::LLVMPointerType>(main.getArgument(0).getType()))))
      return launch.emitError() << "internal error: tcc-cpu-lower-launches needs the host "
                                   "function and its kernels in the LLVM dialect, the import "
                                   "table first (run convert-func-to-llvm first)";
    OpBuilder b(launch);
    Location loc = launch.getLoc();
    SmallVector<Value> adapted;
    for (Value operand : launch.getKernelOperands())
      adapted.push_back(converted(operand));
    LLVMTypeConverter types(ctx);
    SmallVector<Value, 4> fields =
        types.promoteOperands(loc, launch.getKernelOperands(), adapted, b);
    Value count = converted(launch.getRange());
    auto i64 = IntegerType::get(ctx, 64);
    if (count.getType() != i64 || kernel.getNumArguments() != fields.size() + 2)
      return launch.emitError() << "internal error: '" << launch.getKernel() << "' takes "
                                << kernel.getNumArguments() << " arguments, the launch passes "
                                << fields.size() << " fields and a range";
    // Outside @main there is no import table; fields that do not fit slots cannot travel.
    if (main.getSymName() != "main" ||
        !llvm::all_of(fields, [](Value v) { return fitsSlot(v.getType()); })) {
      // One call over the whole range, on the calling thread.
      Value zero = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(0));
      SmallVector<Value> args(fields.begin(), fields.end());
      args.append({zero, count});
      LLVM::CallOp::create(b, loc, kernel, args);
      eraseWithDeadCasts(launch);
      return success();
    }
    LLVM::LLVMFuncOp trampoline = getOrCreateTrampoline(kernel, fields.size(), module);
    LLVM::LLVMFuncOp dispatch = getOrCreateDispatch(module);
    // The slots: a stack array in @main's entry block.
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    Block &entry = main.getBody().front();
    OpBuilder top(&entry, entry.begin());
    Value one = LLVM::ConstantOp::create(top, loc, i64, top.getI64IntegerAttr(1));
    auto slotsType = LLVM::LLVMArrayType::get(i64, std::max<size_t>(fields.size(), 1));
    Value argv = LLVM::AllocaOp::create(top, loc, ptr, slotsType, one);
    for (auto [k, field] : llvm::enumerate(fields)) {
      Value value = field;
      if (!isa<LLVM::LLVMPointerType>(value.getType()) && value.getType() != i64)
        value = LLVM::SExtOp::create(b, loc, i64, value);
      Value slot = LLVM::GEPOp::create(b, loc, ptr, i64, argv, ArrayRef<LLVM::GEPArg>{int32_t(k)});
      LLVM::StoreOp::create(b, loc, value, slot);
    }
    Value body = LLVM::AddressOfOp::create(b, loc, trampoline);
    auto call =
        LLVM::CallOp::create(b, loc, dispatch, ValueRange{main.getArgument(0), count, body, argv});
    dispatched[call] = kernel.getSymNameAttr();
    eraseWithDeadCasts(launch);
    return success();
  }

  /// Erases `launch` and the materialization casts only it used.
  void eraseWithDeadCasts(tcc::kernel::LaunchOp launch) {
    SmallVector<Operation *> casts;
    for (Value operand : launch->getOperands())
      if (auto cast = operand.getDefiningOp<UnrealizedConversionCastOp>())
        casts.push_back(cast);
    launch.erase();
    for (Operation *cast : casts)
      if (cast->use_empty())
        cast->erase();
  }

  /// The pointer, i64 and void types of the functions this pass makes.
  struct Types {
    LLVM::LLVMPointerType ptr;
    IntegerType i64;
    LLVM::LLVMVoidType voidType;
  };
  Types llvmTypes() {
    MLIRContext *ctx = &getContext();
    return {LLVM::LLVMPointerType::get(ctx), IntegerType::get(ctx, 64),
            LLVM::LLVMVoidType::get(ctx)};
  }

  /// A builder that appends to the module.
  static OpBuilder atModuleEnd(ModuleOp module) {
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    return b;
  }

  /// `@<kernel>_range(argv, begin, end)`: loads `numSlots` slots and calls the kernel on
  /// [begin, end).
  LLVM::LLVMFuncOp getOrCreateTrampoline(LLVM::LLVMFuncOp kernel, size_t numSlots,
                                         ModuleOp module) {
    std::string name = (kernel.getSymName() + "_range").str();
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return existing;
    Types types = llvmTypes();
    LLVM::LLVMPointerType ptr = types.ptr;
    IntegerType i64 = types.i64;
    LLVM::LLVMVoidType voidType = types.voidType;
    OpBuilder b = atModuleEnd(module);
    Location loc = kernel.getLoc();
    auto trampoline = LLVM::LLVMFuncOp::create(
        b, loc, name, LLVM::LLVMFunctionType::get(voidType, {ptr, i64, i64}),
        LLVM::Linkage::Internal);
    b.setInsertionPointToStart(trampoline.addEntryBlock(b));
    SmallVector<Value> args;
    for (size_t k = 0; k < numSlots; ++k) {
      Type type = kernel.getArgumentTypes()[k];
      Value slot = LLVM::GEPOp::create(b, loc, ptr, i64, trampoline.getArgument(0),
                                       ArrayRef<LLVM::GEPArg>{int32_t(k)});
      if (isa<LLVM::LLVMPointerType>(type)) {
        args.push_back(LLVM::LoadOp::create(b, loc, ptr, slot));
        continue;
      }
      Value value = LLVM::LoadOp::create(b, loc, i64, slot);
      args.push_back(type == i64 ? value : LLVM::TruncOp::create(b, loc, type, value).getResult());
    }
    args.append({trampoline.getArgument(1), trampoline.getArgument(2)});
    LLVM::CallOp::create(b, loc, kernel, args);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return trampoline;
  }

  /// `@tcc_parallel_for(imports, count, body, arg)`: imports->parallel_for(context, count,
  /// body, arg), or body(arg, 0, count) without a table or without that function.
  LLVM::LLVMFuncOp getOrCreateDispatch(ModuleOp module) {
    constexpr llvm::StringLiteral name = "tcc_parallel_for";
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return existing;
    MLIRContext *ctx = &getContext();
    Types types = llvmTypes();
    LLVM::LLVMPointerType ptr = types.ptr;
    IntegerType i64 = types.i64;
    LLVM::LLVMVoidType voidType = types.voidType;
    Location loc = module.getLoc();
    OpBuilder b = atModuleEnd(module);
    auto dispatch = LLVM::LLVMFuncOp::create(
        b, loc, name, LLVM::LLVMFunctionType::get(voidType, {ptr, i64, ptr, ptr}),
        LLVM::Linkage::Internal);
    Block *entry = dispatch.addEntryBlock(b);
    Region &region = dispatch.getBody();
    Block *pool = b.createBlock(&region, region.end());
    Block *inlined = b.createBlock(&region, region.end());
    Block *withTable = b.createBlock(&region, region.end());
    Value imports = dispatch.getArgument(0), count = dispatch.getArgument(1),
          body = dispatch.getArgument(2), arg = dispatch.getArgument(3);
    auto table = abi::llvmDialectStructType(ctx, abi::kImportKinds);
    auto field = [&](int32_t index) {
      Value address =
          LLVM::GEPOp::create(b, loc, ptr, table, imports, ArrayRef<LLVM::GEPArg>{0, index});
      return LLVM::LoadOp::create(b, loc, ptr, address).getResult();
    };
    b.setInsertionPointToEnd(entry);
    Value null = LLVM::ZeroOp::create(b, loc, ptr);
    LLVM::CondBrOp::create(b, loc,
                           LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, imports, null),
                           inlined, withTable);
    b.setInsertionPointToEnd(withTable);
    Value function = field(abi::kImport_parallel_for);
    LLVM::CondBrOp::create(b, loc,
                           LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, function, null),
                           inlined, pool);
    b.setInsertionPointToEnd(pool);
    Value context = field(abi::kImport_context);
    auto parallelForType = LLVM::LLVMFunctionType::get(voidType, {ptr, i64, ptr, ptr});
    LLVM::CallOp::create(b, loc, parallelForType, ValueRange{function, context, count, body, arg});
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    b.setInsertionPointToEnd(inlined);
    auto bodyType = LLVM::LLVMFunctionType::get(voidType, {ptr, i64, i64});
    Value zero = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(0));
    LLVM::CallOp::create(b, loc, bodyType, ValueRange{body, arg, zero, count});
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return dispatch;
  }
};

} // namespace
