//===- Signal.cpp - rules for DFT, STFT, windows, MelWeightMatrix, ReverseSequence ----===//
//
// A DFT of length L along one axis is a contraction with a matrix of unit roots: the input
// [..., N, ..., C] (C = 1 real or 2 complex) against W[k, o, n, c] (output index k, output
// part o, input index n, input part c) in one prim.dot_general, whose free dims [K, Cout]
// then move back into place. The angle of each entry is 2 pi ((k n) mod L) / L with the
// remainder taken in integers, so large L keep their precision. W is a constant when its
// extents are known while compiling (and it is not too large), else it is computed at run
// time from iotas. Zero padding up to L contributes nothing, so only the first
// min(N, L) inputs are read. STFT gathers its frames and runs the same contraction.
// Window and mel matrices depend only on constants and become constants.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"
#include "RuntimeAxes.h"
#include "SignalSupport.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <sstream>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// The most elements of a DFT matrix embedded as a constant (16 MiB of f32); larger
/// matrices are computed at run time.
constexpr int64_t kMaxConstantMatrix = int64_t(1) << 22;
} // namespace

namespace tcc::decompose {

/// A number as a person writes it (11, not 1.100000e+01).
std::string formatNumber(double value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

/// The value of a scalar integer input (0-d or one element) known while compiling: a
/// constant, or shape arithmetic that folds to one. std::nullopt after an error.
std::optional<int64_t> getConstantScalar(NodeRewriter &n, unsigned index, StringRef what) {
  Value v = n.getInput(index);
  if (!v)
    return std::nullopt;
  RankedTensorType type = typeOf(v);
  if (!isa<IntegerType>(type.getElementType()) || type.getElementType().isInteger(1) ||
      !type.hasStaticShape() || type.getNumElements() != 1 || type.getRank() > 1) {
    n.emitError() << "input " << index << " (" << what << ") has type " << type
                  << ", expected an integer scalar";
    return std::nullopt;
  }
  if (auto values = getConstantInts(v))
    return values->front();
  if (auto elements = getShapeElements(n, v))
    if (auto c = getConstantIntValue(elements->front()))
      return *c;
  n.emitError() << "input " << index << " (" << what << ") must be known while compiling (an "
                << "initializer, a Constant node or shape arithmetic on static dims): it "
                << "determines the output shape";
  return std::nullopt;
}

/// Whether `v` is an integer scalar (0-d or one element) whose value is known only at run
/// time.
bool isRuntimeScalar(NodeRewriter &n, Value v) {
  RankedTensorType type = typeOf(v);
  if (!isa<IntegerType>(type.getElementType()) || type.getElementType().isInteger(1) ||
      !type.hasStaticShape() || type.getNumElements() != 1 || type.getRank() > 1 ||
      getConstantInts(v))
    return false;
  auto elements = getShapeElements(n, v);
  return elements && !getConstantIntValue(elements->front());
}

/// The value of a constant floating-point scalar input; std::nullopt after an error.
std::optional<double> getConstantReal(NodeRewriter &n, unsigned index, StringRef what) {
  Value v = n.getInput(index);
  if (!v)
    return std::nullopt;
  RankedTensorType type = typeOf(v);
  DenseFPElementsAttr attr;
  if (!isa<FloatType>(type.getElementType()) || !type.hasStaticShape() ||
      type.getNumElements() != 1) {
    n.emitError() << "input " << index << " (" << what << ") has type " << type
                  << ", expected a floating-point scalar";
    return std::nullopt;
  }
  if (!matchPattern(v, m_Constant(&attr))) {
    n.emitError() << "input " << index << " (" << what << ") must be a constant (an "
                  << "initializer or a Constant node): tcc computes the matrix while compiling";
    return std::nullopt;
  }
  APFloat f = *attr.getValues<APFloat>().begin();
  bool lost;
  f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return f.convertToDouble();
}

/// The element type named by attribute output_datatype (default 1, float), which must be
/// numeric; null after an error.
Type getOutputType(NodeRewriter &n) {
  int64_t code = n.getInt("output_datatype", 1);
  if (n.hasFailed())
    return nullptr;
  Type type = elementTypeOfOnnxCode(n.getContext(), code);
  if (!type || type.isInteger(1)) {
    n.emitError() << "attribute 'output_datatype' is " << code
                  << ", expected a numeric ONNX data type (an integer or floating-point type)";
    return nullptr;
  }
  return type;
}

/// A constant of `shape` holding `values` (row-major) as `elementType`. Floats are rounded
/// to nearest even; integers are built as f64 and converted by prim.convert (truncation).
Value realConstant(NodeRewriter &n, ArrayRef<int64_t> shape, ArrayRef<double> values,
                   Type elementType) {
  OpBuilder &b = n.getBuilder();
  auto floatType = dyn_cast<FloatType>(elementType);
  FloatType built = floatType ? floatType : b.getF64Type();
  auto type = RankedTensorType::get(shape, built);
  DenseElementsAttr attr;
  if (built.isF64()) {
    attr = DenseElementsAttr::get(type, values);
  } else if (built.isF32()) {
    SmallVector<float> narrow(values.begin(), values.end());
    attr = DenseElementsAttr::get(type, ArrayRef<float>(narrow));
  } else {
    SmallVector<APFloat> rounded;
    rounded.reserve(values.size());
    for (double v : values) {
      APFloat f(v);
      bool lost;
      f.convert(built.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      rounded.push_back(f);
    }
    attr = DenseElementsAttr::get(type, rounded);
  }
  Value c = arith::ConstantOp::create(b, n.getLoc(), cast<TypedAttr>(attr));
  return convert(n, c, elementType);
}

} // namespace tcc::decompose

namespace {

/// The type a DFT computes in: f64 for f64 data, f32 otherwise (16-bit floats widen).
Type computeTypeOf(Type element) {
  return element.isF64() ? element : Float32Type::get(element.getContext());
}

//===----------------------------------------------------------------------------------===//
// Windows
//===----------------------------------------------------------------------------------===//

enum class WindowKind { Hann, Hamming, Blackman };

// With N = size (periodic) or size - 1 (symmetric) and n in [0, size):
//   hann(n)     = sin^2(pi n / N)
//   hamming(n)  = 25/46 - 21/46 cos(2 pi n / N)
//   blackman(n) = 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)
// computed in f64 while compiling (size must be known then) and stored as output_datatype.
// A size read at run time: the same formulas over an iota of that length (a computed
// symbol), in f64 at run time.
template <WindowKind kind> LogicalResult runtimeWindow(NodeRewriter &n, Value sizeInput) {
  Type outputType = getOutputType(n);
  if (!outputType || n.hasFailed())
    return failure();
  bool periodic = n.getInt("periodic", 1) != 0;
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type i64 = b.getI64Type(), f64 = b.getF64Type();
  auto elements = getShapeElements(n, sizeInput);
  if (!elements)
    return n.emitError() << "input 0 (size) must be an integer scalar";
  SmallVector<OpFoldResult> dims = {elements->front()};
  RankedTensorType type = getTensorType(dims, i64);
  Value i = convert(n, prim::IotaOp::create(b, loc, type, getDynamicExtents(n, dims), 0), f64);
  OpFoldResult period = periodic ? dims[0] : subIndex(n, dims[0], b.getIndexAttr(1));
  Value periodReal = convert(n, fill(n, makeShapeTensor(n, {period}, i64, /*scalar=*/true), dims), f64);
  auto real = [&](double v) { return fill(n, scalarConstant(n, f64, v), dims); };
  // x = pi n / N: half a turn per period
  Value x = prim::DivOp::create(b, loc, prim::MulOp::create(b, loc, i, real(M_PI)), periodReal);
  auto cosOf = [&](double times) {
    return prim::CosOp::create(b, loc, prim::MulOp::create(b, loc, x, real(times))).getResult();
  };
  Value w;
  switch (kind) {
  case WindowKind::Hann: {
    Value sine = prim::SinOp::create(b, loc, x);
    w = prim::MulOp::create(b, loc, sine, sine);
    break;
  }
  case WindowKind::Hamming:
    w = prim::SubOp::create(b, loc, real(25.0 / 46.0),
                            prim::MulOp::create(b, loc, real(21.0 / 46.0), cosOf(2)));
    break;
  case WindowKind::Blackman:
    w = prim::AddOp::create(
        b, loc,
        prim::SubOp::create(b, loc, real(0.42), prim::MulOp::create(b, loc, real(0.5), cosOf(2))),
        prim::MulOp::create(b, loc, real(0.08), cosOf(4)));
    break;
  }
  return n.setResults(convert(n, w, outputType));
}

template <WindowKind kind> LogicalResult window(NodeRewriter &n) {
  if (Value sizeInput = n.getInput(0); sizeInput && isRuntimeScalar(n, sizeInput))
    return runtimeWindow<kind>(n, sizeInput);
  auto size = getConstantScalar(n, 0, "size");
  Type outputType = getOutputType(n);
  bool periodic = n.getInt("periodic", 1) != 0;
  if (!size || !outputType || n.hasFailed())
    return failure();
  if (*size < 0 || *size > kMaxConstantLength)
    return n.emitError() << "size is " << *size << ", expected a length in [0, "
                         << kMaxConstantLength << "]";
  // The symmetric window of size 1 divides 0 by 0, as ONNX's reference does.
  double period = static_cast<double>(periodic ? *size : *size - 1);
  SmallVector<double> values;
  values.reserve(*size);
  for (int64_t i = 0; i < *size; ++i) {
    double x = M_PI * static_cast<double>(i) / period; // half a turn per period
    switch (kind) {
    case WindowKind::Hann: values.push_back(std::sin(x) * std::sin(x)); break;
    case WindowKind::Hamming: values.push_back(25.0 / 46.0 - 21.0 / 46.0 * std::cos(2 * x)); break;
    case WindowKind::Blackman:
      values.push_back(0.42 - 0.5 * std::cos(2 * x) + 0.08 * std::cos(4 * x));
      break;
    }
  }
  return n.setResults(realConstant(n, {*size}, values, outputType));
}

//===----------------------------------------------------------------------------------===//
// DFT
//===----------------------------------------------------------------------------------===//

/// One DFT along `axis` of [..., N, ..., C]: its length L, the inputs it reads (M) and
/// the outputs it writes (K), in parts C and Cout.
struct DftShape {
  int64_t axis = 0;
  OpFoldResult length, inCount, outCount;
  int64_t inParts = 1, outParts = 2;
  bool inverse = false;
  bool halfSpectrum = false; // IRFFT: the input is frequencies [0, L/2], the output real
};

/// cos and sin of 2 pi r / L for 0 <= r < L, exact at multiples of a quarter turn.
std::pair<double, double> unitRoot(int64_t r, int64_t length) {
  if ((4 * r) % length == 0) {
    switch ((4 * r) / length) {
    case 0: return {1.0, 0.0};
    case 1: return {0.0, 1.0};
    case 2: return {-1.0, 0.0};
    default: return {0.0, -1.0};
    }
  }
  double angle = 2 * M_PI * (static_cast<double>(r) / static_cast<double>(length));
  return {std::cos(angle), std::sin(angle)};
}

/// Entry (o, c) of a unit-root product (a + i b) e^{s i theta} with s = +1 (inverse) or -1:
/// real part a cos - s b sin, imaginary part s a sin + b cos. Returns (is sine, sign).
std::pair<bool, double> termOf(int64_t o, int64_t c, bool inverse) {
  double s = inverse ? 1.0 : -1.0;
  if (o == c)
    return {false, 1.0};
  return {true, o == 0 ? -s : s};
}

/// The scale of input index j: 1 (forward), 1 / L (inverse), and for the IRFFT twice that
/// except at j = 0 and j = L / 2, whose conjugates are themselves.
double scaleOf(const DftShape &s, int64_t j, int64_t length) {
  if (!s.inverse)
    return 1.0;
  double weight = s.halfSpectrum && j != 0 && 2 * j != length ? 2.0 : 1.0;
  return weight / static_cast<double>(length);
}

/// W[K, Cout, M, C] as a constant.
Value constantMatrix(NodeRewriter &n, const DftShape &s, int64_t length, int64_t outCount,
                     int64_t inCount, Type computeType) {
  SmallVector<double> values;
  values.reserve(outCount * s.outParts * inCount * s.inParts);
  for (int64_t k = 0; k < outCount; ++k)
    for (int64_t o = 0; o < s.outParts; ++o)
      for (int64_t j = 0; j < inCount; ++j) {
        auto [cosine, sine] = unitRoot((k % length) * (j % length) % length, length);
        double scale = scaleOf(s, j, length);
        for (int64_t c = 0; c < s.inParts; ++c) {
          auto [isSine, sign] = termOf(o, c, s.inverse);
          values.push_back(scale * (isSine ? sign * sine : cosine));
        }
      }
  return realConstant(n, {outCount, s.outParts, inCount, s.inParts}, values, computeType);
}

/// sin(x) and cos(x) for x in [0, pi/2] as Taylor polynomials in x^2 (Horner, terms up to
/// x^25 / 25!, below f64's rounding there): f64 accuracy without relying on the target's
/// transcendental functions (compiled code computes f64 sin and cos through f32).
std::pair<Value, Value> quarterSineCosine(NodeRewriter &n, Value x, ArrayRef<OpFoldResult> dims) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type f64 = b.getF64Type();
  Value square = prim::MulOp::create(b, loc, x, x);
  // sum_i c_i y^i with c_i = (+-1) / (2i + first)! for first = 1 (sine, times x) or 0.
  auto series = [&](int first) {
    constexpr int kTerms = 13;
    double coefficient[kTerms];
    double factorial = 1.0;
    for (int i = 1; i <= first; ++i)
      factorial *= i;
    for (int i = 0; i < kTerms; ++i) {
      coefficient[i] = (i % 2 ? -1.0 : 1.0) / factorial;
      factorial *= (2 * i + first + 1) * (2 * i + first + 2);
    }
    Value sum = fill(n, scalarConstant(n, f64, coefficient[kTerms - 1]), dims);
    for (int i = kTerms - 2; i >= 0; --i)
      sum = prim::AddOp::create(b, loc, prim::MulOp::create(b, loc, sum, square),
                                fill(n, scalarConstant(n, f64, coefficient[i]), dims));
    return sum;
  };
  return {prim::MulOp::create(b, loc, series(1), x), series(0)};
}

/// W[K, Cout, M, C] computed at run time from i64 iotas: r = (k j) mod L, its quarter turn
/// q = 4r / L and the rest rho = 4r - q L in integers, then the unit root of angle
/// q pi/2 + (pi/2) rho / L in f64, and the same terms and scales as constantMatrix.
Value runtimeMatrix(NodeRewriter &n, const DftShape &s, Type computeType) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type i64 = b.getI64Type(), f64 = b.getF64Type();
  SmallVector<OpFoldResult> grid = {s.outCount, s.inCount};
  RankedTensorType gridType = getTensorType(grid, i64);
  SmallVector<Value> extents = getDynamicExtents(n, grid);
  auto integer = [&](int64_t v) {
    return fill(n, scalarConstant(n, i64, static_cast<double>(v)), grid);
  };
  Value k = prim::IotaOp::create(b, loc, gridType, extents, 0);
  Value j = prim::IotaOp::create(b, loc, gridType, extents, 1);
  Value lengthInt = fill(n, makeShapeTensor(n, {s.length}, i64, /*scalar=*/true), grid);
  Value turns = prim::RemOp::create(b, loc, prim::MulOp::create(b, loc, k, j), lengthInt);
  Value fourTurns = prim::MulOp::create(b, loc, turns, integer(4));
  Value quarter = prim::DivOp::create(b, loc, fourTurns, lengthInt);
  Value rest =
      prim::SubOp::create(b, loc, fourTurns, prim::MulOp::create(b, loc, quarter, lengthInt));
  Value lengthReal = convert(n, lengthInt, f64);
  Value x =
      prim::DivOp::create(b, loc,
                          prim::MulOp::create(b, loc, convert(n, rest, f64),
                                              fill(n, scalarConstant(n, f64, M_PI / 2), grid)),
                          lengthReal);
  auto [partSine, partCosine] = quarterSineCosine(n, x, grid);
  // Rotate (cos, sin) by q quarter turns: (c, s), (-s, c), (-c, -s), (s, -c).
  Value partNegativeSine = prim::NegOp::create(b, loc, partSine);
  Value partNegativeCosine = prim::NegOp::create(b, loc, partCosine);
  auto byQuarter = [&](Value q0, Value q1, Value q2, Value q3) -> Value {
    auto is = [&](int64_t q) {
      return prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, quarter, integer(q));
    };
    return prim::SelectOp::create(
        b, loc, is(0), q0,
        prim::SelectOp::create(b, loc, is(1), q1, prim::SelectOp::create(b, loc, is(2), q2, q3)));
  };
  Value cosine = byQuarter(partCosine, partNegativeSine, partNegativeCosine, partSine);
  Value sine = byQuarter(partSine, partCosine, partNegativeSine, partNegativeCosine);
  if (s.inverse) {
    Value one = fill(n, scalarConstant(n, f64, 1.0), grid);
    Value weight = one;
    if (s.halfSpectrum) {
      Value twice = prim::MulOp::create(b, loc, j, integer(2));
      Value edge = prim::OrOp::create(
          b, loc, prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, j, integer(0)),
          prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, twice, lengthInt));
      weight =
          prim::SelectOp::create(b, loc, edge, one, fill(n, scalarConstant(n, f64, 2.0), grid));
    }
    Value scale = prim::DivOp::create(b, loc, weight, lengthReal);
    cosine = prim::MulOp::create(b, loc, cosine, scale);
    sine = prim::MulOp::create(b, loc, sine, scale);
  }
  cosine = convert(n, cosine, computeType);
  sine = convert(n, sine, computeType);
  Value negativeSine = prim::NegOp::create(b, loc, sine);
  SmallVector<OpFoldResult> entryDims = {s.outCount, b.getIndexAttr(1), s.inCount,
                                         b.getIndexAttr(1)};
  SmallVector<Value> rows;
  for (int64_t o = 0; o < s.outParts; ++o) {
    SmallVector<Value> parts;
    for (int64_t c = 0; c < s.inParts; ++c) {
      auto [isSine, sign] = termOf(o, c, s.inverse);
      parts.push_back(reshape(n, !isSine ? cosine : sign > 0 ? sine : negativeSine, entryDims));
    }
    rows.push_back(parts.size() == 1 ? parts.front()
                                     : Value(prim::ConcatenateOp::create(b, loc, parts, 3)));
  }
  return rows.size() == 1 ? rows.front() : Value(prim::ConcatenateOp::create(b, loc, rows, 1));
}

