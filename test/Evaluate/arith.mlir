// RUN: tcc-opt %s --tcc-test-evaluate | FileCheck %s
// The upstream ops of decomposed IR: arith on scalars and tensors, tensor.*, and constants
// (dense, splat, dense_resource, scalar attributes). Expected values by hand.

// 7 and -2 as index: signed ops read -2, unsigned ops read 2^64 - 2.
// CHECK: @index_arith result 0: index = 5
// CHECK: @index_arith result 1: index = 9
// CHECK: @index_arith result 2: index = -14
// CHECK: @index_arith result 3: index = -3
// CHECK: @index_arith result 4: index = 1
// CHECK: @index_arith result 5: index = -4
// CHECK: @index_arith result 6: index = -3
// CHECK: @index_arith result 7: index = 4
// CHECK: @index_arith result 8: index = 0
// CHECK: @index_arith result 9: index = 7
// CHECK: @index_arith result 10: index = 7
// CHECK: @index_arith result 11: index = -2
// CHECK: @index_arith result 12: index = -2
// CHECK: @index_arith result 13: index = 7
// CHECK: @index_arith result 14: i1 = false
// CHECK: @index_arith result 15: i1 = true
// CHECK: @index_arith result 16: index = 7
func.func @index_arith() -> (index, index, index, index, index, index, index, index, index,
                             index, index, index, index, index, i1, i1, index) {
  %a = arith.constant 7 : index
  %b = arith.constant -2 : index
  %two = arith.constant 2 : index
  %0 = arith.addi %a, %b : index
  %1 = arith.subi %a, %b : index
  %2 = arith.muli %a, %b : index
  %3 = arith.divsi %a, %b : index
  %4 = arith.remsi %a, %b : index
  %5 = arith.floordivsi %a, %b : index
  %6 = arith.ceildivsi %a, %b : index
  %7 = arith.ceildivsi %a, %two : index
  %8 = arith.divui %a, %b : index
  %9 = arith.remui %a, %b : index
  %10 = arith.maxsi %a, %b : index
  %11 = arith.minsi %a, %b : index
  %12 = arith.maxui %a, %b : index
  %13 = arith.minui %a, %b : index
  %14 = arith.cmpi slt, %a, %b : index
  %15 = arith.cmpi ult, %a, %b : index
  %16 = arith.select %15, %a, %b : index
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16
      : index, index, index, index, index, index, index, index, index, index, index, index,
        index, index, i1, i1, index
}

// CHECK: @int_casts result 0: tensor<3xi32> = [8, 14, 6]
// CHECK: @int_casts result 1: i32 = -1
// CHECK: @int_casts result 2: i32 = 255
// CHECK: @int_casts result 3: i8 = 44
// CHECK: @int_casts result 4: index = -5
// CHECK: @int_casts result 5: index = 4294967291
// CHECK: @int_casts result 6: i8 = 44
// CHECK: @int_casts result 7: i32 = -1
// CHECK: @int_casts result 8: i32 = 1
func.func @int_casts() -> (tensor<3xi32>, i32, i32, i8, index, index, i8, i32, i32) {
  %a = arith.constant dense<[12, 12, 12]> : tensor<3xi32>
  %b = arith.constant dense<[10, 10, 10]> : tensor<3xi32>
  %and = arith.andi %a, %b : tensor<3xi32>
  %or = arith.ori %a, %b : tensor<3xi32>
  %xor = arith.xori %a, %b : tensor<3xi32>
  %sel = arith.constant dense<[true, false, false]> : tensor<3xi1>
  %t = arith.select %sel, %and, %or : tensor<3xi1>, tensor<3xi32>
  %u = arith.constant dense<[false, true, false]> : tensor<3xi1>
  %0 = arith.select %u, %or, %t : tensor<3xi1>, tensor<3xi32>
  %m = arith.constant dense<[false, false, true]> : tensor<3xi1>
  %r = arith.select %m, %xor, %0 : tensor<3xi1>, tensor<3xi32>
  %m1 = arith.constant -1 : i8
  %1 = arith.extsi %m1 : i8 to i32
  %2 = arith.extui %m1 : i8 to i32
  %big = arith.constant 300 : i32
  %3 = arith.trunci %big : i32 to i8
  %m5 = arith.constant -5 : i32
  %4 = arith.index_cast %m5 : i32 to index
  %5 = arith.index_castui %m5 : i32 to index
  %i300 = arith.constant 300 : index
  %6 = arith.index_cast %i300 : index to i8
  %true = arith.constant true
  %7 = arith.extsi %true : i1 to i32
  %8 = arith.extui %true : i1 to i32
  return %r, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<3xi32>, i32, i32, i8, index, index, i8,
      i32, i32
}

// CHECK: @float_arith result 0: tensor<5xf32> = [1.25, 1.75, -0.375, -6.0, -1.5]
// Ordered predicates are false on NaN, unordered ones true.
// CHECK: @float_arith result 1: tensor<7xi1> = [false, true, true, false, true, false, true]
// maxnumf/minnumf drop a NaN; maximumf propagates it.
// CHECK: @float_arith result 2: tensor<4xf32> = [1.0, 1.0, nan, -0.0]
func.func @float_arith() -> (tensor<5xf32>, tensor<7xi1>, tensor<4xf32>) {
  %a = arith.constant 1.5 : f32
  %b = arith.constant -0.25 : f32
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %a, %b : f32
  %2 = arith.mulf %a, %b : f32
  %3 = arith.divf %a, %b : f32
  %4 = arith.negf %a : f32
  %r0 = tensor.from_elements %0, %1, %2, %3, %4 : tensor<5xf32>
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %c0 = arith.cmpf oeq, %nan, %nan : f32
  %c1 = arith.cmpf une, %nan, %nan : f32
  %c2 = arith.cmpf uno, %nan, %one : f32
  %c3 = arith.cmpf ord, %nan, %one : f32
  %c4 = arith.cmpf ult, %one, %nan : f32
  %c5 = arith.cmpf olt, %one, %nan : f32
  %c6 = arith.cmpf ogt, %two, %one : f32
  %r1 = tensor.from_elements %c0, %c1, %c2, %c3, %c4, %c5, %c6 : tensor<7xi1>
  %m0 = arith.maxnumf %nan, %one : f32
  %m1 = arith.minnumf %nan, %one : f32
  %m2 = arith.maximumf %nan, %one : f32
  %nz = arith.constant -0.0 : f32
  %z = arith.constant 0.0 : f32
  %m3 = arith.minimumf %z, %nz : f32
  %r2 = tensor.from_elements %m0, %m1, %m2, %m3 : tensor<4xf32>
  return %r0, %r1, %r2 : tensor<5xf32>, tensor<7xi1>, tensor<4xf32>
}

