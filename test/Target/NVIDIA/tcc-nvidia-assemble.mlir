// RUN: tcc-opt %s --split-input-file --tcc-nvidia-assemble --verify-diagnostics

// PTX that calls a function it does not define (libdevice's, which the model cannot link)
// is an error naming it.
// expected-error @+1 {{the kernels for sm_90 call a function the PTX does not define (.extern .func (.param .b32 func_retval0) __nv_expf(): device code must not use libdevice}}
gpu.binary @tcc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 7.8\n.target sm_90\n.extern .func (.param .b32 func_retval0) __nv_expf(\n.param .b32 x)\n">]

// -----

// Without ptxas the PTX stays alone.
gpu.binary @tcc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 7.8\n.target sm_90\n.address_size 64\n">]
