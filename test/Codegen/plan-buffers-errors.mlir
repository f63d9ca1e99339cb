// RUN: tcc-opt %s --allow-unregistered-dialect --tcc-plan-buffers --verify-diagnostics
// A buffer whose size is not arithmetic over the symbol arguments (here: an extent read from
// memory) cannot be planned before the run: a clear error, not a crash.
func.func @main(%n: index {tcc.symbol = "n"}, %sizes: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %m = memref.load %sizes[%c0] : memref<1xindex>
  // expected-error @+1 {{the size of this buffer depends on data and has no upper bound in the input shapes}}
  %a = memref.alloc(%m) : memref<?xf32>
  "test.use"(%a) : (memref<?xf32>) -> ()
  return
}
