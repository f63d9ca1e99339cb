//===- Passes.td - host code: the model ABI's entry, checks, the workspace plan -------===//
//
// What the host function of model.so needs around the kernels, for every target: the ABI's
// signature (symbol values, raw buffers), the batch-split proof the runtime may use, one
// planned workspace, run-time checks as status returns, while-loop exits, and calls through
// the runtime's import table.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_HOST_PASSES
#define TCC_HOST_PASSES

include "mlir/Pass/PassBase.td"

def EntrySignature : Pass<"tcc-entry-signature", "mlir::ModuleOp"> {
  let summary = "Give @main the model ABI's signature: symbol values, raw input and output buffers";
  let description = [{
    Runs on tensors, before kernels are outlined. @main gets one `index` argument per
    `prim.symbol` (marked `kernel.symbol`), in front; each input becomes a raw byte buffer
    (`memref<?xi8>`) read through a `memref.view` whose dynamic extents are the input's
    `prim.bind_shape` expressions of the symbols; each result becomes a raw output buffer
    that the result is materialized into (`restrict writable`, so that empty-tensor
    elimination lets the producer write there directly). Every `tensor.dim` is resolved to
    index arithmetic over the symbols where the ops' shape reification allows. Output
    extents are cloned into `func @output_shapes(symbols...) -> (extents...)`; output dims
    that are a lone symbol are listed in the module attribute `kernel.output_symbols`. An
    extent known only after the computation (NonZero, Compress, Unique and other
    compactions) publishes its upper bound as the capacity there, and the output's view is
    made at the return with the actual extent, which the run reports through
    `imports->set_output_extent` (model_abi.h); an extent with no known upper bound is an
    error naming the output and dim.

    ```mlir
    func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32>    // bound to [@n]
    // becomes
    func.func @main(%n: index {kernel.symbol = "n"}, %x: memref<?xi8>, %y: memref<?xi8>)
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::tensor::TensorDialect", "::mlir::func::FuncDialect",
                           "::tcc::kernel::KernelDialect"];
}

def MarkBatchSplit : Pass<"tcc-mark-batch-split", "mlir::ModuleOp"> {
  let summary = "Prove that @main computes each image of its batch alone, for the runtime";
  let description = [{
    Runs on linalg on tensors, before tcc-entry-signature. When every input and output of
    @main leads with one symbol (alone, in no other dim; it admits 1) and every op keeps the
    images apart (linalg ops whose batched operands share one parallel loop that nothing else
    reads; pads, reshapes, slices, concatenations that leave the batch dim whole), and the
    weights are used at least `min-weight-reuse` times per image (contraction multiply-adds
    per image / weight elements), the module gets `kernel.batch_split = @symbol`. The packager
    publishes it as the descriptor's `batch_symbol`: the runtime may then run the model on one
    image at a time (model_abi.h). Anything not understood leaves the module unmarked.

    ```mlir
    func.func @main(%x: tensor<?x3x8x8xf32>) -> tensor<?x4x8x8xf32>  // %x bound to [@n]
    // a convolution, a bias, a ReLU: module attributes {kernel.batch_split = @n}
    ```
  }];
  let options = [
    Option<"minWeightReuse", "min-weight-reuse", "int64_t", /*default=*/"32",
           "Mark only models whose contractions use each weight element at least this many "
           "times per image on average">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark saying why a module is not marked">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::tcc::kernel::KernelDialect"];
}

def PlanBuffers : Pass<"tcc-plan-buffers", "mlir::ModuleOp"> {
  let summary = "Place every intermediate buffer of @main in one workspace by liveness";
  let description = [{
    After bufferization, each `memref.alloc` of the host function `@main` becomes a
    `memref.view` into one workspace argument (`memref<?xi8>`, appended to @main), at an
    offset chosen from the buffers' live ranges: buffers whose ranges do not overlap share
    bytes. A range runs from the first op that touches the buffer (directly or through a
    view) to the last, not from the alloc, which CSE of equal empties may have put far
    earlier (ResNet-50 b1: 11.6 -> 8.5 MiB, SqueezeNet 6.5 -> 4.9). Offsets are 64-byte aligned. With static shapes each buffer takes the lowest free
    offset and the size is recorded as `kernel.workspace_size` on @main; with dynamic shapes
    sizes are arithmetic over the symbol arguments (`kernel.symbol`), and each buffer goes above
    every earlier-placed buffer it overlaps in time (largest estimated first), offsets
    computed once at entry. `func @workspace_size(symbols...) -> index` gives the total.
    Nothing is allocated while the model runs.

    ```mlir
    %a = memref.alloc() : memref<4x4xf32>
    // becomes, with %ws the new last argument of @main
    %a = memref.view %ws[%c0][] : memref<128xi8> to memref<4x4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect",
                           "::tcc::kernel::KernelDialect"];
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

def FormLaunches : Pass<"tcc-form-launches", "mlir::ModuleOp"> {
  let summary = "Host code runs each kernel by kernel.launch, not by a plain call";
  let description = [{
    The last step of the target-neutral pipeline (the IR `--emit=kernel` prints). Kernels are
    outlined as functions called from host code because bufferization follows calls across
    function boundaries; once buffers are planned, every `func.call` of a kernel function
    (`kernel.kernel`) becomes `kernel.launch` of the whole kernel, with no range. Targets
    then split launches their way (tcc-range-kernels on the CPU, grids on GPUs). A kernel
    used other than by a call is an error.

    ```mlir
    func.call @kernel_0_mm(%a, %b, %c) : (memref<?x64xf32>, memref<64x32xf32>, memref<?x32xf32>) -> ()
    // becomes
    kernel.launch @kernel_0_mm(%a, %b, %c) : memref<?x64xf32>, memref<64x32xf32>, memref<?x32xf32>
    ```
  }];
  let dependentDialects = ["::tcc::kernel::KernelDialect"];
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
    `kernel.string_table_size`, the import-table size the called functions need (bytes), so
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
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::tcc::kernel::KernelDialect"];
}

#endif // TCC_HOST_PASSES
