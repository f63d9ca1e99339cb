// RUN: tcc-opt %s --tcc-lower-prim-to-linalg --tcc-signless-types --verify-diagnostics
// A constant string tensor can only hold empty strings (zero i128s) so far.

func.func @text_constant() -> tensor<2x!prim.string> {
  // expected-error @+1 {{a constant string tensor with non-empty strings is not supported yet (only empty strings can be constants)}}
  %c = arith.constant dense<["a", ""]> : tensor<2x!prim.string>
  return %c : tensor<2x!prim.string>
}
