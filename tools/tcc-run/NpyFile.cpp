//===- NpyFile.cpp - NumPy .npy files for tcc-run -------------------------------------===//
//
// The format: "\x93NUMPY", major and minor version bytes, the header length (2 bytes in 1.0,
// 4 bytes in 2.0/3.0, little-endian), then a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a newline, then the raw data.
//
//===------------------------------------------------------------------------------------===//
#include "NpyFile.h"

#include "tcc/model_abi.h"
#include "tcc/runtime.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "tcc-run reads .npy files as little-endian");

namespace tcc_run {

namespace {
tcc::GuardPages guardPages = tcc::GuardPages::None;
} // namespace

void setGuardPages(tcc::GuardPages where) { guardPages = where; }

AlignedBuffer::AlignedBuffer(size_t size) : bytes(size) {
  if (guardPages != tcc::GuardPages::None) {
    guarded = tcc::GuardedBytes(size, guardPages); // fresh pages are zero
    if (!guarded.data())
      bytes = 0;
    return;
  }
  size_t rounded = (size + 63) / 64 * 64;
  heap.reset(std::aligned_alloc(64, rounded ? rounded : 64));
  if (heap)
    std::memset(heap.get(), 0, rounded ? rounded : 64);
  else
    bytes = 0;
}

namespace {

struct DtypeEntry {
  char kind;
  size_t size;
  int32_t dtype;
};

const DtypeEntry kDtypes[] = {
    {'f', 2, TCC_DTYPE_FLOAT16}, {'f', 4, TCC_DTYPE_FLOAT32}, {'f', 8, TCC_DTYPE_FLOAT64},
    {'i', 1, TCC_DTYPE_INT8},    {'i', 2, TCC_DTYPE_INT16},   {'i', 4, TCC_DTYPE_INT32},
    {'i', 8, TCC_DTYPE_INT64},   {'u', 1, TCC_DTYPE_UINT8},   {'u', 2, TCC_DTYPE_UINT16},
    {'u', 4, TCC_DTYPE_UINT32},  {'u', 8, TCC_DTYPE_UINT64},  {'b', 1, TCC_DTYPE_BOOL},
};

/// A cursor over the header text; every read is bounds-checked.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : text(text) {}

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' ||
                                 text[pos] == '\r'))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool peek(char c) {
    skipSpace();
    return pos < text.size() && text[pos] == c;
  }
  bool atEnd() {
    skipSpace();
    return pos == text.size();
  }
  bool parseString(std::string &out) {
    skipSpace();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return false;
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == std::string::npos)
      return false;
    out = text.substr(pos, end - pos);
    pos = end + 1;
    return true;
  }
  bool parseWord(const char *word) {
    skipSpace();
    size_t length = std::strlen(word);
    if (text.compare(pos, length, word) != 0)
      return false;
    pos += length;
    return true;
  }
  bool parseDim(int64_t &out) {
    skipSpace();
    size_t start = pos;
    uint64_t value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      value = value * 10 + static_cast<uint64_t>(text[pos] - '0');
      if (value > static_cast<uint64_t>(INT64_MAX))
        return false;
      ++pos;
    }
    if (pos == start)
      return false;
    if (pos < text.size() && text[pos] == 'L') // written by Python 2
      ++pos;
    out = static_cast<int64_t>(value);
    return true;
  }

private:
  const std::string &text;
  size_t pos = 0;
};

std::string parseHeader(const std::string &header, NpyArray &out, bool &fortranOrder) {
  HeaderParser parser(header);
  bool haveDescr = false, haveOrder = false, haveShape = false;
  if (!parser.consume('{'))
    return "the header is not a dict";
  while (!parser.consume('}')) {
    std::string key;
    if (!parser.parseString(key) || !parser.consume(':'))
      return "the header is malformed";
    if (key == "descr") {
      if (haveDescr || !parser.parseString(out.descr))
        return "the header's 'descr' is malformed";
      haveDescr = true;
    } else if (key == "fortran_order") {
      if (haveOrder)
        return "the header has 'fortran_order' twice";
      if (parser.parseWord("True"))
        fortranOrder = true;
      else if (parser.parseWord("False"))
        fortranOrder = false;
      else
        return "the header's 'fortran_order' is not True or False";
      haveOrder = true;
    } else if (key == "shape") {
      if (haveShape || !parser.consume('('))
        return "the header's 'shape' is not a tuple";
      while (!parser.consume(')')) {
        int64_t dim = 0;
        if (!parser.parseDim(dim))
          return "the header's 'shape' holds something other than non-negative integers";
        out.shape.push_back(dim);
        if (!parser.consume(',') && !parser.peek(')'))
          return "the header's 'shape' is malformed";
      }
      haveShape = true;
    } else {
      return "the header has the unexpected key '" + key + "'";
    }
    if (!parser.consume(',') && !parser.peek('}'))
      return "the header is malformed";
  }
  if (!parser.atEnd())
    return "the header has text after its dict";
  if (!haveDescr || !haveOrder || !haveShape)
    return std::string("the header lacks '") +
           (!haveDescr ? "descr" : !haveOrder ? "fortran_order" : "shape") + "'";
  return "";
}

