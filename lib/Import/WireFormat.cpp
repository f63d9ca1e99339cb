//===- WireFormat.cpp - a bounds-checked walk over a binary ModelProto -----------------===//
//
// libprotobuf copies every `bytes` field while parsing, so it cannot tell where a weight
// lies in the file. This walk finds the `raw_data` spans itself (ModelProto.graph = 7,
// GraphProto.node = 1 / initializer = 5, NodeProto.attribute = 5, AttributeProto.t = 5,
// TensorProto.raw_data = 9), and classifies files that fail to parse: a well-formed prefix
// whose last field runs past the end is a truncated model, anything else is not a model.
// A second walk re-encodes the model without the large raw_data fields it found, so that
// protobuf does not copy the weights: the importer reads them where they lie in the file.
//
//===----------------------------------------------------------------------------------===//
#include "ModelFile.h"

#include "llvm/ADT/Twine.h"

using namespace tcc::import;

namespace {

enum class ReadStatus { Ok, End, Malformed };

/// One field of a message: its number, wire type and (for length-delimited fields and the
/// fixed-size ones) where its payload lies.
struct Field {
  uint64_t number = 0;
  unsigned wireType = 0;
  uint64_t payloadOffset = 0;
  uint64_t payloadSize = 0;
};

/// Reads fields from the bytes [pos, end) of a file that starts at `file`.
class WireReader {
public:
  WireReader(const uint8_t *file, const uint8_t *begin, const uint8_t *end)
      : file(file), pos(begin), end(end) {}

  bool atEnd() const { return pos >= end; }
  const uint8_t *position() const { return pos; }
  uint64_t offset() const { return static_cast<uint64_t>(pos - file); }
  uint64_t remaining() const { return static_cast<uint64_t>(end - pos); }

  ReadStatus varint(uint64_t &value) {
    value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (pos >= end)
        return ReadStatus::End;
      uint8_t byte = *pos++;
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return ReadStatus::Ok;
    }
    return ReadStatus::Malformed; // more than 10 bytes
  }

  /// Reads the next field and skips its payload. On End, `field` holds what was read.
  ReadStatus next(Field &field) {
    field = Field();
    uint64_t tag;
    if (ReadStatus s = varint(tag); s != ReadStatus::Ok)
      return s;
    field.number = tag >> 3;
    field.wireType = tag & 7;
    if (field.number == 0 || field.number > 0x1fffffff)
      return ReadStatus::Malformed;
    switch (field.wireType) {
    case 0: { // varint
      uint64_t ignored;
      return varint(ignored);
    }
    case 1: // fixed64
      return payload(field, 8);
    case 2: { // length-delimited
      uint64_t length;
      if (ReadStatus s = varint(length); s != ReadStatus::Ok)
        return s;
      return payload(field, length);
    }
    case 5: // fixed32
      return payload(field, 4);
    default: // groups (3, 4) are not used by ONNX; 6 and 7 do not exist
      return ReadStatus::Malformed;
    }
  }

  /// A reader over the payload of a length-delimited field read by next().
  WireReader payloadReader(const Field &field) const {
    const uint8_t *begin = file + field.payloadOffset;
    return WireReader(file, begin, begin + field.payloadSize);
  }

private:
  ReadStatus payload(Field &field, uint64_t size) {
    field.payloadOffset = offset();
    field.payloadSize = size;
    if (size > remaining())
      return ReadStatus::End;
    pos += size;
    return ReadStatus::Ok;
  }

  const uint8_t *file;
  const uint8_t *pos;
  const uint8_t *end;
};

bool isMessage(const Field &field, uint64_t number) {
  return field.number == number && field.wireType == 2;
}

/// Finds TensorProto.raw_data (9); a repeated occurrence replaces the earlier one, as in
/// protobuf's own parsing.
bool scanTensor(WireReader reader, std::optional<ByteSpan> &rawData) {
  Field field;
  while (!reader.atEnd()) {
    if (reader.next(field) != ReadStatus::Ok)
      return false;
    if (isMessage(field, 9))
      rawData = ByteSpan{field.payloadOffset, field.payloadSize};
  }
  return true;
}

/// AttributeProto.t (5): repeated occurrences of a message field merge, so the last
/// raw_data seen across them wins.
bool scanAttribute(WireReader reader, std::optional<ByteSpan> &rawData) {
  Field field;
  while (!reader.atEnd()) {
    if (reader.next(field) != ReadStatus::Ok)
      return false;
    if (isMessage(field, 5) && !scanTensor(reader.payloadReader(field), rawData))
      return false;
  }
  return true;
}

