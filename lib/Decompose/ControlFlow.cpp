//===- ControlFlow.cpp - rules for If, Loop, Scan and SequenceMap, unrolled ---------------===//
//
// tcc has no run-time control flow: subgraphs are inlined (inlineSubgraph) and loops are
// unrolled while compiling. If with a condition known while compiling inlines one branch;
// with a run-time condition it inlines both and selects each output, which is valid because
// ONNX branches have no side effects (both are computed, and must agree in type). Loop is
// unrolled when its trip count and each iteration's condition are known while compiling,
// and a prim.loop when only the trip count is known at run time (runTimeLoop); Scan and SequenceMap run
// for the static extent of their scan axis / sequence.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "Scalarize.h"
#include "Subgraphs.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// Loops without a trip count stop when their condition folds to false; this bounds them.
constexpr int64_t kMaxUnrolledIterations = 4096;
/// The largest constant trip count of a loop kept as a loop whose condition is always true
/// (it runs every iteration).
constexpr int64_t kMaxLoopTrips = int64_t(1) << 32;

/// The region of graph attribute `name`; null after an error.
Region *getSubgraph(NodeRewriter &n, StringRef name) {
  Region *region = n.getNode().getSubgraph(name);
  if (!region)
    n.emitError() << "expected the graph attribute '" << name << "'";
  return region;
}

/// The node's inputs as they are: tensors, sequences or none.
SmallVector<Value> getRawInputs(NodeRewriter &n, unsigned from) {
  SmallVector<Value> values;
  for (unsigned i = from; i < n.getNumInputs(); ++i)
    values.push_back(n.getNode().getInputs()[i]);
  return values;
}

/// x[index] along `axis`, the axis dropped.
Value takeAt(NodeRewriter &n, Value x, int64_t axis, int64_t index) {
  OpBuilder &b = n.getBuilder();
  int64_t rank = rankOf(x);
  SmallVector<OpFoldResult> dims = getDims(n, x);
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes(dims);
  offsets[axis] = b.getIndexAttr(index);
  sizes[axis] = b.getIndexAttr(1);
  Value slice = b.createOrFold<prim::SliceOp>(n.getLoc(), x, offsets, sizes,
                                              SmallVector<int64_t>(rank, 1));
  sizes.erase(sizes.begin() + axis);
  return reshape(n, slice, sizes);
}

/// cond ? a : b for one output of If: tensors of one type, sequences of one length, or both
/// absent. Null after an error naming output `index`.
Value selectBranch(NodeRewriter &n, Value cond, Value a, Value b, unsigned index) {
  if (a == b || (isa<NoneType>(a.getType()) && isa<NoneType>(b.getType())))
    return a;
  // An optional on either side (empty, or present only at run time) makes the output one
  // present at run time: its flag selected, its value selected (an empty side takes the
  // other's value, which is not observed when the flag is false).
  auto runtimeA = getRuntimeOptional(a), runtimeB = getRuntimeOptional(b);
  if (runtimeA || runtimeB || isa<NoneType>(a.getType()) || isa<NoneType>(b.getType())) {
    Type i1 = n.getBuilder().getI1Type();
    auto parts = [&](Value v, std::optional<RuntimeOptional> runtime) {
      if (runtime)
        return *runtime;
      bool empty = isa<NoneType>(v.getType());
      return RuntimeOptional{scalarConstant(n, i1, empty ? 0 : 1), empty ? Value() : v};
    };
    RuntimeOptional x = parts(a, runtimeA), y = parts(b, runtimeB);
    Value value = selectBranch(n, cond, x.value ? x.value : y.value,
                               y.value ? y.value : x.value, index);
    if (!value)
      return nullptr;
    Value present = prim::SelectOp::create(n.getBuilder(), n.getLoc(), cond, x.present, y.present);
    return makeRuntimeOptional(n, present, value);
  }
  auto seqA = getSequenceElements(a), seqB = getSequenceElements(b);
  if (seqA && seqB && seqA->size() == seqB->size()) {
    SmallVector<Value> elements;
    for (auto [x, y] : llvm::zip(*seqA, *seqB)) {
      Value picked = selectBranch(n, cond, x, y, index);
      if (!picked)
        return nullptr;
      elements.push_back(picked);
    }
    return makeSequence(n, elements);
  }
  if (!isa<RankedTensorType>(a.getType()) || a.getType() != b.getType()) {
    auto describe = [](Value v) {
      std::string text;
      llvm::raw_string_ostream os(text);
      if (auto elements = getSequenceElements(v))
        os << "a sequence of " << elements->size();
      else
        os << v.getType();
      return text;
    };
    n.emitError() << "output " << index << " is " << describe(a) << " in then_branch but "
                  << describe(b) << " in else_branch; with a condition known only at run time "
                     "tcc computes both branches, which must then agree in type and shape";
    return nullptr;
  }
  SmallVector<OpFoldResult> dims = getDims(n, a), otherDims = getDims(n, b);
  for (auto [d, pair] : llvm::enumerate(llvm::zip(dims, otherDims)))
    checkEqual(n, std::get<0>(pair), std::get<1>(pair),
               "node '" + n.getNode().getNodeName() + "' (If): dim " + std::to_string(d) +
                   " of output " + std::to_string(index) + " must agree between the branches");
  return prim::SelectOp::create(n.getBuilder(), n.getLoc(), fill(n, cond, dims), a, b);
}