// f16(0.1) = 0.0999755859375 exactly, printed as the shortest f32 that reads back.
// CHECK: @float_casts result 0: f32 = -3.0
// CHECK: @float_casts result 1: f32 = 255.0
// CHECK: @float_casts result 2: i32 = -3
// CHECK: @float_casts result 3: i32 = 3
// CHECK: @float_casts result 4: f32 = 0.099975586
// CHECK: @float_casts result 5: f16 = 0.1
// CHECK: @float_casts result 6: tensor<2xf64> = [0.5, -2.0]
func.func @float_casts() -> (f32, f32, i32, i32, f32, f16, tensor<2xf64>) {
  %m3 = arith.constant -3 : i32
  %0 = arith.sitofp %m3 : i32 to f32
  %m1 = arith.constant -1 : i8
  %1 = arith.uitofp %m1 : i8 to f32
  %f = arith.constant -3.9 : f32
  %2 = arith.fptosi %f : f32 to i32
  %g = arith.constant 3.9 : f32
  %3 = arith.fptoui %g : f32 to i32
  %h = arith.constant 0.1 : f16
  %4 = arith.extf %h : f16 to f32
  %t = arith.constant 0.1 : f32
  %5 = arith.truncf %t : f32 to f16
  %v = arith.constant dense<[0.5, -2.0]> : tensor<2xf32>
  %6 = arith.extf %v : tensor<2xf32> to tensor<2xf64>
  return %0, %1, %2, %3, %4, %5, %6 : f32, f32, i32, i32, f32, f16, tensor<2xf64>
}

// CHECK: @tensor_ops result 0: tensor<3xindex> = [2, 3, 5]
// CHECK: @tensor_ops result 1: i32 = 3
// CHECK: @tensor_ops result 2: index = 3
// CHECK: @tensor_ops result 3: tensor<2x3xi32> = {{\[\[}}1, 2, 0], [3, 4, 0]]
// CHECK: @tensor_ops result 4: tensor<2x2xf32> = {{\[\[}}0.0, 0.0], [0.0, 0.0]]
func.func @tensor_ops() -> (tensor<3xindex>, i32, index, tensor<?x3xi32>, tensor<?x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %0 = tensor.from_elements %c2, %c3, %c5 : tensor<3xindex>
  %x = arith.constant dense<[[1, 2, 0], [3, 4, 0]]> : tensor<2x3xi32>
  %1 = tensor.extract %x[%c1, %c0] : tensor<2x3xi32>
  %2 = tensor.dim %x, %c1 : tensor<2x3xi32>
  %3 = tensor.cast %x : tensor<2x3xi32> to tensor<?x3xi32>
  %4 = tensor.empty(%c2) : tensor<?x2xf32>
  return %0, %1, %2, %3, %4 : tensor<3xindex>, i32, index, tensor<?x3xi32>, tensor<?x2xf32>
}

// dense_resource blobs start with a 4-byte alignment, then the little-endian elements.
// CHECK: @constants result 0: tensor<2x2xf32> = {{\[\[}}2.5, 2.5], [2.5, 2.5]]
// CHECK: @constants result 1: tensor<3xi1> = [true, true, true]
// CHECK: @constants result 2: tensor<3xi1> = [true, false, true]
// CHECK: @constants result 3: tensor<4xi32> = [1, 2, 3, -1]
// CHECK: @constants result 4: tensor<2xf32> = [1.0, -2.0]
// CHECK: @constants result 5: f16 = 1.5
// CHECK: @constants result 6: i1 = true
// CHECK: @constants result 7: index = -3
// CHECK: @constants result 8: tensor<2xbf16> = [1.0, -0.5]
func.func @constants() -> (tensor<2x2xf32>, tensor<3xi1>, tensor<3xi1>, tensor<4xi32>,
                           tensor<2xf32>, f16, i1, index, tensor<2xbf16>) {
  %0 = arith.constant dense<2.5> : tensor<2x2xf32>
  %1 = arith.constant dense<true> : tensor<3xi1>
  %2 = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %3 = arith.constant dense_resource<ints> : tensor<4xi32>
  %4 = arith.constant dense_resource<floats> : tensor<2xf32>
  %5 = arith.constant 1.5 : f16
  %6 = arith.constant true
  %7 = arith.constant -3 : index
  %8 = arith.constant dense<[1.0, -0.5]> : tensor<2xbf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x2xf32>, tensor<3xi1>, tensor<3xi1>,
      tensor<4xi32>, tensor<2xf32>, f16, i1, index, tensor<2xbf16>
}

{-#
  dialect_resources: {
    builtin: {
      ints: "0x04000000010000000200000003000000FFFFFFFF",
      floats: "0x040000000000803F000000C0"
    }
  }
#-}
