//===- LowerRuntimeCalls.cpp - prim.runtime_call -> calls through the import table -----===//
//
// String primitives lower to one prim.runtime_call per element (lib/Lower/LowerStrings.cpp),
// whose first operand is the address of the run's import table. Here each becomes LLVM-dialect
// code: load the function pointer and the table's `context`, pass the element and the result
// by address (stack slots of the function's entry block, so loops do not grow the stack), call.
// The table's layout is model_abi.h's tcc_import_table, described in tcc/Package/ModelAbi.h.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Host/Passes.h"
#include "dialects/kernel/KernelDialect.h"
#include "tcc/Package/ModelAbi.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <algorithm>

namespace tcc {
#define GEN_PASS_DEF_LOWERRUNTIMECALLS
#include "tcc/Host/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc;
namespace abi = tcc::abi;

namespace {

/// The fields of tcc_import_table this pass reads (tcc/Package/ModelAbi.h).
enum ImportField : int32_t {
  kContext = abi::kImport_context,
  kStringFormat = abi::kImport_string_format,
  kStringParse = abi::kImport_string_parse,
  kStringChangeCase = abi::kImport_string_change_case,
  kStringFind = abi::kImport_string_find,
  kStringEqual = abi::kImport_string_equal,
  kStringConcat = abi::kImport_string_concat,
  kStringMatch = abi::kImport_string_match,
};

LLVM::LLVMStructType importTableType(MLIRContext *ctx) {
  return abi::llvmDialectStructType(ctx, abi::kImportKinds);
}

/// The bytes a value occupies in its stack slot: i1 travels as one byte (tcc's bool).
Type slotType(Type type) {
  return type.isInteger(1) ? IntegerType::get(type.getContext(), 8) : type;
}

struct LowerRuntimeCallsPass : tcc::impl::LowerRuntimeCallsBase<LowerRuntimeCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<prim::RunContextOp> contexts;
    SmallVector<prim::RuntimeCallOp> calls;
    module.walk([&](Operation *op) {
      if (auto c = dyn_cast<prim::RunContextOp>(op))
        contexts.push_back(c);
      else if (auto c = dyn_cast<prim::RuntimeCallOp>(op))
        calls.push_back(c);
    });
    if (contexts.empty() && calls.empty())
      return;
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.getNumArguments() == 0 || main.getArgument(0).getType() != ptr) {
      module.emitError() << "internal error: tcc-lower-runtime-calls needs @main's import "
                            "table argument (run tcc-range-kernels first)";
      return signalPassFailure();
    }
    for (prim::RunContextOp c : contexts) {
      if (c->getParentOfType<func::FuncOp>() != main) {
        c.emitError() << "internal error: prim.run_context outside @main";
        return signalPassFailure();
      }
      OpBuilder b(c);
      c.replaceAllUsesWith(
          LLVM::PtrToIntOp::create(b, c.getLoc(), b.getI64Type(), main.getArgument(0)).getResult());
      c.erase();
    }
    unsigned nextSet = 0;
    int32_t lastField = kStringFind;
    for (prim::RuntimeCallOp call : calls)
      if (failed(lower(call, module, nextSet, lastField)))
        return signalPassFailure();
    // The import table must reach the last function called.
    module->setAttr(tcc::kernel::KernelDialect::kStringTableSizeAttrName,
                    IntegerAttr::get(IntegerType::get(ctx, 64),
                                     abi::importTableSizeThrough(abi::ImportField(lastField))));
  }

  /// The address of `bytes` as a private constant global (null when empty).
  Value constantBytes(OpBuilder &b, ModuleOp module, Location loc, StringRef bytes,
                      unsigned &nextSet) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    if (bytes.empty())
      return LLVM::ZeroOp::create(b, loc, ptr);
    OpBuilder top(module.getBodyRegion());
    std::string name = "tcc_string_set_" + std::to_string(nextSet++);
    auto arrayType = LLVM::LLVMArrayType::get(IntegerType::get(b.getContext(), 8), bytes.size());
    LLVM::GlobalOp::create(top, loc, arrayType, /*isConstant=*/true, LLVM::Linkage::Private,
                           name, top.getStringAttr(bytes), /*alignment=*/8);
    return LLVM::AddressOfOp::create(b, loc, ptr, name);
  }

  LogicalResult lower(prim::RuntimeCallOp call, ModuleOp module, unsigned &nextSet,
                      int32_t &lastField) {
    MLIRContext *ctx = &getContext();
    Location loc = call.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    auto func = call->getParentOfType<FunctionOpInterface>();
    if (!func || func.getFunctionBody().empty())
      return call.emitError() << "internal error: prim.runtime_call outside a function";

    StringRef callee = call.getCallee();
    ImportField field;
    if (callee == "string_format")
      field = kStringFormat;
    else if (callee == "string_parse")
      field = kStringParse;
    else if (callee == "string_change_case")
      field = kStringChangeCase;
    else if (callee == "string_find")
      field = kStringFind;
    else if (callee == "string_equal")
      field = kStringEqual;
    else if (callee == "string_concat")
      field = kStringConcat;
    else if (callee == "string_match")
      field = kStringMatch;
    else
      return call.emitError() << "internal error: unknown runtime function '" << callee << "'";

    // Stack slots in the entry block: one for the operand, one for the result.
    OpBuilder entry(ctx);
    entry.setInsertionPointToStart(&func.getFunctionBody().front());
    Value one = LLVM::ConstantOp::create(entry, loc, i64, entry.getI64IntegerAttr(1));
    auto slot = [&](Type type) {
      return LLVM::AllocaOp::create(entry, loc, ptr, slotType(type), one, /*alignment=*/16)
          .getResult();
    };
    lastField = std::max<int32_t>(lastField, field);
    unsigned expected = field == kStringEqual || field == kStringConcat ? 2 : 1;
    if (call.getElements().size() != expected)
      return call.emitError() << "internal error: '" << callee << "' takes " << expected
                              << " operand(s), got " << call.getElements().size();
    Type resultType = call.getResult().getType();
    SmallVector<Value> in;
    for (Value operand : call.getElements())
      in.push_back(slot(operand.getType()));
    Value out = field == kStringFind || field == kStringEqual || field == kStringMatch
                    ? Value()
                    : slot(resultType);

    OpBuilder b(call);
    auto table = importTableType(ctx);
    Value base = LLVM::IntToPtrOp::create(b, loc, ptr, call.getTable());
    auto load = [&](int32_t index) {
      Value address = LLVM::GEPOp::create(b, loc, ptr, table, base,
                                          ArrayRef<LLVM::GEPArg>{0, index});
      return LLVM::LoadOp::create(b, loc, ptr, address).getResult();
    };
    Value context = load(kContext), function = load(field);
    for (auto [operand, slotOf] : llvm::zip(call.getElements(), in)) {
      Value stored = operand;
      if (operand.getType().isInteger(1))
        stored = LLVM::ZExtOp::create(b, loc, slotType(operand.getType()), operand);
      LLVM::StoreOp::create(b, loc, stored, slotOf);
    }
    auto constant32 = [&](int64_t v) {
      return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v)).getResult();
    };

    Value result;
    switch (field) {
    case kStringFormat: // (context, dtype, const void *value, tcc_string *out)
    case kStringParse: { // (context, const tcc_string *text, dtype, void *out)
      Value dtype = constant32(call.getDtype());
      auto type = LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, i32, ptr});
      SmallVector<Value> args = {function, context, in[0], dtype, out};
      if (field == kStringFormat) {
        type = LLVM::LLVMFunctionType::get(voidType, {ptr, i32, ptr, ptr});
        args = {function, context, dtype, in[0], out};
      }
      LLVM::CallOp::create(b, loc, type, args);
      result = LLVM::LoadOp::create(b, loc, slotType(resultType), out);
      break;
    }
    case kStringChangeCase: { // (context, const tcc_string *text, int32 upper, tcc_string *out)
      auto type = LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, i32, ptr});
      LLVM::CallOp::create(b, loc, type,
                           ValueRange{function, context, in[0], constant32(call.getFlag()), out});
      result = LLVM::LoadOp::create(b, loc, resultType, out);
      break;
    }
    case kStringEqual: { // (context, const tcc_string *a, const tcc_string *b) -> int32
      auto type = LLVM::LLVMFunctionType::get(i32, {ptr, ptr, ptr});
      result = LLVM::CallOp::create(b, loc, type, ValueRange{function, context, in[0], in[1]})
                   .getResult();
      break;
    }
    case kStringConcat: { // (context, const tcc_string *a, const tcc_string *b, tcc_string *out)
      auto type = LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, ptr, ptr});
      LLVM::CallOp::create(b, loc, type, ValueRange{function, context, in[0], in[1], out});
      result = LLVM::LoadOp::create(b, loc, resultType, out);
      break;
    }
    case kStringMatch: { // (context, const tcc_string *text, const char *pattern, int64 size)
      Value pattern = constantBytes(b, module, loc, call.getSet(), nextSet);
      Value size = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(call.getCount()));
      auto type = LLVM::LLVMFunctionType::get(i32, {ptr, ptr, ptr, i64});
      result = LLVM::CallOp::create(b, loc, type, ValueRange{function, context, in[0], pattern,
                                                             size})
                   .getResult();
      break;
    }
    default: { // find: (context, const tcc_string *text, const char *set, int64 count, int32)
      Value set = constantBytes(b, module, loc, call.getSet(), nextSet);
      Value count = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(call.getCount()));
      auto type = LLVM::LLVMFunctionType::get(i32, {ptr, ptr, ptr, i64, i32});
      Value found =
          LLVM::CallOp::create(b, loc, type,
                               ValueRange{function, context, in[0], set, count,
                                          constant32(call.getFlag())})
              .getResult();
      result = found;
      break;
    }
    }
    if (resultType.isInteger(1))
      result = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, result,
                                    LLVM::ConstantOp::create(b, loc, result.getType(),
                                                             b.getIntegerAttr(result.getType(), 0)));
    call.replaceAllUsesWith(result);
    call.erase();
    return success();
  }
};

} // namespace
