//===- Passes.td - the CPU target: register tiles, loop order, thread ranges, launches ---===//
#ifndef TCC_TARGET_CPU_PASSES
#define TCC_TARGET_CPU_PASSES

include "mlir/Pass/PassBase.td"

def CpuLowerLaunches : Pass<"tcc-cpu-lower-launches", "mlir::ModuleOp"> {
  let summary = "Run kernel.launch through the runtime's parallel_for";
  let description = [{
    Runs after `convert-func-to-llvm`, when kernels are `llvm.func`s whose memref arguments
    are their descriptors' fields and @main's first argument is the import table
    (tcc-range-kernels). Each `kernel.launch @k(operands) range(%n)` becomes a call of
    `@tcc_parallel_for(imports, n, @k_range, argv)`: the operands' fields are stored in
    `argv`, an array of 8-byte slots in @main's entry block (pointers, integers widened);
    `@k_range(argv, begin, end)`, made once per kernel, loads them and calls
    `@k(fields..., begin, end)`; `@tcc_parallel_for` calls imports->parallel_for(context, n,
    body, arg), or body(arg, 0, n) on the calling thread when the table or the function is
    missing. A launch whose fields do not fit slots (a float scalar operand) calls the
    kernel once over the whole range.
    ```mlir
    kernel.launch @kernel_0_relu(%x) range(%c64) : memref<64x256xf32>
    // becomes, with %argv = llvm.alloca in the entry block holding %x's fields
    llvm.call @tcc_parallel_for(%imports, %c64_i64, %kernel_0_relu_range, %argv)
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def CpuLowerAttention : Pass<"tcc-cpu-lower-attention", "mlir::ModuleOp"> {
  let summary = "kernel.attention as loops over query rows, one row of scores at a time";
  let description = [{
    The first pass of the CPU kernel pipeline. A `kernel.attention` on buffers becomes an
    `scf.parallel` over its batch dims and blocks of 8 query rows (tcc-range-kernels splits
    it over threads), each iteration with a stack buffer of 8 × N floats (between
    `llvm.intr.stacksave` and `llvm.intr.stackrestore`): the 8 rows' scores `scale · q·k`
    (keys transposed: one or two vectors of keys per depth step, loaded once for the 8 rows'
    FMAs, 8 or 16 sums in registers; else a sum over the depth per key), then per row
    `+ bias` (or -inf past a `causal` diagonal), the maximum, `exp(s - max)` and its sum in
    place, then `out = Σ p v / sum` (vectors of values per key, loaded once for the 8 rows;
    zero without keys; with `nan_to_zero`, zero where the sum is NaN). Over 8192 keys the
    keys go in chunks of 8192 with an online softmax instead: per chunk the 8 × 8192 scores,
    then per row the running maximum m, sum l and products with the values rescaled by
    α = exp(m_old − m_new) (0 while m was −inf), and after the last chunk acc / l; every
    buffer is fixed-size on the stack (a kernel allocates no heap memory). The [M × N]
    scores never exist: memory is O(N) per thread, at most O(8192) with chunks. Vector tails are masked; the scalar
    loops' sums carry `reassoc` for LLVM's loop vectorizer; `math.exp` becomes
    tcc-approximate-math's polynomial.

    ```mlir
    kernel.attention %q, %k, %v outs(%o : memref<?x4x?x32xf32>) {key_transposed, scale = 1.0 : f32}
      : memref<?x4x?x32xf32>, memref<?x4x32x?xf32>, memref<?x4x?x32xf32>
    // becomes
    scf.parallel (%b, %h, %t) = (%c0, %c0, %c0) to (%B, %c4, %blocks) step (%c1, %c1, %c1) {
      %stack = llvm.intr.stacksave : !llvm.ptr
      %s = memref.alloca(%n) : memref<8x?xf32>
      ... 8 rows' scores, softmax, products with the values ...
      llvm.intr.stackrestore %stack : !llvm.ptr
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "bits of one vector register (the target's info gives it)">,
    Option<"vectorRegisters", "vector-registers", "int64_t", /*default=*/"16",
           "vector registers (the target's info gives it): with 32, two vectors of columns a "
           "step (16 sums in registers), else one">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::math::MathDialect", "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect", "::mlir::LLVM::LLVMDialect"];
}

def CpuLookupTables : Pass<"tcc-cpu-lookup-tables", "mlir::ModuleOp"> {
  let summary = "A computation of one 8-bit value in an elementwise body as a 256-entry table";
  let description = [{
    In each kernel's linalg.generic without reductions, the ops that read one 8-bit integer
    v and constants alone (dequantize, an activation, requantize: a quantized model's
    elementwise chains) compute a function of v's 256 bit patterns. When that function has
    one result used by the rest of the body and replacing it removes at least `min-ops` ops,
    its results are computed while compiling by folding the same ops (only ops with an exact
    IEEE or integer meaning: arith's elementwise ops, math's fma, roundeven, floor, ceil,
    trunc, absf and copysign), kept in a private constant memref.global of 256 entries, and
    replaced by a load at zext(v) (always in range). The entries are the exact results; a
    division the compiled code would compute as a reciprocal estimate (`arcp`) is exact in
    the table. Where v truncates a 32-bit w (a float saturated to u8 by lower::convert,
    trunc(fptosi(min(max(x, 0), 255))), a requantization before the table), the position is
    w itself, or w & 255 where w is not such a clamp: the vector code needs no byte lanes
    (zext of bytes made from selects vectorized as bytes widened to 64-bit lanes, some 17
    shuffles and masked moves per 16 positions on x86: EfficientNet-B0 QOperator 9.56 ->
    8.05 ms, b1 1t, Zen 4).
    tcc-tile-contractions' epilogue loads a vector of entries with vector.gather, or with
    word permutes (its `word-permutes` option).
    A body that converts bytes and has transcendental math ops (erf, exp, tanh: a
    quantized GELU's erf between two requantizations) first gets tcc-approximate-math's
    rewrites (tcc::approximateMath), the arithmetic the run would compute anyway, so the
    function goes through them: BERT-like QOperator's GELU became one table (its up
    projection kernels 0.50 -> 0.32 ms each, b1 1t on Zen 4; the model 4.81 -> 4.07 ms,
    outputs bit-identical).

    ```mlir
    // before: %q : i8, then ~80 ops of dequantize, sigmoid, multiply, requantize
    // after:
    %w = arith.extui %q : i8 to i32
    %i = arith.index_cast %w : i32 to index
    %y = memref.load %table[%i] : memref<256xf32>
    ```
  }];
  let options = [
    Option<"minOps", "min-ops", "int64_t", /*default=*/"24",
           "the fewest ops a table must remove (a gather of 16 lanes costs about as much as "
           "that many vector ops)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
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
    inside, R x V vector accumulators over j (R <= 8, or 16 when j fits one vector; V <= 4; chosen by a cost model within
    the target's `vector-registers`), reduction loops that load V
    vectors of b, broadcast R scalars of a and issue R x V `vector.fma`, and the accumulators
    stored once. Remainder rows get an exact smaller tile and remainder columns masked
    vectors. In a kernel whose #kernel.kernel has `epilogue = true` the fill's value starts the accumulators and
    the epilogue runs on them before the store. Without a fill, a float sum of products
    starts from zero and adds the values the output holds after the sum (after the first
    chunk's): a residual the contraction accumulates on (tcc-accumulate-residuals) would
    otherwise set the scale every product rounds at. When j fits one vector and another parallel
    dim s is read by the vector operand and not by the scalar one (a convolution's output
    rows), a tile's V vectors may be rows s..s+V-1 of one vector each instead (stacked rows),
    each broadcast feeding V FMAs. A large static vector operand (>= 512 KiB) is
    split into column panels that threads split (with many row tiles, one work item per
    panel and group of at least 8 row tiles, 16 items or more); when a panel is larger than 256 KiB and
    several row tiles read it, the outermost reduction dim goes in chunks of at most 256 KiB
    of the panel, every row tile in one chunk before the next (partial sums through `out`,
    the fill's value starting the first chunk, the epilogue after the last). Pooling windows (max/min/sum along j) are
    tiled the same way, float ones and integer max/min ones, signed or unsigned (a quantized
    model's max pooling of bytes: ResNet's 0.16 -> 0.05 ms, SqueezeNet-int8's three on
    blocks of bytes 0.93 / 0.43 / 0.11 ms -> 0.01 / 0.01 / 0.04 ms, Zen 4, scalar loops
    before). Without a row dim of the scalar operand (a depthwise convolution, a
    pooling window), output rows that the vector operand reads with stride 1 are the rows:
    their own vector loads, one broadcast per reduction point. Where both operands read j
    (a depthwise convolution on channel blocks, w[cb, ky, kx, l] x[n, y + ky, x + kx, cb, l])
    and the second reads no output dim the first does not, the second is loaded as vectors
    along j, one per reduction point for all rows, and multiplied vector by vector
    (Plan::scalarVector). With 512-bit vectors a static
    column tail of at most half a vector takes a 256-bit vector (`split-wide-fma`: the cost
    counts a 512-bit FMA as two, as Zen 4 issues it). Rows of dynamic extent also count the
    one-row case in the tile cost; a dynamic first dim and the next static one become one
    parallel dim, batch-major. The outer loop stays parallel (its first dim: the first
    of static trip count >= 8, else the outermost), so `tcc-range-kernels` splits it over
    threads. Other linalg ops are left alone. An epilogue's load from a table of
    tcc-cpu-lookup-tables is a vector.gather at the positions' i32 lanes; with
    `word-permutes` (AVX512-BW) a 256-entry table whose entries fit 16 bits (a byte result's)
    is eight constant registers of 32 words instead, looked up by four `vpermi2w` (each picks
    from a pair, 64 entries) and three selects on bits 6 and 7 of the position: no memory is
    read at the positions. On Zen 4 a gather of 16 entries took ~24 cycles, the permutes ~9
    (EfficientNet-B0 QOperator 8.27 -> 6.72 ms, b1 1t; its 2.0 expansion with swish 0.98 ->
    0.43 ms). (The example shows the 6 x 2 tile of 8-lane vectors.)

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
    Option<"wordPermutes", "word-permutes", "bool", /*default=*/"false",
           "the target has AVX512-BW's two-table word permutes (vpermi2w): an epilogue's lookup "
           "in a 256-entry table of tcc-cpu-lookup-tables whose entries fit 16 bits (a byte "
           "result's) is four permutes and three blends instead of a gather">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::x86vector::X86VectorDialect"];
}

def GatherTransposes : Pass<"tcc-gather-transposes", "mlir::ModuleOp"> {
  let summary = "Transposes whose output rows read a strided input dim, as 16 x 16 tiles or vector gathers";
  let description = [{
    Runs on buffers, before `tcc-order-loops`, with 512-bit vectors (AVX-512; other widths
    are left alone, not measured). A `linalg.transpose` of 32-bit or 8-bit elements whose output's
    fastest dim (unit stride) comes from an input dim other than the input's fastest, with a
    static stride, and whose input's fastest dim is at most a vector long (a block's 16
    lanes), otherwise becomes scalar loops: one load and one store per element, the loads a
    stride apart. Here every run of 16 consecutive outputs is one masked gather (offsets
    j x that stride) and one masked contiguous store,

        out[o_0, ..., o_{r-2}, x0 + j] = in[idx],  idx[perm[i]] = o_i (i < r - 1),
                                                   idx[perm[r-1]] = x0 + j,  j < 16

    in an `scf.parallel` over the output dims other than the row and the one the input's
    fastest dim feeds, that one's loop innermost: the 16 lanes of each gathered cache line
    are used while it is in L1 (a pixel's blocks are a power of two apart, 2-8 KiB, and
    share few of its sets). The same elements move (the same bits). Channel blocks
    [n, y, x, cb, 16] back to NCHW are such transposes; channels-last products
    [n, y, x, c] back to NCHW, with c longer than a vector, are left alone (as gathers
    with c innermost their stores scattered over c rows: MobileNetV2's 960-channel 7x7 one
    0.015 -> 0.025 ms). Measured on a 2-core Zen 4 (2026-12-07, 1 thread): SqueezeNet's
    transpose of its 13x13x512 blocks before the classifier 0.18 -> 0.045 ms (b8
    1.50 -> 0.34), the whole run 6.13 -> 6.01 ms (b8 49.6 -> 48.2, A B B A). Bytes (a
    quantized chain's blocks back to NCHW) take 16 lanes too; x86 has no byte gather and
    LLVM loads them one by one (on Zen 4 it does so for 32-bit gathers as well): what pays
    is the loop order. MobileNetV2 QOperator's 56x56x96 byte blocks 0.187 -> 0.116 ms.

    Where one of the two fastest dims is a block of 16 (either way: blocks to NCHW, or
    NCHW into blocks, whose output rows are the lanes), the transpose goes in 16 x 16 tiles
    instead: per tile 16 masked vector loads along the input's fastest dim, four rounds of 16
    two-vector interleaves (unpacklo / unpackhi; after log2(16) rounds lane j of vector i
    holds element i of vector j: punpck{l,h}bw on bytes, vpermt2ps on 32-bit elements) and
    16 masked vector stores along the output's row, in an `scf.parallel` over the output's
    other dims, then the row and the input's fastest dim in steps of 16. Vectors past either
    dim's end are masked off entirely, at clamped indices. Measured on the 2-core Zen 4
    (2026-12-07, 1 thread): MobileNetV2 QOperator's 56x56x96 byte blocks to NCHW 0.131 ->
    0.024 ms, its 144x56x56 NCHW bytes into blocks 0.175 -> 0.033 ms (scalar loops before),
    the model 3.61 -> 3.39 ms; EfficientNet-B0 QOperator 6.68 -> 6.49, MobileNetV2 fp32
    6.50 -> 6.24, outputs identical.

    ```mlir
    linalg.transpose ins(%in : memref<?x13x13x32x16xf32>) outs(%out : memref<?x32x16x13x13xf32>)
        permutation = [0, 3, 4, 1, 2]
    // becomes scf.parallel over (n, cb, y) { scf.for x0 = 0 to 13 step 16 { scf.for l {
    //   vector.gather %in[n, y, x0, cb, l] [offsets 0, 512, ..., 7680], mask
    //   vector.maskedstore %out[n, cb, l, y, x0], mask } } }
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "the target's vector width in bits; below 512 the pass does nothing">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
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

def VectorColumnReductions : Pass<"tcc-vector-column-reductions", "mlir::ModuleOp"> {
  let summary = "Reductions over outer dims into a short contiguous output row as vector accumulators";
  let description = [{
    Runs after `tcc-order-loops`. A linalg.generic on buffers with loops (parallel dims...,
    reduction dims..., c), c the output's fastest dim, static and at most 8 vectors of the
    output's 32-bit elements (a longer row of whole vectors goes in chunks of at most 8, the
    chunk one more index of the parallel loop), read contiguously (in the last index only) by every input that
    reads it, and a body of elementwise arith and math ops ending in `combine(out, v)` (add,
    max or min; the accumulator read there alone): a global pooling of channel blocks, sum over
    (y, x) of in[n, y, x, cb, l] collapsed to [n, R, C]. Loops over the output's rows would
    update C outputs in memory on every step; LLVM 22 unrolled a 32-long one into scalars
    (EfficientNet-B0 QOperator's pooling of 112x112x32 bytes, 0.19 ms). Here an `scf.parallel`
    over the parallel dims loads the row's vectors (the last one masked) into accumulators,
    `scf.for` loops over the reduction dims in order carry them, the body's ops run on vectors
    of the inputs (an input that does not read c as a broadcast), and the accumulators are
    stored once. Each lane accumulates its output in the scalar loops' order: the same values,
    floats included. Measured on the 2-core Zen 4 (2026-12-07, 1 thread): EfficientNet-B0
    QOperator's 112x112x32 byte pooling 0.206 -> 0.011 ms, its head's 7x7x1280 pooling (the
    swish computed in its body) 0.123 -> 0.053 ms; int8 and fp32 outputs identical.

    ```mlir
    linalg.generic {iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%in : memref<?x12544x32xi8>) outs(%out : memref<?x32xi32>)  // out += in - 65
    // becomes scf.parallel (%n) { %a0, %a1 = vector.load %out[%n, 0 / 16] : vector<16xi32>
    //   scf.for %r iter_args(%a0, %a1) { vector.load %in[%n, %r, 0 / 16] : vector<16xi8>,
    //     extui, subi, addi }  vector.store ... }
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "the target's vector width in bits (32-bit lanes: width / 32); 0 leaves every op">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def CpuSingleLaneStores : Pass<"tcc-cpu-single-lane-stores", "mlir::ModuleOp"> {
  let summary = "Masked vector stores of one constant lane as scalar stores (an LLVM 22 workaround)";
  let description = [{
    LLVM 22's x86 instruction selection stores `trunc <N x i32> to <N x i8>` (or to i16)
    under a constant mask of its first lane alone as a 4-byte `vmovss` of the untruncated
    lane: it writes the element and the three bytes after it. A tile whose rows are a
    [n, c, 1, 1] output's channels (a squeeze-excitation's 1x1 convolutions on quantized
    values) stores each row that way: it overwrote the next rows' bytes (another thread's,
    at two threads: EfficientNet-B0's QOperator outputs changed from run to run) and wrote
    three bytes past its buffer's end. Run just before the vector ops become LLVM (after
    the last canonicalization has made such masks constant), each `vector.maskedstore`
    whose mask is constant with its first lane alone becomes `vector.extract` of that lane
    and `memref.store`, which LLVM stores with the element's width.

    ```mlir
    %m = vector.create_mask %c1 : vector<8xi1>
    vector.maskedstore %out[%i, %j], %m, %v : memref<?x20xi8>, vector<8xi1>, vector<8xi8>
    // becomes
    %e = vector.extract %v[0] : i8 from vector<8xi8>
    memref.store %e, %out[%i, %j] : memref<?x20xi8>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::vector::VectorDialect"];
}

def RangeKernels : Pass<"tcc-range-kernels", "mlir::ModuleOp"> {
  let summary = "Let each kernel run a range of its outermost parallel loop";
  let description = [{
    Runs after `convert-linalg-to-parallel-loops`. A kernel whose body is one `scf.parallel`
    whose outermost extent its launches can compute (a constant, an argument, a dim of an
    argument, or integer arithmetic on those, such as a tile count) gets two index
    arguments, `begin` and `end`, that bound that loop; its launches of the whole kernel
    (tcc-form-launches) get the range [0, extent), which tcc-cpu-lower-launches runs through
    the runtime's `parallel_for` (imports->parallel_for splits the range into chunks). @main
    gets the import table as a first `!llvm.ptr` argument. The launches of every other
    kernel become plain calls, run on the calling thread: so do those of a kernel whose
    estimated work (ops times trip counts: static ones as they are, bounds that follow a
    loop's induction variable from the middle of its range, 64 for a dynamic one) is below
    `min-parallel-work`, since waking a worker costs more than it saves.
    A pad's copy kernel (one loop copying into a padded buffer's interior, beside loops that
    only store loop-invariant values into its border) is split too: the copy by ranges
    (capped at its own extent), the fills in the range that starts at 0, which every launch
    has (its extent at least 1). The fills' views must be disjoint from every view the copy
    reads or writes of that buffer (static offsets and sizes that do not meet in some dim);
    otherwise the kernel runs whole. (ResNet-18's block outputs on 2 threads: their pad
    copies ran on one thread, 2x slower than on one core, the other idle.)
    ```mlir
    kernel.launch @kernel_0_relu(%x, %y) : memref<64x256xf32>, memref<64x256xf32>
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

#endif // TCC_TARGET_CPU_PASSES
