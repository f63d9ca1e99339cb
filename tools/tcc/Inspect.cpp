//===- Inspect.cpp - tcc inspect: what a model file or a compiled library holds ----------===//
//
// A model file is read with the importer's reader (tcc::summarizeOnnxModel). A library is
// read twice: as an object file (LLVM's reader: format, sections, the weights' symbols),
// which works for any target, and through the runtime (tcc_model_load without the CPU
// check), which needs a library this host can load: its descriptor gives the rest.
//
//===----------------------------------------------------------------------------------===//
#include "Inspect.h"

#include "tcc/Import/ModelSummary.h"

#include "mlir/IR/Location.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include "tcc/runtime.h"

#include <memory>

using namespace tcc_tool;
namespace json = llvm::json;

namespace {

std::string bytesText(uint64_t bytes) {
  if (bytes < 1024)
    return std::to_string(bytes) + " B";
  if (bytes < 1024 * 1024)
    return llvm::formatv("{0:f1} KiB", bytes / 1024.0).str();
  if (bytes < 1024ull * 1024 * 1024)
    return llvm::formatv("{0:f1} MiB", bytes / (1024.0 * 1024)).str();
  return llvm::formatv("{0:f2} GiB", bytes / (1024.0 * 1024 * 1024)).str();
}

std::string shapeText(const std::vector<std::string> &dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i ? ", " : "") + dims[i];
  return text + "]";
}

/// A dim as JSON: its extent as a number, or its symbol's name.
json::Value dimJson(const std::string &dim) {
  int64_t value = 0;
  if (!llvm::StringRef(dim).getAsInteger(10, value))
    return value;
  return dim;
}

//===- ONNX models --------------------------------------------------------------------===//

json::Object valueJson(const tcc::OnnxValueSummary &v) {
  json::Array dims;
  for (const std::string &d : v.dims)
    dims.push_back(dimJson(d));
  return json::Object{
      {"name", v.name}, {"element_type", v.elementType}, {"shape", std::move(dims)}};
}

