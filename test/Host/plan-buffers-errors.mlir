// RUN: tcc-opt %s --allow-unregistered-dialect --tcc-plan-buffers --verify-diagnostics --split-input-file
// A buffer whose size is not arithmetic over the symbol arguments (here: an extent read from
// memory) cannot be planned before the run: a clear error, not a crash.
func.func @main(%n: index {kernel.symbol = "n"}, %sizes: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %m = memref.load %sizes[%c0] : memref<1xindex>
  // expected-error @+1 {{the size of this buffer depends on data and has no upper bound in the input shapes}}
  %a = memref.alloc(%m) : memref<?xf32>
  "test.use"(%a) : (memref<?xf32>) -> ()
  return
}

// -----

// Kernels never allocate: a fused kernel that needs a buffer of its own would materialize an
// intermediate outside the workspace plan.
func.func private @kernel_0_scaled(%out: memref<4xf32>, %in: memref<4xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  // expected-error @+1 {{internal error: kernel @kernel_0_scaled allocates a buffer of its own}}
  %tmp = memref.alloc() : memref<4xf32>
  memref.copy %in, %tmp : memref<4xf32> to memref<4xf32>
  memref.copy %tmp, %out : memref<4xf32> to memref<4xf32>
  return
}
func.func @main(%n: index {kernel.symbol = "n"}) {
  return
}
