//===- MelWeightMatrix.cpp - the mel filter bank, while compiling or at run time ---------===//
//
// MelWeightMatrix's sizes and frequencies are usually constants: the matrix is computed while
// compiling, in f64 as ONNX's reference computes it. Given at run time, its extents are
// computed symbols and the same formula runs over the [bins, bands] grid.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuntimeAxes.h"
#include "SignalSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;
using prim::CompareDirection;

namespace {

/// floor(a / b) for b > 0 as Python's float // computes it: from the exact remainder, so a
/// quotient that rounds up to an integer still floors below it.
double floorDivide(double a, double b) {
  double remainder = std::fmod(a, b);
  double quotient = (a - remainder) / b;
  if (remainder != 0 && remainder < 0)
    quotient -= 1.0;
  double floored = std::floor(quotient);
  return quotient - floored > 0.5 ? floored + 1.0 : floored;
}

// mel(f) = 2595 log10(1 + f / 700), hz(m) = 700 (10^(m / 2595) - 1); with B = num_mel_bins,
// edges e_i = floor((dft_length + 1) hz(mel(lower) + i (mel(upper) - mel(lower)) / (B + 2))
// / sample_rate) for i in [0, B + 2), band i rises over [e_i, e_{i+1}] and falls over
// [e_{i+1}, e_{i+2}):
//   out[j, i] = (j - e_i) / (e_{i+1} - e_i) on the rise (1 at e_{i+1} when it is empty),
//               (e_{i+2} - j) / (e_{i+2} - e_{i+1}) on the fall, else 0
// a constant [dft_length / 2 + 1, B] of output_datatype.
LogicalResult constantMelWeightMatrix(NodeRewriter &n) {
  auto bands = getConstantScalar(n, 0, "num_mel_bins");
  auto dftLength = bands ? getConstantScalar(n, 1, "dft_length") : std::nullopt;
  auto sampleRate = dftLength ? getConstantScalar(n, 2, "sample_rate") : std::nullopt;
  auto lower = sampleRate ? getConstantReal(n, 3, "lower_edge_hertz") : std::nullopt;
  auto upper = lower ? getConstantReal(n, 4, "upper_edge_hertz") : std::nullopt;
  Type outputType = upper ? getOutputType(n) : Type();
  if (!outputType)
    return failure();
  if (*bands < 1 || *dftLength < 1 || *sampleRate < 1)
    return n.emitError() << "num_mel_bins (" << *bands << "), dft_length (" << *dftLength
                         << ") and sample_rate (" << *sampleRate << ") must be >= 1";
  int64_t bins = *dftLength / 2 + 1;
  if (*bands > kMaxConstantLength / bins)
    return n.emitError() << "the matrix of " << bins << " x " << *bands
                         << " elements is too large to compute while compiling";
  auto mel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
  double low = mel(*lower), stepMel = (mel(*upper) - low) / static_cast<double>(*bands + 2);
  SmallVector<int64_t> edges;
  for (int64_t i = 0; i < *bands + 2; ++i) {
    double hz = 700.0 * (std::pow(10.0, (static_cast<double>(i) * stepMel + low) / 2595.0) - 1);
    double edge =
        floorDivide(static_cast<double>(*dftLength + 1) * hz, static_cast<double>(*sampleRate));
    if (!(edge >= 0 && edge <= static_cast<double>(bins)))
      return n.emitError() << "mel band edge " << i << " falls on spectrogram bin "
                           << formatNumber(edge) << ", outside [0, " << bins
                           << "]: expected 0 <= lower_edge_hertz <= upper_edge_hertz <= "
                           << "sample_rate / 2";
    edges.push_back(static_cast<int64_t>(edge));
  }
  SmallVector<double> values(bins * *bands, 0.0);
  auto at = [&](int64_t j, int64_t i) -> double & { return values[j * *bands + i]; };
  for (int64_t i = 0; i < *bands; ++i) {
    int64_t left = edges[i], center = edges[i + 1], right = edges[i + 2];
    // The reference writes bin `center` unless the band's edges decrease.
    if (center >= bins && (center >= left || right > center))
      return n.emitError() << "mel band " << i << " peaks at spectrogram bin " << center
                           << ", beyond the last (" << bins - 1 << ")";
    if (center == left)
      at(center, i) = 1.0;
    for (int64_t j = left; j <= center && center > left; ++j)
      at(j, i) = static_cast<double>(j - left) / static_cast<double>(center - left);
    for (int64_t j = center; j < right; ++j)
      at(j, i) = static_cast<double>(right - j) / static_cast<double>(right - center);
  }
  return n.setResults(realConstant(n, {bins, *bands}, values, outputType));
}

/// The same floor division over f64 tensors.
Value floorDivide(prim::PrimBuilder &p, Value a, Value b) {
  Value remainder = p.create<prim::RemOp>(a, b);
  Value quotient = p.div(p.sub(a, remainder), b);
  Value zero = p.splat(a, 0.0), one = p.splat(a, 1.0), half = p.splat(a, 0.5);
  quotient = p.select(p.cmp(CompareDirection::Lt, remainder, zero), p.sub(quotient, one), quotient);
  Value floored = p.floor(quotient);
  return p.select(p.cmp(CompareDirection::Gt, p.sub(quotient, floored), half), p.add(floored, one),
                  floored);
}

/// Whether input `index` is a constant floating-point scalar (else read at run time).
bool isConstantReal(NodeRewriter &n, unsigned index) {
  DenseFPElementsAttr attr;
  Value v = n.getInput(index);
  return v && matchPattern(v, m_Constant(&attr));
}

// The matrix with its inputs read at run time: B = num_mel_bins and bins = dft_length / 2 + 1
// are computed symbols; mel(lower), mel(upper) scalars; over the [bins, B] grid (j, i) the
// edges e_i, e_{i+1}, e_{i+2} and out[j, i] as above, in f64 (transcendental functions at
// f32 precision in generated code: an edge within about 1e-6 of a bin boundary may fall in
// the next bin). num_mel_bins, dft_length and sample_rate must be >= 1 (checked naming the
// node); edges outside [0, bins] give the formula's values, not an error.
LogicalResult runtimeMelWeightMatrix(NodeRewriter &n) {
  Type outputType = getOutputType(n);
  if (!outputType)
    return failure();
  const char *names[] = {"num_mel_bins", "dft_length", "sample_rate"};
  SmallVector<OpFoldResult> given;
  for (unsigned k = 0; k < 3; ++k) {
    Value v = n.getInput(k);
    if (!v)
      return failure();
    auto elements = getShapeElements(n, v);
    RankedTensorType type = typeOf(v);
    if (!elements || elements->size() != 1 || type.getRank() > 1 ||
        !isa<IntegerType>(type.getElementType()) || type.getElementType().isInteger(1))
      return n.emitError() << "input " << k << " (" << names[k] << ") has type " << type
                           << ", expected an integer scalar";
    given.push_back(elements->front());
  }
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type f64 = b.getF64Type(), i64 = b.getI64Type();
  SmallVector<Value> edgesHz; // 0-d f64
  for (unsigned k = 3; k < 5; ++k) {
    Value v = n.getInput(k);
    if (!v)
      return failure();
    RankedTensorType type = typeOf(v);
    if (!isa<FloatType>(type.getElementType()) || !type.hasStaticShape() ||
        type.getNumElements() != 1)
      return n.emitError() << "input " << k << " (" << (k == 3 ? "lower" : "upper")
                           << "_edge_hertz) has type " << type
                           << ", expected a floating-point scalar";
    edgesHz.push_back(convert(n, reshape(n, v, {}), f64));
  }
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (unsigned k = 0; k < 3; ++k)
    checkTrue(
        n, b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, toIndex(n, given[k]), one),
        std::string(names[k]) + " must be >= 1");
  // Extents: B and dft_length / 2 + 1, at least 0 (a failed check above ends the run).
  OpFoldResult zero = b.getIndexAttr(0);
  OpFoldResult bands = maxIndex(n, given[0], zero);
  OpFoldResult bins = maxIndex(
      n, addIndex(n, floorDivIndex(n, given[1], b.getIndexAttr(2)), b.getIndexAttr(1)), zero);
  SmallVector<OpFoldResult> grid = {bins, bands};
  prim::PrimBuilder p = n.prim();
  auto real = [&](double v) { return p.scalar(f64, v); }; // 0-d
  auto fromIndex = [&](OpFoldResult v) {                  // 0-d f64
    return convert(n, makeShapeTensor(n, {v}, i64, /*scalar=*/true), f64);
  };
  // mel(f) = 2595 log10(1 + f / 700) = 2595 ln(1 + f / 700) / ln 10, on 0-d tensors.
  auto mel = [&](Value hz) {
    Value ln = p.create<prim::LogOp>(p.add(real(1.0), p.div(hz, real(700.0))));
    return p.mul(real(2595.0 / std::log(10.0)), ln);
  };
  Value low = mel(edgesHz[0]);
  Value stepMel = p.div(p.sub(mel(edgesHz[1]), low), p.add(fromIndex(given[0]), real(2.0)));
  Value lowGrid = p.fill(low, grid), stepGrid = p.fill(stepMel, grid);
  Value lengthPlusOne = p.fill(p.add(fromIndex(given[1]), real(1.0)), grid);
  Value rate = p.fill(fromIndex(given[2]), grid);
  Value j = p.iota(grid, 0, f64), i = p.iota(grid, 1, f64);
  // e(k) = floor((dft_length + 1) hz(k stepMel + low) / sample_rate)
  auto edge = [&](double offset) {
    Value melValue = p.add(p.mul(p.add(i, p.splat(i, offset)), stepGrid), lowGrid);
    Value power = p.create<prim::PowOp>(p.splat(i, 10.0), p.div(melValue, p.splat(i, 2595.0)));
    Value hz = p.mul(p.splat(i, 700.0), p.sub(power, p.splat(i, 1.0)));
    return floorDivide(p, p.mul(lengthPlusOne, hz), rate);
  };
  Value left = edge(0), center = edge(1), right = edge(2);
  Value zeros = p.splat(j, 0.0), ones = p.splat(j, 1.0);
  auto cmp = [&](CompareDirection d, Value x, Value y) { return p.cmp(d, x, y); };
  // An empty rise: 1 at the center.
  Value out = p.select(
      p.both(cmp(CompareDirection::Eq, center, left), cmp(CompareDirection::Eq, j, center)), ones,
      zeros);
  Value rising =
      p.both(cmp(CompareDirection::Gt, center, left),
             p.both(cmp(CompareDirection::Ge, j, left), cmp(CompareDirection::Le, j, center)));
  out = p.select(rising, p.div(p.sub(j, left), p.sub(center, left)), out);
  Value falling = p.both(cmp(CompareDirection::Ge, j, center), cmp(CompareDirection::Lt, j, right));
  out = p.select(falling, p.div(p.sub(right, j), p.sub(right, center)), out);
  return n.setResults(convert(n, out, outputType));
}

} // namespace

// The matrix is computed while compiling when all five inputs are constants, else at run
// time.
LogicalResult tcc::decompose::melWeightMatrix(NodeRewriter &n) {
  for (unsigned k = 0; k < 5; ++k)
    if (!n.getInput(k))
      return failure();
  bool constant = isConstantReal(n, 3) && isConstantReal(n, 4);
  for (unsigned k = 0; k < 3 && constant; ++k)
    constant = !isRuntimeScalar(n, n.getInput(k));
  return constant ? constantMelWeightMatrix(n) : runtimeMelWeightMatrix(n);
}
