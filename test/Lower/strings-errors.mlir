// RUN: tcc-opt %s --tcc-signless-types --verify-diagnostics
// tcc-signless-types turns strings into i128 zeros only when they are empty: a constant with
// texts must have been lowered to code first (tcc-lower-prim-to-linalg does it).

func.func @text_constant() -> tensor<2x!prim.string> {
  // expected-error @+1 {{a constant string tensor with non-empty strings is not supported yet (only empty strings can be constants)}}
  %c = arith.constant dense<["a", ""]> : tensor<2x!prim.string>
  return %c : tensor<2x!prim.string>
}
