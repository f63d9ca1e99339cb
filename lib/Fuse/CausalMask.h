//===- CausalMask.h - an attention bias that is a causal mask, proved from its IR -------===//
//
// The exporters build a causal mask from indices: iotas along the query and key dims, their
// difference compared with a constant, selects of constants (torch's Trilu / triu /
// masked_fill, dynamo's `Where(Equal(Trilu(ones), 0), -inf, 0)`). causalOffset evaluates
// such a bias symbolically and, when it is 0 where key j <= query i + t and a value that
// removes the key from the softmax elsewhere, returns t: `kernel.attention {causal = t}`
// then computes it from the indices, and neither the [M × N] bias nor the keys above the
// diagonal are read.
//
//===-------------------------------------------------------------------------------------===//
#ifndef TCC_LIB_FUSE_CAUSALMASK_H
#define TCC_LIB_FUSE_CAUSALMASK_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace tcc {

/// The most negative bias that counts as removing a key: exp(s + bias - max) is exactly 0
/// in f32 for every score s below 1e29 in magnitude (the exporters' -inf and
/// finfo(float32).min, -3.4e38).
constexpr float kMaskedBias = -1e30f;

/// t >= 0 when `bias` (scores dim `biasDims[d]` is its dim d; the query rows are score dim
/// rank - 2, the keys rank - 1) is proved to be 0 where j - i <= t and at most kMaskedBias
/// where j - i > t, for every query i and key j, whatever the extents; else nullopt and
/// `why` says what stopped the proof. t >= 0: every row keeps key 0, so no row is wholly
/// masked and the softmax is the same with the keys left out.
std::optional<int64_t> causalOffset(mlir::Value bias, llvm::ArrayRef<int64_t> biasDims,
                                    int64_t rank, std::string &why);

} // namespace tcc

#endif // TCC_LIB_FUSE_CAUSALMASK_H
