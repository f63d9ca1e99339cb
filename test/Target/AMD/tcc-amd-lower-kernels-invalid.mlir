// RUN: tcc-opt %s --pass-pipeline='builtin.module(gpu.module(tcc-amd-lower-kernels))' --verify-diagnostics

// Without a #rocdl.target the chip is unknown.
module attributes {gpu.container_module} {
  // expected-error @+1 {{tcc-amd-lower-kernels needs a #rocdl.target on the gpu.module (rocdl-attach-target)}}
  gpu.module @tcc_kernels {
  }
}
