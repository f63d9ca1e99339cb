//===- NpyFuzzer.cpp - libFuzzer target: tcc-run's .npy reader on arbitrary bytes ---------===//
//
// A .npy file is untrusted input to tcc-run: any bytes must give an array or a message, never
// a read outside the file or an allocation the header merely claims. What parses must be
// self-consistent: as many bytes of data as elements times their size.
//
//===------------------------------------------------------------------------------------===//
#include "NpyFile.h"

#include "tcc/runtime.h"

#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  tcc_run::NpyArray array;
  std::string error = tcc_run::parseNpy(bytes, array);
  if (!error.empty())
    return 0;
  size_t element = array.dtype == TCC_DTYPE_STRING
                       ? sizeof(tcc_string)
                       : static_cast<size_t>(tcc_dtype_size(array.dtype));
  int64_t count = 1;
  for (int64_t dim : array.shape)
    count *= dim;
  if (count != array.count || array.data.size() < static_cast<size_t>(array.count) * element)
    std::abort(); // a parsed array that does not hold what its shape says
  return 0;
}
