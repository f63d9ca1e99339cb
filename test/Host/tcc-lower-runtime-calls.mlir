// RUN: tcc-opt %s --tcc-lower-runtime-calls | FileCheck %s
// prim.run_context becomes @main's import-table argument; each prim.runtime_call loads its
// function and the table's context and calls it with the element and the result in stack
// slots of the entry block (lib/Host/LowerRuntimeCalls.cpp).

// CHECK: module attributes {kernel.string_table_size = 80 : i64}
// CHECK: llvm.mlir.global private constant @tcc_string_set_0("\02\00\00\00\00\00\00\00ab") {addr_space = 0 : i32, alignment = 8 : i64}
// CHECK-LABEL: func.func @kernel_0
// CHECK-SAME: (%[[TBL:.*]]: i64, %[[N:.*]]: index, %[[BUF:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xi128>)
// The slots are allocas of the entry block, not of the loop body.
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[IN:.*]] = llvm.alloca %[[ONE]] x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[RES:.*]] = llvm.alloca %{{.*}} x i128 {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load %[[BUF]]
// CHECK: %[[T:.*]] = llvm.inttoptr %[[TBL]] : i64 to !llvm.ptr
// CHECK: %[[CP:.*]] = llvm.getelementptr %[[T]][0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32, ptr{{(, ptr)+}})>
// CHECK: %[[CTX:.*]] = llvm.load %[[CP]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[FP:.*]] = llvm.getelementptr %[[T]][0, 7]
// CHECK: %[[FN:.*]] = llvm.load %[[FP]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.store %[[X]], %[[IN]] : f32, !llvm.ptr
// CHECK: %[[DT:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call %[[FN]](%[[CTX]], %[[DT]], %[[IN]], %[[RES]]) : !llvm.ptr, (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: %[[S:.*]] = llvm.load %[[RES]] : !llvm.ptr -> i128
// CHECK: memref.store %[[S]], %[[OUT]]

// A find: the packed set as a global, an i32 result compared with 0.
// CHECK-LABEL: func.func @kernel_1
// CHECK: %[[FIND:.*]] = llvm.getelementptr %{{.*}}[0, 10]
// CHECK: %[[SET:.*]] = llvm.mlir.addressof @tcc_string_set_0 : !llvm.ptr
// CHECK: %[[COUNT:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[F:.*]] = llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %[[SET]], %[[COUNT]], %{{.*}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32) -> i32
// CHECK: %[[B:.*]] = llvm.icmp "ne" %[[F]], %{{.*}} : i32
// CHECK: memref.store %[[B]]

// @main: the context is the table's address.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[TABLE:.*]]: !llvm.ptr,
// CHECK: %[[A:.*]] = llvm.ptrtoint %[[TABLE]] : !llvm.ptr to i64
// CHECK: call @kernel_0(%[[A]],
module {
  func.func @kernel_0(%tbl: i64, %n: index, %buf: memref<?xf32>, %out: memref<?xi128>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %buf[%i] : memref<?xf32>
      %s = prim.runtime_call "string_format"(%tbl, %x) {dtype = 1 : i32} : f32 -> i128
      memref.store %s, %out[%i] : memref<?xi128>
    }
    return
  }
  func.func @kernel_1(%tbl: i64, %text: memref<4xi128>, %out: memref<4xi1>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %t = memref.load %text[%i] : memref<4xi128>
      %f = prim.runtime_call "string_find"(%tbl, %t) {count = 1 : i64, flag = 1 : i32, set = "\02\00\00\00\00\00\00\00ab"} : i128 -> i1
      memref.store %f, %out[%i] : memref<4xi1>
    }
    return
  }
  func.func @main(%imports: !llvm.ptr, %n: index, %buf: memref<?xf32>, %out: memref<?xi128>) {
    %t = prim.run_context
    call @kernel_0(%t, %n, %buf, %out) : (i64, index, memref<?xf32>, memref<?xi128>) -> ()
    return
  }
}

