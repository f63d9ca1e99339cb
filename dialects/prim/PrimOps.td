//===- PrimOps.td - the closed primitive set ------------------------------------------===//
//
// The op definitions are split by family; docs/prims.md is the reader's overview.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_PRIM_OPS
#define TCC_PRIM_OPS

include "dialects/prim/PrimBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class Prim_Op<string mnemonic, list<Trait> traits = []> : Op<Prim_Dialect, mnemonic, traits>;

def Prim_FloatTensor : RankedTensorOf<[AnyFloat]>;
def Prim_IntTensor : RankedTensorOf<[AnyInteger]>;
def Prim_NumericTensor : RankedTensorOf<[AnyFloat, AnyInteger]>;
def Prim_BoolTensor : RankedTensorOf<[I1]>;

/// An op whose result sizes the C++ class computes (`reifyResultShapes`).
defvar Prim_Reify = DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface, ["reifyResultShapes"]>;

include "dialects/prim/PrimElementwise.td"
include "dialects/prim/PrimDataMovement.td"
include "dialects/prim/PrimReductions.td"
include "dialects/prim/PrimShapes.td"
include "dialects/prim/PrimStrings.td"

#endif // TCC_PRIM_OPS