bool scanNode(WireReader reader, llvm::SmallVectorImpl<std::optional<ByteSpan>> &attributes) {
  Field field;
  while (!reader.atEnd()) {
    if (reader.next(field) != ReadStatus::Ok)
      return false;
    if (isMessage(field, 5)) {
      attributes.emplace_back();
      if (!scanAttribute(reader.payloadReader(field), attributes.back()))
        return false;
    }
  }
  return true;
}

/// GraphProto.node (1) and .initializer (5). Repeated fields append across repeated
/// occurrences of the graph field, so `index` keeps counting.
bool scanGraph(WireReader reader, RawDataIndex &index) {
  Field field;
  while (!reader.atEnd()) {
    if (reader.next(field) != ReadStatus::Ok)
      return false;
    if (isMessage(field, 1)) {
      index.nodeAttributes.emplace_back();
      if (!scanNode(reader.payloadReader(field), index.nodeAttributes.back()))
        return false;
    } else if (isMessage(field, 5)) {
      index.initializers.emplace_back();
      if (!scanTensor(reader.payloadReader(field), index.initializers.back()))
        return false;
    }
  }
  return true;
}

/// The ModelProto fields tcc knows (ONNX 1.12 plus `configuration` = 26 of later versions):
/// their names and wire types.
struct KnownField {
  uint64_t number;
  unsigned wireType;
  const char *name;
};
constexpr KnownField kModelFields[] = {
    {1, 0, "ir_version"},     {2, 2, "producer_name"}, {3, 2, "producer_version"},
    {4, 2, "domain"},         {5, 0, "model_version"}, {6, 2, "doc_string"},
    {7, 2, "graph"},          {8, 2, "opset_import"},  {14, 2, "metadata_props"},
    {20, 2, "training_info"}, {25, 2, "functions"},    {26, 2, "configuration"},
};

const KnownField *lookupModelField(const Field &field) {
  for (const KnownField &known : kModelFields)
    if (known.number == field.number && known.wireType == field.wireType)
      return &known;
  return nullptr;
}

} // namespace

WireCheck tcc::import::scanModelWireFormat(llvm::ArrayRef<uint8_t> bytes, RawDataIndex &index) {
  WireReader reader(bytes.data(), bytes.data(), bytes.data() + bytes.size());
  bool indexUsable = true;
  // Whether every field so far is a ModelProto field with its proper wire type: only then
  // does a field running past the end mean truncation rather than some other file.
  bool looksLikeModel = true;
  Field field;
  while (!reader.atEnd()) {
    uint64_t start = reader.offset();
    ReadStatus status = reader.next(field);
    if (status == ReadStatus::Malformed)
      return {WireCheck::Kind::NotAModel,
              ("invalid protobuf field at byte " + llvm::Twine(start)).str()};
    const KnownField *known = lookupModelField(field);
    if (status == ReadStatus::End) {
      if (!looksLikeModel || (field.number != 0 && !known))
        return {WireCheck::Kind::NotAModel,
                ("unexpected protobuf field at byte " + llvm::Twine(start)).str()};
      if (!known)
        return {WireCheck::Kind::Truncated,
                ("the file ends inside a field tag at byte " + llvm::Twine(start)).str()};
      if (field.payloadSize == 0) // cut inside a varint (a value or a length)
        return {WireCheck::Kind::Truncated, (llvm::Twine("the file ends inside field '") +
                                             known->name + "' at byte " + llvm::Twine(start))
                                                .str()};
      uint64_t available = bytes.size() - std::min<uint64_t>(field.payloadOffset, bytes.size());
      return {WireCheck::Kind::Truncated,
              (llvm::Twine("field '") + known->name + "' at byte " + llvm::Twine(start) +
               " needs " + llvm::Twine(field.payloadSize) + " bytes, but only " +
               llvm::Twine(available) + " remain in the file of " + llvm::Twine(bytes.size()) +
               " bytes")
                  .str()};
    }
    if (!known)
      looksLikeModel = false;
    if (indexUsable && isMessage(field, 7) && !scanGraph(reader.payloadReader(field), index))
      indexUsable = false;
  }
  if (!indexUsable)
    index = RawDataIndex();
  return {};
}

