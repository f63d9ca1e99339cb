// RUN: tcc-opt %s --tcc-lower-runtime-calls --verify-diagnostics
// Without @main's import-table argument (tcc-range-kernels adds it) the pass refuses.

// expected-error @+1 {{internal error: tcc-lower-runtime-calls needs @main's import table argument (run tcc-range-kernels first)}}
module {
  func.func @main(%n: index) -> i64 {
    %t = prim.run_context
    return %t : i64
  }
}
