// RUN: tcc-opt %s --tcc-decompose-onnx --canonicalize | FileCheck %s
// RUN: tcc-opt %s --tcc-decompose-onnx --canonicalize --tcc-lower-prim-to-linalg | FileCheck %s --check-prefix=LOWERED
// A sequence length known only at run time: the time loop stays a loop (prim.loop over the
// steps) that carries H, C and Y; each step writes its row of Y. Lowered, it is an scf.for
// marked prim.invariant_extents whose yields are copies into the iteration arguments, with
// run-time checks that the carried extents do not change.
// CHECK-LABEL: func.func @dynamic_sequence
// CHECK: %[[N:.*]] = prim.dim %arg0, 0 : tensor<?x2x3xf32>
// CHECK: prim.loop %[[N]] carrying(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<?x1x2x4xf32>, tensor<2x4xf32>)
// CHECK: ^bb0(%[[T:.*]]: index, %[[H:.*]]: tensor<2x4xf32>, %[[Y:.*]]: tensor<?x1x2x4xf32>, %[[C:.*]]: tensor<2x4xf32>):
// CHECK: prim.dot_general %[[H]]
// CHECK: prim.select %{{.*}}, %{{.*}}, %[[Y]]
// CHECK: prim.yield
// LOWERED: scf.for
// LOWERED: prim.check %{{.*}}, "a loop-carried value changed its extent"
// LOWERED: linalg.copy
// LOWERED: } {prim.invariant_extents}
func.func @dynamic_sequence(%x: tensor<?x2x3xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>) -> tensor<?x1x2x4xf32> {
  %0:3 = onnx.node "LSTM" opset 14 (%x, %w, %r) {hidden_size = 4 : i64} : (tensor<?x2x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("lstm"("m.onnx":0:0))
  onnx.yield %0#0 : !onnx.value
}
