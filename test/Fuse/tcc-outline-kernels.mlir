// RUN: tcc-opt %s --split-input-file --tcc-outline-kernels | FileCheck %s
// Each compute op of @main becomes a private kernel named after its ONNX node; its
// destination is an argument, scalar constants are cloned in, tensors are passed.

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func private @kernel_0_relu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[INIT:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-SAME: attributes {kernel.kernel = #kernel.kernel<kind = generic, nodes = ["relu"]>}
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.generic
// CHECK: arith.maximumf %{{.*}}, %[[ZERO]]
// CHECK-LABEL: func.func @main
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[R:.*]] = call @kernel_0_relu(%arg0, %[[E]])
// CHECK: return %[[R]]
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4xf32> loc("relu"("model.onnx":0:0))
  return %r : tensor<4xf32>
}

// -----

// A loop that runs kernels (prim.loop's time loops: it contains linalg ops) stays on the
// host; its body's compute ops become kernels called once per iteration.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func private @kernel_0_step
// CHECK: math.tanh
// CHECK-LABEL: func.func @main
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[H:.*]] = %arg0)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[N:.*]] = func.call @kernel_0_step(%[[H]], %[[E]])
// CHECK: scf.yield %[[N]]
func.func @main(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%h : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = math.tanh %in : f32
      linalg.yield %m : f32
    } -> tensor<4xf32> loc("step"("model.onnx":0:0))
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Kernel formation: a contraction, the fill of its accumulator and its elementwise epilogue
// (the only reader of its result) are one contraction kernel with `epilogue = true`, named
// after the last
// node; the epilogue writes in place over the contraction's result.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func private @kernel_0_relu
// CHECK-SAME: attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true, nodes = ["relu", "matmul"]>}
// CHECK: %[[F:.*]] = linalg.fill
// CHECK: %[[M:.*]] = linalg.generic {{.*}} outs(%[[F]] : tensor<4x16xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[M]], %{{.*}} : tensor<4x16xf32>, tensor<4xf32>) outs(%[[M]] : tensor<4x16xf32>)
// CHECK: return %[[R]]
// CHECK-LABEL: func.func @main
// CHECK: call @kernel_0_relu
// CHECK-NOT: call
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %bias: tensor<4xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %acc: f32):
    %0 = arith.mulf %in, %in_0 : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<4x16xf32> loc("matmul"("model.onnx":0:0))
  %e2 = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4x16xf32>, tensor<4xf32>) outs(%e2 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  } -> tensor<4x16xf32> loc("relu"("model.onnx":0:0))
  return %r : tensor<4x16xf32>
}

// -----

// A pooling window (max over a window, read along the output's last dim) takes the fill of
// its accumulator into its kernel; a row reduction (a sum over the last dim of its input)
// leaves its fill a kernel of its own, so that each kernel is one parallel loop nest.
#win_in = affine_map<(n, x, k) -> (n, x * 2 + k)>
#win_out = affine_map<(n, x, k) -> (n, x)>
#win_shape = affine_map<(n, x, k) -> (k)>
#row_in = affine_map<(n, k) -> (n, k)>
#row_out = affine_map<(n, k) -> (n)>
// CHECK-LABEL: func.func private @kernel_0_pool
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK-LABEL: func.func private @kernel_1_sum
// CHECK-NOT: linalg.generic
// CHECK: linalg.fill
// CHECK-LABEL: func.func private @kernel_2_sum
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic
func.func @main(%x: tensor<4x9xf32>, %window: tensor<3xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {
  %neg = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%neg : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = linalg.generic {indexing_maps = [#win_in, #win_shape, #win_out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %window : tensor<4x9xf32>, tensor<3xf32>) outs(%f : tensor<4x4xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %0 = arith.maximumf %acc, %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32> loc("pool"("model.onnx":0:0))
  %e2 = tensor.empty() : tensor<4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32> loc("sum"("model.onnx":0:0))
  %s = linalg.generic {indexing_maps = [#row_in, #row_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x9xf32>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %acc, %in : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32> loc("sum"("model.onnx":0:0))
  return %p, %s : tensor<4x4xf32>, tensor<4xf32>
}

// -----

// A contraction + epilogue whose result is a model output: the epilogue wrote into the
// output's tensor, so the contraction accumulates there from the start (its fill's empty is
// replaced by the output) and the epilogue runs in place: the kernel writes the output,
// nothing is copied into it afterwards.
// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%[[OUT:.*]]: tensor<4x8xf32>,
// CHECK: %[[FILLED:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] : tensor<4x8xf32>)
// CHECK: %[[ACC:.*]] = linalg.matmul {{.*}} outs(%[[FILLED]] : tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[ACC]] : tensor<4x8xf32>) outs(%[[ACC]] : tensor<4x8xf32>)
// CHECK-LABEL: func.func @main
// CHECK: %[[DEST:.*]] = bufferization.to_tensor
// CHECK: %[[R:.*]] = call @kernel_0(%[[DEST]],
// CHECK: bufferization.materialize_in_destination %[[R]]
func.func @main(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %o: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %dest = bufferization.to_tensor %o restrict writable : memref<4x8xf32> to tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x8xf32>) outs(%dest : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %v = arith.maximumf %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  bufferization.materialize_in_destination %r in writable %o : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
  return
}

// -----

// A tensor-valued branch without linalg ops (a one-element scatter's guarded insert, once
// its loop of one iteration is folded away) is a kernel: left in @main, bufferization would
// copy its operand inside the branch.
// CHECK-LABEL: func.func private @kernel_0
// CHECK: scf.if
// CHECK: tensor.insert
// CHECK-LABEL: func.func @main
// CHECK-NOT: scf.if
// CHECK: call @kernel_0
func.func @main(%t: tensor<4xi64>, %i: index, %v: i64) -> tensor<4xi64> {
  %c4 = arith.constant 4 : index
  %inside = arith.cmpi ult, %i, %c4 : index
  %r = scf.if %inside -> (tensor<4xi64>) {
    %s = tensor.insert %v into %t[%i] : tensor<4xi64>
    scf.yield %s : tensor<4xi64>
  } else {
    scf.yield %t : tensor<4xi64>
  }
  return %r : tensor<4xi64>
}