/// The DFT of `x` ([..., N at s.axis, ..., C], in the compute type) as [..., K, ..., Cout].
Value applyDft(NodeRewriter &n, Value x, DftShape s) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  int64_t rank = rankOf(x);
  SmallVector<OpFoldResult> dims = getDims(n, x);
  if (!sameExtent(dims[s.axis], s.inCount)) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes(dims);
    sizes[s.axis] = s.inCount;
    x = b.createOrFold<prim::SliceOp>(loc, x, offsets, sizes, SmallVector<int64_t>(rank, 1));
  }
  auto length = getConstantIntValue(s.length), outCount = getConstantIntValue(s.outCount),
       inCount = getConstantIntValue(s.inCount);
  Type computeType = elementOf(x);
  Value matrix;
  if (length && outCount && inCount && *length > 0 &&
      static_cast<double>(*outCount) * static_cast<double>(*inCount) * s.outParts * s.inParts <=
          static_cast<double>(kMaxConstantMatrix))
    matrix = constantMatrix(n, s, *length, *outCount, *inCount, computeType);
  else
    matrix = runtimeMatrix(n, s, computeType);
  // [free dims of x..., K, Cout]
  Value y =
      prim::DotGeneralOp::create(b, loc, x, matrix, ArrayRef<int64_t>{s.axis, rank - 1},
                                 ArrayRef<int64_t>{2, 3}, ArrayRef<int64_t>{}, ArrayRef<int64_t>{});
  if (s.axis == rank - 2)
    return y;
  SmallVector<int64_t> permutation;
  for (int64_t d = 0; d < rank - 1; ++d)
    permutation.push_back(d < s.axis ? d : d == s.axis ? rank - 2 : d - 1);
  permutation.push_back(rank - 1);
  return prim::TransposeOp::create(b, loc, y, permutation);
}

