// RUN: tcc-opt %s --tcc-test-evaluate | FileCheck %s
// String tensors: the four string primitives with the runtime's semantics (model_abi.h's
// string_format, string_parse, string_change_case, string_find), and strings moved by the
// data movement ops. Expected texts as NumPy's str() writes the numbers (float32 values are
// ONNX's test_cast_FLOAT_to_STRING data).

// Floats: the fewest digits that read back in the value's own type, positional for
// 1e-4 <= |x| < 1e16 (".0" when integral), else scientific.
// CHECK: @format_f32 result 0: tensor<12x!prim.string> = ["0.9767611", "0.6048455", "0.039187793", "100.0", "0.1", "-2.5", "0.00015", "1e-05", "1.5e-07", "1e+16", "3.4028235e+38", "1e-45"]
// CHECK: @format_f32 result 1: tensor<5x!prim.string> = ["nan", "inf", "-inf", "0.0", "-0.0"]
func.func @format_f32() -> (tensor<12x!prim.string>, tensor<5x!prim.string>) {
  %x = arith.constant dense<[0.9767611, 0.6048455, 0.039187793, 100.0, 0.1, -2.5, 1.5e-4, 1.0e-5, 1.5e-7, 1.0e16, 3.4028235e38, 1.0e-45]> : tensor<12xf32>
  %0 = prim.format %x : tensor<12xf32> to tensor<12x!prim.string>
  %y = arith.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, 0.0, -0.0]> : tensor<5xf32>
  %1 = prim.format %y : tensor<5xf32> to tensor<5x!prim.string>
  return %0, %1 : tensor<12x!prim.string>, tensor<5x!prim.string>
}

// f32's 1e-4 is 9.99999974738e-05 (below 1e-4: scientific), f64's is not. At a power of two
// the values that read back reach twice as far above as below, and the shortest decimal may
// be the one above the nearest (2^87 in f32 is 1.547425049e+26; 1.5474250e+26 reads back as
// another float).
// CHECK: @format_other_floats result 0: tensor<4x!prim.string> = ["0.1", "0.0001", "1e+16", "9999999999999998.0"]
// CHECK: @format_other_floats result 1: tensor<3x!prim.string> = ["0.1", "65500.0", "0.01563"]
// CHECK: @format_other_floats result 2: tensor<3x!prim.string> = ["0.1", "3.39e+38", "1.85e+19"]
// CHECK: @format_other_floats result 3: tensor<3x!prim.string> = ["1e-04", "1.5474251e+26", "1.2621775e-29"]
func.func @format_other_floats() -> (tensor<4x!prim.string>, tensor<3x!prim.string>, tensor<3x!prim.string>, tensor<3x!prim.string>) {
  %d = arith.constant dense<[0.1, 1.0e-4, 1.0e16, 9999999999999998.0]> : tensor<4xf64>
  %0 = prim.format %d : tensor<4xf64> to tensor<4x!prim.string>
  %h = arith.constant dense<[0.1, 65504.0, 0.015625]> : tensor<3xf16>
  %1 = prim.format %h : tensor<3xf16> to tensor<3x!prim.string>
  %b = arith.constant dense<[0.1, 3.389531389e38, 0x5F80]> : tensor<3xbf16>
  %2 = prim.format %b : tensor<3xbf16> to tensor<3x!prim.string>
  %f = arith.constant dense<[1.0e-4, 0x6B000000, 0x0F800000]> : tensor<3xf32>
  %3 = prim.format %f : tensor<3xf32> to tensor<3x!prim.string>
  return %0, %1, %2, %3 : tensor<4x!prim.string>, tensor<3x!prim.string>, tensor<3x!prim.string>, tensor<3x!prim.string>
}

