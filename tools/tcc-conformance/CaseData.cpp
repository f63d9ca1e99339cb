//===- CaseData.cpp - an ONNX test case's data sets -----------------------------------===//
#include "CaseData.h"

#include "TensorProtoReader.h"

#include "tcc/Evaluate/Npy.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

using namespace mlir;
using tcc::eval::Tensor;

namespace {
/// A string element for messages, as tcc-run prints them: between double quotes, `"` and `\`
/// escaped, control bytes and bytes that are not valid UTF-8 as \xNN (\n and \t as such),
/// cut after 200 bytes with "...".
std::string quote(const std::string &text) {
  std::string out = "\"";
  size_t n = std::min<size_t>(text.size(), 200), i = 0;
  auto bytes = reinterpret_cast<const llvm::UTF8 *>(text.data());
  while (i < n) {
    unsigned char c = bytes[i];
    unsigned length = c >= 0x80 ? llvm::getNumBytesForUTF8(c) : 1;
    if (c >= 0x80 && length > 1 && i + length <= n &&
        llvm::isLegalUTF8Sequence(bytes + i, bytes + i + length)) {
      out.append(text, i, length);
      i += length;
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof(escape), "\\x%02x", c);
      out += escape;
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  return out + "\"" + (text.size() > n ? "..." : "");
}

std::vector<std::string> numberedFiles(const std::string &dir, llvm::StringRef prefix) {
  std::vector<std::string> files;
  for (int i = 0;; ++i) {
    std::string file = dir + "/" + prefix.str() + "_" + std::to_string(i) + ".pb";
    if (!llvm::sys::fs::exists(file))
      break;
    files.push_back(file);
  }
  return files;
}

/// The index k of "input_<k>_name.npy".
unsigned npyIndex(const std::string &path) {
  llvm::StringRef f = llvm::sys::path::filename(path);
  f = f.drop_until([](char c) { return c == '_'; }).drop_front();
  unsigned k = 0;
  (void)f.take_while([](char c) { return std::isdigit(c); }).getAsInteger(10, k);
  return k;
}
} // namespace

namespace {
using tcc::conformance::ValueKind;

/// How each graph input (initializers left out) and output of `dir`/model.onnx is stored.
struct ValueKinds {
  std::vector<std::string> inputNames;
  std::vector<ValueKind> inputs, outputs;
  std::vector<::onnx::TypeProto> inputTypes, outputTypes; // as declared
};

ValueKind kindOf(const ::onnx::TypeProto &type) {
  switch (type.value_case()) {
  case ::onnx::TypeProto::kSequenceType:
    return ValueKind::Sequence;
  case ::onnx::TypeProto::kOptionalType:
    return ValueKind::Optional;
  default:
    return ValueKind::Tensor;
  }
}

/// The value kinds of the model's graph inputs and outputs; all tensors when the model
/// cannot be read here (the import reports that).
ValueKinds readValueKinds(const std::string &dir) {
  ValueKinds kinds;
  ::onnx::ModelProto model;
  std::ifstream file(dir + "/model.onnx", std::ios::binary);
  if (!file || !model.ParseFromIstream(&file))
    return kinds;
  std::set<std::string> initializers;
  for (const ::onnx::TensorProto &t : model.graph().initializer())
    initializers.insert(t.name());
  for (const ::onnx::ValueInfoProto &input : model.graph().input())
    if (!initializers.count(input.name())) {
      kinds.inputNames.push_back(input.name());
      kinds.inputs.push_back(kindOf(input.type()));
      kinds.inputTypes.push_back(input.type());
    }
  for (const ::onnx::ValueInfoProto &output : model.graph().output()) {
    kinds.outputs.push_back(kindOf(output.type()));
    kinds.outputTypes.push_back(output.type());
  }
  return kinds;
}

/// The zeros that stand in for an absent optional input's value of declared type `type`
/// (the optional's element type): a tensor with its dynamic dims 0, or an empty packed
/// sequence. Empty when the type does not say enough.
std::vector<Tensor> standInFor(const ::onnx::TypeProto &type, MLIRContext &context) {
  bool sequence = type.value_case() == ::onnx::TypeProto::kSequenceType;
  const ::onnx::TypeProto &element = sequence ? type.sequence_type().elem_type() : type;
  if (element.value_case() != ::onnx::TypeProto::kTensorType ||
      !element.tensor_type().has_shape())
    return {};
  Type elementType =
      tcc::conformance::elementTypeOfOnnxCode(context, element.tensor_type().elem_type());
  if (!elementType)
    return {};
  std::vector<int64_t> shape;
  for (const auto &dim : element.tensor_type().shape().dim())
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0 ? dim.dim_value() : 0);
  if (!sequence)
    return {Tensor::zeros(elementType, shape)};
  return {Tensor::zeros(IntegerType::get(&context, 64), {0, static_cast<int64_t>(shape.size())}),
          Tensor::zeros(elementType, {0})};
}

/// Reads one value file, flattened into `tensors`; a sequence or optional input
/// (`inputName` set) is recorded in `options`. `declared` is the graph value's type.
/// Returns "" or the error.
std::string readValue(const std::string &file, ValueKind kind, const ::onnx::TypeProto &declared,
                      const std::string &inputName, MLIRContext &context,
                      std::vector<Tensor> &tensors, tcc::ImportOptions &options,
                      std::vector<tcc::conformance::DataSet::Group> &groups) {
  auto value = tcc::conformance::readValueProtoFile(file, kind, context);
  if (!value)
    return llvm::toString(value.takeError());
  groups.push_back({value->kind == tcc::conformance::ValueData::Sequence, tensors.size(),
                    value->tensors.size()});
  if (kind == ValueKind::Optional &&
      declared.value_case() == ::onnx::TypeProto::kOptionalType) {
    tcc::conformance::DataSet::Group &g = groups.back();
    const ::onnx::TypeProto &element = declared.optional_type().elem_type();
    bool sequence = element.value_case() == ::onnx::TypeProto::kSequenceType;
    g.optional = true;
    g.present = value->kind != tcc::conformance::ValueData::Absent;
    g.valueCount = sequence ? 2 : 1;
    g.sequence = sequence;
    if (!g.present)
      g.standIn = standInFor(element, context);
    if (g.present && !inputName.empty())
      options.presentInputs.insert(inputName);
  }
  if (!inputName.empty() && value->kind == tcc::conformance::ValueData::Sequence) {
    tcc::SequenceSetting &setting = options.sequences[inputName];
    setting.length = static_cast<int64_t>(value->tensors.size());
    for (const Tensor &t : value->tensors)
      setting.elementShapes.push_back(t.shape);
  }
  if (!inputName.empty() && value->kind == tcc::conformance::ValueData::Absent)
    options.absentInputs.insert(inputName);
  for (Tensor &t : value->tensors)
    tensors.push_back(std::move(t));
  return "";
}

/// The corpus layout: input_<k>_<name>.npy and output_<k>_<name>.npy in `dir`; false when
/// `dir` has no outputs.
bool readNpySet(const std::string &dir, const std::string &name, MLIRContext &context,
                tcc::conformance::DataSet &set, std::string &error) {
  std::error_code ec;
  std::vector<std::string> inputs, outputs;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::StringRef file = llvm::sys::path::filename(it->path());
    if (file.ends_with(".npy") && file.starts_with("input_"))
      inputs.push_back(it->path());
    else if (file.ends_with(".npy") && file.starts_with("output_"))
      outputs.push_back(it->path());
  }
  if (outputs.empty())
    return false;
  auto byIndex = [](const std::string &a, const std::string &b) {
    return npyIndex(a) < npyIndex(b);
  };
  std::sort(inputs.begin(), inputs.end(), byIndex);
  std::sort(outputs.begin(), outputs.end(), byIndex);
  set.name = name;
  for (const std::string &file : inputs) {
    auto tensor = tcc::eval::readNpy(file, context);
    if (!tensor) {
      error = "input: " + llvm::toString(tensor.takeError());
      return true;
    }
    set.inputGroups.push_back({false, set.inputs.size(), 1});
    set.inputs.push_back(std::move(*tensor));
  }
  for (const std::string &file : outputs) {
    auto tensor = tcc::eval::readNpy(file, context);
    if (!tensor) {
      error = "expected output: " + llvm::toString(tensor.takeError());
      return true;
    }
    set.expectedGroups.push_back({false, set.expected.size(), 1});
    set.expected.push_back(std::move(*tensor));
  }
  return true;
}
} // namespace

