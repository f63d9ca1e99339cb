//===- Recurrent.cpp - rules for RNN, GRU and LSTM -----------------------------------===//
//
// A static sequence length unrolls the time loop; a dynamic one becomes a prim.loop that
// carries H (and C) and the output Y, each iteration writing its row of Y.
// The input projection of every step is one contraction, X W^T + Wb, done once; each step
// adds H R^T + Rb and applies the cell. Directions run separately (reverse
// walks the steps backwards, as ONNX's reference does, with the sequence_lens mask in the
// same reversed order) and stack into Y [seq, num_directions, batch, hidden].
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include <array>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

enum class Cell { Rnn, Gru, Lstm };

int64_t gateCount(Cell cell) { return cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 3 : 4; }

/// One activation of the `activations` attribute with its alpha/beta.
struct Activation {
  std::string name;
  float alpha, beta;
};

struct Recurrence {
  NodeRewriter &n;
  Cell cell;
  Type element;
  int64_t seq = 0, hidden = 0, directions = 1, layout = 0;
  OpFoldResult seqDim; ///< the sequence length (static or not)
  SmallVector<OpFoldResult> batchDims; ///< [batch]
  float clip = 0;
  SmallVector<Activation> activations;

  OpBuilder &b() { return n.getBuilder(); }
  Location loc() { return n.getLoc(); }
  Value add(Value x, Value y) { return prim::AddOp::create(b(), loc(), x, y); }
  Value sub(Value x, Value y) { return prim::SubOp::create(b(), loc(), x, y); }
  Value mul(Value x, Value y) { return prim::MulOp::create(b(), loc(), x, y); }
  Value c(Value like, double v) { return splatLike(n, like, v); }

  /// f(x) for one of ONNX's recurrent activation functions.
  Value apply(const Activation &a, Value x) {
    OpBuilder &bld = b();
    if (a.name == "Sigmoid")
      return prim::LogisticOp::create(bld, loc(), x);
    if (a.name == "Tanh")
      return prim::TanhOp::create(bld, loc(), x);
    if (a.name == "Relu")
      return prim::MaxOp::create(bld, loc(), x, c(x, 0));
    if (a.name == "Affine")
      return add(mul(c(x, a.alpha), x), c(x, a.beta));
    if (a.name == "LeakyRelu")
      return prim::SelectOp::create(
          bld, loc(), prim::CompareOp::create(bld, loc(), prim::CompareDirection::Ge, x, c(x, 0)),
          x, mul(c(x, a.alpha), x));
    if (a.name == "ThresholdedRelu")
      return prim::SelectOp::create(
          bld, loc(), prim::CompareOp::create(bld, loc(), prim::CompareDirection::Gt, x, c(x, a.alpha)),
          x, c(x, 0));
    if (a.name == "ScaledTanh")
      return mul(c(x, a.alpha), prim::TanhOp::create(bld, loc(), mul(c(x, a.beta), x)));
    if (a.name == "HardSigmoid")
      return prim::MaxOp::create(
          bld, loc(), c(x, 0),
          prim::MinOp::create(bld, loc(), c(x, 1), add(mul(c(x, a.alpha), x), c(x, a.beta))));
    if (a.name == "Elu")
      return prim::SelectOp::create(
          bld, loc(), prim::CompareOp::create(bld, loc(), prim::CompareDirection::Ge, x, c(x, 0)),
          x, mul(c(x, a.alpha), prim::Expm1Op::create(bld, loc(), x)));
    if (a.name == "Softsign")
      return prim::DivOp::create(bld, loc(), x, add(c(x, 1), prim::AbsOp::create(bld, loc(), x)));
    if (a.name == "Softplus")
      return prim::Log1pOp::create(bld, loc(), prim::ExpOp::create(bld, loc(), x));
    return nullptr;
  }

  Value clipped(Value x) {
    if (clip <= 0)
      return x;
    return prim::MinOp::create(b(), loc(), prim::MaxOp::create(b(), loc(), x, c(x, -clip)),
                               c(x, clip));
  }