/// Inlines `branch` (a subgraph without inputs) as inlineSubgraph does, with every run-time
/// check it makes (its prim.checks, nested ones included) weakened to `ok or skip`: the
/// checks of a branch that is computed but not taken must not fail the run. (A check inside
/// a loop that stays a loop at run time is refused later, by tcc-lower-checks.)
FailureOr<SmallVector<Value>> inlineGuarded(NodeRewriter &n, Region &branch, Value skip) {
  Operation *node = n.getNode();
  Operation *before = node->getPrevNode();
  auto results = inlineSubgraph(n, branch, {});
  if (failed(results))
    return failure();
  Block::iterator begin = before ? std::next(before->getIterator()) : node->getBlock()->begin();
  for (Operation &op : llvm::make_range(begin, node->getIterator()))
    op.walk([&](prim::CheckOp check) {
      OpBuilder b(check);
      Value weakened = b.createOrFold<arith::OrIOp>(check.getLoc(), check.getCondition(), skip);
      check.getConditionMutable().assign(weakened);
    });
  return results;
}

// If(cond) = then_branch() if cond else else_branch(); a run-time cond computes both:
// select(cond, then_branch(), else_branch())
LogicalResult ifRule(NodeRewriter &n) {
  Value cond = n.getInput(0);
  Region *thenBranch = getSubgraph(n, "then_branch");
  Region *elseBranch = getSubgraph(n, "else_branch");
  if (!cond || !thenBranch || !elseBranch)
    return failure();
  auto condType = cast<RankedTensorType>(cond.getType());
  if (!condType.getElementType().isInteger(1) || !condType.hasStaticShape() ||
      condType.getNumElements() != 1)
    return n.emitError() << "input 0 (cond) has type " << cond.getType()
                         << ", expected a bool tensor of one element";
  if (std::optional<int64_t> known = foldToInteger(cond)) {
    auto results = inlineSubgraph(n, *known ? *thenBranch : *elseBranch, {});
    return succeeded(results) ? n.setResults(*results) : failure();
  }
  // Both branches are computed; a run-time check holds only in the branch taken.
  Value scalar = reshape(n, cond, {});
  Value taken = readScalar(n, scalar);
  Value notTaken = arith::XOrIOp::create(
      n.getBuilder(), n.getLoc(), taken,
      arith::ConstantIntOp::create(n.getBuilder(), n.getLoc(), 1, 1));
  auto thenResults = inlineGuarded(n, *thenBranch, notTaken);
  if (failed(thenResults))
    return failure();
  auto elseResults = inlineGuarded(n, *elseBranch, taken);
  if (failed(elseResults))
    return failure();
  if (thenResults->size() != elseResults->size())
    return n.emitError() << "then_branch has " << thenResults->size()
                         << " outputs and else_branch " << elseResults->size();
  SmallVector<Value> results;
  for (auto [index, pair] : llvm::enumerate(llvm::zip(*thenResults, *elseResults))) {
    Value picked = selectBranch(n, scalar, std::get<0>(pair), std::get<1>(pair), index);
    if (!picked)
      return failure();
    results.push_back(picked);
  }
  return n.setResults(results);
}

