//===- GuardedBytes.h - bytes against an inaccessible page ------------------*- C++ -*-===//
//
// A check that nothing reads or writes beyond a tensor: its bytes are placed so that they
// end where an inaccessible page begins (After), or begin where one ends (Before); an access
// past either end then faults instead of going unnoticed (what electric-fence allocators
// do). tcc-run --guard-pages and tcc-conformance --guard-pages place the tensors they hand
// to the runtime this way. Header-only and free of LLVM: tcc-run, which ships without the
// compiler's libraries, uses it too.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_SUPPORT_GUARDEDBYTES_H
#define TCC_SUPPORT_GUARDEDBYTES_H

#include <algorithm>
#include <cstddef>

#include <sys/mman.h>
#include <unistd.h>

namespace tcc {

enum class GuardPages { None, After, Before };

/// `size` zero bytes, 16-byte aligned, against an inaccessible page: exactly when `size` is a
/// multiple of 16 (After; else the last byte lies within the 15 before the page), exactly
/// (Before). Move-only; data() is null when the system refused the memory.
class GuardedBytes {
public:
  GuardedBytes() = default;
  GuardedBytes(size_t size, GuardPages where) {
    size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    size_t rounded = (size + 15) / 16 * 16;
    size_t dataPages = (std::max<size_t>(rounded, 1) + page - 1) / page * page;
    size_t length = dataPages + page;
    void *mapped =
        ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
      return;
    char *first = static_cast<char *>(mapped);
    char *guard = where == GuardPages::Before ? first : first + dataPages;
    if (::mprotect(guard, page, PROT_NONE) != 0) {
      ::munmap(mapped, length);
      return;
    }
    base = mapped;
    mappedLength = length;
    bytes = where == GuardPages::Before ? first + page : guard - rounded;
  }
  GuardedBytes(GuardedBytes &&other) noexcept { *this = static_cast<GuardedBytes &&>(other); }
  GuardedBytes &operator=(GuardedBytes &&other) noexcept {
    std::swap(base, other.base);
    std::swap(mappedLength, other.mappedLength);
    std::swap(bytes, other.bytes);
    return *this;
  }
  GuardedBytes(const GuardedBytes &) = delete;
  GuardedBytes &operator=(const GuardedBytes &) = delete;
  ~GuardedBytes() {
    if (base)
      ::munmap(base, mappedLength);
  }

  void *data() const { return bytes; }

private:
  void *base = nullptr;
  size_t mappedLength = 0;
  char *bytes = nullptr;
};

} // namespace tcc

#endif // TCC_SUPPORT_GUARDEDBYTES_H
