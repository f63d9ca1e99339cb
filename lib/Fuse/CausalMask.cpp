//===- CausalMask.cpp - an attention bias that is a causal mask, proved from its IR -----===//
//
// Each value in the bias's definition is evaluated as a function of the query index i and
// the key index j, in one of two forms:
//
//   affine      a·i + b·j + c                     (integer iotas, their sums, constants)
//   piecewise   (j - i <= t) ? inside : outside    (comparisons of j - i with a constant,
//                                                  selects, converts, f32 sums; a constant when
//                                                  inside == outside, t then unset)
//
// Every dim of a value in the chain is the query dim, the key dim, a dim of extent 1 (maybe
// broadcast) or a batch dim, followed through broadcast_in_dim and reshapes of unit dims; any
// op that moves elements (slice, transpose, other reshapes) or computes something else ends
// the proof. f32 values are added as f32.
//
//===-------------------------------------------------------------------------------------===//
#include "CausalMask.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
namespace prim = tcc::prim;

namespace {

/// What the index along a dim is: the query row i, the key j, always 0 (an extent of 1,
/// possibly broadcast), or something else (a batch dim: an iota along it ends the proof).
enum class Axis { Query, Key, Zero, Other };

struct Form {
  bool affine = false;
  int64_t a = 0, b = 0, c = 0;
  std::optional<int64_t> t;
  double inside = 0, outside = 0;

  static Form linear(int64_t a, int64_t b, int64_t c) {
    Form f;
    f.affine = true;
    f.a = a, f.b = b, f.c = c;
    return f;
  }
  static Form constant(double v) {
    Form f;
    f.inside = f.outside = v;
    return f;
  }
  static Form split(int64_t t, double inside, double outside) {
    Form f;
    f.t = t;
    f.inside = inside, f.outside = outside;
    return f;
  }
};

/// Extents here are below 2^31 (a bias tensor holds M·N elements): constants within 2^30
/// keep every a·i + b·j + c of |a|, |b| <= 1 exact in 64 bits and in the i32/i64 elements.
constexpr int64_t kLargestConstant = int64_t(1) << 30;

class Evaluator {
public:
  explicit Evaluator(std::string &why) : why(why) {}