// Loop(M, cond, v...): for i in [0, M) while cond: (cond, v..., s...) = body(i, cond, v...);
// outputs v... and each s stacked along a new axis 0. Unrolled: M and every cond must be
// known while compiling.
/// Loop as a prim.loop over M iterations (M a compile-time constant, known only at run time,
/// or absent: INT64_MAX), the body inlined once into it. A condition known only at run time
/// (the cond input, or the body's cond output) is carried along: once it is false the
/// carried values stop changing, v' = active ? body(v) : v, active' = active and cond_out,
/// and the loop's exit_unless ends it there. Scan outputs are carried buffers of M rows (M a
/// symbol: computed from the inputs' elements when it is an input), written row by row
/// while the loop runs; their extent is the number of rows written, bounded by M.
LogicalResult runTimeLoop(NodeRewriter &n, Region &body, Value m, ArrayRef<Value> carried,
                          size_t numScans) {
  if (numScans && !m)
    return n.emitError() << "scan outputs (here " << numScans << ") of a loop without a trip "
                            "count M are not supported: M bounds their extent";
  std::optional<int64_t> constantTrips = m ? foldToInteger(m) : std::nullopt;
  for (Value v : carried)
    if (!isa<RankedTensorType>(v.getType()))
      return n.emitError() << "loop-carried values must be tensors";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type i1 = b.getI1Type();
  // The condition carried as a 0-d i1 (true when absent).
  Value active = scalarConstant(n, i1, 1);
  if (n.hasInput(1)) {
    Value c = n.getInput(1);
    if (!c)
      return failure();
    active = reshape(n, convert(n, c, i1), {});
  }
  // count = max(M, 0) as an index; an M the model computes from the inputs' elements with
  // 0-d tensor ops (Range's expansion: Ceil(Div(Sub(limit, start), delta))) as scalar
  // arithmetic on them, so that it can be a computed symbol.
  Value count;
  if (m) {
    Value trips = reshape(n, convert(n, m, b.getI64Type()), {});
    Value scalar = scalarizeElement(n, trips, {});
    if (!scalar)
      scalar = tensor::ExtractOp::create(b, loc, trips, ValueRange{});
    count = arith::IndexCastOp::create(b, loc, b.getIndexType(), scalar);
    count = arith::MaxSIOp::create(b, loc, count, arith::ConstantIndexOp::create(b, loc, 0));
  } else { // a while loop: the condition alone ends it
    count = arith::ConstantIndexOp::create(b, loc, INT64_MAX);
  }
  // Scan outputs are carried buffers of M rows: M must be a symbol (static, a dim, or
  // computed from the inputs' elements before the run).
  if (numScans && readsTensorData(count))
    count = computedSymbol(n, count, "trip_count");
  SmallVector<Value> inits(carried);
  inits.push_back(active);
  auto loop = prim::LoopOp::create(b, loc, ValueRange(inits).getTypes(), count, inits);
  bool exitsEarly = false;
  SmallVector<Value> scanInits; // the scan buffers, then the row count
  {
    OpBuilder::InsertionGuard guard(b);
    Block *block = b.createBlock(&loop.getBody());
    block->addArgument(b.getIndexType(), loc);
    for (Value v : inits)
      block->addArgument(v.getType(), loc);
    b.setInsertionPointToStart(block);
    NodeRewriter::DimCache *cache = n.setDimCache(nullptr);
    Value running = block->getArgument(inits.size());
    SmallVector<Value> arguments = {
        makeShapeTensor(n, {OpFoldResult(block->getArgument(0))}, b.getI64Type(), true),
        running};
    for (unsigned k = 0; k < carried.size(); ++k)
      arguments.push_back(block->getArgument(k + 1));
    auto results = inlineSubgraph(n, body, arguments);
    if (failed(results)) {
      n.setDimCache(cache);
      return failure();
    }
    if (results->size() != 1 + carried.size() + numScans) {
      n.setDimCache(cache);
      return n.emitError() << "the body has " << results->size() << " outputs; expected "
                           << 1 + carried.size() + numScans
                           << " (cond, the loop-carried values, the scan outputs)";
    }
    std::optional<int64_t> always = isa<RankedTensorType>((*results)[0].getType())
                                        ? foldToInteger((*results)[0])
                                        : std::nullopt;
    std::optional<int64_t> startsActive = foldToInteger(active);
    bool frozen = !(always && *always != 0 && startsActive && *startsActive != 0);
    exitsEarly = frozen;
    // Frozen, the condition ends the loop (exit_unless; the iterations after it turns false
    // would change nothing). Otherwise all M iterations run: M must be a real bound.
    if (!frozen && constantTrips && *constantTrips > kMaxLoopTrips) {
      n.setDimCache(cache);
      return n.emitError() << "the loop's condition is always true and its trip count M = "
                           << *constantTrips << " is no real bound: it would never end";
    }
    SmallVector<Value> yielded;
    for (unsigned k = 0; k < carried.size(); ++k) {
      Value v = (*results)[1 + k];
      if (v.getType() != carried[k].getType()) {
        n.setDimCache(cache);
        return n.emitError() << "loop-carried value " << k << " changes type from "
                             << carried[k].getType() << " to " << v.getType()
                             << " in an iteration (in a loop kept as a loop its type must stay)";
      }
      if (frozen) {
        Value previous = block->getArgument(k + 1);
        v = prim::SelectOp::create(b, loc, fill(n, running, getDims(n, previous)), v, previous);
      }
      yielded.push_back(v);
    }
    Value next = running;
    if (frozen)
      next = prim::AndOp::create(b, loc, running,
                                 reshape(n, convert(n, (*results)[0], i1), {}));
    yielded.push_back(next);
    // Scan output k: a buffer of M rows; iteration i writes its row i while running (row -1,
    // which prim.scatter skips, after the condition turned false); a counter counts the rows.
    Type i64 = b.getI64Type();
    for (size_t k = 0; k < numScans; ++k) {
      Value v = (*results)[1 + carried.size() + k];
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || !type.hasStaticShape()) {
        n.setDimCache(cache);
        return n.emitError() << "scan output " << k << " of a loop kept as a loop must have a "
                             << "static shape, got " << v.getType();
      }
      SmallVector<OpFoldResult> dims = {OpFoldResult(count)};
      for (int64_t extent : type.getShape())
        dims.push_back(b.getIndexAttr(extent));
      Value zeros;
      {
        OpBuilder::InsertionGuard atLoop(b);
        b.setInsertionPoint(loop);
        zeros = fill(n, scalarConstant(n, type.getElementType(), 0), dims);
      }
      scanInits.push_back(zeros);
      Value buffer = block->addArgument(zeros.getType(), loc);
      Value at = prim::SelectOp::create(
          b, loc, running,
          makeShapeTensor(n, {OpFoldResult(block->getArgument(0))}, i64, /*scalar=*/true),
          scalarConstant(n, i64, -1));
      SmallVector<OpFoldResult> rowDims = {b.getIndexAttr(1)};
      llvm::append_range(rowDims, ArrayRef<OpFoldResult>(dims).drop_front());
      Value row = reshape(n, v, rowDims);
      yielded.push_back(prim::ScatterOp::create(b, loc, zeros.getType(), buffer,
                                                reshape(n, at, {b.getIndexAttr(1),
                                                                b.getIndexAttr(1)}),
                                                row, prim::ReduceKindAttr())
                            .getResult());
    }
    if (numScans) {
      OpBuilder::InsertionGuard atLoop(b);
      b.setInsertionPoint(loop);
      scanInits.push_back(scalarConstant(n, i64, 0));
    }
    if (numScans) {
      Value rows = block->addArgument(scanInits.back().getType(), loc);
      yielded.push_back(prim::AddOp::create(b, loc, rows, convert(n, running, i64)));
    }
    n.setDimCache(cache);
    prim::YieldOp::create(b, loc, yielded);
  }
  // With scan outputs the loop carries their buffers and the row count too.
  if (numScans) {
    SmallVector<Value> allInits(inits);
    llvm::append_range(allInits, scanInits);
    OpBuilder::InsertionGuard atLoop(b);
    b.setInsertionPoint(loop);
    auto closed = prim::LoopOp::create(b, loc, ValueRange(allInits).getTypes(), count, allInits);
    closed.getBody().takeBody(loop.getBody());
    loop.erase();
    loop = closed;
  }
  // The carried condition stops the loop once false.
  if (exitsEarly)
    loop.setExitUnless(static_cast<int64_t>(carried.size()));
  SmallVector<Value> outputs(loop.getResults().take_front(carried.size()));
  if (numScans) {
    // The rows written: all M, or (when the condition may end the loop) the count, a
    // data-dependent extent bounded by M.
    Value extent = count;
    if (exitsEarly) {
      Value rows = arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          tensor::ExtractOp::create(b, loc, loop.getResults().back(), ValueRange{}));
      extent = arith::MinSIOp::create(b, loc, rows, count);
    }
    for (size_t k = 0; k < numScans; ++k) {
      Value buffer = loop.getResult(carried.size() + 1 + k);
      auto type = cast<RankedTensorType>(buffer.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)), sizes;
      sizes.push_back(extent);
      for (int64_t d = 1; d < type.getRank(); ++d)
        sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
      outputs.push_back(b.createOrFold<prim::SliceOp>(loc, buffer, offsets, sizes,
                                                      SmallVector<int64_t>(type.getRank(), 1)));
    }
  }
  return n.setResults(outputs);
}

