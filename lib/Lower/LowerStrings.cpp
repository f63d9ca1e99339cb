//===- LowerStrings.cpp - string primitives -> linalg.generic of runtime calls ----------===//
//
// Each element of a string primitive is one call of a runtime string function (model_abi.h)
// through the run's import table:
//
//   %s = prim.format %x : tensor<?xf32> to tensor<?x!prim.string>
//   // becomes
//   %table = prim.run_context                       // @main's import table, as i64
//   %t = tensor.from_elements %table : tensor<i64>
//   %s = linalg.generic ins(%x, %t : tensor<?xf32>, tensor<i64>) outs(%e : tensor<?xi128>) {
//     ^bb0(%v: f32, %tbl: i64, %out: i128):
//       %r = prim.runtime_call "string_format"(%tbl, %v) {dtype = 1 : i32} : f32 -> i128
//       linalg.yield %r : i128
//   }
//
// The table travels as a 0-d tensor operand, so fusion, kernel formation, bufferization and
// loops treat it like any other input; tcc-lower-runtime-calls turns the calls into LLVM.
// Strings are i128s in tcc_string's layout from here on (lower::signless).
//
//===----------------------------------------------------------------------------------===//
#include "LoweringPatterns.h"

#include "dialects/prim/PrimDialect.h"
#include "tcc/Support/DataTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Endian.h"

using namespace mlir;
using namespace tcc;

namespace {

/// The texts of `set` packed for string_find: each a little-endian int64 byte count, then
/// its bytes.
std::string packSet(ArrayAttr set) {
  std::string packed;
  for (Attribute a : set) {
    StringRef text = cast<StringAttr>(a).getValue();
    char size[8];
    llvm::support::endian::write64le(size, static_cast<uint64_t>(text.size()));
    packed.append(size, 8);
    packed.append(text.begin(), text.end());
  }
  return packed;
}

struct StringOpToGeneric : RewritePattern {
  StringOpToGeneric(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isa<prim::FormatOp, prim::ParseOp, prim::ChangeCaseOp, prim::StringInOp,
             prim::StringEqualOp, prim::StringConcatOp, prim::StringMatchOp>(op))
      return failure();
    Location loc = op->getLoc();
    Value operand = op->getOperand(0);
    unsigned numOperands = op->getNumOperands();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    auto signlessType = lower::signless(type);
    Type resultElement = signlessType.getElementType();

    Value table = prim::RunContextOp::create(rewriter, loc, rewriter.getI64Type());
    Value tableTensor = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({}, rewriter.getI64Type()), ValueRange{table});
    SmallVector<Value> inputs;
    for (Value v : op->getOperands())
      inputs.push_back(lower::castToSignless(rewriter, loc, v));
    inputs.push_back(tableTensor);
    Value init = lower::createEmpty(rewriter, loc, signlessType,
                                    lower::getDynamicDims(rewriter, loc, operand));
    int64_t rank = type.getRank();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap scalar = AffineMap::get(rank, 0, {}, rewriter.getContext());
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);

    std::string callee;
    int32_t dtype = 0, flag = 0;
    std::string set;
    int64_t count = 0;
    if (auto format = dyn_cast<prim::FormatOp>(op)) {
      callee = "string_format";
      // The dtype is read before signless types lose the signedness.
      dtype = getOnnxDataType(format.getOperand().getType().getElementType());
    } else if (auto parse = dyn_cast<prim::ParseOp>(op)) {
      callee = "string_parse";
      dtype = getOnnxDataType(type.getElementType());
    } else if (auto change = dyn_cast<prim::ChangeCaseOp>(op)) {
      callee = "string_change_case";
      flag = change.getUpper();
    } else if (isa<prim::StringEqualOp>(op)) {
      callee = "string_equal";
    } else if (isa<prim::StringConcatOp>(op)) {
      callee = "string_concat";
    } else if (auto match = dyn_cast<prim::StringMatchOp>(op)) {
      callee = "string_match";
      set = match.getPattern().str();
      count = static_cast<int64_t>(set.size());
    } else {
      auto in = cast<prim::StringInOp>(op);
      callee = "string_find";
      flag = in.getIgnoreCase();
      set = packSet(in.getSet());
      count = in.getSet().size();
    }
    SmallVector<AffineMap> maps(numOperands, identity);
    maps.push_back(scalar);
    maps.push_back(identity);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{signlessType}, inputs, ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          auto call = prim::RuntimeCallOp::create(
              b, nested, resultElement, b.getStringAttr(callee), args[numOperands],
              args.take_front(numOperands),
              b.getI32IntegerAttr(dtype), b.getI32IntegerAttr(flag), b.getStringAttr(set),
              b.getI64IntegerAttr(count));
          linalg::YieldOp::create(b, nested, call.getResult());
        });
    rewriter.replaceOp(op, lower::castToType(rewriter, loc, generic.getResult(0), type));
    return success();
  }
};

