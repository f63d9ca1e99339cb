// RUN: tcc-opt %s --tcc-cpu-single-lane-stores | FileCheck %s

// A tile of a [n, 20, 1] byte output stores each row as a vector whose mask keeps the first
// lane alone: it becomes a scalar store of that lane (LLVM 22 would store 4 bytes there).
// Masks of more lanes, or not known while compiling, stay masked stores.
// CHECK-LABEL: func.func @stores
// CHECK: %[[E:.*]] = vector.extract %arg1[0] : i8 from vector<8xi8>
// CHECK-NEXT: memref.store %[[E]], %arg0[%arg3, %arg4] : memref<?x20xi8>
// CHECK-NEXT: %[[E2:.*]] = vector.extract %arg1[0] : i8 from vector<8xi8>
// CHECK-NEXT: memref.store %[[E2]], %arg0[%arg3, %arg4] : memref<?x20xi8>
// CHECK: vector.maskedstore %arg0[%arg3, %arg4], %{{.*}}, %arg1 : memref<?x20xi8>, vector<8xi1>, vector<8xi8>
// CHECK: vector.maskedstore %arg0[%arg3, %arg4], %{{.*}}, %arg1 : memref<?x20xi8>, vector<8xi1>, vector<8xi8>
func.func @stores(%out: memref<?x20xi8>, %v: vector<8xi8>, %n: index, %i: index, %j: index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = vector.create_mask %c1 : vector<8xi1>
  vector.maskedstore %out[%i, %j], %one, %v : memref<?x20xi8>, vector<8xi1>, vector<8xi8>
  %first = vector.constant_mask [1] : vector<8xi1>
  vector.maskedstore %out[%i, %j], %first, %v : memref<?x20xi8>, vector<8xi1>, vector<8xi8>
  %three = vector.create_mask %c3 : vector<8xi1>
  vector.maskedstore %out[%i, %j], %three, %v : memref<?x20xi8>, vector<8xi1>, vector<8xi8>
  %some = vector.create_mask %n : vector<8xi1>
  vector.maskedstore %out[%i, %j], %some, %v : memref<?x20xi8>, vector<8xi1>, vector<8xi8>
  return
}
