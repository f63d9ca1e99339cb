//===- TileOperands.cpp - the operands and epilogue of tcc-tile-contractions' tiles ---===//
//
// The Emitter's loads (TileEmitter.h): a vector of the vector operand (contiguous, or every
// stride-th element picked from a wider masked load), groups of it (bf16 pairs or int8 quads,
// one 32-bit word each), the scalar operand's group broadcast to every word, the dot product
// of int8 quads (vpdpbusd), and the epilogue's body on a vector of accumulators.
//
//===----------------------------------------------------------------------------------===//
#include "TileEmitter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace tcc::tiling;

/// A vector of i1 elements: in memory each takes a byte, but a vector load of i1 reads
/// packed bits. So the bytes are loaded (masked like the other operands: no lane past the
/// end is touched) from the buffer's address and compared with 0.
Value Emitter::boolLanes(Value memref, ArrayRef<Value> index, Value mask, VectorType type) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value offset = metadata.getOffset();
  for (auto [i, stride] : llvm::zip(index, metadata.getStrides()))
    offset = arith::AddIOp::create(b, loc, offset, arith::MulIOp::create(b, loc, i, stride));
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                             arith::AddIOp::create(b, loc, base, offset));
  Value pointer =
      LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
  auto bytes = VectorType::get(type.getShape(), b.getI8Type());
  Value zero = arith::ConstantOp::create(b, loc, bytes, b.getZeroAttr(bytes));
  Value loaded = mask
                     ? LLVM::MaskedLoadOp::create(b, loc, bytes, pointer, mask, zero, 1).getResult()
                     : LLVM::LoadOp::create(b, loc, bytes, pointer, /*alignment=*/1).getResult();
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, loaded, zero);
}

/// The epilogue's body on one vector of accumulators at `point` (j = its first lane):
/// operands that follow j are vector loads, the others one broadcast element.
Value Emitter::emitEpilogue(Value accumulator, Value mask, const DenseMap<unsigned, Value> &point) {
  linalg::GenericOp epilogue = plan.epilogue;
  Block *body = epilogue.getBody();
  int64_t numLanes = lanes;
  auto vectorOf = [&](Type t) { return VectorType::get({numLanes}, t); };
  IRMapping mapping;
  for (OpOperand &operand : epilogue->getOpOperands()) {
    BlockArgument arg = body->getArgument(operand.getOperandNumber());
    if (arg.use_empty())
      continue;
    if (operand.get() == plan.out && epilogue.isDpsInput(&operand)) {
      mapping.map(arg, accumulator);
      continue;
    }
    AffineMap map = plan.epilogueMaps[operand.getOperandNumber()];
    SmallVector<Value> index = indices(map, point);
    VectorType type = vectorOf(arg.getType());
    Value loaded;
    if (!map.isFunctionOfDim(plan.j))
      loaded = vector::BroadcastOp::create(b, loc, type,
                                           memref::LoadOp::create(b, loc, operand.get(), index));
    else if (arg.getType().isInteger(1))
      loaded = boolLanes(operand.get(), index, mask, type);
    else if (mask)
      loaded = vector::MaskedLoadOp::create(
          b, loc, type, operand.get(), index, mask,
          arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type)));
    else
      loaded = vector::LoadOp::create(b, loc, type, operand.get(), index);
    mapping.map(arg, loaded);
  }
  // Values the body uses from outside it (scalar constants of the kernel) as splats.
  auto lookup = [&](Value v) -> Value {
    if (Value mapped = mapping.lookupOrNull(v))
      return mapped;
    Value splat = vector::BroadcastOp::create(b, loc, vectorOf(v.getType()), v);
    mapping.map(v, splat);
    return splat;
  };
  for (Operation &op : body->without_terminator()) {
    // A table's index_cast is read by its loads alone: they gather at the i32 lanes.
    if (isa<arith::IndexCastOp>(op))
      continue;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Value lanes = lookup(load.getIndices()[0].getDefiningOp<arith::IndexCastOp>().getIn());
      if (Value permuted = wordPermutes ? permuteTable(load, lanes) : Value()) {
        mapping.map(load.getResult(), permuted);
        continue;
      }
      auto type = vectorOf(load.getType());
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value all = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(VectorType::get({numLanes}, b.getI1Type()), true));
      Value none = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      mapping.map(load.getResult(), vector::GatherOp::create(b, loc, type, load.getMemRef(),
                                                             ValueRange{zero}, lanes, all, none)
                                        .getResult());
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto type = vectorOf(constant.getType());
      mapping.map(constant.getResult(),
                  arith::ConstantOp::create(b, loc, type,
                                            SplatElementsAttr::get(type, constant.getValue())));
      continue;
    }
    OperationState state(loc, op.getName());
    for (Value operand : op.getOperands())
      state.operands.push_back(lookup(operand));
    for (Type t : op.getResultTypes())
      state.types.push_back(vectorOf(t));
    state.attributes = op.getAttrs();
    Operation *vectorOp = b.create(state);
    mapping.map(op.getResults(), vectorOp->getResults());
  }
  return lookup(body->getTerminator()->getOperand(0));
}

