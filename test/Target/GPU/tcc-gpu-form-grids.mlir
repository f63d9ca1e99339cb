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

// A value that host code needs from device memory (a count that sizes a grid) is read back:
// the sequential work before the load runs in its own launch, then the host copies the
// element (tcc_device_read: host slot, device address, bytes) into a stack slot of the entry
// block and loads it; the index arithmetic on it stays on the host, and the work after it is
// a launch of its own.
// CHECK: func.func private @tcc_device_read(index, index, index)
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[IMPORTS:.*]]: !llvm.ptr, %[[X:.*]]: memref<8xi64>, %[[COUNT:.*]]: memref<2xi64>, %[[OUT:.*]]: memref<8xi64>)
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<i64>
// CHECK: gpu.launch
// CHECK:   scf.for
// CHECK:   memref.store {{.*}}, %[[COUNT]][%c1
// CHECK:   gpu.terminator
// CHECK: %{{.*}}, %[[OFFSET:.*]], %{{.*}}, %[[STRIDE:.*]] = memref.extract_strided_metadata %[[COUNT]]
// CHECK: %[[SCALED:.*]] = arith.muli %c1{{.*}}, %[[STRIDE]]
// CHECK: %[[POSITION:.*]] = arith.addi %[[OFFSET]], %[[SCALED]]
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[COUNT]]
// CHECK: %[[BYTES:.*]] = arith.muli %[[POSITION]], %[[EIGHT:.*]] :
// CHECK: %[[ADDRESS:.*]] = arith.addi %[[BASE]], %[[BYTES]]
// CHECK: %[[HOST:.*]] = memref.extract_aligned_pointer_as_index %[[SLOT]]
// CHECK: call @tcc_device_read(%[[HOST]], %[[ADDRESS]], %[[EIGHT]]) : (index, index, index) -> ()
// CHECK: %[[VALUE:.*]] = memref.load %[[SLOT]][]
// CHECK: %[[N:.*]] = arith.index_cast %[[VALUE]]
// CHECK: gpu.launch
// CHECK:   memref.store %[[VALUE]], %[[COUNT]][%c0
// CHECK: arith.ceildivui %[[N]], %c256
// CHECK: gpu.launch
module {
  func.func @main(%x: memref<8xi64>, %count: memref<2xi64>, %out: memref<8xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i64
    %total = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (i64) {
      %v = memref.load %x[%i] : memref<8xi64>
      %a = arith.addi %acc, %v : i64
      scf.yield %a : i64
    }
    memref.store %total, %count[%c1] : memref<2xi64>
    %read = memref.load %count[%c1] : memref<2xi64>
    %n = arith.index_cast %read : i64 to index
    memref.store %read, %count[%c0] : memref<2xi64>
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      memref.store %zero, %out[%i] : memref<8xi64>
      scf.reduce
    }
    return
  }
}

// -----

// A read before any device work of its run: the work after it is one launch, after it.
// CHECK-LABEL: func.func @main
// CHECK: call @tcc_device_read
// CHECK: %[[N:.*]] = memref.load %{{.*}}[] : memref<i64>
// CHECK: gpu.launch
// CHECK:   memref.load
// CHECK:   memref.store
// CHECK: call @use(%[[N]])
module {
  func.func @main(%count: memref<i64>, %x: memref<2xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.load %count[] : memref<i64>
    %v = memref.load %x[%c0] : memref<2xi64>
    memref.store %v, %x[%c1] : memref<2xi64>
    func.call @use(%n) : (i64) -> ()
    return
  }
  func.func private @use(%v: i64)
}

// -----

// A value host code needs that comes from something other than loads and pure arithmetic
// is an error.
module {
  func.func @main(%x: memref<8xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0 : i64
    // expected-error @+1 {{a GPU model's host code would need a value computed in device memory (a data-dependent extent or condition) by 'scf.for', which the host cannot run; only loads of numbers and pure arithmetic on them are read back}}
    %total = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (i64) {
      %v = memref.load %x[%i] : memref<8xi64>
      %a = arith.addi %acc, %v : i64
      scf.yield %a : i64
    }
    func.call @use(%total) : (i64) -> ()
    return
  }
  func.func private @use(%v: i64)
}

// -----

// So is a read in the middle of device work whose values cross it.
module {
  func.func @main(%x: memref<2xi64>, %y: memref<2xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{a GPU model's host code would need a value from device memory between two steps of one kernel's sequential code, which is not supported yet}}
    %early = memref.load %x[%c0] : memref<2xi64>
    %read = memref.load %x[%c1] : memref<2xi64>
    memref.store %early, %y[%c0] : memref<2xi64>
    func.call @use(%read) : (i64) -> ()
    return
  }
  func.func private @use(%v: i64)
}

// -----

