// RUN: tcc-opt %s --tcc-outline-kernels | FileCheck %s
// Each compute op of @main becomes a private kernel named after its ONNX node; its
// destination is an argument, scalar constants are cloned in, tensors are passed.

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func private @kernel_0_relu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[INIT:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-SAME: attributes {tcc.kernel}
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
