//===- TileEmitter.h - the emitter of tcc-tile-contractions ----------------*- C++ -*-===//
//
// Emits the loops of one plan (ContractionPlan.h) cut as its TileShape says: the loop nest
// and the register tile's update in TileContractions.cpp, the operands' vector loads (plain,
// strided, grouped bf16 pairs and int8 quads) and the epilogue in TileOperands.cpp.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_CPU_TILEEMITTER_H
#define TCC_LIB_TARGET_CPU_TILEEMITTER_H

#include "ContractionPlan.h"
#include "TileShape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tcc::tiling {

using mlir::ArrayRef;
using mlir::DenseMap;
using mlir::Location;
using mlir::OpBuilder;
using mlir::Type;
using mlir::ValueRange;
namespace arith = mlir::arith;

/// Emits the loops of one plan in place of its op.
class Emitter {
public:
  Emitter(const Plan &plan, OpBuilder &b, Location loc, bool splitWideFma, bool wordPermutes)
      : plan(plan), b(b), loc(loc), splitWideFma(splitWideFma), wordPermutes(wordPermutes) {}

  void emit(int64_t registers);

private:
  /// Body builders get a builder inside the new region; `b` follows it there.
  void moveTo(OpBuilder &nested);

  Value constant(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// The number of row tiles of i.
  Value rowTiles();

  /// One stack tile's reduction chunk by chunk, every row tile in each chunk.
  void emitStackChunks(DenseMap<unsigned, Value> dims);
  /// `body` once per reduction chunk, with chunkBegin, chunkEnd, firstChunk, lastChunk set.
  void emitChunks(llvm::function_ref<void()> body);
  /// The number of reduction chunks (the last may be shorter).
  int64_t chunkCount();

  int64_t stackTiles();

  /// `body` for the stacked rows from dims[s] (the tile index, made the first row here):
  /// `stackVectors` of them, or the exact remainder in the last tile.
  void emitStacked(DenseMap<unsigned, Value> &dims, llvm::function_ref<void()> body);

  /// `scf.if full { whole() } else { rest() }`: a full tile, else the exact rest of one.
  void emitFullOrRest(Value full, llvm::function_ref<void()> whole,
                      llvm::function_ref<void()> rest);

  /// The rows of tile `tile` of i: `rows` at once when the tile is full, else the rows
  /// left (exact: a static count, or a switch over the possible ones).
  void emitTile(Value tile, DenseMap<unsigned, Value> dims);

  /// `count` rows from `firstRow` (null without i), all of j: full blocks of `vectors`
  /// vectors, then the columns left, as masked vectors.
  void emitRows(int64_t count, Value firstRow, DenseMap<unsigned, Value> dims);

  /// Whether a static tail of `tail` columns takes one half-width vector: on 512-bit
  /// vectors, when it fits. Cores that split 512-bit FMAs in two (Zen 4) then do half the
  /// work for it; the others the same.
  bool narrowTail(int64_t tail) const { return halfTails(type) && tail * 2 <= lanes; }

  /// The indices `map` gives at the dim values `dims`.
  SmallVector<Value> indices(AffineMap map, const DenseMap<unsigned, Value> &dims);

  /// The first min(count, lanes) of `lanes` lanes.
  Value mask(Value count, int64_t lanes);

  Value offset(Value base, int64_t by);

  /// `count` rows x lefts.size() vectors of accumulators at (firstRow + m, column + v *
  /// lanes); lefts[v], when not null, is how many columns are left from vector v's first
  /// (masked loads and stores).
  void emitMicroKernel(int64_t count, ArrayRef<Value> lefts, Value firstRow, Value column,
                       DenseMap<unsigned, Value> dims);

  /// A vector of i1 elements: in memory each takes a byte, but a vector load of i1 reads
  /// packed bits. So the bytes are loaded (masked like the other operands: no lane past the
  /// end is touched) from the buffer's address and compared with 0.
  Value boolLanes(Value memref, ArrayRef<Value> index, Value mask, VectorType type);

  /// The epilogue's body on one vector of accumulators at `point` (j = its first lane):
  /// operands that follow j are vector loads, the others one broadcast element.
  Value emitEpilogue(Value accumulator, Value mask, const DenseMap<unsigned, Value> &point);
  /// The entries of `load`'s table (a constant global of 256 entries, all of them in
  /// [0, 65535]) at `positions` (a vector of i32 in [0, 255]) by word permutes, as i32; null
  /// when the table is not such a one.
  Value permuteTable(mlir::memref::LoadOp load, Value positions);

  /// The reduction loops from the `level`-th on, carrying the accumulators.
  SmallVector<Value> emitReductions(unsigned level, int64_t count, ArrayRef<Value> lefts,
                                    ArrayRef<Value> masks, Value firstRow, Value column,
                                    DenseMap<unsigned, Value> dims, ValueRange accumulators);

  /// One reduction point: acc[m][v] += a[m] * b[v] (or a * b[m][v] when the rows are the
  /// vector operand's; the pooling combines: acc[m][v] = max/min/+(acc[m][v], b[m][v])).
  SmallVector<Value> emitUpdate(int64_t count, ArrayRef<Value> lefts, ArrayRef<Value> masks,
                                Value firstRow, Value column, DenseMap<unsigned, Value> dims,
                                ValueRange accumulators);

  /// max (OGT) or min (OLT) of a window's accumulator and a new value, NaN from either side
  /// kept: `acc > x ? acc : x` (one vmaxps/vminps on x86, which yields x when either is
  /// NaN), then a NaN accumulator stays. (arith.maximumf also orders -0 below +0, which
  /// x86 has no instruction for: about six instructions per window point.)
  Value extremum(Value acc, Value x, arith::CmpFPredicate predicate);

  /// Whether the inputs are packed in groups along the reduction: bf16 pairs or int8 quads,
  /// one 32-bit word per group.
  bool packed() const { return plan.pairs || plan.quads; }
  int64_t groupSize() const { return plan.pairs ? 2 : 4; }
  Type groupElement() { return plan.pairs ? Type(b.getBF16Type()) : Type(b.getI8Type()); }

  /// The operand type of the dot-product instruction for `lanes` words: bf16 pairs or int8
  /// quads.
  VectorType groupsType() { return VectorType::get({groupSize() * lanes}, groupElement()); }

  /// acc + the four products of each lane's uint8 quad of `u` and int8 quad of `s`
  /// (vpdpbusd, exact in int32).
  Value dotQuads(Value acc, Value u, Value s);

  /// The group (a bf16 pair or an int8 quad) of the scalar operand at `index` (the group's
  /// first), in every 32-bit lane of groupsType().
  Value broadcastGroup(ArrayRef<Value> index);

  /// The vector operand's index for vector v at `point`: j = column + v * lanes, or with
  /// stacked rows, row v at column.
  SmallVector<Value> vectorIndex(DenseMap<unsigned, Value> point, Value column, int64_t v);

  /// How many elements, from a vector's first, its used columns span when they are
  /// `stride` apart: min(left, lanes) columns (all lanes without `left`); the load stops
  /// after the last used one, so it never reads past the operand's row, and an empty vector
  /// (left = 0) reads nothing.
  Value spanned(Value left, int64_t stride);

  /// Vector v of the vector operand's groups at `dims` (j = column + v * lanes): lane l
  /// holds the group at j + l; `left`, when not null, is how many columns are left from its
  /// first (the load reads no group past them).
  Value loadGroups(DenseMap<unsigned, Value> point, Value column, int64_t v, Value left);

  /// Vector v of the vector operand at `dims` (j = column + v * lanes); `left`, when not
  /// null, is how many columns are left from its first (masked by `mask`).
  /// Vector `v` of the scalar operand along j at `point` (Plan::scalarVector), masked as
  /// the vector operand's.
  Value loadScalarVector(DenseMap<unsigned, Value> point, Value column, int64_t v, Value mask);
  Value loadVector(DenseMap<unsigned, Value> point, Value column, int64_t v, Value left,
                   Value mask);
  /// `count` elements of `memref` from `index` as a vector in its own element type (masked
  /// by `mask` when not null).
  Value loadLanes(Value memref, ArrayRef<Value> index, int64_t count, Value mask);
  /// `x` (a vector or a scalar) in the tile's element type: bytes of a Plan::bytes operand
  /// extended to i32 (signed or not) and converted to float, as the op's body does; other
  /// values unchanged.
  Value toTileType(Value x);

  const Plan &plan;
  OpBuilder &b;
  Location loc;
  bool splitWideFma; // 512-bit FMAs issue as two halves (see the pass option)
  bool wordPermutes; // vpermi2w for tables of 16-bit entries (see the pass option)
  SmallVector<Value> extents;
  VectorType type; // the vectors of the code being emitted, `lanes` wide
  // How the loops are cut (TileShape.cpp), and its fields under their emitter names.
  TileShape shape;
  const int64_t &rows = shape.rows, &vectors = shape.vectors;
  int64_t lanes = 1; // the vectors' lanes (halved while a half-width tail is emitted)
  // Column panels: their width, and inside one, its first column and extent.
  static constexpr unsigned kPanel = ~0u;
  const int64_t &panelWidth = shape.panelWidth;
  Value columnBegin, columnExtent;
  // Stacked rows: the dim s, how many a tile takes, and in the tile being emitted, how
  // many it has.
  const std::optional<unsigned> &stackDim = shape.stackDim;
  const int64_t &stackVectors = shape.stackVectors;
  int64_t stackCount = 1;
  // Groups of row tiles per panel: how many, and tiles in each.
  const int64_t &rowGroups = shape.rowGroups, &tilesPerGroup = shape.tilesPerGroup;
  // Reduction chunks: the dim, the size (0: none), and inside one, its bounds and whether
  // it is the first or the last.
  const std::optional<unsigned> &chunkedDim = shape.chunkedDim;
  const int64_t &chunkSize = shape.chunkSize;
  Value chunkBegin, chunkEnd, firstChunk, lastChunk;
};

} // namespace tcc::tiling

#endif // TCC_LIB_TARGET_CPU_TILEEMITTER_H
