//===- ExpandCopies.cpp - strided memref.copy -> linalg.copy (loops, no runtime library) -===//
#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace tcc {
#define GEN_PASS_DEF_EXPANDCOPIES
#include "tcc/Codegen/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {
struct ExpandCopiesPass : tcc::impl::ExpandCopiesBase<ExpandCopiesPass> {
  void runOnOperation() override {
    getOperation().walk([](memref::CopyOp copy) {
      // Between contiguous buffers a copy lowers to one memcpy (LLVM's intrinsic), faster
      // than a loop nest; only strided ones would call the runtime library.
      auto source = cast<MemRefType>(copy.getSource().getType());
      auto target = cast<MemRefType>(copy.getTarget().getType());
      if (source.getLayout().isIdentity() && target.getLayout().isIdentity())
        return;
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(), copy.getTarget());
      copy.erase();
    });
  }
};
} // namespace
