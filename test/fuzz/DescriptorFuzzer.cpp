//===- DescriptorFuzzer.cpp - libFuzzer target: the runtime's model loader ---------------===//
//
// A model.so is trusted code, but the runtime checks its descriptor's tables before using
// them, so that a corrupt or foreign one is refused with a status (model.c, model_device.c).
// This target builds a descriptor from the input: every count, dtype, rank, extent, symbol
// index, range, flag, size, device type, image format and image byte is the input's, while
// the arrays hold as many entries as their counts say (the one promise the runtime cannot
// check) and the functions are stand-ins that the loader never needs to call. It creates the
// model, and when that succeeds, queries everything a front end would (tcc-run --info).
//
//===------------------------------------------------------------------------------------===//
#include "tcc/model_abi.h"
#include "tcc/runtime.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

int64_t workspaceSize(const int64_t *) { return 64; }
int32_t outputShapes(const int64_t *, int64_t *) { return TCC_RUN_OK; }
int32_t run(const tcc_import_table *, const int64_t *, void *const *, void *const *, void *) {
  return TCC_RUN_OK;
}
int32_t computeSymbols(int64_t *, void *const *) { return TCC_RUN_OK; }

/// Everything a descriptor points to, kept alive for one input.
struct Storage {
  std::vector<std::string> strings;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::vector<int32_t>> dimSymbols;
  std::vector<tcc_tensor_desc> inputs, outputs, parameters;
  std::vector<tcc_symbol_desc> symbols;
  std::vector<uint8_t> computed;
  std::vector<int64_t> parameterOffsets;
  std::vector<std::vector<uint8_t>> blobs;
  std::vector<tcc_device_image> images;
  std::vector<const char *> kernelNames, checkMessages;
};

/// A string from the input, or NULL now and then. Storage keeps it (reserved up front, so
/// that the pointers stay valid).
const char *text(FuzzedDataProvider &in, Storage &s) {
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0)
    return nullptr;
  s.strings.push_back(in.ConsumeRandomLengthString(24));
  return s.strings.back().c_str();
}

/// An int32 that is usually small (a count, index or rank) and sometimes anything.
int32_t smallInt(FuzzedDataProvider &in, int32_t low, int32_t high) {
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0)
    return in.ConsumeIntegral<int32_t>();
  return in.ConsumeIntegralInRange<int32_t>(low, high);
}

/// A count for an array the fuzzer allocates: 0 to 4, or -1.
int32_t count(FuzzedDataProvider &in) { return in.ConsumeIntegralInRange<int32_t>(-1, 4); }

void tensors(FuzzedDataProvider &in, Storage &s, std::vector<tcc_tensor_desc> &out, int32_t n) {
  for (int32_t i = 0; i < n; ++i) {
    tcc_tensor_desc t{};
    t.name = text(in, s);
    t.dtype = smallInt(in, 0, 16);
    int32_t rank = in.ConsumeIntegralInRange<int32_t>(-1, 5);
    t.rank = rank;
    size_t entries = rank > 0 ? static_cast<size_t>(rank) : 0;
    s.shapes.emplace_back(entries);
    s.dimSymbols.emplace_back(entries);
    for (size_t d = 0; d < entries; ++d) {
      s.shapes.back()[d] = in.ConsumeIntegralInRange<int>(0, 3) == 0
                               ? in.ConsumeIntegral<int64_t>()
                               : in.ConsumeIntegralInRange<int64_t>(-3, 8);
      s.dimSymbols.back()[d] = smallInt(in, -3, 4);
    }
    t.shape = in.ConsumeBool() || entries ? s.shapes.back().data() : nullptr;
    t.dim_symbols = in.ConsumeBool() || entries ? s.dimSymbols.back().data() : nullptr;
    out.push_back(t);
  }
}

