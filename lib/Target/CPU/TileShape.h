//===- TileShape.h - how tcc-tile-contractions cuts a contraction's loops -*- C++ -*-===//
//
// The planning half's second step (ContractionPlan.h is the first): for one plan and the
// op's static loop extents, the register tile (rows x vectors), stacked rows, column
// panels, groups of row tiles and reduction chunks. TileContractions.cpp emits them.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_CPU_TILESHAPE_H
#define TCC_LIB_TARGET_CPU_TILESHAPE_H

#include "ContractionPlan.h"

#include <optional>

namespace tcc::tiling {

/// How one plan's loops are cut.
struct TileShape {
  int64_t lanes = 1;             // the plan's vector type's lanes
  int64_t rows = 1, vectors = 1; // the register tile: rows x vectors accumulators
  // Stacked rows: a tile's vectors are rows of the parallel dim `stackDim`, `stackVectors`
  // of them (chooseStack, TileShape.cpp).
  std::optional<unsigned> stackDim;
  int64_t stackVectors = 1;
  int64_t panelWidth = 0;                   // column panels' width (0: none)
  int64_t rowGroups = 1, tilesPerGroup = 0; // groups of row tiles per panel
  // Reduction chunks: the outermost reduction dim in chunks of `chunkSize` (0: none).
  std::optional<unsigned> chunkedDim;
  int64_t chunkSize = 0;

  /// The number of column panels of `columns` (the last may be partial).
  int64_t panelCount(int64_t columns) const { return (columns + panelWidth - 1) / panelWidth; }
};

/// Whether vectors of `type` are wide enough (512 bits) that a short column tail takes a
/// half-width vector.
inline bool halfTails(mlir::VectorType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() >= 512;
}

/// The shape of `plan`'s loops: `extents` are the op's loop extents where static
/// (std::nullopt where dynamic), `registers` the target's vector registers, `splitWideFma`
/// whether a 512-bit FMA issues as two halves.
TileShape chooseTileShape(const Plan &plan, llvm::ArrayRef<std::optional<int64_t>> extents,
                          int64_t registers, bool splitWideFma);

} // namespace tcc::tiling

#endif // TCC_LIB_TARGET_CPU_TILESHAPE_H
