//===- Pages.h - giving memory pages back to the system ---------------------*- C++ -*-===//
//
// A large model's weights are read from a mapped file; once copied or written out, their
// pages need not stay in the compiler's memory (compile memory bounded by the weights).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_SUPPORT_PAGES_H
#define TCC_SUPPORT_PAGES_H

#include "llvm/ADT/ArrayRef.h"

namespace tcc {

enum class PageAdvice {
  /// MADV_DONTNEED: only for a read-only mapping of a file, which gives the pages again.
  DropFileMapping,
  /// MADV_PAGEOUT: any memory; contents are kept (anonymous memory is at most swapped out).
  Reclaim,
};

/// Gives the advice for the pages that lie wholly inside `bytes` (none where the system has
/// no such advice).
void adviseWholePages(llvm::ArrayRef<char> bytes, PageAdvice advice);

} // namespace tcc

#endif // TCC_SUPPORT_PAGES_H