/// The last dim of a signal: 1 (real) or 2 (complex); std::nullopt after an error.
std::optional<int64_t> getParts(NodeRewriter &n, Value x, StringRef what) {
  int64_t rank = rankOf(x);
  int64_t parts = rank ? typeOf(x).getDimSize(rank - 1) : 0;
  if (rank < 2 || (parts != 1 && parts != 2)) {
    n.emitError() << what << " has type " << x.getType() << ", expected rank >= 2 and a last "
                  << "dim of 1 (real) or 2 (complex)";
    return std::nullopt;
  }
  return parts;
}

/// The DFT length from optional input 1 (dft_length), which must be >= 1; null when the
/// input is absent, std::nullopt after an error.
std::optional<OpFoldResult> getDftLength(NodeRewriter &n) {
  if (!n.hasInput(1))
    return OpFoldResult();
  auto length = getConstantScalar(n, 1, "dft_length");
  if (!length)
    return std::nullopt;
  if (*length < 1) {
    n.emitError() << "dft_length is " << *length << ", expected >= 1";
    return std::nullopt;
  }
  return OpFoldResult(n.getBuilder().getIndexAttr(*length));
}

// dft(x)[k] = sum_{n < L} x[n] e^{-2 pi i k n / L} (x zero-padded or truncated to L = dft_length)
//   onesided: k in [0, L/2]; inverse: x[n] = 1/L sum_k y[k] e^{2 pi i k n / L};
//   inverse + onesided (IRFFT): y[k] for k in [0, L/2] stands for its Hermitian extension,
//   x[n] = 1/L sum_{k <= L/2} w_k Re(y[k] e^{2 pi i k n / L}), w_k = 1 at 0 and L/2 else 2,
//   a real output of L samples (default L = 2 (N - 1)).
// Opsets 17-19 take `axis` as an attribute (default 1), opset 20 as input 2 (default -2).
Value dftAlong(NodeRewriter &n, Value x, int64_t parts, int64_t axis, bool inverse,
               bool onesided, OpFoldResult givenLength);