/// The tcc dtype and bytes per element of a descr; `stringKind` is 'U' or 'S' for the string
/// kinds (dtype TCC_DTYPE_STRING, `size` the bytes per element in the file), else 0.
std::string resolveDescr(const std::string &descr, int32_t &dtype, size_t &size,
                         char &stringKind) {
  stringKind = 0;
  if (descr.size() >= 2 && descr[1] == 'O')
    return "'" + descr + "' is a NumPy object array, which .npy stores pickled: tcc never "
           "unpickles a file; save strings with a fixed width (np.array(values, dtype=str) "
           "gives '<U')";
  if (descr.size() < 3)
    return "unsupported dtype '" + descr + "'";
  char order = descr[0], kind = descr[1];
  if (order == '>')
    return "big-endian data ('" + descr + "') is not supported";
  std::string digits = descr.substr(2);
  // ml_dtypes' bfloat16 (what onnx uses) saves as 2-byte void: its bits, as a <u2 file holds
  // them (a bfloat16 input or reference takes either).
  if (kind == 'V' && digits == "2" && (order == '<' || order == '|' || order == '=')) {
    dtype = TCC_DTYPE_UINT16;
    size = 2;
    return "";
  }
  if (kind == 'U' || kind == 'S') {
    // Up to 9 digits: at most 4e9 bytes per element, no overflow below.
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos ||
        (kind == 'U' && order != '<' && order != '=') ||
        (kind == 'S' && order != '|' && order != '<' && order != '='))
      return "unsupported dtype '" + descr + "'";
    size = static_cast<size_t>(std::stoul(digits)) * (kind == 'U' ? 4 : 1);
    dtype = TCC_DTYPE_STRING;
    stringKind = kind;
    return "";
  }
  if (digits.size() != 1 || digits[0] < '1' || digits[0] > '8')
    return "unsupported dtype '" + descr + "'";
  size = static_cast<size_t>(digits[0] - '0');
  if (order != '<' && order != '=' && !(order == '|' && size == 1))
    return "unsupported dtype '" + descr + "'";
  for (const DtypeEntry &entry : kDtypes)
    if (entry.kind == kind && entry.size == size) {
      dtype = entry.dtype;
      return "";
    }
  return "unsupported dtype '" + descr +
         "' (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1, U and S strings, V2 as "
         "bfloat16 bits)";
}

std::string hexCodePoint(uint32_t c) {
  char text[16];
  std::snprintf(text, sizeof(text), "U+%04X", c);
  return text;
}

/// Fills `out.data` (count tcc_string) and `out.stringBytes` from the file's `elementSize`
/// bytes per element at `raw`: UTF-32LE code units ('U') or bytes ('S'), trailing NULs cut.
std::string readStrings(const char *raw, size_t elementSize, char stringKind, NpyArray &out) {
  size_t count = static_cast<size_t>(out.count);
  std::vector<std::pair<size_t, size_t>> spans(count); // offset, size in stringBytes
  for (size_t i = 0; i < count; ++i) {
    const char *element = raw + i * elementSize;
    size_t start = out.stringBytes.size();
    if (stringKind == 'S') {
      size_t length = elementSize;
      while (length > 0 && element[length - 1] == '\0')
        --length;
      out.stringBytes.insert(out.stringBytes.end(), element, element + length);
    } else {
      size_t units = elementSize / 4;
      uint32_t unit = 0;
      while (units > 0 && (std::memcpy(&unit, element + (units - 1) * 4, 4), unit == 0))
        --units;
      for (size_t u = 0; u < units; ++u) {
        std::memcpy(&unit, element + u * 4, 4);
        if (!encodeUtf8(unit, out.stringBytes))
          return "string element " + std::to_string(i) + " holds " + hexCodePoint(unit) +
                 ", which is not a Unicode scalar value (no UTF-8 for it)";
      }
    }
    spans[i] = {start, out.stringBytes.size() - start};
  }
  // Never empty, so that every element points somewhere (even one of size 0).
  out.stringBytes.push_back('\0');
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(count), sizeof(tcc_string), &bytes))
    return "the shape is too large";
  out.data = AlignedBuffer(static_cast<size_t>(bytes));
  if (!out.data.data())
    return "out of memory";
  tcc_string *elements = static_cast<tcc_string *>(out.data.data());
  for (size_t i = 0; i < count; ++i) {
    elements[i].data = out.stringBytes.data() + spans[i].first;
    elements[i].size = static_cast<int64_t>(spans[i].second);
  }
  return "";
}