/// A 256-entry table as eight registers of 32 words, t[32r .. 32r + 31] in register r:
/// vpermi2w picks, per lane, word p mod 64 of a pair of registers (entries 64q .. 64q + 63),
///   a = pair 0 (0-63), b = pair 1 (64-127), c = pair 2 (128-191), d = pair 3 (192-255),
///   t[p] = bit7(p) ? (bit6(p) ? d : c) : (bit6(p) ? b : a),
/// four permutes and three blends for up to 32 positions; no memory is read at the positions
/// (bits above the eighth are ignored). The entries come from the global's initializer
/// (tcc-cpu-lookup-tables' constant). A gather of 16 lanes took some 24 cycles on Zen 4, the
/// permutes some 9 (a loop over 1.2 M lookups: 0.51 vs 0.19 ms).
Value Emitter::permuteTable(memref::LoadOp load, Value positions) {
  auto getGlobal = load.getMemRef().getDefiningOp<memref::GetGlobalOp>();
  auto global = getGlobal ? SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
                                getGlobal, getGlobal.getNameAttr())
                          : nullptr;
  auto entries =
      global ? dyn_cast_or_null<DenseIntElementsAttr>(global.getConstantInitValue()) : nullptr;
  auto positionType = cast<VectorType>(positions.getType());
  int64_t count = positionType.getNumElements();
  if (!global || !global.getConstant() || !entries || entries.getNumElements() != 256 ||
      !load.getType().isInteger(32) || !positionType.getElementType().isInteger(32) || count > 32)
    return nullptr;
  SmallVector<APInt> words;
  for (APInt entry : entries.getValues<APInt>()) {
    if (!entry.isIntN(16))
      return nullptr;
    words.push_back(entry.trunc(16));
  }
  auto wordsType = VectorType::get({32}, b.getI16Type());
  SmallVector<Value> registers;
  for (int64_t r = 0; r < 8; ++r)
    registers.push_back(arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(wordsType, ArrayRef(words).slice(32 * r, 32))));
  // The positions as words, repeated to fill the 32 lanes.
  Value narrow =
      arith::TruncIOp::create(b, loc, VectorType::get({count}, b.getI16Type()), positions);
  SmallVector<int64_t> repeat;
  for (int64_t i = 0; i < 32; ++i)
    repeat.push_back(i % count);
  Value index = vector::ShuffleOp::create(b, loc, narrow, narrow, repeat);
  auto permute = [&](int64_t pair) {
    return LLVM::CallIntrinsicOp::create(
               b, loc, wordsType, b.getStringAttr("llvm.x86.avx512.vpermi2var.hi.512"),
               ValueRange{registers[2 * pair], index, registers[2 * pair + 1]})
        .getResult(0);
  };
  auto bitSet = [&](int64_t bit) {
    Value mask = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(wordsType, APInt(16, uint64_t(1) << bit)));
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(wordsType));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                 arith::AndIOp::create(b, loc, index, mask), zero);
  };
  Value bit6 = bitSet(6), bit7 = bitSet(7);
  Value low = arith::SelectOp::create(b, loc, bit6, permute(1), permute(0));
  Value high = arith::SelectOp::create(b, loc, bit6, permute(3), permute(2));
  Value picked = arith::SelectOp::create(b, loc, bit7, high, low);
  Value part = vector::ExtractStridedSliceOp::create(
      b, loc, picked, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{count}, ArrayRef<int64_t>{1});
  return arith::ExtUIOp::create(b, loc, VectorType::get({count}, b.getI32Type()), part);
}

