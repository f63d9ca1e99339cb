//===- TileShape.cpp - register tiles, stacked rows, panels, row groups and chunks -----===//
//
// The choices of tcc-tile-contractions (TileShape.h), made on static extents only; the
// Emitter in TileContractions.cpp turns them into loops.
//
//===----------------------------------------------------------------------------------===//
#include "TileShape.h"

#include "tcc/Target/VectorIssues.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace tcc::tiling;

namespace {

/// Bytes a cycle that a core reads from L2 into L1 while its FMAs run (a 512-bit vector in
/// 3 cycles): the rate at which chooseStack's measurements on Zen 5 are fitted.
constexpr double kL2BytesPerCycle = 64.0 / 3.0;

/// The cache sizes the choices assume: an L1 data cache (stacked rows beyond it are streamed
/// from L2), a core's share of L2 (what a chunk of rows is sized to), and its share of L2
/// with L3, beyond which a whole operand counts as large (column panels; one chunk for the
/// stack-tile order).
constexpr int64_t kL1Bytes = int64_t(32) << 10;
constexpr int64_t kL2ShareBytes = int64_t(256) << 10;
constexpr int64_t kCacheShareBytes = int64_t(512) << 10;

/// Makes the choices in order: the tile, stacked rows, panels, chunks, row groups (each
/// may depend on the ones before).
class Chooser {
public:
  Chooser(const Plan &plan, ArrayRef<std::optional<int64_t>> extents, bool splitWideFma)
      : plan(plan), extents(extents), splitWideFma(splitWideFma) {
    shape.lanes = plan.vectorType.getNumElements();
  }

  TileShape choose(int64_t registers) {
    chooseTile(registers);
    chooseStack(registers);
    choosePanels();
    chooseChunks();
    chooseStackChunks();
    chooseRowGroups();
    return shape;
  }

private:
  /// Whether a 512-bit FMA issues as two halves here, so that a tail of at most half the
  /// lanes (the emitter's half-width vector) costs half an issue (tcc::halfIssueTails).
  bool halfIssue() const {
    return tcc::halfIssueTails(
        plan.vectorType.getNumElements() * plan.vectorType.getElementTypeBitWidth(), splitWideFma);
  }