  std::optional<Form> eval(Value v, ArrayRef<Axis> axes, unsigned depth = 0) {
    if (depth > 64)
      return fail("the bias's definition is too deep");
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return fail("the bias is computed from a non-tensor");
    Type element = type.getElementType();
    DenseElementsAttr attr;
    if (matchPattern(v, m_Constant(&attr))) {
      if (!attr.isSplat())
        return fail("the bias reads a constant that is not one value");
      return constant(attr);
    }
    Operation *op = v.getDefiningOp();
    if (!op)
      return fail("the bias depends on a function argument");
    if (auto iota = dyn_cast<prim::IotaOp>(op)) {
      if (!isIndexType(element))
        return fail("an iota of " + typeName(element) + " (not i32 or i64)");
      Axis axis = axes[iota.getDimension()];
      if (axis == Axis::Other)
        return fail("the bias depends on the index of a batch dim");
      return Form::linear(axis == Axis::Query, axis == Axis::Key, 0);
    }
    if (auto broadcast = dyn_cast<prim::BroadcastInDimOp>(op)) {
      auto operandType = cast<RankedTensorType>(broadcast.getOperand().getType());
      SmallVector<Axis> inner;
      for (auto [k, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
        inner.push_back(operandType.getDimSize(k) == 1 && type.getDimSize(d) != 1 ? Axis::Zero
                                                                                  : axes[d]);
      return eval(broadcast.getOperand(), inner, depth + 1);
    }
    if (auto reshape = dyn_cast<prim::ReshapeOp>(op)) {
      // Only unit dims added or removed: the other dims pair up in order.
      auto operandType = cast<RankedTensorType>(reshape.getOperand().getType());
      auto kept = [](RankedTensorType t) {
        SmallVector<int64_t> dims;
        for (int64_t d = 0; d < t.getRank(); ++d)
          if (t.getDimSize(d) != 1)
            dims.push_back(d);
        return dims;
      };
      SmallVector<int64_t> from = kept(operandType), to = kept(type);
      if (from.size() != to.size())
        return fail("the bias reshapes more than unit dims");
      for (auto [f, t] : llvm::zip_equal(from, to))
        if (from.size() > 1 &&
            (operandType.isDynamicDim(f) || operandType.getDimSize(f) != type.getDimSize(t)))
          return fail("the bias reshapes more than unit dims");
      SmallVector<Axis> inner(operandType.getRank(), Axis::Zero);
      for (auto [f, t] : llvm::zip_equal(from, to))
        inner[f] = axes[t];
      return eval(reshape.getOperand(), inner, depth + 1);
    }
    // Elementwise ops: the operands have the result's shape.
    auto operand = [&](unsigned k) { return eval(op->getOperand(k), axes, depth + 1); };
    if (isa<prim::AddOp, prim::SubOp>(op)) {
      std::optional<Form> x = operand(0), y = operand(1);
      if (!x || !y)
        return std::nullopt;
      int64_t sign = isa<prim::SubOp>(op) ? -1 : 1;
      if (element.isF32()) // f32 values on each side of the split
        return pointwise(*x, *y, [&](double p, double q) -> double {
          return static_cast<float>(p) + static_cast<float>(sign * q);
        });
      if (!x->affine || !y->affine)
        return fail("the bias adds values other than indices and integer constants");
      return linear(x->a + sign * y->a, x->b + sign * y->b, x->c + sign * y->c);
    }
    if (isa<prim::NegOp>(op)) {
      std::optional<Form> x = operand(0);
      if (!x)
        return std::nullopt;
      if (!x->affine)
        return fail("the bias negates a value other than an index or integer constant");
      return linear(-x->a, -x->b, -x->c);
    }
    if (auto compare = dyn_cast<prim::CompareOp>(op)) {
      std::optional<Form> x = operand(0), y = operand(1);
      if (!x || !y)
        return std::nullopt;
      if (x->affine && y->affine && (x->a || x->b || y->a || y->b))
        return threshold(compare.getDirection(), x->a - y->a, x->b - y->b, x->c - y->c);
      return pointwise(*x, *y, [&](double p, double q) -> double {
        switch (compare.getDirection()) {
        case prim::CompareDirection::Eq:
          return p == q;
        case prim::CompareDirection::Ne:
          return p != q;
        case prim::CompareDirection::Lt:
          return p < q;
        case prim::CompareDirection::Le:
          return p <= q;
        case prim::CompareDirection::Gt:
          return p > q;
        case prim::CompareDirection::Ge:
          return p >= q;
        }
        return 0.0;
      });
    }
    if (auto select = dyn_cast<prim::SelectOp>(op)) {
      std::optional<Form> pred = operand(0), x = operand(1), y = operand(2);
      if (!pred || !x || !y)
        return std::nullopt;
      std::optional<Form> chosen =
          pointwise(*pred, *x, [](double p, double v) { return p != 0 ? v : NAN; });
      if (!chosen)
        return std::nullopt;
      return pointwise(*chosen, *y, [](double v, double w) { return std::isnan(v) ? w : v; });
    }
    if (isa<prim::NotOp, prim::AndOp, prim::OrOp>(op)) {
      if (!element.isInteger(1))
        return fail("a bitwise op on " + typeName(element));
      std::optional<Form> x = operand(0);
      if (!x)
        return std::nullopt;
      if (isa<prim::NotOp>(op))
        return pointwise(*x, *x, [](double p, double) -> double { return p == 0; });
      std::optional<Form> y = operand(1);
      if (!y)
        return std::nullopt;
      bool isAnd = isa<prim::AndOp>(op);
      return pointwise(*x, *y, [&](double p, double q) -> double {
        return isAnd ? (p != 0 && q != 0) : (p != 0 || q != 0);
      });
    }
    if (auto convert = dyn_cast<prim::ConvertOp>(op)) {
      Type from = cast<RankedTensorType>(convert.getOperand().getType()).getElementType();
      bool exact = from.isInteger(1) && (element.isF32() || isIndexType(element));
      if (!exact && !(from.isF32() && element.isInteger(1)))
        return fail("a convert from " + typeName(from) + " to " + typeName(element));
      std::optional<Form> x = operand(0);
      if (!x)
        return std::nullopt;
      return pointwise(
          *x, *x, [&](double p, double) -> double { return element.isInteger(1) ? p != 0 : p; });
    }
    return fail("the bias is computed by " + op->getName().getStringRef().str() +
                ", which is not an index, constant, comparison or select");
  }

private:
  std::nullopt_t fail(const std::string &reason) {
    if (why.empty())
      why = reason;
    return std::nullopt;
  }

  static bool isIndexType(Type t) { return t.isSignlessInteger(32) || t.isSignlessInteger(64); }
  static std::string typeName(Type t) {
    std::string text;
    llvm::raw_string_ostream os(text);
    t.print(os);
    return text;
  }

  std::optional<Form> linear(int64_t a, int64_t b, int64_t c) {
    if (std::abs(a) > 1 || std::abs(b) > 1 || std::abs(c) > kLargestConstant)
      return fail("the bias's indices are scaled or its constants are beyond 2^30");
    return Form::linear(a, b, c);
  }

  std::optional<Form> constant(DenseElementsAttr attr) {
    Type element = attr.getElementType();
    if (element.isInteger(1))
      return Form::constant(attr.getSplatValue<bool>());
    if (isIndexType(element)) {
      int64_t v = attr.getSplatValue<APInt>().getSExtValue();
      if (std::abs(v) > kLargestConstant)
        return fail("an integer constant beyond 2^30");
      return Form::linear(0, 0, v);
    }
    if (element.isF32()) {
      float v = attr.getSplatValue<APFloat>().convertToFloat();
      if (std::isnan(v))
        return fail("a NaN constant");
      return Form::constant(v);
    }
    return fail("a constant of " + typeName(element));
  }

  /// (a·i + b·j + c) `direction` 0 as a split at j - i <= t.
  std::optional<Form> threshold(prim::CompareDirection direction, int64_t a, int64_t b, int64_t c) {
    if (a != -b || std::abs(b) != 1 || std::abs(c) > kLargestConstant)
      return fail("the bias compares indices other than j - i with a constant");
    if (b == -1) { // -(j - i) + c ~ 0  <=>  (j - i) - c ~' 0, the direction mirrored
      c = -c;
      switch (direction) {
      case prim::CompareDirection::Lt:
        direction = prim::CompareDirection::Gt;
        break;
      case prim::CompareDirection::Le:
        direction = prim::CompareDirection::Ge;
        break;
      case prim::CompareDirection::Gt:
        direction = prim::CompareDirection::Lt;
        break;
      case prim::CompareDirection::Ge:
        direction = prim::CompareDirection::Le;
        break;
      default:
        break;
      }
    }
    switch (direction) { // d + c ~ 0, d = j - i
    case prim::CompareDirection::Le:
      return Form::split(-c, 1, 0);
    case prim::CompareDirection::Lt:
      return Form::split(-c - 1, 1, 0);
    case prim::CompareDirection::Ge:
      return Form::split(-c - 1, 0, 1);
    case prim::CompareDirection::Gt:
      return Form::split(-c, 0, 1);
    default:
      return fail("the bias tests j - i for equality, not order");
    }
  }

  /// f applied on each side of the split (the forms' splits must agree).
  std::optional<Form> pointwise(Form x, Form y, llvm::function_ref<double(double, double)> f) {
    for (Form *form : {&x, &y}) {
      if (!form->affine)
        continue;
      if (form->a || form->b)
        return fail("the bias uses an index as a value, not in a comparison");
      *form = Form::constant(static_cast<double>(form->c));
    }
    if (x.t && y.t && *x.t != *y.t)
      return fail("the bias combines two different diagonals");
    std::optional<int64_t> t = x.t ? x.t : y.t;
    double inside = f(x.inside, y.inside), outside = f(x.outside, y.outside);
    if (!t || inside == outside)
      return Form::constant(inside);
    return Form::split(*t, inside, outside);
  }

  std::string &why;
};

} // namespace

std::optional<int64_t> tcc::causalOffset(Value bias, ArrayRef<int64_t> biasDims, int64_t rank,
                                         std::string &why) {
  auto type = cast<RankedTensorType>(bias.getType());
  SmallVector<Axis> axes;
  for (auto [k, d] : llvm::enumerate(biasDims))
    axes.push_back(type.getDimSize(k) == 1 ? Axis::Zero
                   : d == rank - 2         ? Axis::Query
                   : d == rank - 1         ? Axis::Key
                                           : Axis::Other);
  Evaluator evaluator(why);
  std::optional<Form> form = evaluator.eval(bias, axes);
  if (!form)
    return std::nullopt;
  if (form->affine || !form->t) {
    why = "the bias does not depend on j - i";
    return std::nullopt;
  }
  if (form->inside != 0.0 || !(form->outside <= kMaskedBias)) {
    why = "the bias is not 0 on one side of its diagonal and -inf (at most -1e30) on the other";
    return std::nullopt;
  }
  if (*form->t < 0) {
    why = "the diagonal leaves the first query rows without keys";
    return std::nullopt;
  }
  return *form->t;
}
