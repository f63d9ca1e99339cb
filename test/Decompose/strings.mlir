// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx | FileCheck %s
// String tensors (lib/Decompose/Strings.cpp, Cast's rule): the four string primitives, and
// StringNormalizer's stopwords removed by prim.compact.

// Cast to STRING is prim.format, Cast from STRING prim.parse.
// CHECK-LABEL: func.func @cast
// CHECK: %[[S:.*]] = prim.format %arg0 : tensor<3x4xf32> to tensor<3x4x!prim.string>
// CHECK: %[[X:.*]] = prim.parse %[[S]] : tensor<3x4x!prim.string> to tensor<3x4xi64>
// CHECK: return %[[S]], %[[X]]
module {
  func.func @cast(%arg0: tensor<3x4xf32>) -> (tensor<3x4x!prim.string>, tensor<3x4xi64>) {
    %0 = onnx.node "Cast" opset 21 (%arg0) {to = 8 : i64} : (tensor<3x4xf32>) -> !onnx.value
    %1 = onnx.node "Cast" opset 21 (%0) {to = 7 : i64} : (!onnx.value) -> !onnx.value
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}

// -----

// CastLike takes the string type of its second input.
// CHECK-LABEL: func.func @cast_like
// CHECK: prim.format %arg0 : tensor<2xf64> to tensor<2x!prim.string>
module {
  func.func @cast_like(%arg0: tensor<2xf64>, %arg1: tensor<1x!prim.string>) -> tensor<2x!prim.string> {
    %0 = onnx.node "CastLike" opset 21 (%arg0, %arg1) {} : (tensor<2xf64>, tensor<1x!prim.string>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Stopwords compared ignoring case (is_case_sensitive = 0), the rest upper-cased; an empty
// string joins the values, kept only when nothing else is, and the result is [1, C'].
// CHECK-LABEL: func.func @normalize
// CHECK-SAME: -> tensor<1x?x!prim.string>
// CHECK: %[[X:.*]] = prim.reshape %arg0 : (tensor<1x3x!prim.string>) -> tensor<3x!prim.string>
// CHECK: %[[U:.*]] = prim.change_case %[[X]] upper = true : tensor<3x!prim.string>
// CHECK: %[[F:.*]] = prim.string_in %[[X]] set = ["monday", "Sunday"] ignore_case = true : tensor<3x!prim.string>
// CHECK: %[[K:.*]] = prim.not %[[F]] : tensor<3xi1>
// CHECK: prim.reduce or
// CHECK: prim.not %{{.*}} : tensor<i1>
// CHECK: %[[NONE:.*]] = prim.reshape
// CHECK: %[[E:.*]] = arith.constant dense<""> : tensor<1x!prim.string>
// CHECK: %[[V:.*]] = prim.concatenate %[[U]], %[[E]]
// CHECK: %[[M:.*]] = prim.concatenate %[[K]], %[[NONE]]
// CHECK: %[[C:.*]] = prim.compact %[[V]], %[[M]] dim = 0 : (tensor<4x!prim.string>, tensor<4xi1>) -> tensor<?x!prim.string>
// CHECK: prim.reshape %[[C]]
module {
  func.func @normalize(%arg0: tensor<1x3x!prim.string>) -> tensor<*x!prim.string> {
    %0 = onnx.node "StringNormalizer" opset 10 (%arg0) {case_change_action = "UPPER", stopwords = ["monday", "Sunday"]} : (tensor<1x3x!prim.string>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Without stopwords nothing is removed: the shape stays, and case-sensitive or not, only the
// case changes.
// CHECK-LABEL: func.func @lower_only
// CHECK-SAME: -> tensor<5x!prim.string>
// CHECK: prim.change_case %arg0 upper = false
// CHECK-NOT: prim.compact
module {
  func.func @lower_only(%arg0: tensor<5x!prim.string>) -> tensor<*x!prim.string> {
    %0 = onnx.node "StringNormalizer" opset 10 (%arg0) {case_change_action = "LOWER", is_case_sensitive = 1 : i64} : (tensor<5x!prim.string>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}

// -----

// RegexFullMatch (opset 20): prim.string_match with the pattern; Equal on strings compares
// bytes; StringConcat broadcasts.
// CHECK-LABEL: func.func @regex_equal_concat
// CHECK: prim.string_match %arg0 pattern = "a\\d+" : tensor<3x!prim.string>
// CHECK: prim.string_equal %arg0, %arg1 : tensor<3x!prim.string>
// CHECK: %[[B:.*]] = prim.broadcast_in_dim %arg2
// CHECK: prim.string_concat %arg0, %[[B]] : tensor<3x!prim.string>
module {
  func.func @regex_equal_concat(%arg0: tensor<3x!prim.string>, %arg1: tensor<3x!prim.string>, %arg2: tensor<1x!prim.string>) -> (tensor<3xi1>, tensor<3xi1>, tensor<3x!prim.string>) {
    %0 = onnx.node "RegexFullMatch" opset 20 (%arg0) {pattern = "a\\d+"} : (tensor<3x!prim.string>) -> !onnx.value
    %1 = onnx.node "Equal" opset 19 (%arg0, %arg1) {} : (tensor<3x!prim.string>, tensor<3x!prim.string>) -> !onnx.value
    %2 = onnx.node "StringConcat" opset 20 (%arg0, %arg2) {} : (tensor<3x!prim.string>, tensor<1x!prim.string>) -> !onnx.value
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}