namespace {

void appendVarint(std::string &out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

/// What becomes of one field of a message being re-encoded.
enum class FieldFate { Keep, Drop, Replace };

/// Re-encodes the message `reader` reads into `out`: every field as it is, except where
/// `decide` (called with the field and a reader over its payload) says Drop, or Replace with
/// the length-delimited payload it wrote into its third argument. False on a malformed field.
template <typename Decide> bool copyMessage(WireReader reader, std::string &out, Decide decide) {
  Field field;
  while (!reader.atEnd()) {
    const uint8_t *start = reader.position();
    if (reader.next(field) != ReadStatus::Ok)
      return false;
    std::string payload;
    FieldFate fate =
        field.wireType == 2 ? decide(field, reader.payloadReader(field), payload) : FieldFate::Keep;
    if (fate == FieldFate::Keep)
      out.append(reinterpret_cast<const char *>(start), reader.position() - start);
    if (fate == FieldFate::Replace) {
      appendVarint(out, field.number << 3 | 2);
      appendVarint(out, payload.size());
      out += payload;
    }
  }
  return true;
}

/// Walks the main graph as scanGraph did, counting initializers and node attributes to find
/// their index entries, and leaves out the raw_data of the large ones.
class RawDataDetacher {
public:
  explicit RawDataDetacher(RawDataIndex &index) : index(index) {}

  bool detachedAny() const { return detached > 0; }

  bool model(WireReader reader, std::string &out) {
    bool ok = copyMessage(reader, out,
                          [&](const Field &field, WireReader payload, std::string &replacement) {
                            if (field.number != 7)
                              return FieldFate::Keep;
                            return graph(payload, replacement) ? FieldFate::Replace : fail();
                          });
    return ok && !failed;
  }

private:
  FieldFate fail() {
    failed = true;
    return FieldFate::Keep;
  }

  /// Whether the tensor whose (last) raw_data is `span` leaves it out; marks it so.
  bool detach(std::optional<ByteSpan> *span) {
    if (!span || !*span || (*span)->size < kMinDetachedRawDataBytes)
      return false;
    (*span)->detached = true;
    ++detached;
    return true;
  }

  /// A TensorProto without its raw_data fields when `drop` (all of them: the last one
  /// decides the value, and it is in the file).
  bool tensor(WireReader reader, bool drop, std::string &out) {
    return copyMessage(reader, out, [&](const Field &field, WireReader, std::string &) {
      return drop && field.number == 9 ? FieldFate::Drop : FieldFate::Keep;
    });
  }

  bool graph(WireReader reader, std::string &out) {
    bool ok = copyMessage(
        reader, out, [&](const Field &field, WireReader payload, std::string &replacement) {
          if (field.number == 5) {
            std::optional<ByteSpan> *span = initializer < index.initializers.size()
                                                ? &index.initializers[initializer]
                                                : nullptr;
            ++initializer;
            return tensor(payload, detach(span), replacement) ? FieldFate::Replace : fail();
          }
          if (field.number == 1) {
            size_t k = nodeIndex++;
            return node(payload, k, replacement) ? FieldFate::Replace : fail();
          }
          return FieldFate::Keep;
        });
    return ok && !failed;
  }

  bool node(WireReader reader, size_t k, std::string &out) {
    size_t attribute = 0;
    return copyMessage(
        reader, out, [&](const Field &field, WireReader payload, std::string &replacement) {
          if (field.number != 5)
            return FieldFate::Keep;
          std::optional<ByteSpan> *span =
              k < index.nodeAttributes.size() && attribute < index.nodeAttributes[k].size()
                  ? &index.nodeAttributes[k][attribute]
                  : nullptr;
          ++attribute;
          bool drop = detach(span);
          // AttributeProto.t (5), in each of its occurrences (they merge).
          bool ok = copyMessage(
              payload, replacement,
              [&](const Field &inner, WireReader tensorBytes, std::string &tensorOut) {
                if (inner.number != 5)
                  return FieldFate::Keep;
                return tensor(tensorBytes, drop, tensorOut) ? FieldFate::Replace : fail();
              });
          return ok ? FieldFate::Replace : fail();
        });
  }

  RawDataIndex &index;
  size_t initializer = 0;
  size_t nodeIndex = 0;
  size_t detached = 0;
  bool failed = false;
};

} // namespace

std::optional<std::string> tcc::import::detachRawData(llvm::ArrayRef<uint8_t> bytes,
                                                      RawDataIndex &index) {
  if (index.initializers.empty() && index.nodeAttributes.empty())
    return std::nullopt;
  RawDataIndex marked = index;
  RawDataDetacher detacher(marked);
  std::string out;
  WireReader reader(bytes.data(), bytes.data(), bytes.data() + bytes.size());
  if (!detacher.model(reader, out) || !detacher.detachedAny())
    return std::nullopt;
  index = std::move(marked);
  return out;
}
