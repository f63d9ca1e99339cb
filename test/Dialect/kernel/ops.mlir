// RUN: tcc-opt %s | tcc-opt | FileCheck %s
// The kernel dialect's attributes and launch print and parse back.

// CHECK: module attributes {kernel.check_messages = ["dims agree", "index in range"]}
// CHECK-LABEL: func.func private @kernel_0_relu
// CHECK-SAME: attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true, nodes = ["relu", "mm"]>}
// CHECK-LABEL: func.func private @kernel_1_fill
// CHECK-SAME: attributes {kernel.kernel = #kernel.kernel<kind = fill>}
// CHECK-LABEL: func.func @main
// CHECK: kernel.launch @kernel_0_relu(%arg0, %arg1) range(%c4) : memref<4x8xf32>, memref<4x8xf32>
module attributes {kernel.check_messages = ["dims agree", "index in range"]} {
  func.func private @kernel_0_relu(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %begin: index, %end: index)
      attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true, nodes = ["relu", "mm"]>} {
    return
  }
  func.func private @kernel_1_fill(%a: memref<4xf32>) attributes {kernel.kernel = #kernel.kernel<kind = fill>} {
    return
  }
  func.func @main(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
    %c4 = arith.constant 4 : index
    kernel.launch @kernel_0_relu(%a, %b) range(%c4) : memref<4x8xf32>, memref<4x8xf32>
    return
  }
}
