// RUN: tcc-opt %s --split-input-file --tcc-gpu-lower-launches --verify-diagnostics | FileCheck %s

// A launch with LLVM-typed operands becomes imports->device_launch(context, kernel index,
// grid, block, 0, argv); argv points to one 8-byte slot per operand, allocated in the
// entry block. The PTX becomes a private global (with its NUL) listed in
// kernel.device_images, and the kernels are listed by index.
// CHECK: module attributes {kernel.device_images = [{arch = "sm_90", format = "ptx", symbol = @tcc_device_image_0}], kernel.device_kernels = ["k_kernel", "k_kernel_0"]}
// CHECK: llvm.mlir.global private constant @tcc_device_image_0("PTX TEXT\00") {addr_space = 0 : i32, alignment = 64 : i64}
// CHECK-LABEL: llvm.func @k
// CHECK-SAME: (%[[IMPORTS:.*]]: !llvm.ptr, %[[P:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK: %[[SLOTS:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[ARGV:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK: %[[SLOT0:.*]] = llvm.getelementptr %[[SLOTS]][0]
// CHECK: llvm.store %[[P]], %[[SLOT0]]
// CHECK: llvm.store %[[SLOT0]], %{{.*}}
// CHECK: %[[SLOT1:.*]] = llvm.getelementptr %[[SLOTS]][1]
// CHECK: llvm.store %[[N]], %[[SLOT1]]
// CHECK: %[[LAUNCH_FIELD:.*]] = llvm.getelementptr %[[IMPORTS]][0, 14]
// CHECK: %[[LAUNCH:.*]] = llvm.load %[[LAUNCH_FIELD]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[CONTEXT_FIELD:.*]] = llvm.getelementptr %[[IMPORTS]][0, 2]
// CHECK: %[[CONTEXT:.*]] = llvm.load %[[CONTEXT_FIELD]]
// CHECK: %[[BLOCK:.*]] = llvm.trunc %{{.*}} : i64 to i32
// CHECK: llvm.call %[[LAUNCH]](%[[CONTEXT]], %{{.*}}, %[[N]], %[[BLOCK]], %{{.*}}, %[[ARGV]]) : !llvm.ptr, (!llvm.ptr, i32, i64, i32, i32, !llvm.ptr) -> i32
// CHECK: llvm.call %{{.*}}(%{{.*}}, %[[ONE:.*]], %[[N]],
// CHECK-NOT: gpu.
module attributes {gpu.container_module} {
  gpu.binary @tcc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "PTX TEXT">]
  llvm.func @k(%imports: !llvm.ptr, %p: !llvm.ptr, %n: i64) {
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c256 = llvm.mlir.constant(256 : index) : i64
    gpu.launch_func @tcc_kernels::@k_kernel blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1) : i64 args(%p : !llvm.ptr, %n : i64)
    gpu.launch_func @tcc_kernels::@k_kernel_0 blocks in (%n, %c1, %c1) threads in (%c256, %c1, %c1) : i64 args(%p : !llvm.ptr)
    llvm.return
  }
}

// -----

// Only 1-D grids are lowered.
module attributes {gpu.container_module} {
  gpu.binary @tcc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "PTX">]
  llvm.func @k(%imports: !llvm.ptr, %n: i64) {
    %c1 = llvm.mlir.constant(1 : index) : i64
    // expected-error @+1 {{internal error: only 1-D grids are lowered}}
    gpu.launch_func @tcc_kernels::@k blocks in (%n, %n, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
}

// -----

// A host read (tcc-gpu-form-grids) becomes imports->device_read(context, host, device,
// bytes), field 17 of the table, and marks the module kernel.reads_device (the descriptor's
// TCC_MODEL_READS_DEVICE); the declaration goes.
// CHECK: module attributes {kernel.device_images = {{.*}}, kernel.reads_device}
// CHECK-NOT: llvm.func @tcc_device_read
// CHECK-LABEL: llvm.func @k
// CHECK-SAME: (%[[IMPORTS:.*]]: !llvm.ptr, %[[HOST:.*]]: i64, %[[DEVICE:.*]]: i64)
// CHECK: %[[READ_FIELD:.*]] = llvm.getelementptr %[[IMPORTS]][0, 17]
// CHECK: %[[READ:.*]] = llvm.load %[[READ_FIELD]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[CONTEXT_FIELD:.*]] = llvm.getelementptr %[[IMPORTS]][0, 2]
// CHECK: %[[CONTEXT:.*]] = llvm.load %[[CONTEXT_FIELD]]
// CHECK: %[[HOST_PTR:.*]] = llvm.inttoptr %[[HOST]] : i64 to !llvm.ptr
// CHECK: %[[DEVICE_PTR:.*]] = llvm.inttoptr %[[DEVICE]] : i64 to !llvm.ptr
// CHECK: llvm.call %[[READ]](%[[CONTEXT]], %[[HOST_PTR]], %[[DEVICE_PTR]], %{{.*}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> i32
module attributes {gpu.container_module} {
  gpu.binary @tcc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "PTX">]
  llvm.func @tcc_device_read(i64, i64, i64)
  llvm.func @k(%imports: !llvm.ptr, %host: i64, %device: i64) {
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c8 = llvm.mlir.constant(8 : index) : i64
    gpu.launch_func @tcc_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.call @tcc_device_read(%host, %device, %c8) : (i64, i64, i64) -> ()
    llvm.return
  }
}