std::string tcc::conformance::readDataSets(const std::string &dir, MLIRContext &context,
                                           std::vector<DataSet> &sets) {
  std::error_code ec;
  std::vector<std::string> dirs, subdirs;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::StringRef file = llvm::sys::path::filename(it->path());
    if (file.starts_with("test_data_set_"))
      dirs.push_back(it->path());
    else if (llvm::sys::fs::is_directory(it->path()))
      subdirs.push_back(it->path());
  }
  std::sort(dirs.begin(), dirs.end());
  ValueKinds kinds = dirs.empty() ? ValueKinds() : readValueKinds(dir);
  for (const std::string &path : dirs) {
    DataSet set;
    set.name = llvm::sys::path::filename(path).str();
    for (auto [i, file] : llvm::enumerate(numberedFiles(path, "input"))) {
      bool known = i < kinds.inputs.size();
      std::string error = readValue(file, known ? kinds.inputs[i] : ValueKind::Tensor,
                                    known ? kinds.inputTypes[i] : ::onnx::TypeProto(),
                                    known ? kinds.inputNames[i] : "", context, set.inputs,
                                    set.importOptions, set.inputGroups);
      if (!error.empty())
        return "input: " + error;
    }
    for (auto [i, file] : llvm::enumerate(numberedFiles(path, "output"))) {
      bool known = i < kinds.outputs.size();
      std::string error = readValue(file, known ? kinds.outputs[i] : ValueKind::Tensor,
                                    known ? kinds.outputTypes[i] : ::onnx::TypeProto(), "",
                                    context, set.expected, set.importOptions,
                                    set.expectedGroups);
      if (!error.empty())
        return "expected output: " + error;
    }
    sets.push_back(std::move(set));
  }
  if (sets.empty()) {
    // The corpus layout: one set beside the model, more (other sizes) in subfolders.
    std::string error;
    DataSet set;
    if (readNpySet(dir, "npy", context, set, error))
      sets.push_back(std::move(set));
    std::sort(subdirs.begin(), subdirs.end());
    for (const std::string &sub : subdirs) {
      DataSet extra;
      if (readNpySet(sub, llvm::sys::path::filename(sub).str(), context, extra, error))
        sets.push_back(std::move(extra));
    }
    if (!error.empty())
      return error;
  }
  if (sets.empty())
    return "no test data sets";
  return "";
}

