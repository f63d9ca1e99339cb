// RUN: tcc-opt %s --tcc-loop-exits --verify-diagnostics
// The condition must be read from a buffer the loop does not define (bufferization put the
// carried condition there); anything else is an internal error.

func.func @computed_in_body(%ub: index, %x: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %ub step %c1 {
    %v = memref.load %x[] : memref<f32>
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf olt, %v, %zero : f32
    // expected-error @+1 {{internal error: a loop's exit condition is not read from a buffer at the start of a bufferized scf.for}}
    prim.exit_unless %c
  }
  return
}