bool inspectOnnx(const std::string &path, bool asJson, mlir::MLIRContext &context,
                 llvm::raw_ostream &os, std::string &error) {
  tcc::OnnxModelSummary s;
  mlir::Location loc = mlir::FileLineColLoc::get(&context, path, 0, 0);
  if (mlir::failed(tcc::summarizeOnnxModel(path, loc, s)))
    return false; // the reader emitted the diagnostic
  // Op types by count, most first.
  std::vector<std::pair<std::string, int64_t>> ops(s.opCounts.begin(), s.opCounts.end());
  std::sort(ops.begin(), ops.end(), [](const auto &a, const auto &b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (asJson) {
    json::Array opsets, inputs, outputs, histogram, files;
    for (auto &[domain, version] : s.opsets)
      opsets.push_back(json::Object{{"domain", domain}, {"version", version}});
    for (const auto &v : s.inputs)
      inputs.push_back(valueJson(v));
    for (const auto &v : s.outputs)
      outputs.push_back(valueJson(v));
    for (auto &[op, count] : ops)
      histogram.push_back(json::Object{{"op", op}, {"count", count}});
    for (const std::string &f : s.externalFiles)
      files.push_back(f);
    json::Object out{{"file", path},
                     {"kind", "onnx"},
                     {"file_bytes", int64_t(s.fileBytes)},
                     {"ir_version", s.irVersion},
                     {"producer", s.producer},
                     {"producer_version", s.producerVersion},
                     {"graph", s.graphName},
                     {"opsets", std::move(opsets)},
                     {"inputs", std::move(inputs)},
                     {"outputs", std::move(outputs)},
                     {"nodes", s.mainNodes},
                     {"nodes_with_subgraphs", s.allNodes},
                     {"ops", std::move(histogram)},
                     {"initializers", s.initializers},
                     {"initializer_bytes", int64_t(s.initializerBytes)},
                     {"external_bytes", int64_t(s.externalBytes)},
                     {"external_files", std::move(files)}};
    os << llvm::formatv("{0:2}", json::Value(std::move(out))) << "\n";
    return true;
  }
  os << path << ": ONNX model (" << bytesText(s.fileBytes) << "), IR version " << s.irVersion;
  if (!s.producer.empty())
    os << ", made by " << s.producer << (s.producerVersion.empty() ? "" : " " + s.producerVersion);
  os << "\n  opsets:";
  for (auto &[domain, version] : s.opsets)
    os << " " << domain << " " << version;
  os << "\n  graph '" << s.graphName << "': " << s.mainNodes << " nodes";
  if (s.allNodes != s.mainNodes)
    os << " (" << s.allNodes << " with subgraphs)";
  os << ", " << s.initializers << " initializers (" << bytesText(s.initializerBytes) << ")";
  if (!s.externalFiles.empty()) {
    os << ", " << bytesText(s.externalBytes) << " of them in";
    for (const std::string &f : s.externalFiles)
      os << " " << f;
  }
  os << "\n";
  for (auto [what, list] : {std::pair("input", &s.inputs), std::pair("output", &s.outputs)})
    for (const tcc::OnnxValueSummary &v : *list)
      os << "  " << what << " " << v.name << ": "
         << (v.elementType.empty()
                 ? std::string("(not a tensor)")
                 : v.elementType + (v.hasShape ? " " + shapeText(v.dims) : " (shape unknown)"))
         << "\n";
  os << "  ops:";
  for (auto &[op, count] : ops)
    os << " " << op << " " << count << (&op == &ops.back().first ? "" : ",");
  os << "\n";
  return true;
}

//===- libraries ----------------------------------------------------------------------===//

/// What the object-file reader sees: format, architecture, and sizes.
struct ObjectSizes {
  std::string format, arch;
  uint64_t fileBytes = 0, code = 0, weights = 0, parameters = 0, otherData = 0;
};

bool readObjectSizes(const std::string &path, ObjectSizes &sizes, std::string &error) {
  auto binary = llvm::object::ObjectFile::createObjectFile(path);
  if (!binary) {
    error = llvm::toString(binary.takeError());
    return false;
  }
  llvm::object::ObjectFile &object = *binary->getBinary();
  sizes.format = object.getFileFormatName().str();
  sizes.arch = llvm::Triple::getArchTypeName(object.getArch()).str();
  sizes.fileBytes = object.getData().size();
  uint64_t data = 0;
  for (const llvm::object::SectionRef &section : object.sections()) {
    if (section.isVirtual())
      continue;
    if (section.isText())
      sizes.code += section.getSize();
    else if (auto name = section.getName();
             name && (name->starts_with(".rodata") || name->starts_with(".data") ||
                      name->starts_with("__const") || name->starts_with("__data")))
      data += section.getSize(); // read-only and relocated data (ELF, Mach-O)
  }
  // The weights and initial parameters are symbols of their own (tcc_weights, per variant
  // tcc_weights_N; tcc_initial_parameters).
  for (const llvm::object::SymbolRef &symbol : object.symbols()) {
    auto name = symbol.getName();
    if (!name)
      continue;
    llvm::StringRef n = *name;
    n.consume_front("_"); // Mach-O's prefix
    // Only ELF records symbol sizes (a Mach-O library shows no weights of their own).
    uint64_t size = llvm::isa<llvm::object::ELFObjectFileBase>(object)
                        ? llvm::object::ELFSymbolRef(symbol).getSize()
                        : 0;
    if (n.starts_with("tcc_weights"))
      sizes.weights += size;
    else if (n.starts_with("tcc_initial_parameters"))
      sizes.parameters += size;
  }
  sizes.otherData =
      data > sizes.weights + sizes.parameters ? data - sizes.weights - sizes.parameters : 0;
  return true;
}

std::string deviceName(int32_t type) {
  switch (type) {
  case kDLCPU:
    return "CPU";
  case kDLCUDA:
    return "CUDA";
  case kDLROCM:
    return "ROCm";
  case kDLVulkan:
    return "Vulkan";
  case kDLMetal:
    return "Metal";
  default:
    return "device type " + std::to_string(type);
  }
}

const char *formatName(int32_t format) {
  switch (format) {
  case TCC_IMAGE_PTX:
    return "PTX";
  case TCC_IMAGE_CUBIN:
    return "cubin";
  case TCC_IMAGE_HSACO:
    return "HSA code object";
  case TCC_IMAGE_SPIRV:
    return "SPIR-V";
  case TCC_IMAGE_MSL:
    return "MSL";
  default:
    return "unknown";
  }
}

std::vector<std::string> dimsOf(const tcc_tensor_info &info) {
  std::vector<std::string> dims;
  for (int32_t k = 0; k < info.rank; ++k)
    dims.push_back(info.dim_names && info.dim_names[k] ? info.dim_names[k]
                   : info.shape[k] >= 0                ? std::to_string(info.shape[k])
                                                       : "?");
  return dims;
}

bool inspectLibrary(const std::string &path, bool asJson, llvm::raw_ostream &os,
                    std::string &error) {
  ObjectSizes sizes;
  if (!readObjectSizes(path, sizes, error)) {
    error = "cannot read '" + path + "' as a library or an ONNX model: " + error;
    return false;
  }
  tcc_model_options options = TCC_MODEL_OPTIONS_INIT;
  options.flags = TCC_MODEL_FLAG_SKIP_CPU_CHECK; // levels this CPU lacks are still shown
  tcc_model *raw = nullptr;
  tcc_status status = tcc_model_load(path.c_str(), &options, &raw);
  std::unique_ptr<tcc_model, void (*)(tcc_model *)> model(raw, tcc_model_release);
  std::string unloadable;
  if (status) {
    unloadable = tcc_status_message(status);
    tcc_status_free(status);
    // dlopen's own words for a library of another machine are not always clear.
    std::string host =
        llvm::Triple::getArchTypeName(llvm::Triple(llvm::sys::getProcessTriple()).getArch()).str();
    if (sizes.arch != host) {
      unloadable = "it is a library for " + sizes.arch + " and this host is " + host;
    } else {
      error = unloadable; // this host's library, and not a model tcc made (or a corrupt one)
      return false;
    }
  }
  json::Object out{{"file", path},
                   {"kind", "library"},
                   {"format", sizes.format},
                   {"arch", sizes.arch},
                   {"file_bytes", int64_t(sizes.fileBytes)},
                   {"code_bytes", int64_t(sizes.code)},
                   {"weights_bytes", int64_t(sizes.weights)},
                   {"parameters_bytes", int64_t(sizes.parameters)},
                   {"other_data_bytes", int64_t(sizes.otherData)}};
  if (!asJson) {
    os << path << ": " << sizes.format << " library (" << bytesText(sizes.fileBytes) << "): code "
       << bytesText(sizes.code) << ", weights " << bytesText(sizes.weights);
    if (sizes.parameters)
      os << ", initial parameters " << bytesText(sizes.parameters);
    os << ", other data " << bytesText(sizes.otherData) << "\n";
  }
  if (!model) {
    // Another host's library (or not a model): only what the object file says.
    out["loadable"] = false;
    out["why_not"] = unloadable;
    if (asJson)
      os << llvm::formatv("{0:2}", json::Value(std::move(out))) << "\n";
    else
      os << "  the runtime cannot load it here, so its descriptor is not shown: " << unloadable
         << "\n";
    return true;
  }
  tcc_model *m = model.get();
  out["loadable"] = true;
  out["tcc_version"] = tcc_model_tcc_version(m);
  json::Array variants, symbols, inputs, outputs, parameters;
  uint64_t imageBytes = 0;
  std::string text, variantText;
  llvm::raw_string_ostream t(text), vt(variantText);
  std::vector<std::pair<std::string, std::string>> previousKernels;
  int32_t numVariants = tcc_model_num_variants(m);
  for (int32_t v = 0; v < numVariants; ++v) {
    tcc_variant_info info{};
    if (tcc_status s = tcc_model_variant_info(m, v, &info)) {
      error = tcc_status_message(s);
      tcc_status_free(s);
      return false;
    }
    json::Array images, kernels;
    std::string imageText;
    for (int32_t i = 0; i < info.num_device_images; ++i) {
      const tcc_device_image &image = info.device_images[i];
      imageBytes += uint64_t(image.size);
      images.push_back(json::Object{
          {"arch", image.arch}, {"format", formatName(image.format)}, {"bytes", image.size}});
      imageText += std::string(i ? ", " : "") + image.arch + " " + formatName(image.format) + " " +
                   bytesText(uint64_t(image.size));
    }
    int32_t numKernels = tcc_model_num_kernels(m, v);
    std::string kernelText;
    std::vector<std::pair<std::string, std::string>> kernelList;
    for (int32_t k = 0; k < numKernels; ++k) {
      const char *name = nullptr, *nodes = nullptr;
      if (tcc_status s = tcc_model_kernel_info(m, v, k, &name, &nodes)) {
        error = tcc_status_message(s);
        tcc_status_free(s);
        return false;
      }
      kernels.push_back(json::Object{{"name", name}, {"nodes", nodes}});
      kernelList.emplace_back(name, nodes);
      kernelText +=
          std::string("      ") + name + (nodes[0] ? std::string("  (") + nodes + ")" : "") + "\n";
    }
    const char *compiled = tcc_model_compile_options(m, v);
    json::Object variant{{"index", v},
                         {"device", deviceName(info.device_type)},
                         {"target_triple", info.target_triple},
                         {"cpu", info.cpu},
                         {"cpu_features", info.cpu_features},
                         {"runs_here", info.unavailable == nullptr},
                         {"compile_options", compiled ? compiled : ""},
                         {"device_images", std::move(images)},
                         {"kernels", std::move(kernels)}};
    if (info.unavailable)
      variant["why_not_here"] = info.unavailable;
    variants.push_back(std::move(variant));
    vt << "  variant " << v << ": " << deviceName(info.device_type) << ", " << info.target_triple
       << ", cpu " << info.cpu;
    if (v == tcc_model_default_variant(m))
      vt << " (default here)";
    vt << "\n";
    if (info.unavailable)
      vt << "    does not run here: " << info.unavailable << "\n";
    if (compiled && compiled[0])
      vt << "    compiled with: " << compiled << "\n";
    if (!imageText.empty())
      vt << "    device images: " << imageText << "\n";
    vt << "    kernels: " << numKernels;
    if (v > 0 && numKernels > 0 && kernelList == previousKernels)
      vt << " (as variant " << v - 1 << ")\n";
    else
      vt << "\n" << kernelText;
    previousKernels = std::move(kernelList);
  }
  for (int32_t s = 0; s < tcc_model_num_symbols(m); ++s) {
    tcc_symbol_info info{};
    if (tcc_status st = tcc_model_symbol_info(m, s, &info)) {
      tcc_status_free(st);
      continue;
    }
    symbols.push_back(json::Object{{"name", info.name}, {"min", info.min}, {"max", info.max}});
    t << "  symbol " << info.name << " in [" << info.min << ", "
      << (info.max < 0 ? std::string("unbounded") : std::to_string(info.max)) << "]\n";
  }
  auto tensors = [&](const char *what, int32_t count,
                     tcc_status (*query)(const tcc_model *, int32_t, tcc_tensor_info *),
                     json::Array &list) {
    for (int32_t i = 0; i < count; ++i) {
      tcc_tensor_info info{};
      if (tcc_status s = query(m, i, &info)) {
        tcc_status_free(s);
        continue;
      }
      json::Array dims;
      for (const std::string &d : dimsOf(info))
        dims.push_back(dimJson(d));
      list.push_back(json::Object{
          {"name", info.name}, {"dtype", tcc_dtype_name(info.dtype)}, {"shape", std::move(dims)}});
      t << "  " << what << " " << info.name << ": " << tcc_dtype_name(info.dtype) << " "
        << shapeText(dimsOf(info)) << "\n";
    }
  };
  tensors("input", tcc_model_num_inputs(m), tcc_model_input_info, inputs);
  tensors("output", tcc_model_num_outputs(m), tcc_model_output_info, outputs);
  tensors("parameter", tcc_model_num_parameters(m), tcc_model_parameter_info, parameters);
  out["device_image_bytes"] = int64_t(imageBytes);
  out["variants"] = std::move(variants);
  out["symbols"] = std::move(symbols);
  out["inputs"] = std::move(inputs);
  out["outputs"] = std::move(outputs);
  out["parameters"] = std::move(parameters);
  if (asJson) {
    os << llvm::formatv("{0:2}", json::Value(std::move(out))) << "\n";
    return true;
  }
  os << "  made by tcc " << tcc_model_tcc_version(m) << "; " << numVariants
     << (numVariants == 1 ? " variant" : " variants");
  if (imageBytes)
    os << ", device images " << bytesText(imageBytes);
  os << "\n" << text << variantText;
  return true;
}

} // namespace

bool tcc_tool::inspect(const std::string &path, bool json, mlir::MLIRContext &context,
                       llvm::raw_ostream &os, std::string &error) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  if (extension == ".onnx" || extension == ".onnxtxt")
    return inspectOnnx(path, json, context, os, error);
  return inspectLibrary(path, json, os, error);
}
