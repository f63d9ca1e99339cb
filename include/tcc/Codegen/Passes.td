//===- Passes.td - target-neutral kernel code generation ---------------------------------===//
//
// Kernel transforms every target runs: loop dims merged where every operand walks them
// together, and math without libm (polynomials; the GPU targets use the same ones).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_CODEGEN_PASSES
#define TCC_CODEGEN_PASSES

include "mlir/Pass/PassBase.td"

def ApproximateMath : Pass<"tcc-approximate-math", "mlir::ModuleOp"> {
  let summary = "Expand and approximate math ops so that no libm call remains";
  let description = [{
    Models load with nothing but libc: transcendental math ops become polynomial
    approximations (exp, log, tanh, erf, sin, cos, atan, ...) or expansions into those
    (sinh = (e^x - e^-x) / 2, pow = exp(y log x), ...). Ops with a machine instruction
    (sqrt, floor, abs, fma) stay. With `instruction-rounding` (CPUs: x86-64-v3 and up have
    vroundps/vrndscaleps, AArch64 frintn), round-half-to-even stays one instruction too;
    otherwise it is expanded into bit operations (about 30 per vector: QuantizeLinear's).
  }];
  let options = [
    Option<"instructionRounding", "instruction-rounding", "bool", /*default=*/"false",
           "Keep math.roundeven (the target has a rounding instruction)">,
  ];
  let dependentDialects = ["::mlir::math::MathDialect", "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def CollapseDims : Pass<"tcc-collapse-dims", "mlir::ModuleOp"> {
  let summary = "Merge adjacent loops of a kernel that walk every operand together";
  let description = [{
    LLVM vectorizes the innermost loop only, and the contraction tiler vectorizes the
    output's fastest dim: an elementwise kernel over 1x672x14x14 has a 14-long innermost
    loop, shorter than one 16-lane vector; a 1x1 convolution over 7x7 pixels has 7 columns.
    For each `linalg.generic` of a kernel (plain-dim indexing maps, buffers), adjacent loop
    dims of one iterator type that every operand reads together (consecutive indices, in
    order, identity layout) or not at all become one dim (upstream's
    collapseOpIterationDims, with `memref.collapse_shape` views: nothing is copied). In a
    kernel with an epilogue (#kernel.kernel `epilogue = true`) the contraction and its epilogue merge the same
    output dims or neither does, so the tiler can still apply the epilogue in registers.
    Runs before the contraction tiler. First, an elementwise generic's input read with a
    constant 0 on unit dims (a squeeze-excitation's `[n, c, 1, 1]` scale over a 14x14 map,
    the map `(n, c, h, w) -> (n, c, 0, 0)`) is read as the buffer without those dims
    (`[n, c]` by `(n, c, h, w) -> (n, c)`), so that h and w merge: such kernels were scalar
    loops of 14 (EfficientNet-B0 QOperator's scale multiplies, 157 -> 24 us each).

    ```mlir
    linalg.generic {maps = [(n,c,h,w) -> (n,c,h,w), (n,c,h,w) -> (c)]} ins(memref<1x672x14x14xf32>, memref<672xf32>)
    // becomes
    linalg.generic {maps = [(n,c,p) -> (n,c,p), (n,c,p) -> (c)]} ins(memref<1x672x196xf32>, ...)
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def ExpandCopies : Pass<"tcc-expand-copies", "mlir::ModuleOp"> {
  let summary = "Turn memref.copy into linalg.copy, so that copies become loops";
  let description = [{
    `memref.copy` between strided buffers lowers to a call of a runtime library function;
    models call none. Copies between contiguous (identity-layout) buffers stay: they lower to
    one `memcpy`. When both sides are contiguous from some dim on in blocks of at least 256
    elements (a channel slice of a concatenation, per image), the copy becomes a loop over the
    dims before it with one `memcpy` per block (1-D views). Others become `linalg.copy`,
    loops like every other kernel. With `memcpy=false` (GPU targets, whose kernels have no
    fast memcpy of their own) every copy becomes `linalg.copy`, which grids run in parallel.
  }];
  let options = [
    Option<"memcpy", "memcpy", "bool", /*default=*/"true",
           "keep contiguous copies as memcpy (false: every copy becomes linalg.copy)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

#endif // TCC_CODEGEN_PASSES
