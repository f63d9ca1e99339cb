// RUN: not tcc-opt %s --tcc-lower-checks 2>&1 | FileCheck %s
// A run-time check inside a loop that runs at run time cannot return the error status from
// there: the diagnostic names the check (whose message names the ONNX node).

// CHECK: error: the run-time check 'node 'get' (OptionalGetElement): the optional input is empty' is inside a loop that runs at run time (a Loop or Scan kept as a loop, an RNN over a run-time length), where tcc cannot check yet
func.func @main(%ok: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    prim.check %ok, "node 'get' (OptionalGetElement): the optional input is empty"
  }
  return
}