// Integers in decimal by their signedness (signless is signed), bools as True/False.
// CHECK: @format_integers result 0: tensor<3x!prim.string> = ["-128", "0", "127"]
// CHECK: @format_integers result 1: tensor<2x!prim.string> = ["255", "18446744073709551615"]
// CHECK: @format_integers result 2: tensor<2x!prim.string> = ["-9223372036854775808", "42"]
// CHECK: @format_integers result 3: tensor<2x!prim.string> = ["True", "False"]
func.func @format_integers() -> (tensor<3x!prim.string>, tensor<2x!prim.string>, tensor<2x!prim.string>, tensor<2x!prim.string>) {
  %a = arith.constant dense<[-128, 0, 127]> : tensor<3xi8>
  %0 = prim.format %a : tensor<3xi8> to tensor<3x!prim.string>
  %b = arith.constant dense<[255, 18446744073709551615]> : tensor<2xui64>
  %1 = prim.format %b : tensor<2xui64> to tensor<2x!prim.string>
  %c = arith.constant dense<[-9223372036854775808, 42]> : tensor<2xsi64>
  %2 = prim.format %c : tensor<2xsi64> to tensor<2x!prim.string>
  %d = arith.constant dense<[true, false]> : tensor<2xi1>
  %3 = prim.format %d : tensor<2xi1> to tensor<2x!prim.string>
  return %0, %1, %2, %3 : tensor<3x!prim.string>, tensor<2x!prim.string>, tensor<2x!prim.string>, tensor<2x!prim.string>
}

// Floats: white space around, ONNX's words in any case, plain decimals rounded once.
// CHECK: @parse_floats result 0: tensor<10xf32> = [0.5, -1.25, 1000.0, 1e-05, nan, inf, inf, -inf, 0.1, 5.0]
// CHECK: @parse_floats result 1: tensor<3xf64> = [0.1, inf, -0.0]
// CHECK: @parse_floats result 2: tensor<2xf16> = [0.1, 65500.0]
func.func @parse_floats() -> (tensor<10xf32>, tensor<3xf64>, tensor<2xf16>) {
  %s = arith.constant dense<[" 0.5", "-1.25\n", "1e3", "+1E-5", "NaN", "INF", "+inf", "-INF", ".1", "5."]> : tensor<10x!prim.string>
  %0 = prim.parse %s : tensor<10x!prim.string> to tensor<10xf32>
  %t = arith.constant dense<["0.1", "Infinity", "-0"]> : tensor<3x!prim.string>
  %1 = prim.parse %t : tensor<3x!prim.string> to tensor<3xf64>
  %u = arith.constant dense<["0.1", "65504"]> : tensor<2x!prim.string>
  %2 = prim.parse %u : tensor<2x!prim.string> to tensor<2xf16>
  return %0, %1, %2 : tensor<10xf32>, tensor<3xf64>, tensor<2xf16>
}

// Integers range-checked ("-0" is 0), bools as True/False/1/0 in any case.
// CHECK: @parse_integers result 0: tensor<4xi8> = [-128, 127, 0, 7]
// CHECK: @parse_integers result 1: tensor<2xui64> = [18446744073709551615, 0]
// CHECK: @parse_integers result 2: tensor<4xi1> = [true, false, true, false]
func.func @parse_integers() -> (tensor<4xi8>, tensor<2xui64>, tensor<4xi1>) {
  %s = arith.constant dense<["-128", "127", "-0", " +7 "]> : tensor<4x!prim.string>
  %0 = prim.parse %s : tensor<4x!prim.string> to tensor<4xi8>
  %t = arith.constant dense<["18446744073709551615", "0"]> : tensor<2x!prim.string>
  %1 = prim.parse %t : tensor<2x!prim.string> to tensor<2xui64>
  %u = arith.constant dense<["True", "FALSE", "1", "0"]> : tensor<4x!prim.string>
  %2 = prim.parse %u : tensor<4x!prim.string> to tensor<4xi1>
  return %0, %1, %2 : tensor<4xi8>, tensor<2xui64>, tensor<4xi1>
}

