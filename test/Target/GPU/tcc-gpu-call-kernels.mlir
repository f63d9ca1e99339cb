// RUN: tcc-opt %s --split-input-file --verify-diagnostics --tcc-gpu-call-kernels | FileCheck %s
// On a GPU a kernel function is host code that launches its grids: each launch of the whole
// kernel becomes a call of it.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: memref<8x4xf32>, %[[Y:.*]]: memref<8x4xf32>)
// CHECK-NEXT: call @kernel_0_relu(%[[X]], %[[Y]]) : (memref<8x4xf32>, memref<8x4xf32>) -> ()
// CHECK-NEXT: return
module {
  func.func private @kernel_0_relu(%a: memref<8x4xf32>, %b: memref<8x4xf32>)
      attributes {kernel.kernel = #kernel.kernel<kind = generic, nodes = ["relu"]>} {
    return
  }
  func.func @main(%x: memref<8x4xf32>, %y: memref<8x4xf32>) {
    kernel.launch @kernel_0_relu(%x, %y) : memref<8x4xf32>, memref<8x4xf32>
    return
  }
}

// -----

// A launch over a range is the CPU's split into chunks, not something a GPU target runs.
module {
  func.func private @kernel_0(%a: memref<4xf32>, %begin: index, %end: index)
      attributes {kernel.kernel = #kernel.kernel<kind = fill>} {
    return
  }
  func.func @main(%x: memref<4xf32>) {
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{internal error: a GPU target launches whole kernels, but @kernel_0 is launched over a range}}
    kernel.launch @kernel_0(%x) range(%c4) : memref<4xf32>
    return
  }
}
