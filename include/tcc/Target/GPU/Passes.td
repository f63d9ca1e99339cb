//===- Passes.td - what GPU targets share: device constants, grids, launches ----------===//
#ifndef TCC_TARGET_GPU_PASSES
#define TCC_TARGET_GPU_PASSES

include "mlir/Pass/PassBase.td"

def GpuCallKernels : Pass<"tcc-gpu-call-kernels", "mlir::ModuleOp"> {
  let summary = "Run each kernel function as host code that launches its grids: launches become calls";
  let description = [{
    The first step of a GPU target's pipeline. On a GPU, a kernel function of the
    target-neutral pipeline stays a host function: tcc-gpu-form-grids replaces its loop nests
    with grid launches, and its caller runs it once. So each `kernel.launch` of the whole
    kernel (tcc-form-launches) becomes a call of that function. A launch over a range (the
    CPU's split into chunks) is an error here.
    ```mlir
    kernel.launch @kernel_0_relu(%x, %y) : memref<64x256xf32>, memref<64x256xf32>
    // becomes
    call @kernel_0_relu(%x, %y) : (memref<64x256xf32>, memref<64x256xf32>) -> ()
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def GpuLowerAttention : Pass<"tcc-gpu-lower-attention", "mlir::ModuleOp"> {
  let summary = "kernel.attention as block tiles or a warp per query row, online softmax";
  let description = [{
    Right after tcc-gpu-call-kernels. A `kernel.attention` on buffers (its value depth E
    static, at most 128) becomes one of two kernels, chosen on the host where the query rows
    are known only at run time:

    Block tiles (AttentionTiles.cpp), with at least 16 query rows and static query and value
    depths that are multiples of 16 (of 4 without subgroups), at most 128: blocks of 64 rows,
    4 threads a row and 2 rows a thread (1 and 1 without subgroups), walk the keys in tiles
    of 32 staged in workgroup memory (`kernel.block_threads`); each 8 keys' scores update a
    running maximum, sum and accumulators per row; the 4 threads of a row combine their
    partial dot products with a clustered `gpu.subgroup_reduce`.

    A warp per row otherwise (`subgroups` only): an `scf.parallel` over its
    batch dims, its query rows and 32 lanes, the lanes innermost so that tcc-gpu-form-grids'
    256-thread blocks hold 8 rows of one warp each. Lane t walks keys t, t + 32, ... with a
    running maximum, sum and E accumulators (flash attention's online softmax: each new
    score rescales the sums by exp(old max - new max)); the warp then combines its lanes with
    `gpu.subgroup_reduce` (the maximum, then the rescaled sums) and lane e mod 32 stores
    output column e. No score is stored; memory is independent of the sequence. A row with
    no keys is 0; all -inf or a NaN score gives NaN, or 0 with `nan_to_zero`.

    ```mlir
    kernel.attention %q, %k, %v outs(%o : memref<?x4x?x32xf32>) {key_transposed, scale = 1.0 : f32}
      : memref<?x4x?x32xf32>, memref<?x4x32x?xf32>, memref<?x4x?x32xf32>
    // becomes
    scf.parallel (%b, %h, %i, %lane) = (%c0, %c0, %c0, %c0) to (%B, %c4, %M, %c32) step (...) {
      %r:34 = scf.for %j = %lane to %N step %c32 iter_args(%m = -inf, %l = 0, %acc0 = 0, ...)
      %max = gpu.subgroup_reduce maximumf %r#0 uniform : (f32) -> f32
      ...
    ```
  }];
  let options = [
    Option<"subgroups", "subgroups", "bool", /*default=*/"true",
           "The target has subgroups of 32 (else only the block tiles, one thread a row)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::math::MathDialect", "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

def GpuDeviceConstants : Pass<"tcc-gpu-device-constants", "mlir::ModuleOp"> {
  let summary = "Read the weights from the device's copy, an argument of @main";
  let description = [{
    Runs on buffers, after packaging moved every constant into the weights blob
    (`tcc_weights`, packWeights with TargetInfo::minPackedWeightBytes). A GPU's host code
    passes device addresses only, so the blob's device copy (the runtime uploads it once per
    session: model_abi.h's device_constants) becomes the last argument of @main, marked
    `kernel.device_constants`, and of every function that reads the blob (their callers
    pass it on). Each `memref.get_global @tcc_weights` becomes a cast of that argument, and
    the module records the blob's size in `kernel.device_constants_size`.
    ```mlir
    %w = memref.get_global @tcc_weights : memref<4096xi8>
    // becomes, with %constants: memref<?xi8> {kernel.device_constants} the new argument
    %w = memref.cast %constants : memref<?xi8> to memref<4096xi8>
    ```
    A function that reads the blob but is reached by something other than `func.call` is an
    error.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GpuDeviceChecks : Pass<"tcc-gpu-device-checks", "mlir::ModuleOp"> {
  let summary = "Run-time checks of tensor values on the device, through a status word";
  let description = [{
    Runs on buffers, before tcc-gpu-form-grids. A `prim.check` of @main whose condition
    reads memory (a Gather's "every index in range", computed by a kernel) cannot be decided
    by the host, which only names device memory. It becomes a store of its code (k + 1 for
    the k-th entry of the module's `kernel.device_check_messages`) into the run's status word
    when the condition is false; the status word is a new last argument of @main
    (`kernel.device_status`, the runtime's imports->device_status) and of every function
    @main calls, where tcc-gpu-form-grids makes every kernel do nothing once it is not 0.
    Checks of host values (symbols, extents) stay for tcc-lower-checks.
    ```mlir
    %ok = memref.load %flag[] : memref<i1>
    prim.check %ok, "node 'g' (Gather): gather index out of range"
    // becomes, with %status: memref<?xi8> {kernel.device_status}
    %ok = memref.load %flag[] : memref<i1>
    %failed = arith.xori %ok, %true : i1
    scf.if %failed {
      %word = memref.view %status[%c0][] : memref<?xi8> to memref<i32>
      memref.store %c1_i32, %word[] : memref<i32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def GpuLinalgToLoops : Pass<"tcc-gpu-linalg-to-loops", "mlir::ModuleOp"> {
  let summary = "Linalg ops as one parallel loop over the outputs, reductions in registers";
  let description = [{
    Runs on buffers. Each linalg op becomes an `scf.parallel` over its parallel dims (one
    iteration per output element, which tcc-gpu-form-grids gives a thread); inside, its
    reduction dims are an `scf.for` nest whose iteration arguments carry the outputs'
    values, loaded once before it and stored once after it, so that a thread accumulates a
    dot product or a window in registers rather than in memory (what
    `convert-linalg-to-parallel-loops` would do on every step). An op without parallel dims
    (a full reduction) becomes the loop nest alone. Two kinds of reduction get more threads:
    a flag reduced with `and`/`or` (a check that every index is in range) is a parallel loop
    over all its dims whose threads store the answer where their element decides it; a row
    reduction by add, max or min that no input lets tile (a softmax's max and sum, a norm's
    mean) gives each output 32 lanes (a warp) that stride along the row and combine with
    `gpu.subgroup_reduce`, lane 0 storing. Contractions with reuse give each thread a tile:
    4 columns along the innermost dim that divides and has an input independent of it, and,
    where there are at least 2^20 outputs (a branch on the host), 4 rows along the next such
    dim (rows past the end are computed from the last one and not stored).
    Larger contractions of two inputs (one reading the rows, one the columns) become block
    tiles staged through workgroup memory (BlockTiles.cpp, loops marked
    `kernel.block_threads`); with `matrix-unit`, float32 multiply-adds run on the target's
    warp matrix instruction (MatrixTiles.cpp).
    ```mlir
    linalg.matmul ins(%a, %b : memref<?x64xf32>, memref<64x32xf32>) outs(%c : memref<?x32xf32>)
    // becomes
    scf.parallel (%i, %j) = (%c0, %c0) to (%m, %c32) step (%c1, %c1) {
      %init = memref.load %c[%i, %j] : memref<?x32xf32>
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f32) {
        // %acc + %a[%i, %k] * %b[%k, %j]
      }
      memref.store %sum, %c[%i, %j] : memref<?x32xf32>
    }
    ```
  }];
  let options = [
    Option<"matrixUnit", "matrix-unit", "std::string", /*default=*/"\"\"",
           "the target's matrix instruction (MatrixTiles.h) for float32 multiply-adds: "
           "inputs rounded to its type (--precision), sums in float32; none by default">,
    Option<"lanes", "lanes", "bool", /*default=*/"true",
           "reductions may split across the 32 lanes of a warp (row reductions, split "
           "lanes), combined by subgroup shuffles; off for devices whose subgroups may be "
           "narrower (each output's reduction then runs in one thread)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect", "::mlir::gpu::GPUDialect",
                           "::mlir::vector::VectorDialect"];
}

def GpuFormGrids : Pass<"tcc-gpu-form-grids", "mlir::ModuleOp"> {
  let summary = "Turn each kernel's loop nests into 1-D GPU grids (gpu.launch)";
  let description = [{
    Runs on loops (after `convert-linalg-to-parallel-loops`). In every function, each
    top-level `scf.parallel` becomes a `gpu.launch` of a 1-D grid: its iterations are
    numbered row-major (the last dim fastest, so that neighbouring threads touch neighbouring
    elements), thread `blockIdx.x * block-size + threadIdx.x` runs the iteration of its
    number, and the grid is `ceil(total / block-size)` blocks, computed on the host from the
    loop bounds (dynamic shapes: from the symbols), launched only when `total > 0`. Any other
    run of top-level operations that touches memory (a sequential `scf.for`, a lone store)
    runs in a launch of one thread, in order. Host code keeps only the pure operations (views,
    index arithmetic), calls and the launches; the functions that launch (and their callers)
    take the run's import table as their first argument, as @main does.
    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c16) step (%c1, %c1) { ... }
    // becomes
    %total = arith.muli %n, %c16 : index
    scf.if %nonempty {
      gpu.launch blocks(%bx, %by, %bz) in (%grid, %c1, %c1)
                 threads(%tx, %ty, %tz) in (%c256, %c1, %c1) {
        // %k = %bx * 256 + %tx; if %k < %total: %i = %k / 16, %j = %k mod 16; the body
      }
    }
    ```
    Errors, each naming what the host would have to do: a value computed in device memory
    that host code needs (a data-dependent extent or condition), control flow around kernel
    calls (ONNX If and Loop), and a constant that is not in the device's weights.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "threads per block of a grid">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def GpuMergeModules : Pass<"tcc-gpu-merge-modules", "mlir::ModuleOp"> {
  let summary = "Gather the outlined kernels into one gpu.module, @tcc_kernels";
  let description = [{
    Runs after `gpu-kernel-outlining`, which makes one `gpu.module` per kernel: a model's
    kernels are one device image per architecture, so every `gpu.func` (and the globals it
    reads) moves into @tcc_kernels, and each `gpu.launch_func` names it there.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def GpuLowerLaunches : Pass<"tcc-gpu-lower-launches", "mlir::ModuleOp"> {
  let summary = "Launch kernels through the import table; device images as LLVM globals";
  let description = [{
    Runs after `gpu-to-llvm`, when each `gpu.launch_func` has LLVM-typed operands (a memref
    as its descriptor's fields, as the device side's `convert-gpu-to-nvvm` takes them) and
    the functions that launch take the import table as their first argument
    (tcc-gpu-form-grids). Each launch becomes a call of
    imports->device_launch(context, kernel, grid_x, block_x, 0, args): `kernel` is the
    kernel's index in the module's `kernel.device_kernels`, `args` an array of pointers to
    stack slots (in the entry block) holding the operands. Each object of the `gpu.binary`
    becomes a private LLVM global (PTX with its terminating NUL) listed in
    `kernel.device_images` with its architecture and format. With `terminate-arguments`
    the array has one more entry, NULL, after the last operand: SPIR-V kernels take their
    parameters as push constants, which the runtime copies slot by slot up to it.
    ```mlir
    gpu.launch_func @tcc_kernels::@k blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1)
        : i64 args(%p : !llvm.ptr, %n : i64)
    // becomes
    %f = llvm.load %launch_field : !llvm.ptr -> !llvm.ptr   // imports->device_launch
    %status = llvm.call %f(%context, %c0_i32, %g, %c256_i32, %c0_i32, %argv) : ...
    ```
  }];
  let options = [
    Option<"terminateArguments", "terminate-arguments", "bool", /*default=*/"false",
           "End each launch's argument array with a NULL entry">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TCC_TARGET_GPU_PASSES
