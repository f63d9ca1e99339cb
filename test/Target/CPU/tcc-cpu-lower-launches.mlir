// RUN: tcc-opt %s --convert-func-to-llvm --tcc-cpu-lower-launches --reconcile-unrealized-casts | FileCheck %s
// A launch becomes a call of @tcc_parallel_for with the kernel's trampoline and an array of
// 8-byte slots holding the operands' fields (a memref<?x8xf32> is 7: two pointers, the
// offset, two sizes, two strides; an i32 is widened); the trampoline loads them back and
// calls the kernel on its chunk. Two launches of one kernel share its trampoline.

// CHECK-LABEL: llvm.func @main
// CHECK-SAME: (%[[IMPORTS:[a-z0-9]+]]: !llvm.ptr,
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[ARGV2:.*]] = llvm.alloca %[[ONE]] x !llvm.array<8 x i64>
// CHECK: %[[ARGV1:.*]] = llvm.alloca %{{.*}} x !llvm.array<8 x i64>
// CHECK: llvm.extractvalue
// CHECK: %[[SEXT:.*]] = llvm.sext %{{.*}} : i32 to i64
// CHECK: %[[SLOT7:.*]] = llvm.getelementptr %[[ARGV1]][7] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: llvm.store %[[SEXT]], %[[SLOT7]] : i64, !llvm.ptr
// CHECK: %[[BODY:.*]] = llvm.mlir.addressof @kernel_0_range : !llvm.ptr
// CHECK: llvm.call @tcc_parallel_for(%[[IMPORTS]], %{{.*}}, %[[BODY]], %[[ARGV1]])
// CHECK: llvm.call @tcc_parallel_for(%[[IMPORTS]], %{{.*}}, %{{.*}}, %[[ARGV2]])
// A float operand does not fit a slot: the kernel runs once over the whole range.
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @kernel_1(%{{.*}}, %[[ZERO]], %{{.*}}) : (f32, i64, i64) -> ()
// CHECK-NOT: kernel.launch

// CHECK-LABEL: llvm.func internal @kernel_0_range(
// CHECK-SAME: %[[ARGV:.*]]: !llvm.ptr, %[[BEGIN:.*]]: i64, %[[END:.*]]: i64)
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[ARGV]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[P7:.*]] = llvm.getelementptr %[[ARGV]][7] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: %[[W:.*]] = llvm.load %[[P7]] : !llvm.ptr -> i64
// CHECK: %[[N:.*]] = llvm.trunc %[[W]] : i64 to i32
// CHECK: llvm.call @kernel_0({{.*}}, %[[N]], %[[BEGIN]], %[[END]])
// CHECK-NOT: llvm.func internal @kernel_0_range

// parallel_for through the import table (field 3, its context field 2), or the body inline
// without a table or without the function.
// CHECK-LABEL: llvm.func internal @tcc_parallel_for(
// CHECK-SAME: %[[T:.*]]: !llvm.ptr, %[[COUNT:.*]]: i64, %[[B:.*]]: !llvm.ptr, %[[ARG:.*]]: !llvm.ptr)
// CHECK: llvm.icmp "eq" %[[T]], %{{.*}} : !llvm.ptr
// CHECK: llvm.cond_br %{{.*}}, ^[[INLINE:.*]], ^[[TABLE:.*]]
// CHECK: ^{{.*}}:
// CHECK: %[[CONTEXT:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call %[[FN:.*]](%[[CONTEXT]], %[[COUNT]], %[[B]], %[[ARG]]) : !llvm.ptr, (!llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: ^[[INLINE]]:
// CHECK: llvm.call %[[B]](%[[ARG]], %{{.*}}, %[[COUNT]]) : !llvm.ptr, (!llvm.ptr, i64, i64) -> ()
// CHECK: ^[[TABLE]]:
// CHECK: llvm.getelementptr %[[T]][0, 3]
func.func private @kernel_0(%a: memref<?x8xf32>, %n: i32, %begin: index, %end: index)
    attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  return
}
func.func private @kernel_1(%x: f32, %begin: index, %end: index)
    attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  return
}
func.func @main(%imports: !llvm.ptr, %a: memref<?x8xf32>, %n: i32, %x: f32, %rows: index) {
  kernel.launch @kernel_0(%a, %n) range(%rows) : memref<?x8xf32>, i32
  kernel.launch @kernel_0(%a, %n) range(%rows) : memref<?x8xf32>, i32
  kernel.launch @kernel_1(%x) range(%rows) : f32
  return
}

// Profiles: every kernel @main runs (through parallel_for or called whole) is bracketed by
// @tcc_profile(imports, index, 0 = begin / 1 = end); indices in the order kernels first run,
// listed on the module.
// RUN: tcc-opt %s --convert-func-to-llvm --tcc-cpu-lower-launches --reconcile-unrealized-casts | FileCheck %s --check-prefix=PROFILE
// PROFILE: module attributes {kernel.profiled_kernels = ["kernel_0", "kernel_1"]}
// PROFILE-LABEL: llvm.func @main(
// PROFILE-SAME: %[[IMPORTS:[a-z0-9]+]]: !llvm.ptr,
// PROFILE: %[[K0:.*]] = llvm.mlir.constant(0 : i32) : i32
// PROFILE: %[[BEGIN:.*]] = llvm.mlir.constant(0 : i32) : i32
// PROFILE: llvm.call @tcc_profile(%[[IMPORTS]], %[[K0]], %[[BEGIN]])
// PROFILE-NEXT: llvm.call @tcc_parallel_for(
// PROFILE-NEXT: %[[END:.*]] = llvm.mlir.constant(1 : i32) : i32
// PROFILE-NEXT: llvm.call @tcc_profile(%[[IMPORTS]], %[[K0]], %[[END]])
// The second launch of kernel_0 has index 0 again.
// PROFILE: llvm.mlir.constant(0 : i32) : i32
// PROFILE: llvm.call @tcc_profile(%[[IMPORTS]],
// PROFILE-NEXT: llvm.call @tcc_parallel_for(
// PROFILE: llvm.call @tcc_profile(
// PROFILE: llvm.mlir.constant(0 : i64) : i64
// PROFILE-NEXT: %[[K1:.*]] = llvm.mlir.constant(1 : i32) : i32
// PROFILE: llvm.call @tcc_profile(%[[IMPORTS]], %[[K1]],
// PROFILE-NEXT: llvm.call @kernel_1(
// PROFILE: llvm.call @tcc_profile(%[[IMPORTS]], %[[K1]],
// The hook: no table, a table that ends before profile (field 18, bytes 136..144), or a null
// profile: nothing; else profile(context, kernel, event).
// PROFILE-LABEL: llvm.func internal @tcc_profile(
// PROFILE: llvm.icmp "eq" %arg0
// PROFILE: llvm.mlir.constant(144 : i32)
// PROFILE: llvm.getelementptr %arg0[0, 18]
// PROFILE: llvm.getelementptr %arg0[0, 2]
// PROFILE: llvm.call %{{.*}}(%{{.*}}, %arg1, %arg2) : !llvm.ptr, (!llvm.ptr, i32, i32) -> ()
