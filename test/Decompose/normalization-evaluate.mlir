// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/Normalization.cpp on constants, evaluated: BatchNormalization at
// inference (per channel, N and spatial dims broadcast; an epsilon chosen so that var + eps is
// a square, and the default one) and in training mode (batch statistics, running
// statistics with momentum), LayerNormalization (last axis and axis 0, Mean and InvStdDev
// outputs), RMSNormalization, InstanceNormalization, LpNormalization (p 1 and 2, a zero norm),
// MeanVarianceNormalization (default and given axes) and GroupNormalization (opset 18's
// per-group and opset 21's per-channel affine). Expected values from the ONNX formulas,
// y = (x - mean) / sqrt(var + eps) * scale + B with the population variance, by hand or
// with python3 (inexact values checked to their first 5-6 digits).

// Channels x = [1, 3] and [2, 6] (N = 1), scale [2, 0.5], B [1, -1], mean [2, 4],
// var [3.75, 0.75]. eps 0.25: sqrt(var + eps) = [2, 1]: [(x - 2) / 2 * 2 + 1, (x - 4) * 0.5
// - 1] = [0, 2], [-2, 0]. Default eps 1e-5: (1 - 2) * 2 / sqrt(3.75001) + 1 = -0.032794,
// 2.032794; (2 - 4) * 0.5 / sqrt(0.75001) - 1 = -2.154692, 0.154692.
// Opset 9 with N = 2: x [[[1, 2]], [[3, 4]]], mean 2.5, var 0.75, eps 0.25: x - 2.5.
// CHECK: @batch_norm result 0: tensor<1x2x2xf32> = {{\[\[\[}}0.0, 2.0], [-2.0, 0.0]]]
// CHECK: @batch_norm result 1: tensor<1x2x2xf32> = {{\[\[\[}}-0.032794{{[0-9]*}}, 2.03279{{[0-9]*}}], [-2.15469{{[0-9]*}}, 0.154692{{[0-9]*}}]]]
// CHECK: @batch_norm result 2: tensor<2x1x2xf32> = {{\[\[\[}}-1.5, -0.5]], {{\[\[}}0.5, 1.5]]]
module {
  func.func @batch_norm() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 3.0], [2.0, 6.0]]]> : tensor<1x2x2xf32>
    %scale = arith.constant dense<[2.0, 0.5]> : tensor<2xf32>
    %b = arith.constant dense<[1.0, -1.0]> : tensor<2xf32>
    %mean = arith.constant dense<[2.0, 4.0]> : tensor<2xf32>
    %var = arith.constant dense<[3.75, 0.75]> : tensor<2xf32>
    %y = arith.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
    %one = arith.constant dense<[1.0]> : tensor<1xf32>
    %zero = arith.constant dense<[0.0]> : tensor<1xf32>
    %m1 = arith.constant dense<[2.5]> : tensor<1xf32>
    %v1 = arith.constant dense<[0.75]> : tensor<1xf32>
    %0 = onnx.node "BatchNormalization" opset 15 (%x, %scale, %b, %mean, %var) {epsilon = 0.25 : f32} : (tensor<1x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "BatchNormalization" opset 15 (%x, %scale, %b, %mean, %var) {} : (tensor<1x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "BatchNormalization" opset 9 (%y, %one, %zero, %m1, %v1) {epsilon = 0.25 : f32} : (tensor<2x1x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// training_mode 1, x [[1, 2], [3, 6]] (N = 2, C = 2): batch means [2, 4], population
// variances [1, 4]; eps 0, scale 1, B 0: y = (x - mean) / sqrt(var) = [[-1, -1], [1, 1]].
// momentum 0.75: running_mean = [0, 10] * 0.75 + [2, 4] * 0.25 = [0.5, 8.5];
// running_var = [1, 1] * 0.75 + [1, 4] * 0.25 = [1, 1.75].
// CHECK: @batch_norm_training result 0: tensor<2x2xf32> = {{\[\[}}-1.0, -1.0], [1.0, 1.0]]
// CHECK: @batch_norm_training result 1: tensor<2xf32> = [0.5, 8.5]
// CHECK: @batch_norm_training result 2: tensor<2xf32> = [1.0, 1.75]
module {
  func.func @batch_norm_training() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[1.0, 2.0], [3.0, 6.0]]> : tensor<2x2xf32>
    %scale = arith.constant dense<1.0> : tensor<2xf32>
    %b = arith.constant dense<0.0> : tensor<2xf32>
    %mean = arith.constant dense<[0.0, 10.0]> : tensor<2xf32>
    %var = arith.constant dense<1.0> : tensor<2xf32>
    %0:3 = onnx.node "BatchNormalization" opset 15 (%x, %scale, %b, %mean, %var) {training_mode = 1 : i64, epsilon = 0.0 : f32, momentum = 0.75 : f32} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("a"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %0#2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// LayerNormalization over the last axis of [[1, 2, 3], [2, 4, 6]]: means [2, 4], variances
// [2/3, 8/3]; 1 / sqrt(var + 1e-5) = [1.224736, 0.612371]; (x - mean) * that = [-1.224736, 0,
// 1.224736] for both rows (up to eps), then * scale [1, 1, 2] + B [0, 0, 1]. Mean and
// InvStdDev keep the normalized dim as 1. axis 0 normalizes all six values together:
// mean 3, variance 16/6, 1 / sqrt(16/6 + 1e-5) = 0.612371.
// CHECK: @layer_norm result 0: tensor<2x3xf32> = {{\[\[}}-1.22473{{[0-9]*}}, 0.0, 3.44947{{[0-9]*}}], [-1.22474{{[0-9]*}}, 0.0, 3.44948{{[0-9]*}}]]
// CHECK: @layer_norm result 1: tensor<2x1xf32> = {{\[\[}}2.0], [4.0]]
// CHECK: @layer_norm result 2: tensor<2x1xf32> = {{\[\[}}1.22473{{[0-9]*}}], [0.612371{{[0-9]*}}]]
// CHECK: @layer_norm result 3: tensor<2x3xf32> = {{\[\[}}-1.2247{{[0-9]*}}, -0.61237{{[0-9]*}}, 0.0], [-0.61237{{[0-9]*}}, 0.61237{{[0-9]*}}, 1.8371{{[0-9]*}}]]
// CHECK: @layer_norm result 4: tensor<1x1xf32> = {{\[\[}}3.0]]
// CHECK: @layer_norm result 5: tensor<1x1xf32> = {{\[\[}}0.61237{{[0-9]*}}]]
module {
  func.func @layer_norm() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]> : tensor<2x3xf32>
    %scale = arith.constant dense<[1.0, 1.0, 2.0]> : tensor<3xf32>
    %b = arith.constant dense<[0.0, 0.0, 1.0]> : tensor<3xf32>
    %ones = arith.constant dense<1.0> : tensor<2x3xf32>
    %0:3 = onnx.node "LayerNormalization" opset 17 (%x, %scale, %b) {} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("a"("m.onnx":0:0))
    %1:3 = onnx.node "LayerNormalization" opset 17 (%x, %ones) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("b"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %0#2, %1#0, %1#1, %1#2 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// RMSNormalization of [3, 4]: mean(x^2) = 12.5, x / sqrt(12.5 + 1e-5) * [1, 2] =
// [0.848528, 2.262741]. InstanceNormalization of channels [1, 3] and [2, 6] (variances 1 and
// 4, eps 1e-5) with scale [1, 2], B [0, 1]: [-0.999995, 0.999995] and
// [-0.999999 * 2 + 1, 0.999999 * 2 + 1] = [-0.999997, 2.999997].
// CHECK: @rms_instance result 0: tensor<1x2xf32> = {{\[\[}}0.84852{{[0-9]*}}, 2.2627{{[0-9]*}}]]
// CHECK: @rms_instance result 1: tensor<1x2x2xf32> = {{\[\[\[}}-0.99999{{[0-9]*}}, 0.99999{{[0-9]*}}], [-0.99999{{[0-9]*}}, 2.99999{{[0-9]*}}]]]
module {
  func.func @rms_instance() -> (tensor<*xf32>, tensor<*xf32>) {
    %r = arith.constant dense<[[3.0, 4.0]]> : tensor<1x2xf32>
    %rs = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %x = arith.constant dense<[[[1.0, 3.0], [2.0, 6.0]]]> : tensor<1x2x2xf32>
    %scale = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %b = arith.constant dense<[0.0, 1.0]> : tensor<2xf32>
    %0 = onnx.node "RMSNormalization" opset 23 (%r, %rs) {} : (tensor<1x2xf32>, tensor<2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "InstanceNormalization" opset 6 (%x, %scale, %b) {} : (tensor<1x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}

// -----

// LpNormalization p 2 along the last axis of [[3, 4], [0, 0]]: [3, 4] / 5, and a zero norm
// gives 0; p 1 along axis 0 of [[1, 3], [3, 1]]: each column / 4.
// MeanVarianceNormalization, (x - mean) / (sqrt(var) + 1e-9): x [1, 2, 1, 2] with channels
// [1, 3] and [2, 6]; the default axes [0, 2, 3] normalize each channel (std 1 and 2):
// [-1, 1] twice; axes [1] normalize across the channels at each position: [1, 2] and [3, 6]
// -> [-1, 1] each.
// CHECK: @lp_mvn result 0: tensor<2x2xf32> = {{\[\[}}0.6, 0.8], [0.0, 0.0]]
// CHECK: @lp_mvn result 1: tensor<2x2xf32> = {{\[\[}}0.25, 0.75], [0.75, 0.25]]
// CHECK: @lp_mvn result 2: tensor<1x2x1x2xf32> = {{\[\[\[\[}}-1.0, 1.0]], {{\[\[}}-1.0, 1.0]]]]
// CHECK: @lp_mvn result 3: tensor<1x2x1x2xf32> = {{\[\[\[\[}}-1.0, -1.0]], {{\[\[}}1.0, 1.0]]]]
module {
  func.func @lp_mvn() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[[3.0, 4.0], [0.0, 0.0]]> : tensor<2x2xf32>
    %c = arith.constant dense<[[1.0, 3.0], [3.0, 1.0]]> : tensor<2x2xf32>
    %x = arith.constant dense<[[[[1.0, 3.0]], [[2.0, 6.0]]]]> : tensor<1x2x1x2xf32>
    %0 = onnx.node "LpNormalization" opset 1 (%a) {} : (tensor<2x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "LpNormalization" opset 1 (%c) {axis = 0 : i64, p = 1 : i64} : (tensor<2x2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "MeanVarianceNormalization" opset 13 (%x) {} : (tensor<1x2x1x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "MeanVarianceNormalization" opset 13 (%x) {axes = array<i64: 1>} : (tensor<1x2x1x2xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// GroupNormalization, eps 0. x [1, 4, 1] = channels 1..4, num_groups 2: groups [1, 2] and
// [3, 4] (variance 0.25) both normalize to [-1, 1]. Opset 18 applies scale [1, 2] and
// B [0, 1] per group: [-1, 1, -2 + 1, 2 + 1]; opset 21 per channel, scale [1, 2, 3, 4],
// B [0, 0, 0, 1]: [-1, 2, -3, 5]. With spatial dims, x [1, 2, 2] = [[1, 3], [2, 6]] and
// 2 groups (one channel each): [-1, 1] per channel, then scale [1, 2], B [0, 1].
// CHECK: @group_norm result 0: tensor<1x4x1xf32> = {{\[\[\[}}-1.0], [1.0], [-1.0], [3.0]]]
// CHECK: @group_norm result 1: tensor<1x4x1xf32> = {{\[\[\[}}-1.0], [2.0], [-3.0], [5.0]]]
// CHECK: @group_norm result 2: tensor<1x2x2xf32> = {{\[\[\[}}-1.0, 1.0], [-1.0, 3.0]]]
module {
  func.func @group_norm() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0], [2.0], [3.0], [4.0]]]> : tensor<1x4x1xf32>
    %gs = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %gb = arith.constant dense<[0.0, 1.0]> : tensor<2xf32>
    %cs = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %cb = arith.constant dense<[0.0, 0.0, 0.0, 1.0]> : tensor<4xf32>
    %y = arith.constant dense<[[[1.0, 3.0], [2.0, 6.0]]]> : tensor<1x2x2xf32>
    %0 = onnx.node "GroupNormalization" opset 18 (%x, %gs, %gb) {num_groups = 2 : i64, epsilon = 0.0 : f32} : (tensor<1x4x1xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "GroupNormalization" opset 21 (%x, %cs, %cb) {num_groups = 2 : i64, epsilon = 0.0 : f32} : (tensor<1x4x1xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "GroupNormalization" opset 21 (%y, %gs, %gb) {num_groups = 2 : i64, epsilon = 0.0 : f32} : (tensor<1x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}