uint32_t readLittleEndian(const std::string &bytes, size_t offset, size_t count) {
  uint32_t value = 0;
  for (size_t i = 0; i < count; ++i)
    value |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  return value;
}

} // namespace

bool encodeUtf8(uint32_t c, std::vector<char> &out) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return false;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
  return true;
}

bool decodeUtf8(const char *text, size_t size, std::vector<uint32_t> &out) {
  size_t initial = out.size();
  const unsigned char *bytes = reinterpret_cast<const unsigned char *>(text);
  for (size_t i = 0; i < size;) {
    unsigned char lead = bytes[i];
    uint32_t c;
    size_t length;
    if (lead < 0x80) {
      c = lead;
      length = 1;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      c = lead & 0x1F;
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      c = lead & 0x0F;
      length = 3;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      c = lead & 0x07;
      length = 4;
    } else {
      out.resize(initial);
      return false;
    }
    if (size - i < length) {
      out.resize(initial);
      return false;
    }
    for (size_t k = 1; k < length; ++k) {
      if ((bytes[i + k] & 0xC0) != 0x80) {
        out.resize(initial);
        return false;
      }
      c = (c << 6) | (bytes[i + k] & 0x3F);
    }
    // Overlong forms, surrogates, past U+10FFFF.
    if ((length == 3 && c < 0x800) || (length == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
        (c >= 0xD800 && c <= 0xDFFF)) {
      out.resize(initial);
      return false;
    }
    out.push_back(c);
    i += length;
  }
  return true;
}

std::string npyDescr(int32_t dtype) {
  if (dtype == TCC_DTYPE_BFLOAT16)
    return "<u2";
  for (const DtypeEntry &entry : kDtypes)
    if (entry.dtype == dtype)
      return std::string(entry.size == 1 ? "|" : "<") + entry.kind +
             static_cast<char>('0' + entry.size);
  return "";
}

std::string readNpy(const std::string &path, NpyArray &out) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return std::string("cannot open it: ") + std::strerror(errno);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad())
    return "cannot read it";
  return parseNpy(bytes, out);
}

std::string parseNpy(const std::string &bytes, NpyArray &out) {
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return "not a .npy file (no \\x93NUMPY magic)";
  unsigned major = static_cast<unsigned char>(bytes[6]);
  unsigned minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3)
    return "unsupported .npy format version " + std::to_string(major) + "." +
           std::to_string(minor);
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t preamble = 8 + lengthBytes;
  if (bytes.size() < preamble)
    return "truncated .npy header";
  size_t headerLength = readLittleEndian(bytes, 8, lengthBytes);
  if (headerLength > bytes.size() - preamble)
    return "truncated .npy header: it announces " + std::to_string(headerLength) +
           " bytes, the file has " + std::to_string(bytes.size() - preamble) + " after the preamble";
  std::string header = bytes.substr(preamble, headerLength);
  bool fortranOrder = false;
  out = NpyArray();
  std::string error = parseHeader(header, out, fortranOrder);
  if (!error.empty())
    return error;
  size_t elementSize = 0;
  char stringKind = 0;
  error = resolveDescr(out.descr, out.dtype, elementSize, stringKind);
  if (!error.empty())
    return error;
  if (fortranOrder && out.shape.size() > 1)
    return "Fortran-order arrays are not supported (save with C order)";
  uint64_t count = 1;
  for (int64_t dim : out.shape)
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(dim), &count))
      return "the shape is too large";
  uint64_t dataBytes = 0;
  if (__builtin_mul_overflow(count, static_cast<uint64_t>(elementSize), &dataBytes) ||
      dataBytes > static_cast<uint64_t>(INT64_MAX))
    return "the shape is too large";
  size_t available = bytes.size() - preamble - headerLength;
  if (dataBytes != available)
    return "the shape needs " + std::to_string(dataBytes) + " bytes of data, the file has " +
           std::to_string(available);
  out.count = static_cast<int64_t>(count);
  if (stringKind)
    return readStrings(bytes.data() + preamble + headerLength, elementSize, stringKind, out);
  out.data = AlignedBuffer(static_cast<size_t>(dataBytes));
  if (!out.data.data())
    return "out of memory";
  if (dataBytes)
    std::memcpy(out.data.data(), bytes.data() + preamble + headerLength, dataBytes);
  if (out.dtype == TCC_DTYPE_BOOL) {
    const unsigned char *values = static_cast<const unsigned char *>(out.data.data());
    for (uint64_t i = 0; i < count; ++i)
      if (values[i] > 1)
        return "bool element " + std::to_string(i) + " is " + std::to_string(values[i]) +
               ", not 0 or 1";
  }
  return "";
}