// Control flow around kernel calls stays on the host (its body formed the same way); a
// bound or condition the kernels computed is read back first, also in a loop's condition.
// CHECK-LABEL: func.func @main
// CHECK: scf.for
// CHECK:   call @kernel(
// CHECK:   gpu.launch
// CHECK:     memref.store
// CHECK-LABEL: func.func @main
// CHECK: call @tcc_device_read
// CHECK: %[[COND:.*]] = memref.load %{{.*}}[] : memref<i1>
// CHECK: scf.if %[[COND]] {
// CHECK:   call @kernel(
// CHECK-LABEL: func.func @main
// CHECK: scf.while
// CHECK:   call @kernel(
// CHECK:   call @tcc_device_read
// CHECK:   %[[AGAIN:.*]] = memref.load %{{.*}}[] : memref<i1>
// CHECK:   scf.condition(%[[AGAIN]])
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
    scf.if %cond {
      func.call @kernel(%out) : (memref<4xf32>) -> ()
    }
    return
  }
}

// -----

module {
  func.func private @kernel(%out: memref<4xf32>, %flag: memref<i1>) {
    return
  }
  func.func @main(%flag: memref<i1>, %out: memref<4xf32>) {
    scf.while : () -> () {
      func.call @kernel(%out, %flag) : (memref<4xf32>, memref<i1>) -> ()
      %again = memref.load %flag[] : memref<i1>
      scf.condition(%again)
    } do {
      scf.yield
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

// -----

// A loop of blocks (kernel.block_threads, tcc-gpu-linalg-to-loops's block tiles): one block
// per iteration of the other dims (row-major), the last dim the block's 256 threads, with no
// range check (every thread reaches the barrier); its workgroup buffer becomes the launch's
// workgroup attribution.
// CHECK-LABEL: func.func @main
// CHECK: %[[BLOCKS:.*]] = arith.muli %{{.*}}, %c4
// CHECK: scf.if
// CHECK:   gpu.launch blocks(%[[BX:[^,]*]], %{{.*}}) in (%{{[^ ]*}} = %[[BLOCKS]], {{.*}}) threads(%[[TX:[^,]*]], {{.*}}) in (%{{[^ ]*}} = %c256{{[^,]*}}, {{.*}}) workgroup(%[[TILE:[^ ]*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.alloca
// CHECK:     %[[COLUMN:.*]] = arith.remui %[[BX]], %c4
// CHECK:     %[[ROW:.*]] = arith.divui %[[BX]], %c4
// CHECK-NOT: arith.cmpi ult
// CHECK:     memref.store %{{.*}}, %[[TILE]][%[[TX]]]
// CHECK:     gpu.barrier
// CHECK:     memref.load %[[TILE]]
module {
  func.func @main(%x: memref<?x4x256xf32>, %y: memref<?x4x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %n = memref.dim %x, %c0 : memref<?x4x256xf32>
    scf.parallel (%i, %j, %t) = (%c0, %c0, %c0) to (%n, %c4, %c256) step (%c1, %c1, %c1) {
      %tile = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%i, %j, %t] : memref<?x4x256xf32>
      memref.store %v, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %u = arith.subi %c255, %t : index
      %w = memref.load %tile[%u] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %y[%i, %j, %t] : memref<?x4x256xf32>
      scf.reduce
    } {kernel.block_threads = 256 : i64}
    return
  }
}

// -----

// The last dim of a loop of blocks must be its threads.
module {
  func.func @main(%y: memref<?x128xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %n = memref.dim %y, %c0 : memref<?x128xf32>
    // expected-error @+1 {{internal error: the last dim of a loop of blocks must be its 256 threads}}
    scf.parallel (%i, %t) = (%c0, %c0) to (%n, %c128) step (%c1, %c1) {
      memref.store %zero, %y[%i, %t] : memref<?x128xf32>
      scf.reduce
    } {kernel.block_threads = 256 : i64}
    return
  }
}

// -----

// A barrier needs a block: a grid loop with one is refused.
module {
  func.func @main(%y: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %n = memref.dim %y, %c0 : memref<?xf32>
    // expected-error @+1 {{internal error: a parallel loop with barriers or workgroup buffers must be marked kernel.block_threads}}
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      gpu.barrier
      memref.store %zero, %y[%i] : memref<?xf32>
      scf.reduce
    }
    return
  }
}

// -----

// String functions (the runtime's, on the host) cannot run in kernels.
module {
  func.func @main(%table: i64, %x: memref<f32>) {
    %v = memref.load %x[] : memref<f32>
    // expected-error @+1 {{string operations ('string_format') cannot run on a GPU yet; compile this model for the CPU}}
    %s = prim.runtime_call "string_format"(%table, %v) {dtype = 1 : i32} : f32 -> i128
    return
  }
}
