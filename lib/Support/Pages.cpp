//===- Pages.cpp - giving memory pages back to the system ------------------------------===//
#include "tcc/Support/Pages.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Process.h"

#if defined(__linux__) || defined(__APPLE__)
#include <sys/mman.h>
#endif

void tcc::adviseWholePages(llvm::ArrayRef<char> bytes, PageAdvice advice) {
#if defined(__linux__) || defined(__APPLE__)
  int flag = MADV_DONTNEED;
  if (advice == PageAdvice::Reclaim) {
#ifdef MADV_PAGEOUT
    flag = MADV_PAGEOUT;
#else
    return;
#endif
  }
  uint64_t page = llvm::sys::Process::getPageSizeEstimate();
  uint64_t begin = llvm::alignTo(reinterpret_cast<uintptr_t>(bytes.data()), page);
  uint64_t end = llvm::alignDown(reinterpret_cast<uintptr_t>(bytes.data()) + bytes.size(), page);
  if (end > begin)
    (void)::madvise(reinterpret_cast<void *>(begin), end - begin, flag);
#else
  (void)bytes;
  (void)advice;
#endif
}
