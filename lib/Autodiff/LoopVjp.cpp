//===- LoopVjp.cpp - the VJP of prim.loop ----------------------------------------------===//
//
// y = loop(count, v0) with v_{i+1} = body(i, v_i), y = v_count. Reverse mode needs each
// iteration's input v_i: a taping loop runs the body again and records v_i in row i of a
// [count, ...] buffer per carried value (so the forward work is done twice; the buffers are
// the saved per-iteration values). Then a loop over i = count-1 .. 0 carries the cotangents:
// ct_i = VJP of body(i, .) at v_i applied to ct_{i+1}, from ct_count = dy; dv0 = ct_0.
// Values the body reads from outside the loop are made carried values first (closeLoops in
// ReverseMode.cpp), so their gradients accumulate through the carried cotangents.
//
//===----------------------------------------------------------------------------------===//
#include "VjpRules.h"

#include "tcc/Autodiff/Autodiff.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::autodiff;

namespace {

using Cts = ArrayRef<Value>;
using Out = MutableArrayRef<Value>;

/// Builds a prim.loop over `count` carrying `inits`; `body(b, i, carried)` returns the yields.
prim::LoopOp buildLoop(VjpBuilder &b, Value count, ValueRange inits,
                       function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  auto loop = prim::LoopOp::create(b.b, b.loc, inits.getTypes(), count, inits);
  OpBuilder::InsertionGuard guard(b.b);
  Block *block = b.b.createBlock(&loop.getBody());
  block->addArgument(b.b.getIndexType(), b.loc);
  for (Value v : inits)
    block->addArgument(v.getType(), b.loc);
  b.b.setInsertionPointToStart(block);
  SmallVector<Value> yielded = body(block->getArgument(0), block->getArguments().drop_front());
  prim::YieldOp::create(b.b, b.loc, yielded);
  return loop;
}

/// Clones `loop`'s body ops at the builder with the iteration number `i` and the carried
/// values `carried`; returns the values it yields.
SmallVector<Value> cloneBody(VjpBuilder &b, prim::LoopOp loop, Value i, ValueRange carried) {
  Block &body = loop.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArgument(0), i);
  for (auto [arg, v] : llvm::zip(body.getArguments().drop_front(), carried))
    mapping.map(arg, v);
  for (Operation &op : body.without_terminator())
    b.b.clone(op, mapping);
  SmallVector<Value> yielded;
  for (Value v : body.getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(v));
  return yielded;
}

// loop: tape v_i, then ct_i = VJP_body(i, v_i)(ct_{i+1}) for i = count-1 .. 0; dv0 = ct_0.
LogicalResult loopRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto loop = cast<prim::LoopOp>(op);
  // A while loop's tape would be as long as its bound (INT64_MAX for ONNX's while loops).
  if (loop.getExitUnless())
    return op->emitError() << "the gradient of a loop that its condition ends (a while loop) "
                              "is not supported";
  Value count = loop.getCount();
  SmallVector<Value> inits(loop.getInits());
  // Row i of tape k: v_i[k], for the float carried values (the others are taped too when
  // the body's float values depend on them; all carried values are taped for simplicity).
  SmallVector<Value> tapes;
  for (Value v : inits) {
    SmallVector<OpFoldResult> dims = {count};
    llvm::append_range(dims, b.dims(v));
    tapes.push_back(b.zeros(dims, VjpBuilder::typeOf(v).getElementType()));
  }
  auto writeRow = [&](Value tape, Value row, OpFoldResult i) {
    SmallVector<OpFoldResult> dims = b.dims(tape);
    Value atI = b.cmp(prim::CompareDirection::Eq, b.iota(dims, 0, b.b.getI64Type()),
                          b.indexTensor(i, dims));
    SmallVector<int64_t> mapping;
    for (int64_t k = 1; k < static_cast<int64_t>(dims.size()); ++k)
      mapping.push_back(k);
    return b.select(atI, b.broadcast(row, mapping, dims), tape);
  };
  SmallVector<Value> tapeInits(inits);
  llvm::append_range(tapeInits, tapes);
  size_t n = inits.size();
  prim::LoopOp taping = buildLoop(b, count, tapeInits, [&](Value i, ValueRange carried) {
    SmallVector<Value> next = cloneBody(b, loop, i, carried.take_front(n));
    for (size_t k = 0; k < n; ++k)
      next.push_back(writeRow(carried[n + k], carried[k], i));
    return next;
  });
  ValueRange recorded = taping.getResults().drop_front(n);

  // The reverse loop over the cotangents.
  SmallVector<Value> seeds;
  for (auto [k, v] : llvm::enumerate(inits))
    seeds.push_back(g[k] ? g[k] : b.splat(v, 0));
  std::string error;
  prim::LoopOp reverse = buildLoop(b, count, seeds, [&](Value j, ValueRange cts) {
    // i = count - 1 - j
    OpFoldResult i = b.subIndex(b.subIndex(count, b.b.getIndexAttr(1)), j);
    SmallVector<Value> inputs;
    for (auto [k, tape] : llvm::enumerate(recorded)) {
      Value row = b.slice(tape, 0, i, b.b.getIndexAttr(1));
      inputs.push_back(b.castTo(b.reshape(row, b.dims(inits[k])), inits[k].getType()));
    }
    Value iv = b.index(i);
    SmallVector<Value> outputs = cloneBody(b, loop, iv, inputs);
    Block *block = b.b.getInsertionBlock();
    FailureOr<SmallVector<Value>> grads = buildGradients(b.b, *block, outputs, cts, inputs);
    if (failed(grads)) {
      error = "the loop body is not differentiable (see the error above)";
      return SmallVector<Value>(cts);
    }
    return *grads;
  });
  if (!error.empty()) {
    op->emitError() << error;
    return failure();
  }
  for (size_t k = 0; k < n; ++k)
    d[1 + k] = reverse.getResult(k);
  return success();
}

} // namespace

void tcc::autodiff::registerLoopVjps(VjpRegistry &r) { r.add("prim.loop", loopRule); }