/// acc + the four products of each lane's uint8 quad of `u` and int8 quad of `s`
/// (vpdpbusd, exact in int32).
Value Emitter::dotQuads(Value acc, Value u, Value s) {
  std::string name = "llvm.x86.avx512.vpdpbusd." + std::to_string(lanes * 32);
  return LLVM::CallIntrinsicOp::create(b, loc, type, b.getStringAttr(name), ValueRange{acc, u, s})
      .getResult(0);
}

/// The group (a bf16 pair or an int8 quad) of the scalar operand at `index` (the group's
/// first), in every 32-bit lane of groupsType().
Value Emitter::broadcastGroup(ArrayRef<Value> index) {
  auto i32 = b.getI32Type();
  Value group = vector::LoadOp::create(b, loc, VectorType::get({groupSize()}, groupElement()),
                                       plan.scalar, index);
  Value word = vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), group);
  Value words = vector::BroadcastOp::create(b, loc, VectorType::get({lanes}, i32), word);
  return vector::BitCastOp::create(b, loc, groupsType(), words);
}

/// The vector operand's index for vector v at `point`: j = column + v * lanes, or with
/// stacked rows, row v at column.
SmallVector<Value> Emitter::vectorIndex(DenseMap<unsigned, Value> point, Value column, int64_t v) {
  if (stackDim) {
    point[*stackDim] = offset(point[*stackDim], v);
    point[plan.j] = column;
  } else {
    point[plan.j] = offset(column, v * lanes);
  }
  return indices(plan.vectorMap, point);
}

/// How many elements, from a vector's first, its used columns span when they are
/// `stride` apart: min(left, lanes) columns (all lanes without `left`); the load stops
/// after the last used one, so it never reads past the operand's row, and an empty vector
/// (left = 0) reads nothing.
Value Emitter::spanned(Value left, int64_t stride) {
  Value used =
      left ? arith::MinUIOp::create(b, loc, left, constant(lanes)).getResult() : constant(lanes);
  Value count = arith::SubIOp::create(b, loc, arith::MulIOp::create(b, loc, used, constant(stride)),
                                      constant(stride - 1));
  return arith::MaxSIOp::create(b, loc, count, constant(0));
}

