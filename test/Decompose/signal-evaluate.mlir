// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/Signal.cpp on constants, evaluated: the three windows, DFT
// (padding, truncation, RFFT, inverse, IRFFT, opset 20's axis input, and an extent known
// only at run time, which builds the unit roots from iotas), STFT, MelWeightMatrix and
// ReverseSequence. Expected values from numpy (np.fft, the windows' formulas, ONNX's
// reference formula for the mel matrix); values ~0 are checked as below 1e-5.

// CHECK: @hann_periodic result 0: tensor<4xf32> = [0.0, 0.5, 1.0, 0.5]
module {
  func.func @hann_periodic() -> tensor<*xf32> {
    %size = arith.constant dense<4> : tensor<i64>
    %0 = onnx.node "HannWindow" opset 17 (%size) {} : (tensor<i64>) -> !onnx.value loc("w"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @hamming_symmetric result 0: tensor<5xf32> = [0.0869565{{[0-9]*}}, 0.543478{{[0-9]*}}, 1.0, 0.543478{{[0-9]*}}, 0.0869565{{[0-9]*}}]
module {
  func.func @hamming_symmetric() -> tensor<*xf32> {
    %size = arith.constant dense<5> : tensor<i32>
    %0 = onnx.node "HammingWindow" opset 17 (%size) {periodic = 0 : i64} : (tensor<i32>) -> !onnx.value loc("w"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @blackman_f64 result 0: tensor<6xf64> = [{{-?[0-9.]+e-(0[6-9]|[1-9][0-9])}}, {{0\.1(2999|3)[0-9]*}}, {{0\.6(2999|3)[0-9]*}}, {{0\.99999[0-9]*|1\.0}}, {{0\.6(2999|3)[0-9]*}}, {{0\.1(2999|3)[0-9]*}}]
module {
  func.func @blackman_f64() -> tensor<*xf32> {
    %size = arith.constant dense<6> : tensor<i64>
    %0 = onnx.node "BlackmanWindow" opset 17 (%size) {output_datatype = 11 : i64} : (tensor<i64>) -> !onnx.value loc("w"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @hann_int64 result 0: tensor<3xi64> = [0, 1, 0]
module {
  func.func @hann_int64() -> tensor<*xf32> {
    %size = arith.constant dense<3> : tensor<i64>
    %0 = onnx.node "HannWindow" opset 17 (%size) {output_datatype = 7 : i64, periodic = 0 : i64} : (tensor<i64>) -> !onnx.value loc("w"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @dft_padded result 0: tensor<1x4x2xf32> = {{\[\[}}[6.0, 0.0], [-2.0, -2.0], [2.0, 0.0], [-2.0, 2.0]]]
module {
  func.func @dft_padded() -> tensor<*xf32> {
    %x = arith.constant dense<[[[1.0], [2.0], [3.0]]]> : tensor<1x3x1xf32>
    %len = arith.constant dense<4> : tensor<i64>
    %0 = onnx.node "DFT" opset 17 (%x, %len) {} : (tensor<1x3x1xf32>, tensor<i64>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @dft_truncated_onesided result 0: tensor<1x3x2xf32> = {{\[\[}}[10.0, 0.0], [-2.0, 2.0], [-2.0, 0.0]]]
module {
  func.func @dft_truncated_onesided() -> tensor<*xf32> {
    %x = arith.constant dense<[[[1.0], [2.0], [3.0], [4.0], [5.0]]]> : tensor<1x5x1xf32>
    %len = arith.constant dense<4> : tensor<i32>
    %0 = onnx.node "DFT" opset 17 (%x, %len) {onesided = 1 : i64} : (tensor<1x5x1xf32>, tensor<i32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @dft_inverse_axis0 result 0: tensor<3x2x2x2xf32> = {{\[\[}}{{\[\[}}1.33333{{[0-9]*}}, 0.5], [0.0, 1.33333{{[0-9]*}}]], {{\[\[}}0.833333{{[0-9]*}}, 1.0], [0.0, 0.5]]], {{\[\[}}[-1.03269{{[0-9]*}}, 0.866025{{[0-9]*}}], [0.0773502{{[0-9]*}}, -0.955341{{[0-9]*}}]], {{\[\[}}0.410683{{[0-9]*}}, -1.73205{{[0-9]*}}], [1.43301{{[0-9]*}}, 0.404700{{[0-9]*}}]]], {{\[\[}}[0.699358{{[0-9]*}}, -0.866025{{[0-9]*}}], [-1.07735{{[0-9]*}}, -0.377991{{[0-9]*}}]], {{\[\[}}-0.744016{{[0-9]*}}, 1.73205{{[0-9]*}}], [0.566987{{[0-9]*}}, -1.90470{{[0-9]*}}]]]]
module {
  func.func @dft_inverse_axis0() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[ 1. ,  0.5],   [-1. ,  0. ]],  [[ 0.5,  1. ],   [ 2. , -1. ]]], [[[ 3. ,  2. ],   [ 0. ,  1. ]],  [[-2. ,  0. ],   [ 1. ,  0.5]]], [[[ 0. , -1. ],   [ 1. ,  3. ]],  [[ 4. ,  2. ],   [-3. ,  2. ]]]]> : tensor<3x2x2x2xf32>
    %axis = arith.constant dense<0> : tensor<i64>
    %none = onnx.none
    %0 = onnx.node "DFT" opset 20 (%x, %none, %axis) {inverse = 1 : i64} : (tensor<3x2x2x2xf32>, none, tensor<i64>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @irfft_odd_length result 0: tensor<1x5x1xf64> = {{\[\[}}[1.0], [4.0], [-2.0], [3.0], [0.500000{{[0-9]*}}]]]
module {
  func.func @irfft_odd_length() -> tensor<*xf32> {
    %x = arith.constant dense<[[[ 6.5               ,  0.                ],  [ 1.581559480312316 , -0.3897715455706714],  [-2.331559480312316 , -6.812530964499423 ]]]> : tensor<1x3x2xf64>
    %len = arith.constant dense<5> : tensor<i64>
    %0 = onnx.node "DFT" opset 20 (%x, %len) {inverse = 1 : i64, onesided = 1 : i64} : (tensor<1x3x2xf64>, tensor<i64>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @irfft_default_length result 0: tensor<1x4x1xf32> = {{\[\[}}[1.0], [2.0], [3.0], [4.0]]]
module {
  func.func @irfft_default_length() -> tensor<*xf32> {
    %x = arith.constant dense<[[[10.  ,  0.5 ],  [-2.  ,  2.  ],  [-2.  ,  0.25]]]> : tensor<1x3x2xf32>
    %none = onnx.none
    %axis = arith.constant dense<-2> : tensor<i64>
    %0 = onnx.node "DFT" opset 20 (%x, %none, %axis) {inverse = 1 : i64, onesided = 1 : i64} : (tensor<1x3x2xf32>, none, tensor<i64>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @dft_dynamic_extent result 0: tensor<1x3x2xf32> = {{\[\[}}[15.0, 0.0], [-2.5, 3.44095{{[0-9]*}}], [-2.5, 0.812299{{[0-9]*}}]]]
module {
  func.func @dft_dynamic_extent() -> tensor<*xf32> {
    %x = arith.constant dense<[[[1.0], [2.0], [3.0], [4.0], [5.0]]]> : tensor<1x5x1xf32>
    %d = tensor.cast %x : tensor<1x5x1xf32> to tensor<1x?x1xf32>
    %0 = onnx.node "DFT" opset 17 (%d) {onesided = 1 : i64} : (tensor<1x?x1xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @dft_dynamic_inverse_complex result 0: tensor<1x3x2xf32> = {{\[\[}}[0.666666{{[0-9]*}}, 1.33333{{[0-9]*}}], [0.744016{{[0-9]*}}, 0.199358{{[0-9]*}}], [-0.410683{{[0-9]*}}, -1.53269{{[0-9]*}}]]]
module {
  func.func @dft_dynamic_inverse_complex() -> tensor<*xf32> {
    %x = arith.constant dense<[[[ 1.,  0.],  [ 2.,  1.],  [-1.,  3.]]]> : tensor<1x3x2xf32>
    %d = tensor.cast %x : tensor<1x3x2xf32> to tensor<1x?x2xf32>
    %0 = onnx.node "DFT" opset 17 (%d) {inverse = 1 : i64} : (tensor<1x?x2xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @stft_window result 0: tensor<1x2x3x2xf32> = {{\[\[}}{{\[\[}}4.0, 0.0], [-2.0, 1.0], [0.0, 0.0]], {{\[\[}}8.0, 0.0], [-4.0, 1.0], [0.0, 0.0]]]]
module {
  func.func @stft_window() -> tensor<*xf32> {
    %x = arith.constant dense<[[[0.],  [1.],  [2.],  [3.],  [4.],  [5.]]]> : tensor<1x6x1xf32>
    %step = arith.constant dense<2> : tensor<i64>
    %w = arith.constant dense<[0.                , 0.5000000000000001, 1.                , 0.5000000000000002]> : tensor<4xf32>
    %0 = onnx.node "STFT" opset 17 (%x, %step, %w) {} : (tensor<1x6x1xf32>, tensor<i64>, tensor<4xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @stft_complex_two_sided result 0: tensor<1x2x3x2xf32> = {{\[\[}}{{\[\[}}3.0, 2.0], [-3.46410{{[0-9]*}}, -2.73205{{[0-9]*}}], [3.46410{{[0-9]*}}, 0.732050{{[0-9]*}}]], {{\[\[}}1.0, 6.0], [-1.36602{{[0-9]*}}, 4.09807{{[0-9]*}}], [0.366025{{[0-9]*}}, -1.09807{{[0-9]*}}]]]]
module {
  func.func @stft_complex_two_sided() -> tensor<*xf32> {
    %x = arith.constant dense<[[[ 1.,  0.],  [ 2., -1.],  [ 0.,  3.],  [-1.,  1.],  [ 2.,  2.]]]> : tensor<1x5x2xf32>
    %step = arith.constant dense<2> : tensor<i64>
    %len = arith.constant dense<3> : tensor<i64>
    %none = onnx.none
    %0 = onnx.node "STFT" opset 17 (%x, %step, %none, %len) {onesided = 0 : i64} : (tensor<1x5x2xf32>, tensor<i64>, none, tensor<i64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @mel result 0: tensor<9x3xf32> = {{\[\[}}0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.5, 0.5], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
module {
  func.func @mel() -> tensor<*xf32> {
    %bands = arith.constant dense<3> : tensor<i64>
    %len = arith.constant dense<16> : tensor<i64>
    %rate = arith.constant dense<1000> : tensor<i64>
    %lo = arith.constant dense<50.0> : tensor<f32>
    %hi = arith.constant dense<500.0> : tensor<f32>
    %0 = onnx.node "MelWeightMatrix" opset 17 (%bands, %len, %rate, %lo, %hi) {} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> !onnx.value loc("m"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @reverse_time_first result 0: tensor<3x2x2xf32> = {{\[\[}}[8.0, 9.0], [6.0, 7.0]], {{\[\[}}4.0, 5.0], [2.0, 3.0]], {{\[\[}}0.0, 1.0], [10.0, 11.0]]]
module {
  func.func @reverse_time_first() -> tensor<*xf32> {
    %x = arith.constant dense<[[[ 0.,  1.],  [ 2.,  3.]], [[ 4.,  5.],  [ 6.,  7.]], [[ 8.,  9.],  [10., 11.]]]> : tensor<3x2x2xf32>
    %lens = arith.constant dense<[3, 2]> : tensor<2xi64>
    %0 = onnx.node "ReverseSequence" opset 10 (%x, %lens) {} : (tensor<3x2x2xf32>, tensor<2xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @reverse_batch_first_int result 0: tensor<2x4xi32> = {{\[\[}}0, 1, 2, 3], [6, 5, 4, 7]]
module {
  func.func @reverse_batch_first_int() -> tensor<*xf32> {
    %x = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi32>
    %lens = arith.constant dense<[0, 3]> : tensor<2xi64>
    %0 = onnx.node "ReverseSequence" opset 10 (%x, %lens) {batch_axis = 0 : i64, time_axis = 1 : i64} : (tensor<2x4xi32>, tensor<2xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
