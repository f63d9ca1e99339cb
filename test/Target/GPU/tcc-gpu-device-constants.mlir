// RUN: tcc-opt %s --split-input-file --tcc-gpu-device-constants --verify-diagnostics | FileCheck %s

// The weights blob becomes @main's last argument (and that of the kernel that reads it,
// which @main passes it to); its size is recorded on the module.
// CHECK: module attributes {kernel.device_constants_size = 128 : i64}
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func private @kernel
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %[[C:.*]]: memref<?xi8>)
// CHECK: %[[W:.*]] = memref.cast %[[C]] : memref<?xi8> to memref<128xi8>
// CHECK: memref.view %[[W]][%{{.*}}][] : memref<128xi8> to memref<4xf32>
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %[[MAIN_C:.*]]: memref<?xi8> {kernel.device_constants})
// CHECK: %[[MAIN_W:.*]] = memref.cast %[[MAIN_C]] : memref<?xi8> to memref<128xi8>
// CHECK: call @kernel(%{{.*}}, %[[MAIN_C]])
module {
  memref.global "private" constant @tcc_weights : memref<128xi8> {alignment = 64 : i64}
  func.func private @kernel(%out: memref<4xf32>) {
    %c64 = arith.constant 64 : index
    %w = memref.get_global @tcc_weights : memref<128xi8>
    %v = memref.view %w[%c64][] : memref<128xi8> to memref<4xf32>
    memref.copy %v, %out : memref<4xf32> to memref<4xf32>
    return
  }
  func.func @main(%out: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %w = memref.get_global @tcc_weights : memref<128xi8>
    %v = memref.view %w[%c0][] : memref<128xi8> to memref<4xf32>
    call @kernel(%out) : (memref<4xf32>) -> ()
    return
  }
}

// -----

// Without weights @main still takes the (empty) device constants.
// CHECK: module attributes {kernel.device_constants_size = 0 : i64}
// CHECK: func.func @main(%{{.*}}: memref<4xf32>, %{{.*}}: memref<?xi8> {kernel.device_constants})
module {
  func.func @main(%out: memref<4xf32>) {
    return
  }
}