const tcc_device_image *images(FuzzedDataProvider &in, Storage &s, int32_t n) {
  for (int32_t i = 0; i < n; ++i) {
    tcc_device_image image{};
    static const char *const arches[] = {"sm_80", "sm_90", "sm_90a", "gfx942", "gfx1100", ""};
    image.arch = in.ConsumeBool() ? arches[in.ConsumeIntegralInRange<int>(0, 5)] : text(in, s);
    image.format = smallInt(in, 0, 4);
    s.blobs.push_back(in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 2048)));
    std::vector<uint8_t> &blob = s.blobs.back();
    image.data = blob.empty() && in.ConsumeBool() ? nullptr : blob.data();
    // At most the bytes there are (a size past them would be a lie the runtime cannot see),
    // or a negative one.
    image.size = in.ConsumeIntegralInRange<int>(0, 9) == 0
                     ? -in.ConsumeIntegralInRange<int64_t>(1, 1000)
                     : static_cast<int64_t>(blob.size());
    s.images.push_back(image);
  }
  return n > 0 ? s.images.data() : nullptr;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  Storage s;
  s.strings.reserve(256); // text() keeps pointers into it
  s.shapes.reserve(64);
  s.dimSymbols.reserve(64);
  s.blobs.reserve(16);

  tcc_model_descriptor d;
  std::memset(&d, 0, sizeof(d));
  d.abi_version =
      in.ConsumeIntegralInRange<int>(0, 15) == 0 ? in.ConsumeIntegral<uint32_t>() : TCC_ABI_VERSION;
  static const uint32_t sizes[] = {TCC_MODEL_DESCRIPTOR_V1_SIZE, TCC_MODEL_DESCRIPTOR_V2_SIZE,
                                   TCC_MODEL_DESCRIPTOR_V3_SIZE, sizeof(tcc_model_descriptor),
                                   sizeof(tcc_model_descriptor) - 16};
  d.size = in.ConsumeIntegralInRange<int>(0, 7) == 0
               ? in.ConsumeIntegralInRange<uint32_t>(0, sizeof(tcc_model_descriptor))
               : sizes[in.ConsumeIntegralInRange<int>(0, 4)];
  d.tcc_version = text(in, s);
  d.target_triple = text(in, s);
  d.cpu = text(in, s);
  d.cpu_features = in.ConsumeBool() ? "" : text(in, s);

  int32_t numSymbols = count(in);
  d.num_symbols = numSymbols;
  for (int32_t i = 0; i < numSymbols; ++i) {
    tcc_symbol_desc symbol{};
    symbol.name = text(in, s);
    symbol.min = in.ConsumeIntegralInRange<int64_t>(-2, 4);
    symbol.max = in.ConsumeBool() ? -1 : in.ConsumeIntegralInRange<int64_t>(-2, 1 << 20);
    s.symbols.push_back(symbol);
  }
  d.symbols = numSymbols > 0 || in.ConsumeBool() ? s.symbols.data() : nullptr;

  d.num_inputs = count(in);
  tensors(in, s, s.inputs, d.num_inputs);
  d.inputs = d.num_inputs > 0 || in.ConsumeBool() ? s.inputs.data() : nullptr;
  d.num_outputs = count(in);
  tensors(in, s, s.outputs, d.num_outputs);
  d.outputs = d.num_outputs > 0 || in.ConsumeBool() ? s.outputs.data() : nullptr;
  d.workspace_size = in.ConsumeIntegralInRange<int>(0, 15) ? workspaceSize : nullptr;
  d.output_shapes = in.ConsumeIntegralInRange<int>(0, 15) ? outputShapes : nullptr;
  d.run = in.ConsumeIntegralInRange<int>(0, 15) ? run : nullptr;

  d.num_parameters = in.ConsumeIntegralInRange<int32_t>(-1, 2);
  tensors(in, s, s.parameters, d.num_parameters);
  d.parameters = d.num_parameters > 0 ? s.parameters.data() : nullptr;
  for (int32_t i = 0; i < d.num_parameters; ++i)
    s.parameterOffsets.push_back(in.ConsumeIntegralInRange<int64_t>(-64, 4096));
  d.parameter_offsets = d.num_parameters > 0 ? s.parameterOffsets.data() : nullptr;
  s.blobs.push_back(in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 4096)));
  d.initial_parameters = s.blobs.back().data();
  // At most the bytes there are, or negative.
  d.parameters_size =
      in.ConsumeBool()
          ? static_cast<int64_t>(s.blobs.back().size())
          : in.ConsumeIntegralInRange<int64_t>(-64, static_cast<int64_t>(s.blobs.back().size()));

  d.batch_symbol = smallInt(in, -1, 4);
  d.flags = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? in.ConsumeIntegral<uint32_t>()
                                                      : in.ConsumeIntegralInRange<uint32_t>(0, 1);
  if (numSymbols > 0 && in.ConsumeBool()) {
    for (int32_t i = 0; i < numSymbols; ++i)
      s.computed.push_back(in.ConsumeIntegralInRange<uint8_t>(0, 2));
    d.symbol_computed = s.computed.data();
  }
  d.compute_symbols = in.ConsumeBool() ? computeSymbols : nullptr;

  static const int32_t deviceTypes[] = {0, 1, 2, 10, 7};
  d.device_type = in.ConsumeIntegralInRange<int>(0, 7) == 0
                      ? in.ConsumeIntegral<int32_t>()
                      : deviceTypes[in.ConsumeIntegralInRange<int>(0, 4)];
  d.num_device_images = count(in);
  d.device_images = images(in, s, d.num_device_images);
  d.num_device_kernels = count(in);
  for (int32_t k = 0; k < d.num_device_kernels; ++k)
    s.kernelNames.push_back(text(in, s));
  d.device_kernel_names = d.num_device_kernels > 0 ? s.kernelNames.data() : nullptr;
  s.blobs.push_back(in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 256)));
  d.device_constants = in.ConsumeBool() ? s.blobs.back().data() : nullptr;
  d.device_constants_size = in.ConsumeBool() ? static_cast<int64_t>(s.blobs.back().size())
                                             : in.ConsumeIntegralInRange<int64_t>(-8, 0);
  d.num_device_check_messages = count(in);
  for (int32_t k = 0; k < d.num_device_check_messages; ++k)
    s.checkMessages.push_back(text(in, s));
  d.device_check_messages = d.num_device_check_messages > 0 ? s.checkMessages.data() : nullptr;

  tcc_model *model = nullptr;
  tcc_status status = tcc_model_create_from_descriptor(&d, nullptr, &model);
  if (status) {
    tcc_status_free(status);
    return 0;
  }
  // A model that loads answers every query without touching anything outside its tables.
  (void)tcc_model_target_triple(model);
  (void)tcc_model_cpu(model);
  (void)tcc_model_cpu_features(model);
  (void)tcc_model_batch_symbol(model);
  (void)tcc_model_device_type(model);
  for (int32_t i = 0; i < tcc_model_num_symbols(model); ++i) {
    tcc_symbol_info info{};
    tcc_status_free(tcc_model_symbol_info(model, i, &info));
    (void)tcc_model_symbol_computed(model, i);
  }
  for (int32_t i = 0; i < tcc_model_num_device_images(model); ++i) {
    tcc_device_image image{};
    tcc_status_free(tcc_model_device_image(model, i, &image));
  }
  for (int32_t i = 0; i < tcc_model_num_parameters(model); ++i) {
    tcc_tensor_info info{};
    tcc_status_free(tcc_model_parameter_info(model, i, &info));
  }
  std::vector<tcc_tensor_info> inputInfo(static_cast<size_t>(tcc_model_num_inputs(model)));
  for (int32_t i = 0; i < tcc_model_num_inputs(model); ++i)
    tcc_status_free(tcc_model_input_info(model, i, &inputInfo[static_cast<size_t>(i)]));
  for (int32_t i = 0; i < tcc_model_num_outputs(model); ++i) {
    tcc_tensor_info info{};
    tcc_status_free(tcc_model_output_info(model, i, &info));
  }
  tcc_model_release(model);
  return 0;
}