std::string tcc::conformance::compareTensors(const Tensor &actual, const Tensor &expected,
                                             double rtol, double atol) {
  auto typeName = [](Type t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t;
    return s;
  };
  // The tensors may come from different MLIR contexts: compare the types by name.
  if (typeName(actual.elementType) != typeName(expected.elementType))
    return "element type " + typeName(actual.elementType) + ", expected " +
           typeName(expected.elementType);
  if (actual.shape != expected.shape) {
    auto shape = [](llvm::ArrayRef<int64_t> dims) {
      std::string s = "[";
      for (auto [i, d] : llvm::enumerate(dims))
        s += (i ? " " : "") + std::to_string(d);
      return s + "]";
    };
    return "shape " + shape(actual.shape) + ", expected " + shape(expected.shape);
  }
  if (isa<tcc::prim::StringType>(actual.elementType)) {
    // Strings compare exactly; the tolerances do not apply.
    int64_t count = actual.getNumElements();
    if (static_cast<int64_t>(actual.strings.size()) != count ||
        static_cast<int64_t>(expected.strings.size()) != count)
      return "holds " + std::to_string(actual.strings.size()) + " strings (expected " +
             std::to_string(expected.strings.size()) + ") for " + std::to_string(count) +
             " elements";
    for (int64_t i = 0; i < count; ++i)
      if (actual.strings[i] != expected.strings[i])
        return "element " + std::to_string(i) + " is " + quote(actual.strings[i]) + ", expected " +
               quote(expected.strings[i]);
    return "";
  }
  bool isFloat = isa<FloatType>(actual.elementType);
  for (int64_t i = 0; i < actual.getNumElements(); ++i) {
    if (isFloat) {
      double a = actual.getDouble(i), e = expected.getDouble(i);
      if ((std::isnan(a) && std::isnan(e)) || a == e)
        continue;
      if (!(std::fabs(a - e) <= atol + rtol * std::fabs(e)))
        return "element " + std::to_string(i) + " is " + std::to_string(a) + ", expected " +
               std::to_string(e);
    } else if (actual.getInt(i) != expected.getInt(i)) {
      return "element " + std::to_string(i) + " is " + std::to_string(actual.getInt(i)) +
             ", expected " + std::to_string(expected.getInt(i));
    }
  }
  return "";
}

bool tcc::conformance::hasSequences(const DataSet &set) {
  for (const auto *groups : {&set.inputGroups, &set.expectedGroups})
    for (const DataSet::Group &g : *groups)
      if (g.sequence || g.optional)
        return true;
  return false;
}