LogicalResult dft(NodeRewriter &n) {
  Value x = n.getFloatInput(0);
  if (!x)
    return failure();
  auto parts = getParts(n, x, "the input");
  if (!parts)
    return failure();
  int64_t rank = rankOf(x), axis = -2;
  bool inverse = n.getInt("inverse", 0) != 0, onesided = n.getInt("onesided", 0) != 0;
  auto givenLength = getDftLength(n);
  if (!givenLength || n.hasFailed())
    return failure();
  if (n.getVersion() < 20) {
    axis = n.getInt("axis", 1);
  } else if (n.hasInput(2) && isRuntimeScalar(n, n.getInput(2))) {
    // The axis read at run time: the DFT along every axis it may name, the named one
    // selected (the variants must agree in shape: not with onesided or a dft_length).
    if (onesided || *givenLength)
      return n.emitError() << "input 2 (axis) is known only at run time, and with "
                           << (onesided ? "onesided" : "dft_length")
                           << " the output's shape depends on it: tcc needs it while compiling";
    auto axes = runtimeAxes(n, 2, rank, /*distinct=*/false);
    if (!axes)
      return failure();
    OpBuilder &b = n.getBuilder();
    Location loc = n.getLoc();
    Value last = arith::ConstantIndexOp::create(b, loc, rank - 1);
    checkTrue(n, b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, axes->front(), last),
              "input 2 (axis) names the last dim, which holds the complex parts");
    Value result;
    for (int64_t a = 0; a + 1 < rank; ++a) {
      Value y = dftAlong(n, x, *parts, a, inverse, onesided, *givenLength);
      if (!y)
        return failure();
      if (result && result.getType() != y.getType())
        return n.emitError() << "input 2 (axis) is known only at run time, and the output's "
                             << "shape depends on it (" << result.getType() << " or "
                             << y.getType() << "): tcc needs it while compiling here";
      if (!result) {
        result = y;
        continue;
      }
      Value listed = tensor::FromElementsOp::create(
          b, loc, RankedTensorType::get({}, b.getI1Type()), isListed(n, *axes, a));
      result = prim::SelectOp::create(b, loc, fill(n, listed, getDims(n, y)), y, result);
    }
    return n.setResults(result);
  } else if (n.hasInput(2)) {
    auto given = getConstantScalar(n, 2, "axis");
    if (!given)
      return failure();
    axis = *given;
  }
  if (axis < -rank || axis > rank - 2 || axis == -1)
    return n.emitError() << "axis " << axis << " is out of range for an input of rank " << rank
                         << " (expected [" << -rank << ", -2] or [0, " << rank - 2
                         << "]; the last dim holds the complex parts)";
  Value y = dftAlong(n, x, *parts, axis < 0 ? axis + rank : axis, inverse, onesided,
                     *givenLength);
  return y ? n.setResults(y) : failure();
}

