// RUN: tcc-opt %s --split-input-file --tcc-kv-cache=capacity=64 --verify-diagnostics | FileCheck %s
// A decoding step's present = Concat(past, new) outputs become caches of 64 positions that
// the session keeps: the past inputs and present outputs leave the interface, the cached
// length is an int64 input named after its symbol, the new positions are written into the
// cache at the length, and the step reads the first length + 1.

prim.symbol @past
// CHECK-NOT: prim.symbol @past
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<1x4xf32> {onnx.name = "x"}, %[[LEN:.*]]: tensor<i64> {onnx.name = "past"}, %[[CK:.*]]: tensor<1x2x64x4xf32> {kernel.cache, kernel.parameter = dense<0.000000e+00> : tensor<1x2x64x4xf32>, onnx.name = "present_key"}, %[[CV:.*]]: tensor<1x2x64x4xf32> {kernel.cache, kernel.parameter = dense<0.000000e+00> : tensor<1x2x64x4xf32>, onnx.name = "present_value"})
// CHECK-SAME: -> (tensor<1x2x?x4xf32> {onnx.name = "scores"}, tensor<1x2x64x4xf32> {kernel.update_of = "present_key"}, tensor<1x2x64x4xf32> {kernel.update_of = "present_value"})
// CHECK: %[[E:.*]] = tensor.extract %[[LEN]][] : tensor<i64>
// CHECK: %[[P:.*]] = arith.index_cast %[[E]] : i64 to index
// CHECK: %[[POS:.*]] = arith.cmpi sge, %[[P]], %c0
// CHECK: prim.check %[[POS]], "input 'past' (the positions the KV caches hold) must be >= 0"
// CHECK: %[[END:.*]] = arith.addi %[[P]], %c1
// CHECK: %[[ROOM:.*]] = arith.subi %c64, %c1
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %[[P]], %[[ROOM]]
// CHECK: prim.check %[[FITS]], "the KV cache 'present_key' holds 64 positions (tcc --kv-cache): input 'past' plus the step's new positions must be at most 64"
// CHECK: %[[UK:.*]] = tensor.insert_slice %{{.*}} into %[[CK]][0, 0, %[[P]], 0] [1, 2, 1, 4] [1, 1, 1, 1]
// CHECK: %[[K:.*]] = prim.slice %[[UK]] [0, 0, 0, 0] [1, 2, %[[END]], 4]
// CHECK: %[[UV:.*]] = tensor.insert_slice %{{.*}} into %[[CV]][0, 0, %[[P]], 0]
// CHECK: prim.mul %[[K]], %{{.*}}
// CHECK: return %{{.*}}, %[[UK]], %[[UV]]
func.func @main(%x: tensor<1x4xf32> {onnx.name = "x"}, %pk: tensor<1x2x?x4xf32> {onnx.name = "past_key"}, %pv: tensor<1x2x?x4xf32> {onnx.name = "past_value"}) -> (tensor<1x2x?x4xf32> {onnx.name = "scores"}, tensor<1x2x?x4xf32> {onnx.name = "present_key"}, tensor<1x2x?x4xf32> {onnx.name = "present_value"}) {
  prim.bind_shape %pk [@past] affine_map<()[s0] -> (1, 2, s0, 4)> : tensor<1x2x?x4xf32>
  prim.bind_shape %pv [@past] affine_map<()[s0] -> (1, 2, s0, 4)> : tensor<1x2x?x4xf32>
  %c1 = arith.constant 1 : index
  %p = prim.dim %pk, 2 : tensor<1x2x?x4xf32>
  %n = arith.addi %p, %c1 : index
  %new = prim.broadcast_in_dim %x, dims = [0, 3] : (tensor<1x4xf32>) -> tensor<1x2x1x4xf32>
  %k = prim.concatenate %pk, %new dim = 2 : (tensor<1x2x?x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x?x4xf32>
  %v = prim.concatenate %pv, %new dim = 2 : (tensor<1x2x?x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x?x4xf32>
  %xb = prim.broadcast_in_dim %x, dims = [0, 3] sizes(%n) : (tensor<1x4xf32>) -> tensor<1x2x?x4xf32>
  %s = prim.mul %k, %xb : tensor<1x2x?x4xf32>
  return %s, %k, %v : tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>
}

// -----

// A cache whose batch is dynamic: the session's caches have a fixed size.
prim.symbol @batch
prim.symbol @past
// expected-error @below {{--kv-cache: the cache input 'past_key' has a dynamic dim 0 ('batch'); the session keeps caches of a fixed size}}
// expected-note @below {{give it a value: tcc --dim batch=N}}
func.func @main(%x: tensor<?x2x1x4xf32> {onnx.name = "x"}, %pk: tensor<?x2x?x4xf32> {onnx.name = "past_key"}) -> (tensor<?x2x?x4xf32> {onnx.name = "present_key"}) {
  prim.bind_shape %x [@batch] affine_map<()[s0] -> (s0, 2, 1, 4)> : tensor<?x2x1x4xf32>
  prim.bind_shape %pk [@batch, @past] affine_map<()[s0, s1] -> (s0, 2, s1, 4)> : tensor<?x2x?x4xf32>
  %k = prim.concatenate %pk, %x dim = 2 : (tensor<?x2x?x4xf32>, tensor<?x2x1x4xf32>) -> tensor<?x2x?x4xf32>
  return %k : tensor<?x2x?x4xf32>
}

// -----

// No output is a cache.
prim.symbol @n
// expected-error @below {{--kv-cache: no output is a cache: Concat(an input, the new positions) along a dim that is a symbol (the cached length)}}
func.func @main(%x: tensor<?xf32> {onnx.name = "x"}) -> (tensor<?xf32> {onnx.name = "y"}) {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0)> : tensor<?xf32>
  %y = prim.exp %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// Another input whose length is the cached length's (a mask over past positions).
prim.symbol @past
// expected-error @below {{--kv-cache: input 'mask' dim 0 depends on the cached length 'past' (not supported: the caches' length becomes an input of its own)}}
func.func @main(%x: tensor<1x2x1x4xf32> {onnx.name = "x"}, %mask: tensor<?xf32> {onnx.name = "mask"}, %pk: tensor<1x2x?x4xf32> {onnx.name = "past_key"}) -> (tensor<1x2x?x4xf32> {onnx.name = "present_key"}, tensor<?xf32> {onnx.name = "m"}) {
  prim.bind_shape %mask [@past] affine_map<()[s0] -> (s0 + 1)> : tensor<?xf32>
  prim.bind_shape %pk [@past] affine_map<()[s0] -> (1, 2, s0, 4)> : tensor<1x2x?x4xf32>
  %k = prim.concatenate %pk, %x dim = 2 : (tensor<1x2x?x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x?x4xf32>
  return %k, %mask : tensor<1x2x?x4xf32>, tensor<?xf32>
}