std::string tcc::conformance::packSequences(const std::vector<Tensor> &tensors,
                                            const std::vector<DataSet::Group> &groups,
                                            MLIRContext &context, std::vector<Tensor> &packed) {
  packed.clear();
  // A group's value: a tensor as it is, a sequence as NAME.shapes and NAME.data.
  auto packValue = [&](const DataSet::Group &g) -> std::string {
    if (!g.sequence) {
      for (size_t k = 0; k < g.count; ++k)
        packed.push_back(tensors[g.first + k]);
      return "";
    }
    const Tensor *first = g.count ? &tensors[g.first] : nullptr;
    size_t rank = first ? first->shape.size() : 0;
    Tensor shapes = Tensor::zeros(IntegerType::get(&context, 64),
                                  {static_cast<int64_t>(g.count), static_cast<int64_t>(rank)});
    Tensor data;
    data.elementType = first ? first->elementType : Float32Type::get(&context);
    int64_t total = 0;
    for (size_t k = 0; k < g.count; ++k) {
      const Tensor &e = tensors[g.first + k];
      if (e.shape.size() != rank || e.elementType != data.elementType)
        return "the elements of a sequence differ in rank or type";
      for (size_t j = 0; j < rank; ++j)
        shapes.setInt(static_cast<int64_t>(k * rank + j), e.shape[j]);
      data.bytes.insert(data.bytes.end(), e.bytes.begin(), e.bytes.end());
      data.strings.insert(data.strings.end(), e.strings.begin(), e.strings.end());
      total += e.getNumElements();
    }
    data.shape = {total};
    packed.push_back(std::move(shapes));
    packed.push_back(std::move(data));
    return "";
  };
  for (const DataSet::Group &g : groups) {
    // An optional: its value (the stand-in when absent), then its flag.
    if (g.optional && !g.present) {
      if (g.standIn.size() != g.valueCount)
        return "an absent optional whose declared type does not give its value's shape";
      packed.insert(packed.end(), g.standIn.begin(), g.standIn.end());
    } else if (std::string error = packValue(g); !error.empty()) {
      return error;
    }
    if (g.optional) {
      Tensor flag = Tensor::zeros(IntegerType::get(&context, 1), {});
      flag.setInt(0, g.present ? 1 : 0);
      packed.push_back(std::move(flag));
    }
  }
  return "";
}

std::string tcc::conformance::unpackSequenceOutputs(const DataSet &set,
                                                    std::vector<Tensor> &outputs) {
  std::vector<Tensor> unpacked;
  size_t next = 0;
  for (const DataSet::Group &g : set.expectedGroups) {
    if (g.optional) {
      // Its value's tensors, then its flag, which must say what the data set says.
      size_t flagAt = next + g.valueCount;
      if (flagAt >= outputs.size())
        return "fewer outputs than expected (an optional output is its value's tensors and "
               "a flag)";
      const Tensor &flag = outputs[flagAt];
      if (!flag.shape.empty() || !flag.elementType.isInteger(1))
        return "an optional output's flag is not a bool scalar";
      bool present = flag.getInt(0) != 0;
      if (present != g.present)
        return std::string("an optional output is ") + (present ? "present" : "empty") +
               ", expected " + (g.present ? "present" : "empty");
      if (!present) {
        next = flagAt + 1;
        continue;
      }
    }
    if (!g.sequence) {
      for (size_t k = 0; k < g.count; ++k, ++next) {
        if (next >= outputs.size())
          return "fewer outputs than expected";
        unpacked.push_back(std::move(outputs[next]));
      }
      next += g.optional ? 1 : 0; // the flag
      continue;
    }
    if (next + 2 > outputs.size())
      return "fewer outputs than expected (a sequence output is two tensors)";
    const Tensor &shapes = outputs[next];
    const Tensor &data = outputs[next + 1];
    next += 2;
    if (shapes.shape.size() != 2 || data.shape.size() != 1)
      return "a sequence output is not an int64 [count, rank] and a 1-d tensor";
    int64_t count = shapes.shape[0], rank = shapes.shape[1];
    if (count != static_cast<int64_t>(g.count))
      return "a sequence output of " + std::to_string(count) + " elements, expected " +
             std::to_string(g.count);
    int64_t size = tcc::eval::getElementByteSize(data.elementType), offset = 0;
    for (int64_t k = 0; k < count; ++k) {
      Tensor e;
      e.elementType = data.elementType;
      for (int64_t j = 0; j < rank; ++j)
        e.shape.push_back(shapes.getInt(k * rank + j));
      int64_t n = e.getNumElements();
      if (n < 0 || offset + n > data.getNumElements())
        return "a sequence output's shapes do not fit its data";
      if (!data.strings.empty())
        e.strings.assign(data.strings.begin() + offset, data.strings.begin() + offset + n);
      else
        e.bytes.assign(data.bytes.begin() + offset * size,
                       data.bytes.begin() + (offset + n) * size);
      offset += n;
      unpacked.push_back(std::move(e));
    }
    next += g.optional ? 1 : 0; // the flag
  }
  for (; next < outputs.size(); ++next)
    unpacked.push_back(std::move(outputs[next]));
  outputs = std::move(unpacked);
  return "";
}
