// RUN: tcc-opt %s --tcc-range-kernels=min-parallel-work=0 | FileCheck %s
// A pad's copy kernel: one loop copying into the interior of the padded buffer, and loops
// storing the padding value into its border. The copy is split by threads; the border fills
// run in the range that starts at 0, which the launch always has (its extent at least 1),
// and the copy stops at its own extent.
// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%{{.*}}: memref<4x8x8xf32>, %{{.*}}: memref<4x10x10xf32>, %[[BEGIN:.*]]: index, %[[END:.*]]: index)
// CHECK: %[[UPPER:.*]] = arith.minui %[[END]], %{{.*}} : index
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%[[BEGIN]], %{{.*}}, %{{.*}}) to (%[[UPPER]], %{{.*}}, %{{.*}})
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[BEGIN]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: scf.parallel
// CHECK: %[[FIRST2:.*]] = arith.cmpi eq, %[[BEGIN]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[FIRST2]] {
// CHECK-NEXT: scf.parallel
// A fill that meets the copy's part of the buffer (rows 0 and 1 against rows 1 to 8): the
// order of the two matters, so the kernel stays whole.
// CHECK-LABEL: func.func private @kernel_1
// CHECK-SAME: (%{{.*}}: memref<4x8x8xf32>, %{{.*}}: memref<4x10x10xf32>) attributes
// CHECK-NOT: scf.if
// The loop reads the buffer the fill writes (not through a disjoint view): whole.
// CHECK-LABEL: func.func private @kernel_2
// CHECK-SAME: (%{{.*}}: memref<4x10x10xf32>, %{{.*}}: memref<4x10x10xf32>) attributes
// CHECK-NOT: scf.if
// CHECK-LABEL: func.func @main
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[EXTENT:.*]] = arith.maxui %[[FOUR]], %[[ONE]] : index
// CHECK: kernel.launch @kernel_0(%{{.*}}, %{{.*}}) range(%[[EXTENT]])
// CHECK: call @kernel_1(
// CHECK: call @kernel_2(
func.func private @kernel_0(%src: memref<4x8x8xf32>, %dst: memref<4x10x10xf32>) attributes {kernel.kernel = #kernel.kernel<kind = fill>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f32
  %interior = memref.subview %dst[0, 1, 1] [4, 8, 8] [1, 1, 1] : memref<4x10x10xf32> to memref<4x8x8xf32, strided<[100, 10, 1], offset: 11>>
  scf.parallel (%n, %y, %x) = (%c0, %c0, %c0) to (%c4, %c8, %c8) step (%c1, %c1, %c1) {
    %v = memref.load %src[%n, %y, %x] : memref<4x8x8xf32>
    memref.store %v, %interior[%n, %y, %x] : memref<4x8x8xf32, strided<[100, 10, 1], offset: 11>>
    scf.reduce
  }
  %top = memref.subview %dst[0, 0, 0] [4, 1, 10] [1, 1, 1] : memref<4x10x10xf32> to memref<4x1x10xf32, strided<[100, 10, 1]>>
  scf.parallel (%n, %y, %x) = (%c0, %c0, %c0) to (%c4, %c1, %c10) step (%c1, %c1, %c1) {
    memref.store %zero, %top[%n, %y, %x] : memref<4x1x10xf32, strided<[100, 10, 1]>>
    scf.reduce
  }
  %bottom = memref.subview %dst[0, 9, 0] [4, 1, 10] [1, 1, 1] : memref<4x10x10xf32> to memref<4x1x10xf32, strided<[100, 10, 1], offset: 90>>
  scf.parallel (%n, %y, %x) = (%c0, %c0, %c0) to (%c4, %c1, %c10) step (%c1, %c1, %c1) {
    memref.store %zero, %bottom[%n, %y, %x] : memref<4x1x10xf32, strided<[100, 10, 1], offset: 90>>
    scf.reduce
  }
  return
}
func.func private @kernel_1(%src: memref<4x8x8xf32>, %dst: memref<4x10x10xf32>) attributes {kernel.kernel = #kernel.kernel<kind = fill>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f32
  %interior = memref.subview %dst[0, 1, 1] [4, 8, 8] [1, 1, 1] : memref<4x10x10xf32> to memref<4x8x8xf32, strided<[100, 10, 1], offset: 11>>
  scf.parallel (%n, %y, %x) = (%c0, %c0, %c0) to (%c4, %c8, %c8) step (%c1, %c1, %c1) {
    %v = memref.load %src[%n, %y, %x] : memref<4x8x8xf32>
    memref.store %v, %interior[%n, %y, %x] : memref<4x8x8xf32, strided<[100, 10, 1], offset: 11>>
    scf.reduce
  }
  %top = memref.subview %dst[0, 0, 0] [4, 2, 10] [1, 1, 1] : memref<4x10x10xf32> to memref<4x2x10xf32, strided<[100, 10, 1]>>
  scf.parallel (%n, %y, %x) = (%c0, %c0, %c0) to (%c4, %c2, %c10) step (%c1, %c1, %c1) {
    memref.store %zero, %top[%n, %y, %x] : memref<4x2x10xf32, strided<[100, 10, 1]>>
    scf.reduce
  }
  return
}
func.func private @kernel_2(%src: memref<4x10x10xf32>, %dst: memref<4x10x10xf32>) attributes {kernel.kernel = #kernel.kernel<kind = fill>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f32
  %interior = memref.subview %dst[0, 1, 1] [4, 8, 8] [1, 1, 1] : memref<4x10x10xf32> to memref<4x8x8xf32, strided<[100, 10, 1], offset: 11>>
  scf.parallel (%n, %y, %x) = (%c0, %c0, %c0) to (%c4, %c8, %c8) step (%c1, %c1, %c1) {
    %v = memref.load %dst[%n, %y, %x] : memref<4x10x10xf32>
    memref.store %v, %interior[%n, %y, %x] : memref<4x8x8xf32, strided<[100, 10, 1], offset: 11>>
    scf.reduce
  }
  %top = memref.subview %dst[0, 0, 0] [4, 1, 10] [1, 1, 1] : memref<4x10x10xf32> to memref<4x1x10xf32, strided<[100, 10, 1]>>
  scf.parallel (%n, %y, %x) = (%c0, %c0, %c0) to (%c4, %c1, %c10) step (%c1, %c1, %c1) {
    memref.store %zero, %top[%n, %y, %x] : memref<4x1x10xf32, strided<[100, 10, 1]>>
    scf.reduce
  }
  return
}
func.func @main(%src: memref<4x8x8xf32>, %dst: memref<4x10x10xf32>, %dst2: memref<4x10x10xf32>) {
  kernel.launch @kernel_0(%src, %dst) : memref<4x8x8xf32>, memref<4x10x10xf32>
  kernel.launch @kernel_1(%src, %dst) : memref<4x8x8xf32>, memref<4x10x10xf32>
  kernel.launch @kernel_2(%dst2, %dst) : memref<4x10x10xf32>, memref<4x10x10xf32>
  return
}
