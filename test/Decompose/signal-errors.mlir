// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the rules of lib/Decompose/Signal.cpp (HannWindow,
// HammingWindow, BlackmanWindow, DFT, STFT, MelWeightMatrix, ReverseSequence): each names
// the node, its op type and opset, and what was expected.

module {
  func.func @window_size_unknown(%arg0: tensor<?xi64>) -> tensor<*xf32> {
    // A size read at run time must still be one value.
    // CHECK: error: node 'w' (HannWindow, opset 17): input 0 (size) has type 'tensor<?xi64>', expected an integer scalar
    %0 = onnx.node "HannWindow" opset 17 (%arg0) {} : (tensor<?xi64>) -> !onnx.value loc("w"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @window_size_negative() -> tensor<*xf32> {
    %size = arith.constant dense<-3> : tensor<i64>
    // CHECK: error: node 'w' (HammingWindow, opset 17): size is -3, expected a length in [0, 1073741824]
    %0 = onnx.node "HammingWindow" opset 17 (%size) {} : (tensor<i64>) -> !onnx.value loc("w"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @window_bool_output() -> tensor<*xf32> {
    %size = arith.constant dense<4> : tensor<i64>
    // CHECK: error: node 'w' (BlackmanWindow, opset 17): attribute 'output_datatype' is 9, expected a numeric ONNX data type (an integer or floating-point type)
    %0 = onnx.node "BlackmanWindow" opset 17 (%size) {output_datatype = 9 : i64} : (tensor<i64>) -> !onnx.value loc("w"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @window_size_vector() -> tensor<*xf32> {
    %size = arith.constant dense<[4, 5]> : tensor<2xi64>
    // CHECK: error: node 'w' (HannWindow, opset 17): input 0 (size) has type 'tensor<2xi64>', expected an integer scalar
    %0 = onnx.node "HannWindow" opset 17 (%size) {} : (tensor<2xi64>) -> !onnx.value loc("w"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dft_parts(%arg0: tensor<1x4x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'd' (DFT, opset 17): the input has type 'tensor<1x4x3xf32>', expected rank >= 2 and a last dim of 1 (real) or 2 (complex)
    %0 = onnx.node "DFT" opset 17 (%arg0) {} : (tensor<1x4x3xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dft_axis_last(%arg0: tensor<1x4x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'd' (DFT, opset 17): axis -1 is out of range for an input of rank 3 (expected [-3, -2] or [0, 1]; the last dim holds the complex parts)
    %0 = onnx.node "DFT" opset 17 (%arg0) {axis = -1 : i64} : (tensor<1x4x2xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dft_axis_input_unknown(%arg0: tensor<1x4x2xf32>, %arg1: tensor<i64>) -> tensor<*xf32> {
    %none = onnx.none
    // An axis read at run time is chosen then, unless the output's shape depends on it.
    // CHECK: error: node 'd' (DFT, opset 20): input 2 (axis) is known only at run time, and with onesided the output's shape depends on it: tcc needs it while compiling
    %0 = onnx.node "DFT" opset 20 (%arg0, %none, %arg1) {onesided = 1 : si64} : (tensor<1x4x2xf32>, none, tensor<i64>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dft_length_zero(%arg0: tensor<1x4x1xf32>) -> tensor<*xf32> {
    %len = arith.constant dense<0> : tensor<i64>
    // CHECK: error: node 'd' (DFT, opset 17): dft_length is 0, expected >= 1
    %0 = onnx.node "DFT" opset 17 (%arg0, %len) {} : (tensor<1x4x1xf32>, tensor<i64>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dft_length_unknown(%arg0: tensor<1x4x1xf32>, %arg1: tensor<i64>) -> tensor<*xf32> {
    // CHECK: error: node 'd' (DFT, opset 17): input 1 (dft_length) must be known while compiling (an initializer, a Constant node or shape arithmetic on static dims): it determines the output shape
    %0 = onnx.node "DFT" opset 17 (%arg0, %arg1) {} : (tensor<1x4x1xf32>, tensor<i64>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @irfft_single_bin(%arg0: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'd' (DFT, opset 17): the DFT length is 0 (from an axis of extent 1), expected >= 1
    %0 = onnx.node "DFT" opset 17 (%arg0) {inverse = 1 : i64, onesided = 1 : i64} : (tensor<1x1x2xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dft_integer(%arg0: tensor<1x4x1xi32>) -> tensor<*xf32> {
    // CHECK: error: node 'd' (DFT, opset 17): input 0 has element type 'i32', expected a floating-point type
    %0 = onnx.node "DFT" opset 17 (%arg0) {} : (tensor<1x4x1xi32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @stft_step_zero(%arg0: tensor<1x16x1xf32>) -> tensor<*xf32> {
    %step = arith.constant dense<0> : tensor<i64>
    // CHECK: error: node 's' (STFT, opset 17): frame_step is 0, expected >= 1
    %0 = onnx.node "STFT" opset 17 (%arg0, %step) {} : (tensor<1x16x1xf32>, tensor<i64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @stft_window_length(%arg0: tensor<1x16x1xf32>, %arg1: tensor<8xf32>) -> tensor<*xf32> {
    %step = arith.constant dense<4> : tensor<i64>
    %len = arith.constant dense<6> : tensor<i64>
    // CHECK: error: node 's' (STFT, opset 17): the window has 8 elements, expected frame_length (6)
    %0 = onnx.node "STFT" opset 17 (%arg0, %step, %arg1, %len) {} : (tensor<1x16x1xf32>, tensor<i64>, tensor<8xf32>, tensor<i64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @stft_short_signal(%arg0: tensor<1x4x1xf32>) -> tensor<*xf32> {
    %step = arith.constant dense<1> : tensor<i64>
    %len = arith.constant dense<8> : tensor<i64>
    %none = onnx.none
    // CHECK: error: node 's' (STFT, opset 17): the signal has 4 samples, fewer than one frame of 8
    %0 = onnx.node "STFT" opset 17 (%arg0, %step, %none, %len) {} : (tensor<1x4x1xf32>, tensor<i64>, none, tensor<i64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @stft_rank(%arg0: tensor<1x2x16x1xf32>) -> tensor<*xf32> {
    %step = arith.constant dense<4> : tensor<i64>
    // CHECK: error: node 's' (STFT, opset 17): the signal has type 'tensor<1x2x16x1xf32>', expected [batch_size, signal_length, 1 or 2]
    %0 = onnx.node "STFT" opset 17 (%arg0, %step) {} : (tensor<1x2x16x1xf32>, tensor<i64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mel_above_nyquist() -> tensor<*xf32> {
    %bands = arith.constant dense<4> : tensor<i64>
    %len = arith.constant dense<16> : tensor<i64>
    %rate = arith.constant dense<1000> : tensor<i64>
    %lo = arith.constant dense<0.0> : tensor<f32>
    %hi = arith.constant dense<900.0> : tensor<f32>
    // CHECK: error: node 'm' (MelWeightMatrix, opset 17): mel band edge 5 falls on spectrogram bin 11, outside [0, 9]: expected 0 <= lower_edge_hertz <= upper_edge_hertz <= sample_rate / 2
    %0 = onnx.node "MelWeightMatrix" opset 17 (%bands, %len, %rate, %lo, %hi) {} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> !onnx.value loc("m"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mel_edge_not_scalar(%arg0: tensor<2xf32>) -> tensor<*xf32> {
    %bands = arith.constant dense<4> : tensor<i64>
    %len = arith.constant dense<16> : tensor<i64>
    %rate = arith.constant dense<1000> : tensor<i64>
    %lo = arith.constant dense<0.0> : tensor<f32>
    // CHECK: error: node 'm' (MelWeightMatrix, opset 17): input 4 (upper_edge_hertz) has type 'tensor<2xf32>', expected a floating-point scalar
    %0 = onnx.node "MelWeightMatrix" opset 17 (%bands, %len, %rate, %lo, %arg0) {} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<2xf32>) -> !onnx.value loc("m"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mel_bands_zero() -> tensor<*xf32> {
    %bands = arith.constant dense<0> : tensor<i64>
    %len = arith.constant dense<16> : tensor<i64>
    %rate = arith.constant dense<1000> : tensor<i64>
    %lo = arith.constant dense<0.0> : tensor<f32>
    %hi = arith.constant dense<400.0> : tensor<f32>
    // CHECK: error: node 'm' (MelWeightMatrix, opset 17): num_mel_bins (0), dft_length (16) and sample_rate (1000) must be >= 1
    %0 = onnx.node "MelWeightMatrix" opset 17 (%bands, %len, %rate, %lo, %hi) {} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> !onnx.value loc("m"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @reverse_axes(%arg0: tensor<4x3xf32>, %arg1: tensor<3xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (ReverseSequence, opset 10): batch_axis 0 and time_axis 0 must be 0 and 1, one each
    %0 = onnx.node "ReverseSequence" opset 10 (%arg0, %arg1) {batch_axis = 0 : i64, time_axis = 0 : i64} : (tensor<4x3xf32>, tensor<3xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @reverse_rank(%arg0: tensor<4xf32>, %arg1: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (ReverseSequence, opset 10): the input has type 'tensor<4xf32>', expected rank >= 2
    %0 = onnx.node "ReverseSequence" opset 10 (%arg0, %arg1) {} : (tensor<4xf32>, tensor<4xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @reverse_lengths_count(%arg0: tensor<4x3xf32>, %arg1: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (ReverseSequence, opset 10): sequence_lens has 2 entries, expected one per batch entry (3)
    %0 = onnx.node "ReverseSequence" opset 10 (%arg0, %arg1) {} : (tensor<4x3xf32>, tensor<2xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @reverse_lengths_float(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (ReverseSequence, opset 10): sequence_lens has type 'tensor<3xf32>', expected a vector of integers
    %0 = onnx.node "ReverseSequence" opset 10 (%arg0, %arg1) {} : (tensor<4x3xf32>, tensor<3xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