/// The DFT of `x` along `axis` (in [0, rank - 2]) as the DFT rule describes; null after an
/// error.
Value dftAlong(NodeRewriter &n, Value x, int64_t parts, int64_t axis, bool inverse,
               bool onesided, OpFoldResult givenLength) {
  OpBuilder &b = n.getBuilder();
  DftShape s;
  s.axis = axis;
  s.inParts = parts;
  s.inverse = inverse;
  s.halfSpectrum = inverse && onesided;
  OpFoldResult extent = getDims(n, x)[s.axis], one = b.getIndexAttr(1);
  s.length = givenLength      ? givenLength
             : s.halfSpectrum ? mulIndex(n, subIndex(n, extent, one), b.getIndexAttr(2))
                              : extent;
  if (auto length = getConstantIntValue(s.length); length && *length < 1) {
    n.emitError() << "the DFT length is " << *length << " (from an axis of extent "
                  << *getConstantIntValue(extent) << "), expected >= 1";
    return nullptr;
  }
  // The half spectrum [0, L/2] is what RFFT writes and IRFFT reads.
  OpFoldResult half =
      onesided ? addIndex(n, floorDivIndex(n, s.length, b.getIndexAttr(2)), one) : OpFoldResult();
  OpFoldResult read = s.halfSpectrum ? half : s.length;
  s.inCount = sameExtent(extent, read) ? extent : minIndex(n, extent, read);
  s.outCount = onesided && !inverse ? half : s.length;
  s.outParts = s.halfSpectrum ? 1 : 2;
  Type element = elementOf(x);
  Value y = applyDft(n, convert(n, x, computeTypeOf(element)), s);
  return convert(n, y, element);
}