  /// The register tile (rows x vectors) of least estimated cost that fits the registers
  /// (accumulators, the vectors of b, one broadcast); dynamic extents count as 64. Up to 8
  /// rows, or 16 when the columns are static and fit one vector (a 7x7 or 14x14 map's
  /// convolution): one vector per row leaves 8 rows with 8 FMA chains, just the two pipes'
  /// latency at 4 cycles, and any late broadcast stalls them; 16 chains leave slack.
  void chooseTile(int64_t registers) {
    std::optional<int64_t> staticColumns = extents[plan.j];
    int64_t iExtent = 1, jExtent = staticColumns.value_or(64);
    if (plan.i)
      iExtent = extents[*plan.i].value_or(64);
    int64_t maxRows = staticColumns && *staticColumns <= lanes && !plan.rowsOnVector ? 16 : 8;
    double best = 0;
    rows = 1;
    vectors = 1;
    for (int64_t r = 1; r <= std::min<int64_t>(maxRows, std::max<int64_t>(iExtent, 1)); ++r)
      for (int64_t v = 1; v <= 4; ++v) {
        if (r * v + v + 1 > registers)
          continue;

        double fmas = halfIssue() ? 1.0 : 2.0;
        double cost = tileCost(r, v, lanes, std::max<int64_t>(iExtent, 1),
                               std::max<int64_t>(jExtent, 1), halfIssue(), fmas, plan.rowsOnVector);
        // Rows known only at run time (a classifier's batch) may be one: then the tile's
        // single-row remainder is all there is, and with one vector it waits on each FMA.
        // Count that case beside the average row of 64.
        if (plan.i && !extents[*plan.i])
          cost = cost / 64 + tileCost(r, v, lanes, 1, std::max<int64_t>(jExtent, 1), halfIssue(),
                                      fmas, plan.rowsOnVector);
        // Ties go to more accumulators in use (the columns may not fill v vectors).
        int64_t jVectors = (std::max<int64_t>(jExtent, 1) + lanes - 1) / lanes;
        bool more = r * std::min(v, jVectors) > rows * std::min(vectors, jVectors);
        if (best == 0 || cost < best - 1e-9 || (cost < best + 1e-9 && more)) {
          best = cost;
          rows = r;
          vectors = v;
        }
      }
  }
  /// Stacked rows: when j fits one vector (a 7x7 map's output row), a tile's vectors can be
  /// rows of another parallel dim s that the vector operand reads and the scalar operand
  /// does not (the output rows y of a convolution): R x V accumulators at (i + m, s + v),
  /// each broadcast of the scalar operand (a filter value) feeding V FMAs instead of one.
  /// The cost model counts two loads a cycle and so sees little gain (the FMAs bound both),
  /// but the broadcasts come from filter rows kilobytes apart and stall when they miss L1:
  /// measured on ResNet-18's 7x7 and 14x14 convolutions, stacked tiles of 6 x 4 or 8 x 3
  /// beat 16 rows alone by 10-20%, and 4 x 4 by a little. So among the stacked tiles within
  /// 5% of the cheapest, the one with the most accumulators is taken, unless s alone is
  /// more than 5% cheaper.
  ///
  /// Where the scalar operand is read along its contiguous innermost reduction dim (a
  /// channels-last convolution's input channels: its broadcasts hit L1) and a stack tile's
  /// rows of the vector operand (v x the reduction x j: packed filter blocks, distinct data
  /// in each row) exceed a core's L1 share (32 KiB), every row tile streams those rows from
  /// L2 instead: each vector of a step counts its bytes at about 21 a cycle (3 cycles at
  /// 512 bits), so that a short tail tile, few FMAs per filter vector, is costed as
  /// L2-bound; and among the tiles within 5% of the cheapest, the one of fewest row tiles
  /// (the filter rows streamed fewest times) is taken, then one whose v divides s (no
  /// narrower remainder stack tile), then the most accumulators. Measured on ResNet-50's
  /// channels-last convolutions (each layer's kernels summed, least of 6 alternating
  /// profiles, 1 thread): 14-wide maps, 6 x 4 (row tiles of 6, 6 and 2) 15.6 ms, 7 x 2 or
  /// 8 x 2 14.5, 5 x 4 15.2; 56-wide maps, 6 x 4 6.6-6.7 ms, 7 x 2 or 8 x 2 6.4, 8 x 3 6.8;
  /// 28-wide maps alike within 1% but for 4 x 4 (worse).
  void chooseStack(int64_t registers) {
    if (!plan.i || plan.rowsOnVector || plan.combine != Plan::Combine::MultiplyAdd)
      return;
    std::optional<int64_t> columns = extents[plan.j];
    std::optional<int64_t> iExtent = extents[*plan.i];
    if (!columns || *columns > lanes || !iExtent)
      return;
    double fmas = halfIssue() ? 1.0 : 2.0;
    // The candidate of largest static extent, the innermost on ties (a convolution's output
    // rows rather than a batch of as many images).
    std::optional<unsigned> candidate;
    int64_t largest = 1;
    for (unsigned d : plan.outer) {
      std::optional<int64_t> extent = extents[d];
      if (extent && *extent >= 2 && *extent >= largest && plan.vectorMap.isFunctionOfDim(d) &&
          !plan.scalarMap.isFunctionOfDim(d)) {
        candidate = d;
        largest = *extent;
      }
    }
    if (candidate) {
      unsigned d = *candidate;
      std::optional<int64_t> extent = largest;
      double alone = *extent * tileCost(rows, vectors, lanes, *iExtent, *columns, halfIssue(), fmas,
                                        /*rowsOnVector=*/false);
      std::optional<int64_t> rowBytes = vectorRowBytes();
      bool walksReduction =
          !plan.reductions.empty() && plan.scalarMap.getNumResults() &&
          plan.scalarMap.getResults().back() ==
              getAffineDimExpr(plan.reductions.back(), plan.scalarMap.getContext());
      // Distinct floats in each stacked row (every index of the vector operand a loop dim),
      // not a window's input rows, which overlap from one stacked row to the next.
      bool distinctRows = llvm::all_of(plan.vectorMap.getResults(), llvm::IsaPred<AffineDimExpr>);
      auto streamed = [&](int64_t v) {
        return walksReduction && distinctRows && rowBytes && v * *rowBytes > kL1Bytes;
      };
      double vectorBytes =
          plan.vectorType.getNumElements() * plan.vectorType.getElementTypeBitWidth() / 8.0;
      // The stacked rows are the "columns" of a one-lane tile: S / v full steps and an
      // exact remainder.
      auto cost = [&](int64_t r, int64_t v) {
        return tileCost(r, v, 1, *iExtent, *extent, false, fmas, false,
                        streamed(v) ? vectorBytes / kL2BytesPerCycle : 0.0);
      };
      SmallVector<std::pair<int64_t, int64_t>> tiles;
      double cheapest = 0;
      for (int64_t r = 1; r <= std::min<int64_t>(8, *iExtent); ++r)
        for (int64_t v = 2; v <= std::min<int64_t>(4, *extent); ++v)
          if (r * v + v + 1 <= registers) {
            tiles.push_back({r, v});
            cheapest = tiles.size() == 1 ? cost(r, v) : std::min(cheapest, cost(r, v));
          }
      if (tiles.empty() || cheapest > 1.05 * alone)
        return;
      bool fromL2 = llvm::any_of(tiles, [&](auto tile) { return streamed(tile.second); });
      // The order of preference among the tiles within 5% of the cheapest (larger first).
      auto rank = [&](int64_t r, int64_t v) {
        if (!fromL2)
          return std::make_tuple(int64_t(0), false, r * v);
        return std::make_tuple(-((*iExtent + r - 1) / r), *extent % v == 0, r * v);
      };
      std::optional<std::tuple<int64_t, bool, int64_t>> best;
      for (auto [r, v] : tiles)
        if (cost(r, v) <= 1.05 * cheapest && (!best || rank(r, v) > *best)) {
          best = rank(r, v);
          rows = r;
          stackVectors = v;
        }
      stackDim = d;
      vectors = 1;
      return;
    }
  }
  /// Bytes of the vector operand per index of its other dims (a stacked row; all of it
  /// for a GEMM's b): all of the reduction times j (std::nullopt where an extent is dynamic).
  std::optional<int64_t> vectorRowBytes() const {
    std::optional<int64_t> columns = extents[plan.j];
    if (!columns)
      return std::nullopt;
    int64_t bytes = *columns * plan.vectorType.getElementTypeBitWidth() / 8;
    for (unsigned d : plan.reductions) {
      if (!extents[d])
        return std::nullopt;
      bytes *= *extents[d];
    }
    return bytes;
  }
  /// Column panels, when the vector operand (reduction extent x j extent, static) is larger
  /// than a core's cache share (512 KiB): a width of whole register blocks that divides j,
  /// at most 256 columns, two panels or more. Otherwise none (panelWidth = 0).
  void choosePanels() {
    std::optional<int64_t> columns = extents[plan.j];
    if (!plan.i || plan.rowsOnVector || !columns || stackDim)
      return;
    std::optional<int64_t> bytes = vectorRowBytes();
    if (!bytes || *bytes < kCacheShareBytes)
      return;
    int64_t block = lanes * vectors;
    for (int64_t width = (256 / block) * block; width >= block; width -= block)
      if (*columns % width == 0 && *columns / width >= 2) {
        panelWidth = width;
        return;
      }
    // No width divides j (a classifier's 1000 columns): the last panel is narrower.
    int64_t width = (256 / block) * block;
    if (width >= block && *columns > width)
      panelWidth = width;
  }
  /// Chunks of the outermost reduction dim, when a panel's share of the vector operand is
  /// larger than a core's L2 share (256 KiB) and several row tiles read it: each row tile
  /// would otherwise stream the whole panel from beyond L2 (a 1024 x 1024 matmul's panel of
  /// 256 columns is 1 MiB). A chunk's rows of the panel, at most 256 KiB, stay in L2 while
  /// every row tile uses them; the accumulators go through `out` between chunks, so the
  /// sums are added in the same order and the results are bit-identical. A chunk size that
  /// divides the dim is preferred down to half the largest; otherwise the last is shorter.
  void chooseChunks() {
    if (!panelWidth || plan.reductions.empty())
      return;
    if (std::optional<int64_t> iExtent = extents[*plan.i])
      if (*iExtent <= rows)
        return;
    chunkReduction(panelWidth);
  }
  /// Chunks of the outermost reduction dim whose share of the vector operand, `columns`
  /// wide, is at most 256 KiB (none when that is the whole dim or fewer than 64 steps: the
  /// accumulators would be reloaded too often for what it saves); a size that divides the
  /// dim is preferred down to half the largest, otherwise the last chunk is shorter. The
  /// steps are the outer dim's, or with `innerSteps` all of a chunk's reduction steps (a
  /// channels-last convolution's outer reduction dim is ky, 3 steps of C x 3 each).
  void chunkReduction(int64_t columns, bool innerSteps = false) {
    std::optional<int64_t> outer = extents[plan.reductions[0]];
    if (!outer)
      return;
    int64_t rowBytes = columns * plan.vectorType.getElementTypeBitWidth() / 8;
    for (unsigned d : llvm::drop_begin(plan.reductions)) {
      if (!extents[d])
        return;
      rowBytes *= *extents[d];
    }
    int64_t largest = kL2ShareBytes / rowBytes;
    int64_t steps =
        innerSteps ? largest * (rowBytes / (columns * plan.vectorType.getElementTypeBitWidth() / 8))
                   : largest;
    if (largest < 1 || steps < 64 || largest >= *outer)
      return;
    chunkedDim = plan.reductions[0];
    chunkSize = largest;
    for (int64_t size = largest; size * 2 >= largest; --size)
      if (*outer % size == 0) {
        chunkSize = size;
        return;
      }
  }
  /// Chunks for stacked tiles, when the vector operand's share of one stack tile (its
  /// stacked rows, all of the reduction) is larger than a core's L2 share (256 KiB) and
  /// several row tiles read it, counting those of every outer index (a convolution vectorized along
  /// its output channels, whose packed filter blocks are the stacked rows:
  /// tcc-channel-vector-convolutions). Each stack tile then takes the reduction chunk by chunk,
  /// every image and row tile in each, so that a chunk of its filter rows is read from memory once
  /// and from L2 by all of them; sums in the same order, as with panels. Measured on ResNet-18's
  /// 7x7 convolutions (512 channels): 1.78 ms without chunks (each row tile streamed the 9 MiB
  /// filter), 1.34 ms with; and on the channels-last 3x3 ones of its 14x14 layer 3 (filter [16, 3,
  /// 3, 16, 16, 16], chunks of one ky row): 1.70-1.76 ms without, 1.22-1.25 ms with; on its 7x7
  /// layer 4 channels last (one row tile of 7 points per output row y, so the rows y are the
  /// readers), 1.30-1.39 ms without, 1.21-1.24 ms with. Where a stack tile's rows fit L2 but
  /// all stack tiles' rows are more than 512 KiB, one chunk of the whole reduction, for the
  /// order alone: ResNet-50's 1x1 convolutions of layers 3 and 4 (1-8 MiB filters), whose
  /// threads split the rows and each streamed every filter: on 2 threads 25-30% faster in
  /// layer 4.
  void chooseStackChunks() {
    if (!stackDim || plan.reductions.empty() || !plan.i)
      return;
    // Only a vector operand that every row tile and outer index reads alike (a filter, not
    // a convolution's input rows): its dims are the stacked one, j and reductions.
    for (unsigned d : plan.outer)
      if (d != *stackDim && plan.vectorMap.isFunctionOfDim(d))
        return;
    if (plan.vectorMap.isFunctionOfDim(*plan.i))
      return;
    std::optional<int64_t> iExtent = extents[*plan.i];
    std::optional<int64_t> columns = extents[plan.j];
    if (!iExtent || !columns)
      return;
    // The row tiles that read each stack tile's rows: those of i, times the indices of the
    // other outer dims (a channels-last convolution's output rows y, one row tile each on
    // a 7-wide map; a dynamic batch counts as one image).
    int64_t readers = (*iExtent + rows - 1) / rows;
    for (unsigned d : plan.outer)
      if (d != *stackDim)
        readers *= extents[d].value_or(1);
    if (readers <= 1)
      return;
    chunkReduction(stackVectors * *columns, /*innerSteps=*/true);
    // A stack tile's rows that fit L2 while all of them do not (a 1x1 convolution of 2048
    // channels into 512: 256 KiB per stack tile, 4 MiB in all): one chunk, so that threads
    // still split the stack tiles and every reader takes a stack tile's rows from L2, rather
    // than every row tile streaming all of them from L3 or memory.
    std::optional<int64_t> rowBytes = vectorRowBytes();
    std::optional<int64_t> stacked = extents[*stackDim];
    if (!chunkSize && rowBytes && stacked && *stacked * *rowBytes > kCacheShareBytes &&
        extents[plan.reductions[0]]) {
      chunkedDim = plan.reductions[0];
      chunkSize = *extents[plan.reductions[0]];
    }
  }
  /// Groups of row tiles under column panels, so that threads have enough work items to
  /// share evenly: three panels on two threads would leave one thread idle a third of the
  /// time. At least 16 items (panels x groups), each group at least 8 row tiles (every
  /// panel chunk read from cache by 8 tiles or more); one group when the rows are dynamic
  /// (a dynamic batch dim is split by threads as well) or too few.
  void chooseRowGroups() {
    if (!panelWidth)
      return;
    std::optional<int64_t> iExtent = extents[*plan.i];
    if (!iExtent)
      return;
    int64_t tiles = (*iExtent + rows - 1) / rows;
    int64_t panels = shape.panelCount(*extents[plan.j]);
    int64_t groups = std::min((16 + panels - 1) / panels, tiles / 8);
    if (groups <= 1)
      return;
    tilesPerGroup = (tiles + groups - 1) / groups;
    rowGroups = (tiles + tilesPerGroup - 1) / tilesPerGroup;
  }

  const Plan &plan;
  ArrayRef<std::optional<int64_t>> extents;
  bool splitWideFma;
  TileShape shape;
  // The shape's fields under the names the choices use.
  const int64_t &lanes = shape.lanes;
  int64_t &rows = shape.rows, &vectors = shape.vectors, &panelWidth = shape.panelWidth;
  std::optional<unsigned> &stackDim = shape.stackDim, &chunkedDim = shape.chunkedDim;
  int64_t &stackVectors = shape.stackVectors, &rowGroups = shape.rowGroups;
  int64_t &tilesPerGroup = shape.tilesPerGroup, &chunkSize = shape.chunkSize;
};

} // namespace

TileShape tcc::tiling::chooseTileShape(const Plan &plan, ArrayRef<std::optional<int64_t>> extents,
                                       int64_t registers, bool splitWideFma) {
  return Chooser(plan, extents, splitWideFma).choose(registers);
}
