//===- Info.cpp - tcc-run --info: what a compiled model is and takes ------------------------===//
#include "Info.h"
#include "Status.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {

/// A runtime status that failed: printInfo's error.
struct StatusError {
  std::string message;
};

void check(tcc_status status) {
  if (std::optional<std::string> message = tcc_run::takeStatusMessage(status))
    throw StatusError{*message};
}

} // namespace

std::string tcc_run::deviceTypeName(int32_t type) {
  switch (type) {
  case kDLCPU:
    return "CPU (kDLCPU)";
  case kDLCUDA:
    return "CUDA (kDLCUDA)";
  case kDLROCM:
    return "ROCm (kDLROCM)";
  case kDLVulkan:
    return "Vulkan (kDLVulkan)";
  case kDLMetal:
    return "Metal (kDLMetal)";
  default:
    return "device type " + std::to_string(type);
  }
}

std::string tcc_run::printInfo(const tcc_model *model) {
  try {
    auto text = [](const char *s) { return s && *s ? s : "?"; };
    auto printImages = [&](int32_t numImages, const tcc_device_image *images) {
      for (int32_t i = 0; i < numImages; ++i) {
        const tcc_device_image &image = images[i];
        const char *format = image.format == TCC_IMAGE_PTX     ? "PTX"
                             : image.format == TCC_IMAGE_CUBIN ? "cubin"
                             : image.format == TCC_IMAGE_HSACO ? "code object"
                             : image.format == TCC_IMAGE_SPIRV ? "SPIR-V"
                             : image.format == TCC_IMAGE_MSL   ? "Metal Shading Language"
                                                               : "unknown format";
        std::printf("image %d: %s %s, %lld bytes\n", i, text(image.arch), format,
                    static_cast<long long>(image.size));
      }
    };
    int32_t numVariants = tcc_model_num_variants(model);
    if (numVariants > 1) {
      // A fat model: each variant's target, device and images.
      std::printf("variants: %d (sessions run variant %d unless --device asks for another) "
                  "(tcc %s)\n",
                  numVariants, tcc_model_default_variant(model),
                  text(tcc_model_tcc_version(model)));
      for (int32_t v = 0; v < numVariants; ++v) {
        tcc_variant_info info{};
        check(tcc_model_variant_info(model, v, &info));
        std::printf("variant %d: device %s, target %s, cpu %s, requires %s%s%s\n", v,
                    deviceTypeName(info.device_type).c_str(), text(info.target_triple),
                    text(info.cpu), text(info.cpu_features),
                    info.unavailable ? "; not on this host: " : "",
                    info.unavailable ? info.unavailable : "");
        if (info.device_type != kDLCPU)
          std::printf("device %s: kernels in %d image%s\n",
                      deviceTypeName(info.device_type).c_str(), info.num_device_images,
                      info.num_device_images == 1 ? "" : "s");
        printImages(info.num_device_images, info.device_images);
      }
    } else {
      std::printf("target %s, cpu %s, requires %s (tcc %s)\n", text(tcc_model_target_triple(model)),
                  text(tcc_model_cpu(model)), text(tcc_model_cpu_features(model)),
                  text(tcc_model_tcc_version(model)));
      int32_t deviceType = tcc_model_device_type(model);
      if (deviceType != kDLCPU) {
        int32_t numImages = tcc_model_num_device_images(model);
        std::printf("device %s: kernels in %d image%s\n", deviceTypeName(deviceType).c_str(),
                    numImages, numImages == 1 ? "" : "s");
        std::vector<tcc_device_image> images(static_cast<size_t>(numImages));
        for (int32_t i = 0; i < numImages; ++i)
          check(tcc_model_device_image(model, i, &images[static_cast<size_t>(i)]));
        printImages(numImages, images.data());
      }
    }
    int32_t numSymbols = tcc_model_num_symbols(model);
    for (int32_t s = 0; s < numSymbols; ++s) {
      tcc_symbol_info info{};
      check(tcc_model_symbol_info(model, s, &info));
      std::printf("symbol %s: [%lld, %s]%s\n", info.name, static_cast<long long>(info.min),
                  info.max < 0 ? "unbounded" : std::to_string(info.max).c_str(),
                  s == tcc_model_batch_symbol(model)    ? " (the batch: images run alone)"
                  : tcc_model_symbol_computed(model, s) ? " (computed from the inputs' data)"
                                                        : "");
    }
    auto describe = [](const char *what, int32_t index, const tcc_tensor_info &info) {
      std::string dims;
      for (int32_t d = 0; d < info.rank; ++d) {
        dims += d ? ", " : "";
        if (info.shape[d] >= 0)
          dims += std::to_string(info.shape[d]);
        else
          dims += info.dim_names[d] ? info.dim_names[d] : "?";
      }
      std::printf("%s %d '%s': %s [%s]\n", what, index, info.name, tcc_dtype_name(info.dtype),
                  dims.c_str());
    };
    for (int32_t i = 0; i < tcc_model_num_inputs(model); ++i) {
      tcc_tensor_info info{};
      check(tcc_model_input_info(model, i, &info));
      describe("input", i, info);
    }
    for (int32_t i = 0; i < tcc_model_num_outputs(model); ++i) {
      tcc_tensor_info info{};
      check(tcc_model_output_info(model, i, &info));
      describe("output", i, info);
    }
    for (int32_t i = 0; i < tcc_model_num_parameters(model); ++i) {
      tcc_tensor_info info{};
      check(tcc_model_parameter_info(model, i, &info));
      describe("parameter", i, info);
    }
    // The tensors that together form one ONNX value (runtime.h's sequences and optionals).
    for (int32_t k = 0; k < tcc_model_num_sequences(model); ++k) {
      tcc_sequence_info info{};
      check(tcc_model_sequence_info(model, k, &info));
      const char *kind = info.is_output ? "output" : "input";
      std::printf("sequence '%s': %s %d (element shapes) and %s %d (%s elements of rank %d)\n",
                  info.name, kind, info.shapes_index, kind, info.data_index,
                  tcc_dtype_name(info.dtype), info.element_rank);
    }
    for (int32_t k = 0; k < tcc_model_num_optionals(model); ++k) {
      tcc_optional_info info{};
      check(tcc_model_optional_info(model, k, &info));
      const char *kind = info.is_output ? "output" : "input";
      std::string value = info.count == 1
                              ? std::string(kind) + " " + std::to_string(info.first_index)
                              : std::string(kind) + "s " + std::to_string(info.first_index) + "-" +
                                    std::to_string(info.first_index + info.count - 1);
      std::printf("optional '%s': present when %s %d is true; its value: %s%s\n", info.name, kind,
                  info.present_index, value.c_str(),
                  info.is_output ? "" : " (empty: --input none for each of its tensors)");
    }
  } catch (const StatusError &error) {
    return error.message;
  }
  return "";
}
