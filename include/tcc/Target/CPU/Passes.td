//===- Passes.td - passes of the CPU target ----------------------------------------------===//
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

#endif // TCC_TARGET_CPU_PASSES
