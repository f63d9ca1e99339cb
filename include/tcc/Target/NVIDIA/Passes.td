//===- Passes.td - the NVIDIA target: PTX to cubin --------------------------------------===//
#ifndef TCC_TARGET_NVIDIA_PASSES
#define TCC_TARGET_NVIDIA_PASSES

include "mlir/Pass/PassBase.td"

def NvidiaAssemble : Pass<"tcc-nvidia-assemble", "mlir::ModuleOp"> {
  let summary = "Check the PTX of each gpu.binary and add a cubin per architecture (ptxas)";
  let description = [{
    Runs after `gpu-module-to-binary{format=isa}`, whose objects are PTX text, one per
    `#nvvm.target`. A PTX that calls an external function (a libdevice `__nv_*` math
    function: tcc's kernels use polynomial math, so such a call is a bug) is an error naming
    it. With `ptxas` set (the path of CUDA's ptxas), each PTX is also assembled for its
    architecture (`ptxas -arch=sm_NN -O3`) and the cubin is added to the binary beside it;
    the runtime loads the cubin on that architecture and has the driver compile the PTX on
    others. A failing ptxas is an error that quotes its output.
  }];
  let options = [
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"\"",
           "path of ptxas (empty: PTX only)">,
  ];
}

#endif // TCC_TARGET_NVIDIA_PASSES