LogicalResult loop(NodeRewriter &n) {
  Region *body = getSubgraph(n, "body");
  if (!body)
    return failure();
  if (n.getNumInputs() < 2)
    return n.emitError() << "expected inputs M and cond (either may be empty), got "
                         << n.getNumInputs() << " inputs";
  SmallVector<Value> carried = getRawInputs(n, 2);
  if (n.getNumOutputs() < carried.size())
    return n.emitError() << "the node has " << n.getNumOutputs() << " outputs for "
                         << carried.size() << " loop-carried values";
  size_t numScans = n.getNumOutputs() - carried.size();
  std::optional<int64_t> tripCount;
  if (n.hasInput(0)) {
    Value m = n.getInput(0);
    if (!m)
      return failure();
    if (!(tripCount = foldToInteger(m)))
      return runTimeLoop(n, *body, m, carried, numScans);
  }
  bool cond = true;
  if (n.hasInput(1)) {
    Value c = n.getInput(1);
    std::optional<int64_t> known = c ? foldToInteger(c) : std::nullopt;
    if (!known)
      return runTimeLoop(n, *body, n.hasInput(0) ? n.getInput(0) : Value(), carried, numScans);
    cond = *known != 0;
  }
  OpBuilder &b = n.getBuilder();
  SmallVector<SmallVector<Value>> scans(numScans);
  int64_t iteration = 0;
  for (; cond && (!tripCount || iteration < *tripCount); ++iteration) {
    if (iteration >= kMaxUnrolledIterations)
      return n.emitError() << "the loop runs more than " << kMaxUnrolledIterations
                           << " iterations; tcc unrolls loops while compiling";
    SmallVector<Value> arguments = {scalarConstant(n, b.getI64Type(), iteration),
                                    scalarConstant(n, b.getI1Type(), 1)};
    llvm::append_range(arguments, carried);
    auto results = inlineSubgraph(n, *body, arguments);
    if (failed(results))
      return failure();
    if (results->size() != 1 + carried.size() + numScans)
      return n.emitError() << "the body has " << results->size() << " outputs; expected "
                           << 1 + carried.size() + numScans
                           << " (cond, the loop-carried values, the scan outputs)";
    std::optional<int64_t> next = isa<RankedTensorType>((*results)[0].getType())
                                      ? foldToInteger((*results)[0])
                                      : std::nullopt;
    if (!next) // (the iteration inlined here is dead code then)
      return runTimeLoop(n, *body, n.hasInput(0) ? n.getInput(0) : Value(), getRawInputs(n, 2),
                         numScans);
    cond = *next != 0;
    for (size_t k = 0; k < carried.size(); ++k)
      carried[k] = (*results)[1 + k];
    for (size_t k = 0; k < numScans; ++k)
      scans[k].push_back((*results)[1 + carried.size() + k]);
  }
  SmallVector<Value> outputs(carried);
  for (auto [k, values] : llvm::enumerate(scans)) {
    if (values.empty())
      return n.emitError() << "the loop runs no iteration, so scan output " << k
                           << " has no known shape";
    for (Value v : values)
      if (!isa<RankedTensorType>(v.getType()))
        return n.emitError() << "scan output " << k << " must be a tensor";
    Value stacked = stack(n, values, 0, "iteration");
    if (!stacked)
      return failure();
    outputs.push_back(stacked);
  }
  return n.setResults(outputs);
}

