// RUN: tcc-opt %s --split-input-file --tcc-gpu-form-grids --verify-diagnostics | FileCheck %s

// A 2-D parallel loop: one 1-D grid of ceil(n * 16 / 256) blocks, launched when non-empty;
// the thread's number split row-major (the last dim fastest); the import table becomes
// the first argument of the kernel and of @main, which passes it on.
// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%[[IMPORTS:.*]]: !llvm.ptr, %[[OUT:.*]]: memref<?x16xf32>, %[[IN:.*]]: memref<?x16xf32>)
// CHECK: %[[N:.*]] = memref.dim %[[OUT]]
// CHECK: %[[TOTAL:.*]] = arith.muli %[[N]], %c16
// CHECK: %[[GRID:.*]] = arith.ceildivui %[[TOTAL]], %c256
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi sgt, %[[TOTAL]], %c0
// CHECK: scf.if %[[NONEMPTY]] {
// CHECK:   gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GRID]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK:     %[[BASE:.*]] = arith.muli %[[BX]], %c256
// CHECK:     %[[K:.*]] = arith.addi %[[BASE]], %[[TX]]
// CHECK:     %[[IN_RANGE:.*]] = arith.cmpi ult, %[[K]], %[[TOTAL]]
// CHECK:     scf.if %[[IN_RANGE]] {
// CHECK:       %[[J:.*]] = arith.remui %[[K]], %c16
// CHECK:       %[[I:.*]] = arith.divui %[[K]], %c16
// CHECK:       memref.load %[[IN]][%[[I]], %[[J]]]
// CHECK:       memref.store
// CHECK:     gpu.terminator
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[MAIN_IMPORTS:.*]]: !llvm.ptr,
// CHECK: call @kernel_0(%[[MAIN_IMPORTS]],
module {
  func.func private @kernel_0(%out: memref<?x16xf32>, %in: memref<?x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %n = memref.dim %out, %c0 : memref<?x16xf32>
    scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c16) step (%c1, %c1) {
      %v = memref.load %in[%i, %j] : memref<?x16xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %out[%i, %j] : memref<?x16xf32>
      scf.reduce
    }
    return
  }
  func.func @main(%out: memref<?x16xf32>, %in: memref<?x16xf32>) {
    call @kernel_0(%out, %in) : (memref<?x16xf32>, memref<?x16xf32>) -> ()
    return
  }
}

// -----

// Sequential work (a loop that carries a value, then a store of it) runs in one launch
// of one thread; the host keeps the pure index arithmetic.
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c1{{.*}},
// CHECK:   scf.for
// CHECK:   memref.store
// CHECK:   gpu.terminator
// CHECK-NOT: gpu.launch
module {
  func.func @main(%x: memref<?xf32>, %s: memref<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %n = memref.dim %x, %c0 : memref<?xf32>
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %x[%i] : memref<?xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }
    memref.store %sum, %s[] : memref<f32>
    return
  }
}

// -----

// A value read from device memory that host code needs is an error.
module {
  func.func @main(%flag: memref<i1>, %out: memref<4xf32>) {
    // expected-error @+1 {{a GPU model's host code would need this value from device memory (a data-dependent extent or condition), which is not supported yet}}
    %f = memref.load %flag[] : memref<i1>
    func.call @use(%f) : (i1) -> ()
    return
  }
  func.func private @use(%f: i1)
}

// -----

// Control flow around kernel calls stays on the host when its condition is a host value
// (its body formed the same way); a condition read from device memory is an error.
// CHECK-LABEL: func.func @main
// CHECK: scf.for
// CHECK:   call @kernel(
// CHECK:   gpu.launch
// CHECK:     memref.store
module {
  func.func private @kernel(%out: memref<4xf32>) {
    return
  }
  func.func @main(%n: index, %out: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      func.call @kernel(%out) : (memref<4xf32>) -> ()
      memref.store %zero, %out[%c0] : memref<4xf32>
    }
    return
  }
}

// -----

module {
  func.func private @kernel(%out: memref<4xf32>) {
    return
  }
  func.func @main(%flag: memref<i1>, %out: memref<4xf32>) {
    %cond = memref.load %flag[] : memref<i1>
    // expected-error @+1 {{a GPU model cannot yet run control flow around kernels whose bounds or conditions are tensor values (ONNX If or Loop): 'scf.if' holds kernel calls}}
    scf.if %cond {
      func.call @kernel(%out) : (memref<4xf32>) -> ()
    }
    return
  }
}

// -----

// With a status word (device-side checks), every launch runs its body only while the word
// is 0; a reshape to extents the host stored into a buffer is a reinterpret_cast, and the
// stores (host writes to device memory) go.
// CHECK-LABEL: func.func @main
// CHECK-NOT: memref.store {{.*}} : memref<2xindex>
// CHECK: %[[CAST:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, 4], strides: [4, 1]
// CHECK: gpu.launch
// CHECK:   %[[WORD:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8> to memref<i32>
// CHECK:   %[[CODE:.*]] = memref.load %[[WORD]][] : memref<i32>
// CHECK:   %[[OK:.*]] = arith.cmpi eq, %[[CODE]], %{{.*}} : i32
// CHECK:   scf.if %[[OK]] {
// CHECK:     scf.if
// CHECK:       memref.store
module {
  func.func @main(%n: index, %x: memref<?xf32>, %shape: memref<2xindex>, %status: memref<?xi8> {kernel.device_status}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    memref.store %n, %shape[%c0] : memref<2xindex>
    memref.store %c4, %shape[%c1] : memref<2xindex>
    %y = memref.reshape %x(%shape) : (memref<?xf32>, memref<2xindex>) -> memref<?x4xf32>
    %zero = arith.constant 0.0 : f32
    scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c4) step (%c1, %c1) {
      memref.store %zero, %y[%i, %j] : memref<?x4xf32>
      scf.reduce
    }
    return
  }
}