/// A count read at run time: checked >= 1 when the model runs (naming `what`), and used as
/// max(given, 1) so that nothing computed from it divides by 0 before the check.
OpFoldResult atLeastOne(NodeRewriter &n, OpFoldResult given, StringRef what) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value positive = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge,
                                                 toIndex(n, given),
                                                 arith::ConstantIndexOp::create(b, loc, 1));
  checkTrue(n, positive, what + " must be >= 1");
  return maxIndex(n, given, b.getIndexAttr(1));
}

// stft(x)[b, f, k] = sum_{j < L} w[j] x[b, f * step + j] e^{-2 pi i k j / L}
//   for frames f in [0, 1 + (T - L) / step), k in [0, L/2] (onesided, the default) or [0, L);
//   L = frame_length, else the window's length, else the signal's T; w = window or ones.
LogicalResult stft(NodeRewriter &n) {
  Value signal = n.getFloatInput(0);
  if (!signal)
    return failure();
  auto parts = getParts(n, signal, "the signal");
  if (!parts)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  // frame_step read at run time: an index value (frames become a computed extent), checked
  // >= 1 at run time and divided by as max(step, 1).
  OpFoldResult step;
  if (Value stepInput = n.getInput(1); stepInput && isRuntimeScalar(n, stepInput)) {
    step = atLeastOne(n, getShapeElements(n, stepInput)->front(), "frame_step");
  } else {
    auto constant = getConstantScalar(n, 1, "frame_step");
    if (!constant)
      return failure();
    if (*constant < 1)
      return n.emitError() << "frame_step is " << *constant << ", expected >= 1";
    step = b.getIndexAttr(*constant);
  }
  if (rankOf(signal) != 3)
    return n.emitError() << "the signal has type " << signal.getType()
                         << ", expected [batch_size, signal_length, 1 or 2]";
  Value window = n.getOptionalInput(2);
  std::optional<int64_t> frameLength;
  OpFoldResult runtimeLength; // frame_length read at run time (checked >= 1 then)
  if (Value lengthInput = n.hasInput(3) ? n.getInput(3) : Value();
      lengthInput && isRuntimeScalar(n, lengthInput)) {
    runtimeLength = atLeastOne(n, getShapeElements(n, lengthInput)->front(), "frame_length");
  } else if (n.hasInput(3) && !(frameLength = getConstantScalar(n, 3, "frame_length"))) {
    return failure();
  }
  bool onesided = n.getInt("onesided", 1) != 0;
  if (n.hasFailed())
    return failure();
  SmallVector<OpFoldResult> dims = getDims(n, signal);
  Type element = elementOf(signal), computeType = computeTypeOf(element);
  if (window && (rankOf(window) != 1 || elementOf(window) != element))
    return n.emitError() << "the window has type " << window.getType()
                         << ", expected a vector of the signal's element type " << element;
  OpFoldResult length = frameLength     ? OpFoldResult(b.getIndexAttr(*frameLength))
                        : runtimeLength ? runtimeLength
                        : window        ? getDims(n, window)[0]
                                        : dims[1];
  auto staticLength = getConstantIntValue(length);
  if (frameLength && *frameLength < 1)
    return n.emitError() << "frame_length is " << *frameLength << ", expected >= 1";
  if (window) {
    OpFoldResult windowLength = getDims(n, window)[0];
    auto w = getConstantIntValue(windowLength);
    if (w && staticLength && *w != *staticLength)
      return n.emitError() << "the window has " << *w << " elements, expected frame_length ("
                           << *staticLength << ")";
    checkEqual(n, windowLength, length, "the window must have frame_length elements");
  }
  // frames = 1 + (T - L) / step, at least one.
  OpFoldResult signalLength = dims[1];
  auto staticSignal = getConstantIntValue(signalLength);
  if (staticSignal && staticLength && *staticSignal < *staticLength)
    return n.emitError() << "the signal has " << *staticSignal
                         << " samples, fewer than one frame of " << *staticLength;
  if (!staticSignal || !staticLength) {
    Value fits = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, toIndex(n, length),
                                               toIndex(n, signalLength));
    prim::CheckOp::create(b, loc, fits,
                          b.getStringAttr("node '" + n.getNode().getNodeName() +
                                          "' (STFT): the signal must hold at least one frame"));
  }
  OpFoldResult frames =
      addIndex(n, floorDivIndex(n, subIndex(n, signalLength, length), step), b.getIndexAttr(1));
  // indices[f, j] = f * step + j; gathered: [batch, frames, L, parts]
  SmallVector<OpFoldResult> grid = {frames, length};
  RankedTensorType gridType = getTensorType(grid, b.getI64Type());
  SmallVector<Value> extents = getDynamicExtents(n, grid);
  Value starts = prim::MulOp::create(
      b, loc, prim::IotaOp::create(b, loc, gridType, extents, 0),
      fill(n, makeShapeTensor(n, {step}, b.getI64Type(), /*scalar=*/true), grid));
  Value indices =
      prim::AddOp::create(b, loc, starts, prim::IotaOp::create(b, loc, gridType, extents, 1));
  Value x = convert(n, signal, computeType);
  Value framed = prim::GatherOp::create(b, loc, x, indices, 1);
  if (window) {
    SmallVector<OpFoldResult> framedDims = getDims(n, framed);
    Value weights = prim::BroadcastInDimOp::create(
        b, loc, getTensorType(framedDims, computeType), convert(n, window, computeType),
        getDynamicExtents(n, framedDims), b.getDenseI64ArrayAttr({2}));
    framed = prim::MulOp::create(b, loc, framed, weights);
  }
  DftShape s;
  s.axis = 2;
  s.length = length;
  s.inCount = length;
  s.inParts = *parts;
  s.outCount = onesided
                   ? addIndex(n, floorDivIndex(n, length, b.getIndexAttr(2)), b.getIndexAttr(1))
                   : length;
  return n.setResults(convert(n, applyDft(n, framed, s), element));
}

