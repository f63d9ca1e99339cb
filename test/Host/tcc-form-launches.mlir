// RUN: tcc-opt %s --split-input-file --verify-diagnostics --tcc-form-launches | FileCheck %s
// Every call of a kernel function becomes a launch of the whole kernel; calls of other
// functions stay calls.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: memref<8x4xf32>, %[[Y:.*]]: memref<8x4xf32>)
// CHECK: kernel.launch @kernel_0_relu(%[[X]], %[[Y]]) : memref<8x4xf32>, memref<8x4xf32>
// CHECK-NOT: range
// CHECK: scf.for
// CHECK:   kernel.launch @kernel_1_add(%[[Y]]) : memref<8x4xf32>
// CHECK: call @helper(%[[Y]]) : (memref<8x4xf32>) -> ()
// CHECK-NOT: call @kernel
module {
  func.func private @kernel_0_relu(%a: memref<8x4xf32>, %b: memref<8x4xf32>)
      attributes {kernel.kernel = #kernel.kernel<kind = generic, nodes = ["relu"]>} {
    return
  }
  func.func private @kernel_1_add(%a: memref<8x4xf32>)
      attributes {kernel.kernel = #kernel.kernel<kind = generic, nodes = ["add"]>} {
    return
  }
  func.func private @helper(%a: memref<8x4xf32>) {
    return
  }
  func.func @main(%x: memref<8x4xf32>, %y: memref<8x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    call @kernel_0_relu(%x, %y) : (memref<8x4xf32>, memref<8x4xf32>) -> ()
    scf.for %i = %c0 to %c3 step %c1 {
      func.call @kernel_1_add(%y) : (memref<8x4xf32>) -> ()
    }
    call @helper(%y) : (memref<8x4xf32>) -> ()
    return
  }
}

// -----

// A kernel must be called, not referred to otherwise.
module {
  func.func private @kernel_0(%a: memref<4xf32>) attributes {kernel.kernel = #kernel.kernel<kind = fill>} {
    return
  }
  func.func @main(%x: memref<4xf32>) {
    // expected-error @+1 {{internal error: kernel @kernel_0 is used by 'func.constant', not called}}
    %f = func.constant @kernel_0 : (memref<4xf32>) -> ()
    return
  }
}
