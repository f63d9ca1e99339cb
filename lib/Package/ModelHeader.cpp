//===- ModelHeader.cpp - a C header describing a compiled model (tcc --emit-header) ------===//
//
// What a C or C++ program needs to call a compiled model without reading its descriptor at
// run time: the inputs and outputs in run order with their dtypes, ranks and shapes (as
// macros: -1 for a dim known at run time, named in a comment), the symbolic dims with their
// ranges, and `<name>_run(session, in..., out...)`, a typed wrapper over tcc_session_run.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Package/ModelAbi.h"
#include "tcc/Package/Package.h"
#include "tcc/Version.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace tcc;

namespace {

/// The tcc_dtype enumerator of an element type code (model_abi.h).
const char *dtypeEnumerator(int32_t dtype) {
  switch (dtype) {
  case TCC_DTYPE_FLOAT32:
    return "TCC_DTYPE_FLOAT32";
  case TCC_DTYPE_UINT8:
    return "TCC_DTYPE_UINT8";
  case TCC_DTYPE_INT8:
    return "TCC_DTYPE_INT8";
  case TCC_DTYPE_UINT16:
    return "TCC_DTYPE_UINT16";
  case TCC_DTYPE_INT16:
    return "TCC_DTYPE_INT16";
  case TCC_DTYPE_INT32:
    return "TCC_DTYPE_INT32";
  case TCC_DTYPE_INT64:
    return "TCC_DTYPE_INT64";
  case TCC_DTYPE_STRING:
    return "TCC_DTYPE_STRING";
  case TCC_DTYPE_BOOL:
    return "TCC_DTYPE_BOOL";
  case TCC_DTYPE_FLOAT16:
    return "TCC_DTYPE_FLOAT16";
  case TCC_DTYPE_FLOAT64:
    return "TCC_DTYPE_FLOAT64";
  case TCC_DTYPE_UINT32:
    return "TCC_DTYPE_UINT32";
  case TCC_DTYPE_UINT64:
    return "TCC_DTYPE_UINT64";
  case TCC_DTYPE_BFLOAT16:
    return "TCC_DTYPE_BFLOAT16";
  default:
    return nullptr;
  }
}

/// `text` as a C identifier: other characters become '_', a leading digit gets a '_'.
std::string identifier(llvm::StringRef text) {
  std::string id;
  for (char c : text)
    id.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id.front())))
    id.insert(id.begin(), '_');
  return id;
}

std::string upper(llvm::StringRef text) {
  std::string result = text.str();
  for (char &c : result)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return result;
}

/// `text` safe inside a C comment: no "*/", no line breaks.
std::string commentText(llvm::StringRef text) {
  std::string result;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n' || c == '\r')
      c = ' ';
    result.push_back(c);
    if (c == '*' && i + 1 < text.size() && text[i + 1] == '/')
      result.push_back(' ');
  }
  return result;
}

/// A dim as the comment shows it: its extent, its symbol's name, or "?" (known at run time).
std::string dimText(const ModelInterface &interface, const TensorInterface &tensor, size_t d) {
  if (tensor.shape[d] >= 0)
    return std::to_string(tensor.shape[d]);
  int32_t symbol = d < tensor.symbols.size() ? tensor.symbols[d] : -1;
  if (symbol >= 0 && static_cast<size_t>(symbol) < interface.symbols.size())
    return commentText(interface.symbols[symbol].name);
  if (symbol == TCC_DIM_DATA_DEPENDENT)
    return "? (after the run: tcc_session_output_shape)";
  return "?";
}

} // namespace