/// The scan proper (Scan 9+, and each batch entry of Scan 8): `length` iterations of
/// (state..., out...) = body(state..., x[t] for each scan input x); returns the final state
/// and each scan output stacked along its axis, in its direction.
FailureOr<SmallVector<Value>> runScan(NodeRewriter &n, Region &body, SmallVector<Value> states,
                                      ArrayRef<Value> scanInputs, ArrayRef<int64_t> inputAxes,
                                      ArrayRef<int64_t> inputDirections,
                                      ArrayRef<int64_t> outputAxes,
                                      ArrayRef<int64_t> outputDirections, size_t numOutputs) {
  std::optional<int64_t> length;
  for (auto [j, x] : llvm::enumerate(scanInputs)) {
    std::optional<int64_t> extent = getConstantIntValue(getDims(n, x)[inputAxes[j]]);
    if (!extent)
      return n.emitError() << "scan input " << j << " has a dynamic extent on its scan axis "
                           << inputAxes[j] << "; tcc unrolls Scan over a static length";
    if (length && *length != *extent)
      return n.emitError() << "scan input " << j << " has " << *extent
                           << " steps, but scan input 0 has " << *length;
    length = extent;
  }
  if (!length)
    return n.emitError() << "expected at least one scan input";
  SmallVector<SmallVector<Value>> outputs(numOutputs);
  for (int64_t t = 0; t < *length; ++t) {
    SmallVector<Value> arguments(states);
    for (auto [j, x] : llvm::enumerate(scanInputs))
      arguments.push_back(takeAt(n, x, inputAxes[j], inputDirections[j] ? *length - 1 - t : t));
    auto results = inlineSubgraph(n, body, arguments);
    if (failed(results))
      return failure();
    if (results->size() != states.size() + numOutputs)
      return n.emitError() << "the body has " << results->size() << " outputs; expected "
                           << states.size() + numOutputs;
    for (size_t k = 0; k < states.size(); ++k)
      states[k] = (*results)[k];
    for (size_t k = 0; k < numOutputs; ++k)
      outputs[k].push_back((*results)[states.size() + k]);
  }
  SmallVector<Value> results(states);
  for (auto [k, values] : llvm::enumerate(outputs)) {
    if (values.empty())
      return n.emitError() << "the scan has no step, so scan output " << k
                           << " has no known shape";
    if (outputDirections[k])
      std::reverse(values.begin(), values.end());
    auto axis = normalizeAxis(n, outputAxes[k], rankOf(values.front()) + 1,
                              "scan_output_axes entry");
    if (!axis)
      return failure();
    Value stacked = stack(n, values, *axis, "step");
    if (!stacked)
      return failure();
    results.push_back(stacked);
  }
  return results;
}

