//===- NarrowBias.h - an attention bias that does not depend on the query row -----------===//
//
// A padding mask (BERT's attention_mask) reaches the attention as [batch, 1, M, N]: the
// exporters broadcast the keys' flags over the query rows before combining them. Each
// query row of it is the same, so the kernel can read one row, [batch, 1, 1, N], broadcast:
// narrowQueryDim rebuilds the bias with extent 1 along the query dim, from the same ops on
// operands that have extent 1 there (or do not have the dim), when it can show that none of
// them depends on the row. The [M × N] mask is then never made.
//
//===-------------------------------------------------------------------------------------===//
#ifndef TCC_LIB_FUSE_NARROWBIAS_H
#define TCC_LIB_FUSE_NARROWBIAS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <string>

namespace tcc {

/// `bias` with extent 1 along its dim `queryDim` (its rows along that dim are all equal),
/// built at `b`'s insertion point; null when that is not shown, `why` saying what stopped it.
mlir::Value narrowQueryDim(mlir::OpBuilder &b, mlir::Value bias, int64_t queryDim,
                           std::string &why);

} // namespace tcc

#endif // TCC_LIB_FUSE_NARROWBIAS_H
