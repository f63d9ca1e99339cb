// REQUIRES: ptxas
// RUN: tcc-opt %s --tcc-nvidia-assemble=ptxas=%ptxas | FileCheck %s

// With ptxas, a cubin for the PTX's architecture joins it (an ELF: "\7FELF").
// CHECK: gpu.binary @tcc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "{{.*}}">, #gpu.object<#nvvm.target<chip = "sm_90">, bin = "\7FELF
gpu.binary @tcc_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n">]

// A ptxas that fails is an error quoting its output.
// RUN: not tcc-opt %s --tcc-nvidia-assemble=ptxas=/bin/false 2>&1 | FileCheck %s --check-prefix=FAILED
// FAILED: error: ptxas (/bin/false) failed for sm_90 with exit code 1