  /// t[index] of a tensor's first dim, that dim dropped.
  Value row(Value t, int64_t index) { return row(t, OpFoldResult(b().getIndexAttr(index))); }
  Value row(Value t, OpFoldResult index) {
    SmallVector<OpFoldResult> dims = getDims(n, t), offsets(dims.size(), b().getIndexAttr(0));
    offsets[0] = index;
    SmallVector<OpFoldResult> sizes(dims);
    sizes[0] = b().getIndexAttr(1);
    Value slice = b().createOrFold<prim::SliceOp>(loc(), t, offsets, sizes,
                                                   SmallVector<int64_t>(dims.size(), 1));
    return reshape(n, slice, ArrayRef<OpFoldResult>(dims).drop_front());
  }

  /// Columns [k h, (k + 1) h) of a [batch, G h] tensor.
  Value gate(Value t, int64_t k) {
    SmallVector<OpFoldResult> offsets = {b().getIndexAttr(0), b().getIndexAttr(k * hidden)};
    SmallVector<OpFoldResult> sizes = {batchDims[0], b().getIndexAttr(hidden)};
    return b().createOrFold<prim::SliceOp>(loc(), t, offsets, sizes, SmallVector<int64_t>{1, 1});
  }

  /// [rows, G h] @ [G h, k]^T as a contraction of the last dims: x W^T.
  Value times(Value x, Value w) {
    int64_t r = rankOf(x);
    return prim::DotGeneralOp::create(b(), loc(), x, w, ArrayRef<int64_t>{r - 1},
                                      ArrayRef<int64_t>{1}, ArrayRef<int64_t>{},
                                      ArrayRef<int64_t>{});
  }

  /// A vector broadcast over the batch rows: [k] -> [batch, k].
  Value overBatch(Value v) {
    SmallVector<OpFoldResult> dims = {batchDims[0], getDims(n, v)[0]};
    return prim::BroadcastInDimOp::create(b(), loc(), getTensorType(dims, element), v,
                                          getDynamicExtents(n, dims),
                                          b().getDenseI64ArrayAttr({1}));
  }

  Value zeros() {
    SmallVector<OpFoldResult> dims = {batchDims[0], b().getIndexAttr(hidden)};
    return fill(n, scalarConstant(n, element, 0.0), dims);
  }
};

