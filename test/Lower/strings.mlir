// RUN: tcc-opt %s --split-input-file --tcc-lower-prim-to-linalg --tcc-signless-types | FileCheck %s
// String primitives (lib/Lower/LowerStrings.cpp): a linalg.generic per op whose body is one
// prim.runtime_call per element, reading the run's import table as a 0-d tensor; strings are
// i128s after tcc-signless-types, and an empty string constant is a zero.

// Format reads the number's tcc_dtype (uint32 = 12, before signless types lose it); parse
// writes an f16 (10).
// CHECK-LABEL: func.func @format_parse
// CHECK-SAME: (%[[X:.*]]: tensor<?xi32>) -> tensor<?xf16>
// CHECK: %[[T:.*]] = prim.run_context
// CHECK: %[[TT:.*]] = tensor.from_elements %[[T]] : tensor<i64>
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[TT]] : tensor<?xi32>, tensor<i64>) outs(%{{.*}} : tensor<?xi128>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: i32, %[[TBL:.*]]: i64, %{{.*}}: i128):
// CHECK-NEXT: %[[R:.*]] = prim.runtime_call "string_format"(%[[TBL]], %[[V]]) {dtype = 12 : i32} : i32 -> i128
// CHECK-NEXT: linalg.yield %[[R]] : i128
// CHECK: linalg.generic {{.*}} ins(%[[S]], %{{.*}} : tensor<?xi128>, tensor<i64>) outs(%{{.*}} : tensor<?xf16>)
// CHECK: prim.runtime_call "string_parse"(%{{.*}}, %{{.*}}) {dtype = 10 : i32} : i128 -> f16
func.func @format_parse(%x: tensor<?xui32>) -> tensor<?xf16> {
  %s = prim.format %x : tensor<?xui32> to tensor<?x!prim.string>
  %y = prim.parse %s : tensor<?x!prim.string> to tensor<?xf16>
  return %y : tensor<?xf16>
}

// -----

// The stopwords are packed (int64 byte count, bytes) into the call's set; flag 0 (case
// sensitive) is the default and not printed.
// CHECK-LABEL: func.func @case_and_set
// CHECK-SAME: (%{{.*}}: tensor<3xi128>) -> (tensor<3xi128>, tensor<3xi1>)
// CHECK: prim.runtime_call "string_change_case"(%{{.*}}, %{{.*}}) {flag = 1 : i32} : i128 -> i128
// CHECK: prim.runtime_call "string_find"(%{{.*}}, %{{.*}}) {count = 2 : i64, set = "\02\00\00\00\00\00\00\00ab\00\00\00\00\00\00\00\00"} : i128 -> i1
func.func @case_and_set(%x: tensor<3x!prim.string>) -> (tensor<3x!prim.string>, tensor<3xi1>) {
  %u = prim.change_case %x upper = true : tensor<3x!prim.string>
  %f = prim.string_in %x set = ["ab", ""] ignore_case = false : tensor<3x!prim.string>
  return %u, %f : tensor<3x!prim.string>, tensor<3xi1>
}

// -----

// CHECK-LABEL: func.func @empty_constant
// CHECK: arith.constant dense<0> : tensor<2xi128>
func.func @empty_constant() -> tensor<2x!prim.string> {
  %c = arith.constant dense<""> : tensor<2x!prim.string>
  return %c : tensor<2x!prim.string>
}

// -----

// A constant with texts: the bytes in one private global, each element {blob + offset, size}
// built by a generic over constant offsets and sizes.
// CHECK: llvm.mlir.global private constant @tcc_string_constant("abcd")
// CHECK-LABEL: func.func @text_constant
// CHECK-DAG: %[[OFF:.*]] = arith.constant dense<[0, 1, 1]> : tensor<3xi64>
// CHECK-DAG: %[[SIZE:.*]] = arith.constant dense<[1, 0, 3]> : tensor<3xi64>
// CHECK: linalg.generic {{.*}} ins(%[[OFF]], %[[SIZE]] : tensor<3xi64>, tensor<3xi64>) outs(%{{.*}} : tensor<3xi128>)
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @tcc_string_constant : !llvm.ptr
// CHECK: %[[P:.*]] = llvm.ptrtoint %[[BASE]] : !llvm.ptr to i64
// CHECK: arith.addi %[[P]], %{{.*}} : i64
// CHECK: arith.shli %{{.*}}, %{{.*}} : i128
// CHECK: arith.ori %{{.*}}, %{{.*}} : i128
func.func @text_constant() -> tensor<3x!prim.string> {
  %c = arith.constant dense<["a", "", "bcd"]> : tensor<3x!prim.string>
  return %c : tensor<3x!prim.string>
}