/// An INTS attribute with one entry per `count` (default all `fill`); nullopt after an error.
std::optional<SmallVector<int64_t>> getPerEntry(NodeRewriter &n, StringRef name, size_t count) {
  std::optional<SmallVector<int64_t>> values = n.getInts(name);
  if (!values)
    return n.hasFailed() ? std::nullopt : std::optional(SmallVector<int64_t>(count, 0));
  if (values->size() != count) {
    n.emitError() << "attribute '" << name << "' has " << values->size() << " entries for "
                  << count;
    return std::nullopt;
  }
  return values;
}

// Scan (9+): (state..., y...) with state' = body(state, x[t]...) for t along each scan input's
// axis (reversed where scan_input_directions = 1), y = the body's outputs stacked along
// scan_output_axes (reversed where scan_output_directions = 1)
LogicalResult scan(NodeRewriter &n) {
  Region *body = getSubgraph(n, "body");
  std::optional<int64_t> numScanInputs = n.getOptionalInt("num_scan_inputs");
  if (!body || !numScanInputs)
    return n.hasFailed() ? failure() : n.emitError() << "attribute 'num_scan_inputs' is required";
  if (*numScanInputs < 1 || *numScanInputs > n.getNumInputs())
    return n.emitError() << "num_scan_inputs is " << *numScanInputs << " for "
                         << n.getNumInputs() << " inputs";
  size_t numStates = n.getNumInputs() - *numScanInputs;
  if (n.getNumOutputs() < numStates)
    return n.emitError() << "expected at least " << numStates << " outputs";
  size_t numOutputs = n.getNumOutputs() - numStates;
  SmallVector<Value> states, scanInputs;
  for (unsigned i = 0; i < n.getNumInputs(); ++i) {
    Value x = n.getInput(i);
    if (!x)
      return failure();
    (i < numStates ? states : scanInputs).push_back(x);
  }
  auto inputAxes = getPerEntry(n, "scan_input_axes", scanInputs.size());
  auto inputDirections = getPerEntry(n, "scan_input_directions", scanInputs.size());
  auto outputAxes = getPerEntry(n, "scan_output_axes", numOutputs);
  auto outputDirections = getPerEntry(n, "scan_output_directions", numOutputs);
  if (!inputAxes || !inputDirections || !outputAxes || !outputDirections)
    return failure();
  for (auto [j, x] : llvm::enumerate(scanInputs)) {
    auto axis = normalizeAxis(n, (*inputAxes)[j], rankOf(x), "scan_input_axes entry");
    if (!axis)
      return failure();
    (*inputAxes)[j] = *axis;
  }
  auto results = runScan(n, *body, states, scanInputs, *inputAxes, *inputDirections,
                         *outputAxes, *outputDirections, numOutputs);
  return succeeded(results) ? n.setResults(*results) : failure();
}

