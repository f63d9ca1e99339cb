//===- VectorIssues.h - what a row of outputs costs in vector FMAs -------------------------===//
//
// One rule for the CPU tiler's cost model (lib/Target/CPU) and for the kernel-formation
// passes that weigh a layout by how well it fills the vectors (tcc-unfold-convolutions).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_TARGET_VECTORISSUES_H
#define TCC_TARGET_VECTORISSUES_H

#include <cstdint>

namespace tcc {

/// Whether a tail of at most half the lanes costs half an FMA issue: it takes one half-width
/// vector on 512-bit vectors, which is half the work where a full-width FMA issues as two
/// halves (`splitWideFma`, Zen 4) and the same work elsewhere.
inline bool halfIssueTails(int64_t vectorBits, bool splitWideFma) {
  return splitWideFma && vectorBits >= 512;
}

/// FMA issues per reduction point for the `tail` columns a tile leaves after its full
/// blocks: one per vector of `lanes` begun, or half of one with `halfTails` (see
/// halfIssueTails) when they all fit in half the lanes (the emitter then uses one half-width
/// vector).
inline double tailIssues(int64_t tail, int64_t lanes, bool halfTails) {
  if (tail == 0)
    return 0.0;
  if (halfTails && tail * 2 <= lanes)
    return 0.5;
  return static_cast<double>((tail + lanes - 1) / lanes);
}

/// FMA issues per reduction point that cover `points` contiguous outputs with vectors of
/// `lanes` (blocks of whole vectors, then the tail).
inline double vectorIssues(int64_t points, int64_t lanes, bool halfTails) {
  return static_cast<double>(points / lanes) + tailIssues(points % lanes, lanes, halfTails);
}

} // namespace tcc

#endif // TCC_TARGET_VECTORISSUES_H