/// A constant string tensor with texts: the texts' bytes become one private global, and each
/// element is built at run time from its address, `{blob + offset, size}`, by a generic over
/// constant offsets and sizes (a tensor constant cannot hold addresses itself).
struct StringConstantToGeneric : OpRewritePattern<arith::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, PatternRewriter &rewriter) const override {
    auto strings = dyn_cast<DenseStringElementsAttr>(op.getValue());
    if (!strings || !lower::hasText(strings))
      return failure();
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto module = op->getParentOfType<ModuleOp>();
    std::string blob;
    SmallVector<int64_t> offsets, sizes;
    for (StringRef text : strings.getRawStringData()) {
      offsets.push_back(static_cast<int64_t>(blob.size()));
      sizes.push_back(static_cast<int64_t>(text.size()));
      blob += text.str();
    }
    std::string name = "tcc_string_constant";
    for (int k = 0; SymbolTable::lookupSymbolIn(module, name); ++k)
      name = "tcc_string_constant_" + std::to_string(k);
    {
      OpBuilder top(module.getBodyRegion());
      auto arrayType = LLVM::LLVMArrayType::get(rewriter.getI8Type(), blob.size());
      LLVM::GlobalOp::create(top, loc, arrayType, /*isConstant=*/true, LLVM::Linkage::Private,
                             name, top.getStringAttr(blob), /*alignment=*/1);
    }
    Type i64 = rewriter.getI64Type(), i128 = rewriter.getIntegerType(128);
    auto table = [&](ArrayRef<int64_t> values) {
      auto tableType = RankedTensorType::get(type.getShape(), i64);
      return arith::ConstantOp::create(rewriter, loc, tableType,
                                       DenseElementsAttr::get(tableType, values))
          .getResult();
    };
    Value offsetTable = table(offsets), sizeTable = table(sizes);
    auto resultType = RankedTensorType::get(type.getShape(), i128);
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), i128);
    AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
    SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{offsetTable, sizeTable},
        ValueRange{init}, ArrayRef<AffineMap>{identity, identity, identity}, iterators,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          // tcc_string's bits: the data pointer in the low half, the size in the high half.
          Value base = LLVM::AddressOfOp::create(b, nested, LLVM::LLVMPointerType::get(b.getContext()),
                                                 name);
          Value address = arith::AddIOp::create(
              b, nested, LLVM::PtrToIntOp::create(b, nested, i64, base), args[0]);
          Value low = arith::ExtUIOp::create(b, nested, i128, address);
          Value high = arith::ShLIOp::create(
              b, nested, arith::ExtUIOp::create(b, nested, i128, args[1]),
              arith::ConstantOp::create(b, nested, i128, b.getIntegerAttr(i128, 64)));
          linalg::YieldOp::create(b, nested,
                                  arith::OrIOp::create(b, nested, low, high).getResult());
        });
    rewriter.replaceOp(op, lower::castToType(rewriter, loc, generic.getResult(0), type));
    return success();
  }
};

} // namespace

bool lower::hasText(DenseStringElementsAttr strings) {
  return llvm::any_of(strings.getRawStringData(), [](StringRef s) { return !s.empty(); });
}

void lower::populateStringLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<StringOpToGeneric, StringConstantToGeneric>(patterns.getContext());
}