namespace {
/// Writes a .npy file of `descr` whose data are `bytes` bytes at `data`.
std::string writeRaw(const std::string &path, const std::string &descr,
                     const std::vector<int64_t> &shape, const void *data, size_t bytes) {
  std::string shapeText = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    shapeText += (i ? ", " : "") + std::to_string(shape[i]);
  shapeText += shape.size() == 1 ? ",)" : ")";
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shapeText + ", }";
  size_t preamble = 10;
  if (header.size() + 1 + preamble > 65535)
    preamble = 12;
  size_t total = preamble + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::string prefix("\x93NUMPY", 6);
  prefix += static_cast<char>(preamble == 10 ? 1 : 2);
  prefix += '\0';
  for (size_t i = 0; i < preamble - 8; ++i)
    prefix += static_cast<char>((header.size() >> (8 * i)) & 0xff);

  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return std::string("cannot create it: ") + std::strerror(errno);
  bool ok = std::fwrite(prefix.data(), 1, prefix.size(), file) == prefix.size() &&
            std::fwrite(header.data(), 1, header.size(), file) == header.size() &&
            (bytes == 0 || std::fwrite(data, 1, bytes, file) == bytes);
  int savedErrno = errno;
  ok = (std::fclose(file) == 0) && ok;
  if (!ok)
    return std::string("cannot write it: ") + std::strerror(savedErrno ? savedErrno : errno);
  return "";
}

/// A string tensor as '<U{n}' (all elements valid UTF-8) or '|S{n}'.
std::string writeStrings(const std::string &path, const std::vector<int64_t> &shape,
                         const tcc_string *elements, size_t count) {
  std::vector<std::vector<uint32_t>> codePoints(count);
  bool unicode = true;
  size_t maxBytes = 1, maxCodePoints = 1;
  for (size_t i = 0; i < count; ++i) {
    const tcc_string &element = elements[i];
    if (element.size < 0 || (element.size > 0 && !element.data))
      return "string element " + std::to_string(i) + " is malformed (size " +
             std::to_string(element.size) + (element.data ? "" : ", data NULL") + ")";
    size_t size = static_cast<size_t>(element.size);
    maxBytes = std::max(maxBytes, size);
    if (unicode && !decodeUtf8(element.data, size, codePoints[i]))
      unicode = false;
    if (unicode)
      maxCodePoints = std::max(maxCodePoints, codePoints[i].size());
  }
  size_t width = unicode ? maxCodePoints * 4 : maxBytes;
  uint64_t total = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(count), static_cast<uint64_t>(width), &total) ||
      total > static_cast<uint64_t>(SIZE_MAX / 2))
    return "the string tensor is too large to write";
  std::vector<char> payload(static_cast<size_t>(total), '\0');
  for (size_t i = 0; i < count; ++i) {
    char *slot = payload.data() + i * width;
    if (unicode) {
      for (size_t k = 0; k < codePoints[i].size(); ++k)
        std::memcpy(slot + 4 * k, &codePoints[i][k], 4);
    } else if (elements[i].size > 0) {
      std::memcpy(slot, elements[i].data, static_cast<size_t>(elements[i].size));
    }
  }
  std::string descr = unicode ? "<U" + std::to_string(maxCodePoints)
                              : "|S" + std::to_string(maxBytes);
  return writeRaw(path, descr, shape, payload.data(), payload.size());
}
} // namespace

std::string writeNpy(const std::string &path, int32_t dtype, const std::vector<int64_t> &shape,
                     const void *data, size_t bytes) {
  if (dtype == TCC_DTYPE_STRING)
    return writeStrings(path, shape, static_cast<const tcc_string *>(data),
                        bytes / sizeof(tcc_string));
  std::string descr = npyDescr(dtype);
  if (descr.empty())
    return "no .npy dtype for tcc dtype " + std::to_string(dtype);
  return writeRaw(path, descr, shape, data, bytes);
}

} // namespace tcc_run
