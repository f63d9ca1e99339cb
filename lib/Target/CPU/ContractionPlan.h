//===- ContractionPlan.h - how a contraction maps onto register-tiled vector code -*- C++ -*-===//
//
// The planning half of tcc-tile-contractions (TileContractions.cpp emits): which operand is
// read as vectors along the output's fastest dim j and which is broadcast, the row dim, the
// stride, the reduction order, the fill and epilogue kernel formation put next to the op,
// and the cost model by which TileShape.cpp chooses the register tile.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_CODEGEN_CONTRACTIONPLAN_H
#define TCC_LIB_CODEGEN_CONTRACTIONPLAN_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <optional>

namespace tcc::tiling {

using mlir::AffineMap;
using mlir::SmallVector;
using mlir::Value;
using mlir::VectorType;
namespace linalg = mlir::linalg;

/// How a contraction maps onto the outer-product scheme.
struct Plan {
  linalg::LinalgOp op;
  Value scalar, vector, out;              // the operands
  AffineMap scalarMap, vectorMap, outMap; // their indexing maps
  unsigned j = 0;                         // the output's fastest dim
  std::optional<unsigned> i;              // the row dim, if any
  // Whether the rows are read by the vector operand (one vector load per row and vector,
  // the scalar broadcast once per reduction point: a depthwise convolution's output rows,
  // a pooling window's) instead of by the scalar operand (one broadcast per row).
  bool rowsOnVector = false;
  // Whether the scalar operand reads j too, in its last index with unit stride (a depthwise
  // convolution on channel blocks: w[cb, ky, kx, l] times x[n, y + ky, x + kx, cb, l]): it
  // is then loaded as vectors, once per reduction point for all rows (rowsOnVector), and
  // each update multiplies two vectors.
  bool scalarVector = false;
  int64_t stride = 1; // how far the vector operand moves per step of j
  // bf16 pairs (tcc-pair-bf16-contractions): both inputs are bf16 whose last index is the
  // pair p, the op's last dim (extent 2, not in `reductions`); each reduction point adds
  // the pair's two products with one vdpbf16ps (x86vector.avx512.dot).
  bool pairs = false;
  // int8 quads (tcc-quad-int8-contractions): input 0 is uint8, input 1 int8, each with the
  // quad q as its last index, the op's last dim (extent 4, not in `reductions`); int32
  // accumulators, each reduction point adds the quad's four products with one vpdpbusd.
  bool quads = false;
  bool scalarUnsigned = false; // with quads: whether the scalar operand is the uint8 one
  // A float multiply-add with one input stored as 8-bit integers and converted in the body
  // (tcc::byteMultiplyAdd: a quantized depthwise convolution's byte blocks): that
  // operand's loads read bytes, extend them (signed or not) and convert them to float.
  bool bytes = false;
  bool bytesSigned = false;
  SmallVector<unsigned> outer;      // parallel dims other than i and j, output order
  SmallVector<unsigned> reductions; // reduction dims, loop order
  VectorType vectorType;
  // How each reduction point updates an accumulator: acc + a * b (contractions), or
  // max/min/+ of the vector operand alone (pooling windows; no scalar operand, no rows):
  // float max/min/+, or an integer max/min, signed or unsigned (a quantized max pooling).
  enum class Combine {
    MultiplyAdd,
    Max,
    Min,
    Add,
    MaxSigned,
    MaxUnsigned,
    MinSigned,
    MinUnsigned
  } combine = Combine::MultiplyAdd;
  // Kernel formation's companions: the fill of `out` just before the op (its value starts
  // the accumulators) and the elementwise epilogue just after it (applied to the
  // accumulators before they are stored, into the epilogue's output).
  linalg::FillOp fill;
  linalg::GenericOp epilogue;
  Value epilogueOut;
  SmallVector<AffineMap> epilogueMaps; // each epilogue operand's map in the op's dims
};

/// The plan for `op`, or nothing when it does not have the outer-product form.
std::optional<Plan> planContraction(linalg::LinalgOp op, int64_t vectorBits);

/// Whether `load` reads a table of tcc-cpu-lookup-tables: a rank-1 constant global at the
/// index_cast of an i32 (the epilogue gathers a vector of entries).
bool isTableLoad(mlir::memref::LoadOp load);

/// Adds kernel formation's fill and epilogue (tcc-outline-kernels groups them with the
/// contraction and sets `epilogue` in the kernel's #kernel.kernel when the contraction's
/// result has no other reader) to `plan`, where the tiled code can absorb them.
void absorbNeighbours(Plan &plan);

/// Cycles per reduction point to cover an i x j output with rows x vectors tiles, the
/// remainders done by exact smaller tiles (a column tail that fits half a vector counts
/// half a vector when `halfTails`: tcc::halfIssueTails). `fmas`: full-width FMAs per cycle (2; 1
/// where a 512-bit FMA issues as two halves); `streamedCycles`: cycles per vector of b when
/// b is read from L2 (0: from L1).
double tileCost(int64_t rows, int64_t vectors, int64_t lanes, int64_t iExtent, int64_t jExtent,
                bool halfTails, double fmas, bool rowsOnVector, double streamedCycles = 0);

} // namespace tcc::tiling

#endif // TCC_LIB_CODEGEN_CONTRACTIONPLAN_H
