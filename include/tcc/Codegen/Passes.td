//===- Passes.td - code generation: buffers, checks, math -------------------------------===//
#ifndef TCC_CODEGEN_PASSES
#define TCC_CODEGEN_PASSES

include "mlir/Pass/PassBase.td"

def EntrySignature : Pass<"tcc-entry-signature", "mlir::ModuleOp"> {
  let summary = "Give @main the model ABI's signature: symbol values, raw input and output buffers";
  let description = [{
    Runs on tensors, before kernels are outlined. @main gets one `index` argument per
    `prim.symbol` (marked `tcc.symbol`), in front; each input becomes a raw byte buffer
    (`memref<?xi8>`) read through a `memref.view` whose dynamic extents are the input's
    `prim.bind_shape` expressions of the symbols; each result becomes a raw output buffer
    that the result is materialized into (`restrict writable`, so that empty-tensor
    elimination lets the producer write there directly). Every `tensor.dim` is resolved to
    index arithmetic over the symbols where the ops' shape reification allows; output
    extents must resolve (an output whose shape depends on data is an error for now). They
    are cloned into `func @output_shapes(symbols...) -> (extents...)`; output dims that are a
    lone symbol are listed in the module attribute `tcc.output_symbols`.

    ```mlir
    func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32>    // bound to [@n]
    // becomes
    func.func @main(%n: index {tcc.symbol = @n}, %x: memref<?xi8>, %y: memref<?xi8>)
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::tensor::TensorDialect", "::mlir::func::FuncDialect"];
}

def MarkBatchSplit : Pass<"tcc-mark-batch-split", "mlir::ModuleOp"> {
  let summary = "Prove that @main computes each image of its batch alone, for the runtime";
  let description = [{
    Runs on linalg on tensors, before tcc-entry-signature. When every input and output of
    @main leads with one symbol (alone, in no other dim; it admits 1) and every op keeps the
    images apart (linalg ops whose batched operands share one parallel loop that nothing else
    reads; pads, reshapes, slices, concatenations that leave the batch dim whole), and the
    weights are used at least `min-weight-reuse` times per image (contraction multiply-adds
    per image / weight elements), the module gets `tcc.batch_split = @symbol`. The packager
    publishes it as the descriptor's `batch_symbol`: the runtime may then run the model on one
    image at a time (model_abi.h). Anything not understood leaves the module unmarked.

    ```mlir
    func.func @main(%x: tensor<?x3x8x8xf32>) -> tensor<?x4x8x8xf32>  // %x bound to [@n]
    // a convolution, a bias, a ReLU: module attributes {tcc.batch_split = @n}
    ```
  }];
  let options = [
    Option<"minWeightReuse", "min-weight-reuse", "int64_t", /*default=*/"32",
           "Mark only models whose contractions use each weight element at least this many "
           "times per image on average">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark saying why a module is not marked">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"];
}

def OutlineKernels : Pass<"tcc-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Form kernels from the compute ops of @main and outline them";
  let description = [{
    Every linalg op (and tensor.pad, tensor.insert_slice, scf.for without linalg ops) at the
    top level of @main, or in a host loop, becomes part of a private function
    `@kernel_<k>_<node>` named after the tail of its ONNX node's name, marked
    `kernel.kernel = #kernel.kernel<kind, epilogue, nodes>` (its kind, whether it applies an
    epilogue, the ONNX nodes it computes), called from @main. Kernel formation groups a contraction with the fill of its
    accumulator and its pointwise epilogue (the result's only user, reading it once in order;
    the kernel's `epilogue` is true), and a pooling window with its fill; other ops are
    kernels alone. Pads become fill + insert_slice; a group whose result is only padded (rows
    of at least 24) computes into the padded buffer's interior (extract_slice ... insert_slice
    of the same sizes), so no copy remains. Destinations (`outs`) are arguments, so after
    bufferization a kernel writes into buffers its caller provides and allocates nothing; the
    host function is left with calls, views and shape arithmetic. Scalar constants are cloned
    into the kernel; tensors (weights included) are passed.

    ```mlir
    %r = linalg.generic ... ins(%a) outs(%e) {...}
    // becomes
    %r = call @kernel_0_relu(%a, %e) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::tcc::kernel::KernelDialect"];
}

def PlanBuffers : Pass<"tcc-plan-buffers", "mlir::ModuleOp"> {
  let summary = "Place every intermediate buffer of @main in one workspace by liveness";
  let description = [{
    After bufferization, each `memref.alloc` of the host function `@main` becomes a
    `memref.view` into one workspace argument (`memref<?xi8>`, appended to @main), at an
    offset chosen from the buffers' live ranges: buffers whose ranges do not overlap share
    bytes. Offsets are 64-byte aligned. With static shapes each buffer takes the lowest free
    offset and the size is recorded as `tcc.workspace_size` on @main; with dynamic shapes
    sizes are arithmetic over the symbol arguments (`tcc.symbol`), and each buffer goes above
    every earlier-placed buffer it overlaps in time (largest estimated first), offsets
    computed once at entry. `func @workspace_size(symbols...) -> index` gives the total.
    Nothing is allocated while the model runs.

    ```mlir
    %a = memref.alloc() : memref<4x4xf32>
    // becomes, with %ws the new last argument of @main
    %a = memref.view %ws[%c0][] : memref<128xi8> to memref<4x4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
}

def LowerChecks : Pass<"tcc-lower-checks", "mlir::ModuleOp"> {
  let summary = "Turn prim.check into an early return of a status from @main";
  let description = [{
    @main gets an i32 result: 0 when every check holds, otherwise 1 + the index of the first
    failed check in the module attribute `kernel.check_messages`, which the model descriptor
    turns into the error message reported to the runtime.

    ```mlir
    prim.check %ok, "dims agree"
    // becomes
    cf.cond_br %ok, ^continue, ^fail
    ^fail: return %c1_i32 : i32
    ```
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect", "::mlir::arith::ArithDialect",
                           "::tcc::kernel::KernelDialect"];
}

def ApproximateMath : Pass<"tcc-approximate-math", "mlir::ModuleOp"> {
  let summary = "Expand and approximate math ops so that no libm call remains";
  let description = [{
    Models load with nothing but libc: transcendental math ops become polynomial
    approximations (exp, log, tanh, erf, sin, cos, atan, ...) or expansions into those
    (sinh = (e^x - e^-x) / 2, pow = exp(y log x), ...). Ops with a machine instruction
    (sqrt, floor, abs, fma) stay.
  }];
  let dependentDialects = ["::mlir::math::MathDialect", "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def TileContractions : Pass<"tcc-tile-contractions", "mlir::ModuleOp"> {
  let summary = "Register-blocked vector FMAs for float matmuls, batch matmuls and convolutions";
  let description = [{
    Runs on buffers, before `tcc-order-loops`. A float contraction in a kernel whose payload
    is `out + a * b` and whose output's fastest dim j is read by exactly one operand, in its
    last index with a stride of 1 to 4 (matmul's B, a convolution's input row), and not at
    all by the other (A, the filter), becomes an outer product per reduction point: an
    `scf.parallel` over the other parallel dims, with a row dim i (one the scalar operand
    reads and the vector operand does not: matmul's rows, the output channels) tiled by R;
    inside, R x V vector accumulators over j (R <= 8, V <= 4, chosen by a cost model within
    the target's `vector-registers`), reduction loops that load V
    vectors of b, broadcast R scalars of a and issue R x V `vector.fma`, and the accumulators
    stored once. Remainder rows get an exact smaller tile and remainder columns masked
    vectors. In a kernel whose #kernel.kernel has `epilogue = true` the fill's value starts the accumulators and
    the epilogue runs on them before the store. A large static vector operand (>= 512 KiB) is
    split into column panels that threads split. Pooling windows (max/min/sum along j) are
    tiled the same way. Without a row dim of the scalar operand (a depthwise convolution, a
    pooling window), output rows that the vector operand reads with stride 1 are the rows:
    their own vector loads, one broadcast per reduction point. With 512-bit vectors a static
    column tail of at most half a vector takes a 256-bit vector (`split-wide-fma`: the cost
    counts a 512-bit FMA as two, as Zen 4 issues it). Rows of dynamic extent also count the
    one-row case in the tile cost; a dynamic first dim and the next static one become one
    parallel dim, batch-major. The outer loop stays parallel (its first dim: the first
    of static trip count >= 8, else the outermost), so `tcc-range-kernels` splits it over
    threads. Other linalg ops are left alone. (The example shows the 6 x 2 tile of 8-lane
    vectors.)

    ```mlir
    linalg.matmul ins(%a, %b : memref<?x64xf32>, memref<64x32xf32>) outs(%c : memref<?x32xf32>)
    // becomes
    scf.parallel (%t) = (%c0) to ((%m + 5) / 6) step (%c1) {
      scf.if %full_tile {
        scf.for %j = %c0 to %c32 step %c16 {
          %acc = vector.load %c[...] : memref<?x32xf32>, vector<8xf32>   // x 12
          scf.for %k = %c0 to %c64 step %c1 iter_args(...) {
            %b0 = vector.load %b[%k, %j] ...                              // x 2
            %a0 = vector.broadcast (memref.load %a[%row0, %k])            // x 6
            vector.fma %a0, %b0, %acc00 ...                               // x 12
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "bits of one vector register (128: NEON; 256: AVX2, the default x86-64-v3 target; "
           "512: AVX-512)">,
    Option<"vectorRegisters", "vector-registers", "int64_t", /*default=*/"16",
           "architectural vector registers, which bound the tile (x86-64: 16, 32 with AVX-512; "
           "AArch64: 32); the target's info gives both">,
    Option<"splitWideFma", "split-wide-fma", "bool", /*default=*/"false",
           "the core runs a 512-bit FMA as two 256-bit halves (AMD Zen 4): the tile cost counts "
           "a 512-bit FMA twice a 256-bit one, so short column tails on half-width vectors pay off">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect", "::mlir::LLVM::LLVMDialect"];
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
    Runs before the contraction tiler.

    ```mlir
    linalg.generic {maps = [(n,c,h,w) -> (n,c,h,w), (n,c,h,w) -> (c)]} ins(memref<1x672x14x14xf32>, memref<672xf32>)
    // becomes
    linalg.generic {maps = [(n,c,p) -> (n,c,p), (n,c,p) -> (c)]} ins(memref<1x672x196xf32>, ...)
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def OrderLoops : Pass<"tcc-order-loops", "mlir::ModuleOp"> {
  let summary = "Order each kernel's loops so that the innermost one walks memory contiguously";
  let description = [{
    Linalg ops become loops in the order of their iterators; for a contraction or a
    convolution that puts a reduction innermost, reading one operand with a stride, and LLVM
    cannot vectorize it. This pass generalizes named ops and interchanges the iterators to
    (parallel dims..., reduction dims..., the output's fastest dim), so the innermost loop
    updates consecutive output elements from consecutive inputs. Row reductions (every
    input that reads a reduction dim reads the same one last: LayerNorm's and Softmax's
    sums, global pooling) keep their parallel dims outside and the row innermost, with the
    accumulation marked `fastmath<reassoc>` so LLVM vectorizes it (partial sums across
    lanes: another order than sequential, the same for any thread count). Otherwise it
    only reorders loops: every kernel computes the same values.

    ```mlir
    linalg.matmul ins(%a, %b) outs(%c)   // loops (i, j, k)
    // becomes a linalg.generic with loops (i, k, j)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def RangeKernels : Pass<"tcc-range-kernels", "mlir::ModuleOp"> {
  let summary = "Let each kernel run a range of its outermost parallel loop";
  let description = [{
    Runs after `convert-linalg-to-parallel-loops`. A kernel whose body is one `scf.parallel`
    whose outermost extent its callers can compute (a constant, an argument, a dim of an
    argument, or integer arithmetic on those, such as a tile count) gets two index
    arguments, `begin` and `end`, that bound that loop; its calls become `kernel.launch`
    over [0, extent), which tcc-cpu-lower-launches runs through the runtime's
    `parallel_for` (imports->parallel_for splits the range into chunks). @main gets the
    import table as a first `!llvm.ptr` argument. A kernel whose estimated work (ops times
    static trip counts, 64 for a dynamic one) is below `min-parallel-work` stays a call,
    run on the calling thread: waking a worker costs more than it saves.
    ```mlir
    call @kernel_0_relu(%x, %y) : (memref<64x256xf32>, memref<64x256xf32>) -> ()
    // becomes, with the kernel's loop over [%begin, %end) of its 64 rows
    kernel.launch @kernel_0_relu(%x, %y) range(%c64) : memref<64x256xf32>, memref<64x256xf32>
    ```
  }];
  let options = [
    Option<"minParallelWork", "min-parallel-work", "int64_t", /*default=*/"32768",
           "estimated ops below which a kernel is not split across threads">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::LLVM::LLVMDialect",
                           "::tcc::kernel::KernelDialect"];
}

def LoopExits : Pass<"tcc-loop-exits", "mlir::ModuleOp"> {
  let summary = "Give while loops (prim.exit_unless) an exit: scf.for -> scf.while";
  let description = [{
    Runs after bufferization and tcc-plan-buffers, when a loop's carried values are buffers
    and the loop has no iteration arguments. An `scf.for` whose body starts with
    `%c = memref.load %flag[]; prim.exit_unless %c` (a prim.loop with exit_unless: ONNX Loop
    with a run-time condition) becomes an `scf.while` that loads the flag and tests
    `i < ub and flag` before every iteration. Without it the loop would run every iteration
    up to its bound, which for an ONNX while loop is INT64_MAX.

    ```mlir
    scf.for %i = %lb to %ub step %s {
      %c = memref.load %flag[] : memref<i1>
      prim.exit_unless %c
      ...
    }
    // becomes
    scf.while (%i = %lb) : (index) -> index {
      %in = arith.cmpi slt, %i, %ub : index
      %c = memref.load %flag[] : memref<i1>
      %go = arith.andi %in, %c : i1
      scf.condition(%go) %i : index
    } do {
    ^bb0(%i: index):
      ...
      %next = arith.addi %i, %s : index
      scf.yield %next : index
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def LowerRuntimeCalls : Pass<"tcc-lower-runtime-calls", "mlir::ModuleOp"> {
  let summary = "Turn prim.runtime_call into calls through the run's import table";
  let description = [{
    Runs after `tcc-range-kernels` (which gives @main the import table as its first
    argument). Every `prim.run_context` of @main becomes that argument's address; every
    `prim.runtime_call` (a string primitive's element, see lib/Lower/LowerStrings.cpp)
    becomes a load of the function pointer and the table's `context` from the table and an
    indirect call, with its operand and result passed through stack slots in the function's
    entry block (tcc_string and numbers by address, as model_abi.h declares them). A
    `string_find` set becomes a private constant global. The module gets the attribute
    `tcc.uses_string_functions`, the import-table size the called functions need (bytes), so
    that packaging makes `run` refuse an import table too old to have them.

    ```mlir
    %s = prim.runtime_call "string_format"(%tbl, %x) {dtype = 1 : i32} : f32 -> i128
    // becomes, with %slot and %out allocas of the entry block
    %t = llvm.inttoptr %tbl : i64 to !llvm.ptr
    %ctx = llvm.load (gep %t[0, 2]), %fn = llvm.load (gep %t[0, 7])
    llvm.store %x, %slot
    llvm.call %fn(%ctx, %c1_i32, %slot, %out) : !llvm.ptr, (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> ()
    %s = llvm.load %out : !llvm.ptr -> i128
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ExpandCopies : Pass<"tcc-expand-copies", "mlir::ModuleOp"> {
  let summary = "Turn memref.copy into linalg.copy, so that copies become loops";
  let description = [{
    `memref.copy` between strided buffers lowers to a call of a runtime library function;
    models call none. Copies between contiguous (identity-layout) buffers stay: they lower to
    one `memcpy`. When both sides are contiguous from some dim on in blocks of at least 256
    elements (a channel slice of a concatenation, per image), the copy becomes a loop over the
    dims before it with one `memcpy` per block (1-D views). Others become `linalg.copy`,
    loops like every other kernel.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

#endif // TCC_CODEGEN_PASSES
