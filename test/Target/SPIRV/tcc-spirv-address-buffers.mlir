// RUN: tcc-opt %s --split-input-file --tcc-spirv-address-buffers --verify-diagnostics | FileCheck %s

// A memref parameter in device memory becomes its address (i64) and the dynamic fields of
// its view; the launch passes the aligned pointer and those fields. A row-major buffer
// passes its dynamic sizes alone (strides are their products); a view passes its dynamic
// offset and strides. Loads and stores become PhysicalStorageBuffer pointers at
// base + (offset + sum(index * stride)) * bytes, Aligned; i1 is a byte in memory. The
// element index is an index (32 bits once converted), the byte offset 64-bit.
// CHECK-LABEL: func.func @host
// CHECK-SAME: (%[[A:.*]]: memref<?x4xf32>, %[[B:.*]]: memref<8xf32, strided<[1], offset: ?>>, %[[C:.*]]: memref<?xi1>, %{{.*}}: index)
// CHECK-DAG: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-DAG: %[[AA:.*]] = arith.index_castui %[[PA]] : index to i64
// CHECK-DAG: %[[ROWS:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x4xf32>
// CHECK-DAG: %{{.*}}, %[[BOFF:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[B]]
// CHECK: gpu.launch_func  @kernels::@k {{.*}} args(%[[AA]] : i64, %[[ROWS]] : index, %{{.*}} : i64, %[[BOFF]] : index, %{{.*}} : i64, %{{.*}} : index, %{{.*}} : index)
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: (%[[ABASE:.*]]: i64, %[[AROWS:.*]]: index, %[[BBASE:.*]]: i64, %[[BOFFSET:.*]]: index, %[[CBASE:.*]]: i64, %[[CSIZE:.*]]: index, %[[N2:.*]]: index)
// CHECK: %[[LINEAR:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[BYTES:.*]] = arith.muli %[[LINEAR]], %{{.*}} : i64
// CHECK: %[[AT:.*]] = arith.addi %[[ABASE]], %[[BYTES]] : i64
// CHECK: %[[PTR:.*]] = spirv.ConvertUToPtr %[[AT]] : i64 to !spirv.ptr<f32, PhysicalStorageBuffer>
// CHECK: spirv.Load "PhysicalStorageBuffer" %[[PTR]] ["Aligned", 4] : f32
// CHECK: spirv.ConvertUToPtr %{{.*}} : i64 to !spirv.ptr<i8, PhysicalStorageBuffer>
// CHECK: %[[BYTE:.*]] = spirv.Load "PhysicalStorageBuffer" %{{.*}} ["Aligned", 1] : i8
// CHECK: arith.cmpi ne, %[[BYTE]]
// CHECK: spirv.ConvertUToPtr %{{.*}} : i64 to !spirv.ptr<vector<4xf32>, PhysicalStorageBuffer>
// CHECK: spirv.Store "PhysicalStorageBuffer" %{{.*}}, %{{.*}} ["Aligned", 16] : vector<4xf32>
// CHECK-NOT: memref.load
module attributes {gpu.container_module} {
  func.func @host(%a: memref<?x4xf32>, %b: memref<8xf32, strided<[1], offset: ?>>, %c: memref<?xi1>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<?x4xf32>, %b : memref<8xf32, strided<[1], offset: ?>>, %c : memref<?xi1>, %n : index)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%a: memref<?x4xf32>, %b: memref<8xf32, strided<[1], offset: ?>>, %c: memref<?xi1>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %x = memref.load %a[%n, %c2] : memref<?x4xf32>
      %flag = memref.load %c[%n] : memref<?xi1>
      %y = arith.select %flag, %x, %x : f32
      %v = vector.broadcast %y : f32 to vector<4xf32>
      vector.store %v, %b[%c0] {alignment = 16} : memref<8xf32, strided<[1], offset: ?>>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// A typed view of the workspace (a byte buffer): its address is the buffer's plus the
// shift, row-major from there. Two launch operands that are the same value are passed once.
// CHECK-LABEL: gpu.func @v
// CHECK-SAME: (%[[BASE:.*]]: i64, %[[SIZE:.*]]: index, %[[SHIFT:.*]]: index)
// CHECK: %[[S64:.*]] = arith.index_cast %[[SHIFT]] : index to i64
// CHECK: arith.addi %[[BASE]]
// CHECK: spirv.Load "PhysicalStorageBuffer"
module attributes {gpu.container_module} {
  func.func @host(%w: memref<?xi8>, %shift: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@v blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%w : memref<?xi8>, %shift : index, %shift : index)
    return
  }
  gpu.module @kernels {
    gpu.func @v(%w: memref<?xi8>, %shift: index, %same: index) kernel {
      %c0 = arith.constant 0 : index
      %view = memref.view %w[%shift][] : memref<?xi8> to memref<4xf32>
      %x = memref.load %view[%same] : memref<4xf32>
      memref.store %x, %view[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// A use the pass does not lower is an error naming the op.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<4xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      // expected-error @+1 {{tcc-spirv-address-buffers: a kernel's buffer used by memref.atomic_rmw}}
      %old = memref.atomic_rmw addf %f, %a[%c0] : (f32, memref<4xf32>) -> f32
      gpu.return
    }
  }
}

// -----

// The kernels index in 32 bits: a buffer of 2^31 elements or more, or a workspace of 2 GiB,
// is an error naming its size.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<65536x32768xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{a kernel's buffer 'memref<65536x32768xf32>' spans 2147483648 elements; the SPIR-V and Metal kernels index in 32 bits (fewer than 2^31 elements a buffer)}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<65536x32768xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%a: memref<65536x32768xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{the model's workspace has 2147483648 bytes; the SPIR-V and Metal kernels index in 32 bits (less than 2 GiB of workspace)}}
  func.func @main(%w: memref<?xi8>) attributes {kernel.workspace_size = 2147483648 : i64} {
    return
  }
}