// Scan (8): every input has a batch dim 0 and scans along dim 1; each batch entry is scanned
// alone (`directions` per scan input, outputs forward) and the results stacked along dim 0
LogicalResult scan8(NodeRewriter &n) {
  Region *body = getSubgraph(n, "body");
  std::optional<int64_t> numScanInputs = n.getOptionalInt("num_scan_inputs");
  if (!body || !numScanInputs)
    return n.hasFailed() ? failure() : n.emitError() << "attribute 'num_scan_inputs' is required";
  if (n.hasInput(0))
    return n.emitError() << "input 0 (sequence_lens) is not supported; tcc scans every "
                            "sequence to its full length";
  if (n.getNumInputs() < 1 || *numScanInputs < 1 || *numScanInputs > n.getNumInputs() - 1)
    return n.emitError() << "num_scan_inputs is " << *numScanInputs << " for "
                         << n.getNumInputs() - 1 << " state and scan inputs";
  size_t numStates = n.getNumInputs() - 1 - *numScanInputs;
  if (n.getNumOutputs() < numStates)
    return n.emitError() << "expected at least " << numStates << " outputs";
  size_t numOutputs = n.getNumOutputs() - numStates;
  SmallVector<Value> inputs;
  for (unsigned i = 1; i < n.getNumInputs(); ++i) {
    Value x = n.getInput(i);
    if (!x)
      return failure();
    if (rankOf(x) < 1 + (i > numStates ? 1 : 0))
      return n.emitError() << "input " << i << " has rank " << rankOf(x)
                           << "; expected a batch dim (and a sequence dim for scan inputs)";
    inputs.push_back(x);
  }
  auto directions = getPerEntry(n, "directions", *numScanInputs);
  if (!directions)
    return failure();
  std::optional<int64_t> batch = getConstantIntValue(getDims(n, inputs.front())[0]);
  if (!batch)
    return n.emitError() << "the batch dim is dynamic; tcc unrolls Scan over a static batch";
  SmallVector<SmallVector<Value>> perBatch(numStates + numOutputs);
  for (int64_t entry = 0; entry < *batch; ++entry) {
    SmallVector<Value> states, scanInputs;
    for (auto [i, x] : llvm::enumerate(inputs))
      (i < numStates ? states : scanInputs).push_back(takeAt(n, x, 0, entry));
    auto results = runScan(n, *body, states, scanInputs, SmallVector<int64_t>(*numScanInputs, 0),
                           *directions, SmallVector<int64_t>(numOutputs, 0),
                           SmallVector<int64_t>(numOutputs, 0), numOutputs);
    if (failed(results))
      return failure();
    for (auto [k, v] : llvm::enumerate(*results))
      perBatch[k].push_back(v);
  }
  SmallVector<Value> outputs;
  for (ArrayRef<Value> values : perBatch) {
    Value stacked = stack(n, values, 0, "batch entry");
    if (!stacked)
      return failure();
    outputs.push_back(stacked);
  }
  return n.setResults(outputs);
}