void tcc::writeModelHeader(const ModelInterface &interface, llvm::StringRef stem,
                           llvm::StringRef source, llvm::raw_ostream &os) {
  std::string name = identifier(stem);
  std::string prefix = upper(name);
  os << "/* " << name << ".h: the interface of the model compiled from " << commentText(source)
     << " (tcc " << kVersion << "). Generated: do not edit. */\n";
  os << "#ifndef TCC_MODEL_" << prefix << "_H\n#define TCC_MODEL_" << prefix << "_H\n\n";
  os << "#include <tcc/runtime.h>\n\n";
  os << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  if (!interface.symbols.empty()) {
    os << "/* Symbolic dims, bound from the inputs' shapes at each run:\n";
    for (const SymbolInterface &symbol : interface.symbols) {
      os << " *   " << commentText(symbol.name) << " in [" << symbol.min << ", ";
      if (symbol.max < 0)
        os << "unbounded";
      else
        os << symbol.max;
      os << "]" << (symbol.computed ? ", computed from input values" : "") << "\n";
    }
    os << " */\n";
  }
  os << "#define " << prefix << "_NUM_INPUTS " << interface.inputs.size() << "\n";
  os << "#define " << prefix << "_NUM_OUTPUTS " << interface.outputs.size() << "\n\n";
  // One C name per tensor, unique among the wrapper's parameters.
  llvm::StringSet<> used = {"session"};
  std::vector<std::string> parameters;
  auto describe = [&](const TensorInterface &tensor, size_t index, const char *kind) {
    std::string id = identifier(tensor.name);
    std::string unique = id;
    for (int k = 2; !used.insert(unique).second; ++k)
      unique = id + "_" + std::to_string(k);
    parameters.push_back(unique);
    std::string macro = prefix + "_" + upper(kind) + "_" + upper(unique);
    os << "/* " << kind << " " << index << " '" << commentText(tensor.name) << "': ";
    const char *dtype = dtypeEnumerator(tensor.dtype);
    os << (dtype ? dtype : "an unknown dtype") << " [";
    for (size_t d = 0; d < tensor.shape.size(); ++d)
      os << (d ? ", " : "") << dimText(interface, tensor, d);
    os << "]";
    // The two tensors of a sequence (model_abi.h's tcc_sequence_desc) say so.
    for (const SequenceInterface &sequence : interface.sequences)
      if (sequence.isOutput == (llvm::StringRef(kind) == "output") &&
          (sequence.shapesIndex == static_cast<int32_t>(index) ||
           sequence.dataIndex == static_cast<int32_t>(index)))
        os << ": the " << (sequence.shapesIndex == static_cast<int32_t>(index) ? "shapes" : "data")
           << " of sequence '" << commentText(sequence.name) << "' ("
           << (sequence.isOutput ? "tcc_sequence_element views its elements"
                                 : "tcc_sequence_pack fills it from a list")
           << ")";
    // So do the flag and the value's tensors of an optional (tcc_optional_desc).
    for (const OptionalInterface &optional : interface.optionals) {
      if (optional.isOutput != (llvm::StringRef(kind) == "output"))
        continue;
      auto at = static_cast<int32_t>(index);
      if (optional.presentIndex == at)
        os << ": whether optional '" << commentText(optional.name) << "' is present";
      else if (at >= optional.firstIndex && at < optional.firstIndex + optional.count)
        os << (optional.count > 1 ? ", " : ": ") << "in optional '" << commentText(optional.name)
           << "' (read it when " << kind << " " << optional.presentIndex << " is true)";
    }
    os << " */\n";
    os << "#define " << macro << " " << index << "\n";
    os << "#define " << macro << "_DTYPE " << (dtype ? dtype : "0") << "\n";
    os << "#define " << macro << "_RANK " << tensor.shape.size() << "\n";
    if (!tensor.shape.empty()) {
      os << "#define " << macro << "_SHAPE {";
      for (size_t d = 0; d < tensor.shape.size(); ++d)
        os << (d ? ", " : "") << tensor.shape[d];
      os << "}\n";
    }
    os << "\n";
  };
  for (auto [k, tensor] : llvm::enumerate(interface.inputs))
    describe(tensor, k, "input");
  for (auto [k, tensor] : llvm::enumerate(interface.outputs))
    describe(tensor, k, "output");

  size_t numInputs = interface.inputs.size(), numOutputs = interface.outputs.size();
  os << "/* Runs the model on `session` (tcc_session_create of the library's model): as\n"
     << " * tcc_session_run with the tensors in the order above. */\n";
  os << "static inline tcc_status " << name << "_run(tcc_session *session";
  for (const std::string &parameter : parameters)
    os << ", const DLTensor *" << parameter;
  os << ") {\n";
  auto array = [&](const char *kind, size_t begin, size_t count) {
    os << "  const DLTensor *" << kind << "[" << std::max<size_t>(count, 1) << "] = {";
    for (size_t k = 0; k < count; ++k)
      os << (k ? ", " : "") << parameters[begin + k];
    if (count == 0)
      os << "0";
    os << "};\n";
  };
  array("inputs", 0, numInputs);
  array("outputs", numInputs, numOutputs);
  os << "  return tcc_session_run(session, inputs, " << numInputs << ", outputs, " << numOutputs
     << ");\n}\n\n";
  os << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* TCC_MODEL_" << prefix << "_H */\n";
}