/// Vector v of the vector operand's groups at `dims` (j = column + v * lanes): lane l
/// holds the group at j + l; `left`, when not null, is how many columns are left from its
/// first (the load reads no group past them).
Value Emitter::loadGroups(DenseMap<unsigned, Value> point, Value column, int64_t v, Value left) {
  int64_t stride = plan.stride, group = groupSize();
  SmallVector<Value> index = vectorIndex(std::move(point), column, v);
  // lanes x stride groups, of which every stride-th is used.
  int64_t elements = group * lanes * stride;
  auto wide = VectorType::get({elements}, groupElement());
  Value loaded;
  if (!left && stride == 1) {
    loaded = vector::LoadOp::create(b, loc, wide, plan.vector, index);
  } else {
    Value count = arith::MulIOp::create(b, loc, spanned(left, stride), constant(group));
    Value mask = vector::CreateMaskOp::create(b, loc, VectorType::get({elements}, b.getI1Type()),
                                              ValueRange{count});
    loaded =
        vector::MaskedLoadOp::create(b, loc, wide, plan.vector, index, mask,
                                     arith::ConstantOp::create(b, loc, wide, b.getZeroAttr(wide)));
  }
  if (stride == 1)
    return loaded;
  auto words = VectorType::get({lanes * stride}, b.getI32Type());
  Value cast = vector::BitCastOp::create(b, loc, words, loaded);
  SmallVector<int64_t> picks;
  for (int64_t l = 0; l < lanes; ++l)
    picks.push_back(l * stride);
  Value picked = vector::ShuffleOp::create(b, loc, cast, cast, picks);
  return vector::BitCastOp::create(b, loc, groupsType(), picked);
}

/// Vector v of the vector operand at `dims` (j = column + v * lanes); `left`, when not
/// null, is how many columns are left from its first (masked by `mask`).
Value Emitter::loadScalarVector(DenseMap<unsigned, Value> point, Value column, int64_t v,
                                Value mask) {
  if (stackDim)
    point[*stackDim] = offset(point[*stackDim], v);
  point[plan.j] = stackDim ? column : offset(column, v * lanes);
  SmallVector<Value> index = indices(plan.scalarMap, point);
  return toTileType(loadLanes(plan.scalar, index, lanes, mask));
}

/// `count` elements of `memref` from `index` as a vector in its own element type (masked
/// by `mask` when not null).
Value Emitter::loadLanes(Value memref, ArrayRef<Value> index, int64_t count, Value mask) {
  auto stored = VectorType::get({count}, cast<MemRefType>(memref.getType()).getElementType());
  Value loaded = mask ? vector::MaskedLoadOp::create(
                            b, loc, stored, memref, index, mask,
                            arith::ConstantOp::create(b, loc, stored, b.getZeroAttr(stored)))
                            .getResult()
                      : vector::LoadOp::create(b, loc, stored, memref, index).getResult();
  return loaded;
}

/// `x` (a vector or a scalar) in the tile's element type: bytes of a Plan::bytes operand
/// extended to i32 (signed or not) and converted to float, as the op's body does; other
/// values unchanged.
Value Emitter::toTileType(Value x) {
  Type element = getElementTypeOrSelf(x.getType());
  if (!plan.bytes || !element.isInteger(8))
    return x;
  auto shaped = [&](Type t) -> Type {
    if (auto vector = dyn_cast<VectorType>(x.getType()))
      return VectorType::get(vector.getShape(), t);
    return t;
  };
  Value wide = plan.bytesSigned
                   ? arith::ExtSIOp::create(b, loc, shaped(b.getI32Type()), x).getResult()
                   : arith::ExtUIOp::create(b, loc, shaped(b.getI32Type()), x).getResult();
  return arith::SIToFPOp::create(b, loc, shaped(type.getElementType()), wide);
}

Value Emitter::loadVector(DenseMap<unsigned, Value> point, Value column, int64_t v, Value left,
                          Value mask) {
  int64_t stride = plan.stride;
  SmallVector<Value> index = vectorIndex(std::move(point), column, v);
  if (stride == 1)
    return toTileType(loadLanes(plan.vector, index, lanes, mask));
  // lanes x stride consecutive elements, of which every stride-th is used.
  Value wideCount = spanned(left, stride);
  Value wideMask = vector::CreateMaskOp::create(
      b, loc, VectorType::get({lanes * stride}, b.getI1Type()), ValueRange{wideCount});
  Value loaded = loadLanes(plan.vector, index, lanes * stride, wideMask);
  SmallVector<int64_t> picks;
  for (int64_t l = 0; l < lanes; ++l)
    picks.push_back(l * stride);
  return toTileType(vector::ShuffleOp::create(b, loc, loaded, loaded, picks));
}
