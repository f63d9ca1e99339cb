//===- NpyFile.h - NumPy .npy files for tcc-run, without MLIR/LLVM ----------------*- C++ -*-===//
//
// tcc-run is deployed next to compiled models, without the compiler's libraries, so it has its
// own small reader and writer (the compiler's is tcc/Evaluate/Npy.h).
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_TOOLS_TCC_RUN_NPYFILE_H
#define TCC_TOOLS_TCC_RUN_NPYFILE_H

#include "tcc/Support/GuardedBytes.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace tcc_run {

/// Sets where AlignedBuffers made from now on put their bytes (tcc-run --guard-pages): on the
/// heap, aligned to 64 (None, the default), or against an inaccessible page
/// (tcc::GuardedBytes), so that a read or write beyond a tensor faults.
void setGuardPages(tcc::GuardPages where);

/// Zero-filled bytes aligned to 64 (16 with guard pages), so that tensors handed to the
/// runtime are aligned for any kernel.
class AlignedBuffer {
public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t bytes);
  void *data() { return guarded.data() ? guarded.data() : heap.get(); }
  const void *data() const { return guarded.data() ? guarded.data() : heap.get(); }
  size_t size() const { return bytes; }

private:
  struct Free {
    void operator()(void *p) const { std::free(p); }
  };
  std::unique_ptr<void, Free> heap;
  tcc::GuardedBytes guarded;
  size_t bytes = 0;
};

/// An array read from a .npy file: C order, little-endian, with a tcc dtype.
///
/// A string array ('<U{n}' or '|S{n}', dtype TCC_DTYPE_STRING) has `data` holding `count`
/// tcc_string elements (16-byte aligned) that point into `stringBytes`, the elements' UTF-8
/// bytes one after the other. Moving the array keeps those pointers valid (a std::vector's
/// buffer does not move with it); copying is impossible (AlignedBuffer).
struct NpyArray {
  int32_t dtype = 0;   ///< a tcc_dtype
  std::string descr;   ///< as written in the file, e.g. "<f4"
  std::vector<int64_t> shape;
  int64_t count = 0;   ///< number of elements
  AlignedBuffer data;  ///< count * element size bytes
  std::vector<char> stringBytes; ///< TCC_DTYPE_STRING: what `data`'s elements point into
};

/// Reads `path` (format 1.0, 2.0 or 3.0; dtypes f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1, and
/// strings: '<U{n}' (n UTF-32 code units per element, trailing NULs padding; converted to
/// UTF-8) and '|S{n}' (n bytes, trailing NULs stripped); little-endian; C order, or Fortran
/// order for rank <= 1). Returns "" on success, else a message; malformed files never cause
/// out-of-bounds reads.
std::string readNpy(const std::string &path, NpyArray &out);

/// readNpy on the bytes of a file already read (what the fuzz target feeds it).
std::string parseNpy(const std::string &bytes, NpyArray &out);

/// Writes a tensor of tcc dtype `dtype` as a .npy file (format 1.0, or 2.0 for huge headers).
/// bfloat16, which NumPy lacks, is written as its raw bits ('<u2'). A string tensor (`data`
/// an array of bytes / 16 tcc_string) is written as '<U{n}', n the most code points of an
/// element (at least 1), or as '|S{n}' (n the most bytes) when an element is not valid
/// UTF-8; NumPy drops trailing NULs of either. Returns "" or a message.
std::string writeNpy(const std::string &path, int32_t dtype, const std::vector<int64_t> &shape,
                     const void *data, size_t bytes);

/// The .npy descr of a numeric tcc dtype ("<f4", "|b1"), or "" if there is none (strings
/// have one per array: see writeNpy).
std::string npyDescr(int32_t dtype);

/// The code points of `size` bytes of UTF-8, appended to `out`; false (and `out` unchanged)
/// when they are not valid UTF-8 (overlong forms, surrogates and values past U+10FFFF are
/// invalid).
bool decodeUtf8(const char *text, size_t size, std::vector<uint32_t> &out);

/// Appends the UTF-8 bytes of code point `c` to `out`; false for a surrogate or a value past
/// U+10FFFF.
bool encodeUtf8(uint32_t c, std::vector<char> &out);

} // namespace tcc_run

#endif // TCC_TOOLS_TCC_RUN_NPYFILE_H
