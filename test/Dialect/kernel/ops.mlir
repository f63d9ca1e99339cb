// RUN: tcc-opt %s | tcc-opt | FileCheck %s
// The kernel dialect's attributes and launch print and parse back.

// CHECK: module attributes {kernel.batch_split = @n, kernel.check_messages = ["dims agree", "index in range"], kernel.output_symbols = [array<i32: 0, -1>], kernel.string_table_size = 80 : i64}
// CHECK-LABEL: func.func private @kernel_0_relu
// CHECK-SAME: attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true, nodes = ["relu", "mm"]>}
// CHECK-LABEL: func.func private @kernel_1_fill
// CHECK-SAME: attributes {kernel.kernel = #kernel.kernel<kind = fill>}
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: index {kernel.symbol = "n"}, %{{.*}}: memref<4x8xf32>, %{{.*}}: memref<4x8xf32>, %{{.*}}: memref<?xi8> {kernel.workspace}) attributes {kernel.workspace_size = 0 : i64}
// CHECK: kernel.launch @kernel_0_relu(%arg1, %arg2) range(%c4) : memref<4x8xf32>, memref<4x8xf32>
// A launch of the whole kernel has no range.
// CHECK: kernel.launch @kernel_1_fill(%{{.*}}) : memref<4xf32>
// CHECK-NEXT: return
module attributes {kernel.check_messages = ["dims agree", "index in range"], kernel.batch_split = @n,
                   kernel.output_symbols = [array<i32: 0, -1>], kernel.string_table_size = 80 : i64} {
  func.func private @kernel_0_relu(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %begin: index, %end: index)
      attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true, nodes = ["relu", "mm"]>} {
    return
  }
  func.func private @kernel_1_fill(%a: memref<4xf32>) attributes {kernel.kernel = #kernel.kernel<kind = fill>} {
    return
  }
  func.func @main(%n: index {kernel.symbol = "n"}, %a: memref<4x8xf32>, %b: memref<4x8xf32>,
                  %ws: memref<?xi8> {kernel.workspace}) attributes {kernel.workspace_size = 0 : i64} {
    %c4 = arith.constant 4 : index
    kernel.launch @kernel_0_relu(%a, %b) range(%c4) : memref<4x8xf32>, memref<4x8xf32>
    %v = memref.subview %a[0, 0] [1, 4] [1, 1] : memref<4x8xf32> to memref<4xf32, strided<[1]>>
    %c = memref.cast %v : memref<4xf32, strided<[1]>> to memref<4xf32>
    kernel.launch @kernel_1_fill(%c) : memref<4xf32>
    return
  }
}