//===----------------------------------------------------------------------------------===//
// ReverseSequence
//===----------------------------------------------------------------------------------===//

// y[b, t, ...] = t < len[b] ? x[b, len[b] - 1 - t, ...] : x[b, t, ...]
//   with b on batch_axis, t on time_axis ({0, 1}) and len = sequence_lens clamped to [0, T]:
//   one gather from x with its batch and time dims flattened.
LogicalResult reverseSequence(NodeRewriter &n) {
  Value x = n.getInput(0), lengths = n.getInput(1);
  if (!x || !lengths)
    return failure();
  int64_t batchAxis = n.getInt("batch_axis", 1), timeAxis = n.getInt("time_axis", 0);
  if (n.hasFailed())
    return failure();
  int64_t rank = rankOf(x);
  if (rank < 2)
    return n.emitError() << "the input has type " << x.getType() << ", expected rank >= 2";
  if ((batchAxis != 0 && batchAxis != 1) || (timeAxis != 0 && timeAxis != 1) ||
      batchAxis == timeAxis)
    return n.emitError() << "batch_axis " << batchAxis << " and time_axis " << timeAxis
                         << " must be 0 and 1, one each";
  if (rankOf(lengths) != 1 || !isa<IntegerType>(elementOf(lengths)) ||
      elementOf(lengths).isInteger(1))
    return n.emitError() << "sequence_lens has type " << lengths.getType()
                         << ", expected a vector of integers";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  OpFoldResult batch = dims[batchAxis], time = dims[timeAxis];
  OpFoldResult lengthCount = getDims(n, lengths)[0];
  auto given = getConstantIntValue(lengthCount), expected = getConstantIntValue(batch);
  if (given && expected && *given != *expected)
    return n.emitError() << "sequence_lens has " << *given << " entries, expected one per "
                         << "batch entry (" << *expected << ")";
  checkEqual(n, lengthCount, batch, "sequence_lens must have one entry per batch entry");
  Type i64 = b.getI64Type();
  SmallVector<OpFoldResult> grid = {dims[0], dims[1]};
  RankedTensorType gridType = getTensorType(grid, i64);
  SmallVector<Value> extents = getDynamicExtents(n, grid);
  Value t = prim::IotaOp::create(b, loc, gridType, extents, timeAxis);
  Value bIndex = prim::IotaOp::create(b, loc, gridType, extents, batchAxis);
  Value timeExtent = fill(n, makeShapeTensor(n, {time}, i64, /*scalar=*/true), grid);
  Value zero = fill(n, scalarConstant(n, i64, 0.0), grid);
  Value one = fill(n, scalarConstant(n, i64, 1.0), grid);
  Value len = prim::BroadcastInDimOp::create(b, loc, gridType, convert(n, lengths, i64), extents,
                                             b.getDenseI64ArrayAttr({batchAxis}));
  len = prim::ClampOp::create(b, loc, zero, len, timeExtent);
  Value reversed = prim::SubOp::create(b, loc, prim::SubOp::create(b, loc, len, one), t);
  Value inside = prim::CompareOp::create(b, loc, prim::CompareDirection::Lt, t, len);
  Value source = prim::SelectOp::create(b, loc, inside, reversed, t);
  // Row-major position in the flattened [dims[0] * dims[1]] of (batch, source) or (source, batch).
  Value row = timeAxis == 0 ? source : bIndex, column = timeAxis == 0 ? bIndex : source;
  Value linear = prim::AddOp::create(
      b, loc,
      prim::MulOp::create(b, loc, row, fill(n, makeShapeTensor(n, {dims[1]}, i64, true), grid)),
      column);
  OpFoldResult flatExtent = mulIndex(n, dims[0], dims[1]);
  SmallVector<OpFoldResult> flatDims = {flatExtent};
  flatDims.append(dims.begin() + 2, dims.end());
  Value flat = reshape(n, x, flatDims);
  Value gathered = prim::GatherOp::create(b, loc, flat, reshape(n, linear, {flatExtent}), 0);
  return n.setResults(reshape(n, gathered, dims));
}

} // namespace

void tcc::decompose::registerSignalRules(RuleRegistry &r) {
  r.add("", "HannWindow", 17, window<WindowKind::Hann>);
  r.add("", "HammingWindow", 17, window<WindowKind::Hamming>);
  r.add("", "BlackmanWindow", 17, window<WindowKind::Blackman>);
  r.add("", "DFT", 17, dft);
  r.add("", "DFT", 20, dft);
  r.add("", "STFT", 17, stft);
  r.add("", "MelWeightMatrix", 17, melWeightMatrix);
  r.add("", "ReverseSequence", 10, reverseSequence);
}