// SequenceMap(s, x...): out_j = [body(s[k], x[k] or x ...)_j for k in range(len(s))]
LogicalResult sequenceMap(NodeRewriter &n) {
  Region *body = getSubgraph(n, "body");
  auto first = getSequenceInput(n, 0);
  if (!body || !first)
    return failure();
  size_t length = first->size();
  SmallVector<SmallVector<Value>> perInput = {*first};
  SmallVector<bool> isSequence = {true};
  for (unsigned i = 1; i < n.getNumInputs(); ++i) {
    if (auto elements = getSequenceElements(n.getNode().getInputs()[i])) {
      if (elements->size() != length)
        return n.emitError() << "input " << i << " is a sequence of " << elements->size()
                             << " elements, but input 0 has " << length;
      perInput.push_back(*elements);
      isSequence.push_back(true);
      continue;
    }
    Value x = n.getInput(i);
    if (!x)
      return failure();
    perInput.push_back({x});
    isSequence.push_back(false);
  }
  SmallVector<SmallVector<Value>> outputs(n.getNumOutputs());
  for (size_t k = 0; k < length; ++k) {
    SmallVector<Value> arguments;
    for (auto [values, sequence] : llvm::zip(perInput, isSequence))
      arguments.push_back(sequence ? values[k] : values.front());
    auto results = inlineSubgraph(n, *body, arguments);
    if (failed(results))
      return failure();
    if (results->size() != outputs.size())
      return n.emitError() << "the body has " << results->size() << " outputs for "
                           << outputs.size();
    for (auto [j, v] : llvm::enumerate(*results)) {
      if (!isa<RankedTensorType>(v.getType()))
        return n.emitError() << "body output " << j << " must be a tensor";
      outputs[j].push_back(v);
    }
  }
  SmallVector<Value> results;
  for (ArrayRef<Value> values : outputs)
    results.push_back(makeSequence(n, values));
  return n.setResults(results);
}

} // namespace

namespace tcc::decompose {
void registerControlFlowRules(RuleRegistry &r) {
  // Later versions of If and Loop only add types (sequences and optionals at 13 and 16).
  r.add("", "If", 1, ifRule);
  r.add("", "Loop", 1, loop);
  r.add("", "Scan", 8, scan8);
  r.add("", "Scan", 9, scan);
  r.add("", "SequenceMap", 17, sequenceMap);
}
} // namespace tcc::decompose