// A text that is not a number of the result's type is an error that quotes it.
// CHECK: @parse_not_a_number error: prim.parse at {{.*}}: element 1: the string 'abc' is not a number of type f32
func.func @parse_not_a_number() -> tensor<2xf32> {
  %s = arith.constant dense<["1", "abc"]> : tensor<2x!prim.string>
  %0 = prim.parse %s : tensor<2x!prim.string> to tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK: @parse_float_as_integer error: prim.parse at {{.*}}: element 0: the string '1.5' is not a number of type i32
func.func @parse_float_as_integer() -> tensor<1xi32> {
  %s = arith.constant dense<"1.5"> : tensor<1x!prim.string>
  %0 = prim.parse %s : tensor<1x!prim.string> to tensor<1xi32>
  return %0 : tensor<1xi32>
}

// CHECK: @parse_out_of_range error: prim.parse at {{.*}}: element 0: the string '128' is outside the range of i8
func.func @parse_out_of_range() -> tensor<1xi8> {
  %s = arith.constant dense<"128"> : tensor<1x!prim.string>
  %0 = prim.parse %s : tensor<1x!prim.string> to tensor<1xi8>
  return %0 : tensor<1xi8>
}

// CHECK: @parse_not_a_bool error: prim.parse at {{.*}}: element 0: the string 'yes' is not a bool (True, False, 1 or 0)
func.func @parse_not_a_bool() -> tensor<1xi1> {
  %s = arith.constant dense<"yes"> : tensor<1x!prim.string>
  %0 = prim.parse %s : tensor<1x!prim.string> to tensor<1xi1>
  return %0 : tensor<1xi1>
}

// Code point by code point (Unicode letters too); bytes that are not UTF-8 stay.
// CHECK: @change_case result 0: tensor<3x!prim.string> = ["MONDAY", "\C3\9CBER STRA\C3\9FE", "A\FFB"]
// CHECK: @change_case result 1: tensor<3x!prim.string> = ["monday", "\C3\BCber stra\C3\9Fe", "a\FFb"]
func.func @change_case() -> (tensor<3x!prim.string>, tensor<3x!prim.string>) {
  %s = arith.constant dense<["Monday", "\C3\BCber Stra\C3\9Fe", "a\FFB"]> : tensor<3x!prim.string>
  %0 = prim.change_case %s upper = true : tensor<3x!prim.string>
  %1 = prim.change_case %s upper = false : tensor<3x!prim.string>
  return %0, %1 : tensor<3x!prim.string>, tensor<3x!prim.string>
}

// Exact bytes, or both sides lower-cased with ignore_case.
// CHECK: @string_in result 0: tensor<4xi1> = [false, true, false, false]
// CHECK: @string_in result 1: tensor<4xi1> = [true, true, true, false]
func.func @string_in() -> (tensor<4xi1>, tensor<4xi1>) {
  %s = arith.constant dense<["MONDAY", "monday", "\C3\9Cber", "tuesday"]> : tensor<4x!prim.string>
  %0 = prim.string_in %s set = ["monday", "\C3\BCber", ""] ignore_case = false : tensor<4x!prim.string>
  %1 = prim.string_in %s set = ["monday", "\C3\BCber", ""] ignore_case = true : tensor<4x!prim.string>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// Strings move as any element does.
// CHECK: @movement result 0: tensor<3x2x!prim.string> = {{\[\[}}"a", "b"], ["c", "d"], ["e", "f"]]
// CHECK: @movement result 1: tensor<3x2x!prim.string> = {{\[\[}}"a", "d"], ["b", "e"], ["c", "f"]]
// CHECK: @movement result 2: tensor<2x2x!prim.string> = {{\[\[}}"b", "c"], ["e", "f"]]
// CHECK: @movement result 3: tensor<2x4x!prim.string> = {{\[\[}}"", "a", "b", "c"], ["", "d", "e", "f"]]
// CHECK: @movement result 4: tensor<2x4x!prim.string> = {{\[\[}}"a", "b", "c", "x"], ["d", "e", "f", "y"]]
// CHECK: @movement result 5: tensor<2x3x!prim.string> = {{\[\[}}"f", "e", "d"], ["c", "b", "a"]]
// CHECK: @movement result 6: tensor<2x2x!prim.string> = {{\[\[}}"c", "a"], ["f", "d"]]
// CHECK: @movement result 7: tensor<2x3x2x!prim.string> = {{\[\[\[}}"a", "a"], ["b", "b"], ["c", "c"]], {{\[\[}}"d", "d"], ["e", "e"], ["f", "f"]]]
func.func @movement() -> (tensor<3x2x!prim.string>, tensor<3x2x!prim.string>, tensor<2x2x!prim.string>,
                          tensor<2x4x!prim.string>, tensor<2x4x!prim.string>, tensor<2x3x!prim.string>,
                          tensor<2x2x!prim.string>, tensor<2x3x2x!prim.string>) {
  %x = arith.constant dense<[["a", "b", "c"], ["d", "e", "f"]]> : tensor<2x3x!prim.string>
  %0 = prim.reshape %x : (tensor<2x3x!prim.string>) -> tensor<3x2x!prim.string>
  %1 = prim.transpose %x, [1, 0] : tensor<2x3x!prim.string> -> tensor<3x2x!prim.string>
  %2 = prim.slice %x [0, 1] [2, 2] strides [1, 1] : tensor<2x3x!prim.string> -> tensor<2x2x!prim.string>
  %empty = arith.constant dense<""> : tensor<!prim.string>
  %3 = prim.pad %x, %empty low [0, 1] high [0, 0] : (tensor<2x3x!prim.string>, tensor<!prim.string>) -> tensor<2x4x!prim.string>
  %y = arith.constant dense<[["x"], ["y"]]> : tensor<2x1x!prim.string>
  %4 = prim.concatenate %x, %y dim = 1 : (tensor<2x3x!prim.string>, tensor<2x1x!prim.string>) -> tensor<2x4x!prim.string>
  %5 = prim.reverse %x, dims = [0, 1] : tensor<2x3x!prim.string>
  %i = arith.constant dense<[2, 0]> : tensor<2xi64>
  %6 = prim.gather %x[%i] axis = 1 : (tensor<2x3x!prim.string>, tensor<2xi64>) -> tensor<2x2x!prim.string>
  %r = prim.reshape %x : (tensor<2x3x!prim.string>) -> tensor<2x3x1x!prim.string>
  %7 = prim.broadcast_in_dim %r, dims = [0, 1, 2] : (tensor<2x3x1x!prim.string>) -> tensor<2x3x2x!prim.string>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3x2x!prim.string>, tensor<3x2x!prim.string>, tensor<2x2x!prim.string>,
                                          tensor<2x4x!prim.string>, tensor<2x4x!prim.string>, tensor<2x3x!prim.string>,
                                          tensor<2x2x!prim.string>, tensor<2x3x2x!prim.string>
}

// compact keeps the masked slices; select, scatter, extract and from_elements pick strings.
// CHECK: @pick result 0: tensor<2x2x!prim.string> = {{\[\[}}"a", "c"], ["d", "f"]]
// CHECK: @pick result 1: tensor<3x!prim.string> = ["a", "y", "c"]
// CHECK: @pick result 2: tensor<3x!prim.string> = ["u", "y", "c"]
// CHECK: @pick result 3: tensor<2x!prim.string> = ["b", "e"]
// CHECK: @pick result 4: tensor<3x!prim.string> = ["x", "y", "z"]
func.func @pick() -> (tensor<2x?x!prim.string>, tensor<3x!prim.string>, tensor<3x!prim.string>, tensor<2x!prim.string>, tensor<3x!prim.string>) {
  %x = arith.constant dense<[["a", "b", "c"], ["d", "e", "f"]]> : tensor<2x3x!prim.string>
  %m = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %0 = prim.compact %x, %m dim = 1 : (tensor<2x3x!prim.string>, tensor<3xi1>) -> tensor<2x?x!prim.string>
  %a = arith.constant dense<["a", "b", "c"]> : tensor<3x!prim.string>
  %b = arith.constant dense<["x", "y", "z"]> : tensor<3x!prim.string>
  %p = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %1 = prim.select %p, %a, %b : tensor<3xi1>, tensor<3x!prim.string>
  %i = arith.constant dense<[[0]]> : tensor<1x1xi64>
  %u = arith.constant dense<["u"]> : tensor<1x!prim.string>
  %2 = prim.scatter %1[%i], %u : (tensor<3x!prim.string>, tensor<1x1xi64>, tensor<1x!prim.string>) -> tensor<3x!prim.string>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e0 = tensor.extract %x[%c0, %c1] : tensor<2x3x!prim.string>
  %e1 = tensor.extract %x[%c1, %c1] : tensor<2x3x!prim.string>
  %3 = tensor.from_elements %e0, %e1 : tensor<2x!prim.string>
  %4 = arith.select %p, %b, %b : tensor<3xi1>, tensor<3x!prim.string>
  return %0, %1, %2, %3, %4 : tensor<2x?x!prim.string>, tensor<3x!prim.string>, tensor<3x!prim.string>, tensor<2x!prim.string>, tensor<3x!prim.string>
}