// RNN:  H = f(x W^T + H R^T + Wb + Rb)
// GRU:  z = f(x Wz^T + H Rz^T + Wbz + Rbz), r = f(x Wr^T + H Rr^T + Wbr + Rbr)
//       h = g(x Wh^T + (r . H) Rh^T + Rbh + Wbh)   (linear_before_reset: r . (H Rh^T + Rbh))
//       H = (1 - z) . h + z . H
// LSTM: i = f(x Wi^T + H Ri^T + Pi . C + Wbi + Rbi), f = f(... + Pf . C ...) (1 - i with
//       input_forget), c = g(x Wc^T + H Rc^T + Wbc + Rbc), C = f . C + i . c,
//       o = f(x Wo^T + H Ro^T + Po . C + Wbo + Rbo), H = o . h(C)
// Gates are stacked in W, R, B in the orders (z, r, h) and (i, o, f, c).
template <Cell Kind>
LogicalResult recurrent(NodeRewriter &n) {
  Value x = n.getFloatInput(0), w = n.getInput(1), r = n.getInput(2);
  if (!x || !w || !r || n.hasFailed())
    return failure();
  Recurrence rec{n, Kind, elementOf(x), 0, 0, 1, 0, {}, {}, 0.0f, {}};
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  int64_t gates = gateCount(Kind);
  rec.layout = n.getVersion() >= 14 ? n.getInt("layout", 0) : 0;
  if (rankOf(x) != 3 || rankOf(w) != 3 || rankOf(r) != 3)
    return n.emitError() << "X, W and R must be 3-D";
  if (rec.layout)
    x = prim::TransposeOp::create(b, loc, x, ArrayRef<int64_t>{1, 0, 2});
  SmallVector<OpFoldResult> xDims = getDims(n, x);
  rec.seqDim = xDims[0];
  std::optional<int64_t> seq = getConstantIntValue(xDims[0]);
  // -1: dynamic, a prim.loop; also for a static 0 (the loop runs no step: Y is empty and the
  // states are the initial ones), which unrolling would have no step to build Y from.
  rec.seq = seq && *seq > 0 ? *seq : -1;
  rec.batchDims = {xDims[1]};
  auto rType = cast<RankedTensorType>(r.getType());
  if (rType.isDynamicDim(2))
    return n.emitError() << "R's hidden size must be static";
  rec.hidden = rType.getDimSize(2);
  if (int64_t declared = n.getInt("hidden_size", rec.hidden); declared != rec.hidden)
    return n.emitError() << "hidden_size is " << declared << " but R has " << rec.hidden;
  std::string direction = n.getString("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    return n.emitError() << "direction must be forward, reverse or bidirectional, got \""
                         << direction << "\"";
  rec.directions = direction == "bidirectional" ? 2 : 1;
  rec.clip = n.getFloat("clip", 0.0f);
  for (auto [value, name] : {std::pair{w, "W"}, {r, "R"}}) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getDimSize(0) != rec.directions || type.getDimSize(1) != gates * rec.hidden)
      return n.emitError() << name << " has type " << value.getType() << ", expected "
                           << rec.directions << " x " << gates * rec.hidden << " x ...";
  }
  if (std::optional<int64_t> inputs = getConstantIntValue(getDims(n, x)[2]);
      inputs && !cast<RankedTensorType>(w.getType()).isDynamicDim(2) &&
      cast<RankedTensorType>(w.getType()).getDimSize(2) != *inputs)
    return n.emitError() << "W has " << cast<RankedTensorType>(w.getType()).getDimSize(2)
                         << " input columns, expected X's input size " << *inputs;

  // Activations: per direction f (and g, h), with defaults; alpha/beta consumed in order.
  SmallVector<std::string> defaults =
      Kind == Cell::Rnn ? SmallVector<std::string>{"Tanh"}
      : Kind == Cell::Gru ? SmallVector<std::string>{"Sigmoid", "Tanh"}
                          : SmallVector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  SmallVector<std::string> names;
  if (auto list = dyn_cast_or_null<ArrayAttr>(n.getNode().getNodeAttr("activations")))
    for (Attribute a : list)
      if (auto s = dyn_cast<StringAttr>(a))
        names.push_back(s.str());
  int64_t perDirection = defaults.size();
  if (names.empty())
    for (int64_t d = 0; d < rec.directions; ++d)
      llvm::append_range(names, defaults);
  if (static_cast<int64_t>(names.size()) != perDirection * rec.directions)
    return n.emitError() << "activations has " << names.size() << " entries, expected "
                         << perDirection * rec.directions;
  auto alphas = n.getFloats("activation_alpha"), betas = n.getFloats("activation_beta");
  for (auto [i, name] : llvm::enumerate(names)) {
    float alpha = name == "LeakyRelu" ? 0.01f : name == "HardSigmoid" ? 0.2f : 1.0f;
    float beta = name == "HardSigmoid" ? 0.5f : 0.0f;
    if (alphas && i < alphas->size())
      alpha = (*alphas)[i];
    if (betas && i < betas->size())
      beta = (*betas)[i];
    rec.activations.push_back({name, alpha, beta});
    if (!rec.apply(rec.activations.back(), rec.c(x, 0)))
      return n.emitError() << "activation '" << name << "' is not an ONNX recurrent activation";
  }

  Value bias = n.getOptionalInput(3), lens = n.getOptionalInput(4), h0 = n.getOptionalInput(5);
  Value c0 = Kind == Cell::Lstm ? n.getOptionalInput(6) : Value();
  Value peep = Kind == Cell::Lstm ? n.getOptionalInput(7) : Value();
  if (rec.layout) {
    if (h0)
      h0 = prim::TransposeOp::create(b, loc, h0, ArrayRef<int64_t>{1, 0, 2});
    if (c0)
      c0 = prim::TransposeOp::create(b, loc, c0, ArrayRef<int64_t>{1, 0, 2});
  }
  bool linearBeforeReset = Kind == Cell::Gru && n.getInt("linear_before_reset", 0) != 0;
  bool inputForget = Kind == Cell::Lstm && n.getInt("input_forget", 0) != 0;
  // mask[t]: [batch, hidden], t < sequence_lens[b]
  auto mask = [&](OpFoldResult t) -> Value {
    if (!lens)
      return nullptr;
    Value l = convert(n, lens, b.getI64Type());
    Value step = fill(n, makeShapeTensor(n, {t}, b.getI64Type(), /*scalar=*/true), getDims(n, l));
    Value valid = prim::CompareOp::create(b, loc, prim::CompareDirection::Lt, step, l);
    SmallVector<OpFoldResult> dims = {rec.batchDims[0], b.getIndexAttr(rec.hidden)};
    return prim::BroadcastInDimOp::create(b, loc, getTensorType(dims, b.getI1Type()), valid,
                                          getDynamicExtents(n, dims), b.getDenseI64ArrayAttr({0}));
  };

  SmallVector<Value> ys, hs, cs;
  SmallVector<OpFoldResult> stepDims = {b.getIndexAttr(1), b.getIndexAttr(1), rec.batchDims[0],
                                        b.getIndexAttr(rec.hidden)};
  for (int64_t d = 0; d < rec.directions; ++d) {
    Value wd = rec.row(w, d), rd = rec.row(r, d);
    Value wb, rb;
    if (bias) {
      Value bd = rec.row(bias, d);
      SmallVector<OpFoldResult> half = {b.getIndexAttr(gates * rec.hidden)};
      wb = b.createOrFold<prim::SliceOp>(loc, bd, SmallVector<OpFoldResult>{b.getIndexAttr(0)}, half,
                                        SmallVector<int64_t>{1});
      rb = b.createOrFold<prim::SliceOp>(
          loc, bd, SmallVector<OpFoldResult>{b.getIndexAttr(gates * rec.hidden)}, half,
          SmallVector<int64_t>{1});
    }
    // x W^T + Wb for every step at once: [seq, batch, G h]
    Value xw = rec.times(x, wd);
    if (wb)
      xw = rec.add(xw, prim::BroadcastInDimOp::create(
                       b, loc, cast<RankedTensorType>(xw.getType()), wb,
                       getDynamicExtents(n, getDims(n, xw)), b.getDenseI64ArrayAttr({2})));
    Value h = h0 ? rec.row(h0, d) : rec.zeros();
    Value cState = Kind == Cell::Lstm ? (c0 ? rec.row(c0, d) : rec.zeros()) : Value();
    Value pi, po, pf;
    if (peep) {
      Value pd = rec.row(peep, d);
      auto part = [&](int64_t k) {
        return rec.overBatch(b.createOrFold<prim::SliceOp>(
            loc, pd, SmallVector<OpFoldResult>{b.getIndexAttr(k * rec.hidden)},
            SmallVector<OpFoldResult>{b.getIndexAttr(rec.hidden)}, SmallVector<int64_t>{1}));
      };
      pi = part(0), po = part(1), pf = part(2);
    }
    const Activation *act = &rec.activations[d * perDirection];
    bool backwards = d == 1 || direction == "reverse";
    // One time step t: the next H and C, and Y's row (masked by sequence_lens).
    auto step = [&](Value h, Value cState, OpFoldResult t) -> std::array<Value, 3> {
      Value gx = rec.row(xw, t);
      Value gh = rec.times(h, rd);
      if (rb)
        gh = rec.add(gh, rec.overBatch(rb));
      Value next, nextC;
      if (Kind == Cell::Rnn) {
        next = rec.apply(act[0], rec.clipped(rec.add(gx, gh)));
      } else if (Kind == Cell::Gru) {
        Value z = rec.apply(act[0], rec.clipped(rec.add(rec.gate(gx, 0), rec.gate(gh, 0))));
        Value rGate = rec.apply(act[0], rec.clipped(rec.add(rec.gate(gx, 1), rec.gate(gh, 1))));
        Value candidate;
        if (linearBeforeReset) {
          candidate = rec.add(rec.gate(gx, 2), rec.mul(rGate, rec.gate(gh, 2)));
        } else {
          // (r . H) Rh^T + Rbh: the recurrent term of h computed on r . H.
          SmallVector<OpFoldResult> off = {b.getIndexAttr(2 * rec.hidden), b.getIndexAttr(0)};
          SmallVector<OpFoldResult> size = {b.getIndexAttr(rec.hidden), b.getIndexAttr(rec.hidden)};
          Value rh = b.createOrFold<prim::SliceOp>(loc, rd, off, size, SmallVector<int64_t>{1, 1});
          Value term = rec.times(rec.mul(rGate, h), rh);
          if (rb)
            term = rec.add(term, rec.overBatch(b.createOrFold<prim::SliceOp>(
                                 loc, rb, SmallVector<OpFoldResult>{b.getIndexAttr(2 * rec.hidden)},
                                 SmallVector<OpFoldResult>{b.getIndexAttr(rec.hidden)},
                                 SmallVector<int64_t>{1})));
          candidate = rec.add(rec.gate(gx, 2), term);
        }
        Value hh = rec.apply(act[1], rec.clipped(candidate));
        next = rec.add(rec.mul(rec.sub(rec.c(z, 1), z), hh), rec.mul(z, h));
      } else {
        auto pre = [&](int64_t k2) { return rec.add(rec.gate(gx, k2), rec.gate(gh, k2)); };
        Value i = pre(0), o = pre(1), f = pre(2), cc = pre(3);
        if (pi) {
          i = rec.add(i, rec.mul(pi, cState));
          f = rec.add(f, rec.mul(pf, cState));
        }
        i = rec.apply(act[0], rec.clipped(i));
        f = inputForget ? rec.sub(rec.c(i, 1), i) : rec.apply(act[0], rec.clipped(f));
        cc = rec.apply(act[1], rec.clipped(cc));
        nextC = rec.add(rec.mul(f, cState), rec.mul(i, cc));
        if (po)
          o = rec.add(o, rec.mul(po, nextC));
        o = rec.apply(act[0], rec.clipped(o));
        next = rec.mul(o, rec.apply(act[2], nextC));
      }
      Value valid = mask(t);
      if (valid) {
        next = prim::SelectOp::create(b, loc, valid, next, h);
        if (nextC)
          nextC = prim::SelectOp::create(b, loc, valid, nextC, cState);
      }
      Value y = valid ? Value(prim::SelectOp::create(b, loc, valid, next, rec.zeros())) : next;
      return {next, nextC, reshape(n, y, stepDims)};
    };
    SmallVector<Value> stepOutputs;
    if (rec.seq >= 0) {
      stepOutputs.resize(rec.seq);
      for (int64_t k = 0; k < rec.seq; ++k) {
        int64_t t = backwards ? rec.seq - 1 - k : k;
        auto [next, nextC, y] = step(h, cState, b.getIndexAttr(t));
        h = next;
        cState = nextC;
        stepOutputs[t] = y;
      }
    } else {
      // A run-time sequence length: prim.loop over the steps, carrying H, C and Y.
      SmallVector<OpFoldResult> yDims = {rec.seqDim, b.getIndexAttr(1), rec.batchDims[0],
                                         b.getIndexAttr(rec.hidden)};
      Value y0 = fill(n, scalarConstant(n, rec.element, 0.0), yDims);
      SmallVector<Value> inits = {h, y0};
      if (cState)
        inits.push_back(cState);
      Value count = toIndex(n, rec.seqDim);
      auto loop = prim::LoopOp::create(b, loc, ValueRange(inits).getTypes(), count, inits);
      {
        // (createBlock moves the builder into the body; the guard brings it back.)
        OpBuilder::InsertionGuard guard(b);
        Block *body = b.createBlock(&loop.getBody());
        body->addArgument(b.getIndexType(), loc);
        for (Value init : inits)
          body->addArgument(init.getType(), loc);
        b.setInsertionPointToStart(body);
        // Dims made inside the body must not be reused outside it.
        NodeRewriter::DimCache *cache = n.setDimCache(nullptr);
        Value k = body->getArgument(0);
        OpFoldResult t = k;
        if (backwards)
          t = subIndex(n, subIndex(n, rec.seqDim, b.getIndexAttr(1)), k);
        auto [next, nextC, y] =
            step(body->getArgument(1), cState ? body->getArgument(3) : Value(), t);
        // Y with row t replaced: select(iota == t, y broadcast over the rows, Y), one
        // elementwise kernel (whole-tensor work per step, but no nested loop on the host).
        Type i64 = b.getI64Type();
        Value rows = prim::IotaOp::create(b, loc, getTensorType(yDims, i64),
                                          getDynamicExtents(n, yDims), 0);
        Value atT = prim::CompareOp::create(
            b, loc, prim::CompareDirection::Eq, rows,
            fill(n, makeShapeTensor(n, {t}, i64, /*scalar=*/true), yDims));
        Value spread = prim::BroadcastInDimOp::create(
            b, loc, cast<RankedTensorType>(y0.getType()), y, getDynamicExtents(n, yDims),
            b.getDenseI64ArrayAttr({0, 1, 2, 3}));
        Value written = prim::SelectOp::create(b, loc, atT, spread, body->getArgument(2));
        SmallVector<Value> carried = {next, written};
        if (nextC)
          carried.push_back(nextC);
        prim::YieldOp::create(b, loc, carried);
        n.setDimCache(cache);
      }
      h = loop.getResult(0);
      if (cState)
        cState = loop.getResult(2);
      stepOutputs.push_back(loop.getResult(1));
    }
    ys.push_back(stepOutputs.size() == 1
                     ? stepOutputs.front()
                     : Value(prim::ConcatenateOp::create(b, loc, stepOutputs, 0)));
    hs.push_back(reshape(n, h, {b.getIndexAttr(1), rec.batchDims[0], b.getIndexAttr(rec.hidden)}));
    if (cState)
      cs.push_back(
          reshape(n, cState, {b.getIndexAttr(1), rec.batchDims[0], b.getIndexAttr(rec.hidden)}));
  }
  auto join = [&](ArrayRef<Value> parts, int64_t dim) {
    return parts.size() == 1 ? parts.front()
                             : Value(prim::ConcatenateOp::create(b, loc, parts, dim));
  };
  Value y = join(ys, 1), yh = join(hs, 0);
  Value yc = cs.empty() ? Value() : join(cs, 0);
  if (rec.layout) {
    y = prim::TransposeOp::create(b, loc, y, ArrayRef<int64_t>{2, 0, 1, 3});
    yh = prim::TransposeOp::create(b, loc, yh, ArrayRef<int64_t>{1, 0, 2});
    if (yc)
      yc = prim::TransposeOp::create(b, loc, yc, ArrayRef<int64_t>{1, 0, 2});
  }
  SmallVector<Value> results = {y, yh};
  if (yc)
    results.push_back(yc);
  return n.setResults(results);
}

} // namespace

void tcc::decompose::registerRecurrentRules(RuleRegistry &r) {
  r.add("", "RNN", 7, recurrent<Cell::Rnn>);
  r.add("", "RNN", 14, recurrent<Cell::Rnn>); // + layout
  r.add("", "GRU", 7, recurrent<Cell::Gru>);
  r.add("", "GRU", 14, recurrent<Cell::Gru>);
  r.add("", "LSTM", 7, recurrent<Cell::Lstm>);
  r.add("", "LSTM", 14, recurrent<Cell::Lstm>);
}
