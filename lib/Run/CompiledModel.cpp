//===- CompiledModel.cpp - a compiled library run on evaluator tensors ---------------------===//
#include "tcc/Run/CompiledModel.h"

#include "dialects/prim/PrimDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace mlir;
using tcc::GuardedBytes;
using tcc::GuardPages;
using tcc::eval::Tensor;
using tcc::run::CompiledModel;

namespace {

std::string statusText(tcc_status status) {
  std::string text = tcc_status_message(status);
  tcc_status_free(status);
  return text;
}

/// Whether `type` is `!prim.string` or a shaped type of them.
bool isStringType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  return isa<tcc::prim::StringType>(type);
}

std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

} // namespace

Type tcc::run::elementTypeOfDtype(MLIRContext &ctx, int32_t dtype) {
  switch (dtype) {
  case TCC_DTYPE_FLOAT32:
    return Float32Type::get(&ctx);
  case TCC_DTYPE_FLOAT64:
    return Float64Type::get(&ctx);
  case TCC_DTYPE_FLOAT16:
    return Float16Type::get(&ctx);
  case TCC_DTYPE_BFLOAT16:
    return BFloat16Type::get(&ctx);
  case TCC_DTYPE_BOOL:
    return IntegerType::get(&ctx, 1);
  case TCC_DTYPE_INT8:
    return IntegerType::get(&ctx, 8);
  case TCC_DTYPE_INT16:
    return IntegerType::get(&ctx, 16);
  case TCC_DTYPE_INT32:
    return IntegerType::get(&ctx, 32);
  case TCC_DTYPE_INT64:
    return IntegerType::get(&ctx, 64);
  case TCC_DTYPE_UINT8:
    return IntegerType::get(&ctx, 8, IntegerType::Unsigned);
  case TCC_DTYPE_UINT16:
    return IntegerType::get(&ctx, 16, IntegerType::Unsigned);
  case TCC_DTYPE_UINT32:
    return IntegerType::get(&ctx, 32, IntegerType::Unsigned);
  case TCC_DTYPE_UINT64:
    return IntegerType::get(&ctx, 64, IntegerType::Unsigned);
  case TCC_DTYPE_STRING:
    ctx.getOrLoadDialect<tcc::prim::PrimDialect>();
    return tcc::prim::StringType::get(&ctx);
  default:
    return nullptr;
  }
}

CompiledModel::~CompiledModel() {
  tcc_session_release(session);
  tcc_model_release(model);
}

std::string CompiledModel::load(const std::string &path, int32_t numThreads) {
  if (tcc_status s = tcc_model_load(path.c_str(), nullptr, &model))
    return "load: " + statusText(s);
  tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
  options.num_threads = numThreads;
  if (tcc_status s = tcc_session_create(model, &options, &session))
    return "session: " + statusText(s);
  return "";
}

std::string CompiledModel::run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
                               MLIRContext &context) {
  int32_t numInputs = tcc_model_num_inputs(model), numOutputs = tcc_model_num_outputs(model);
  if (static_cast<size_t>(numInputs) != inputs.size())
    return "the model has " + std::to_string(numInputs) + " inputs, the case " +
           std::to_string(inputs.size());
  std::vector<DLTensor> in(numInputs), out(numOutputs);
  std::vector<const DLTensor *> inPtrs, outPtrs;
  std::vector<Tensor> results;
  // With guard pages, the numeric tensors' copies against them (outputs copied back).
  std::vector<GuardedBytes> guarded;
  std::vector<std::pair<const GuardedBytes *, int32_t>> guardedOutputs;
  guarded.reserve(numInputs + numOutputs); // guardedOutputs points into it: no reallocation
  // String tensors are passed as arrays of tcc_string (16-byte aligned, as std::vector
  // allocates them): the inputs' point into the data sets' strings, the outputs' are
  // filled by the run and copied into Tensor::strings after it.
  std::vector<std::vector<tcc_string>> inStrings(numInputs), outStrings(numOutputs);
  for (int32_t i = 0; i < numInputs; ++i) {
    tcc_tensor_info info;
    if (tcc_status s = tcc_model_input_info(model, i, &info))
      return statusText(s);
    DLDataType dtype;
    if (tcc_status s = tcc_dtype_to_dlpack(info.dtype, &dtype))
      return statusText(s);
    bool modelStrings = info.dtype == TCC_DTYPE_STRING;
    if (modelStrings != isStringType(inputs[i].elementType))
      return "input " + std::to_string(i) + " '" + info.name + "': the model expects " +
             (modelStrings ? "strings" : tcc_dtype_name(info.dtype)) + ", the data are " +
             typeName(inputs[i].elementType);
    void *data = const_cast<uint8_t *>(inputs[i].bytes.data());
    if (modelStrings) {
      int64_t count = inputs[i].getNumElements();
      if (static_cast<int64_t>(inputs[i].strings.size()) != count)
        return "input " + std::to_string(i) + " '" + info.name + "' holds " +
               std::to_string(inputs[i].strings.size()) + " strings for " + std::to_string(count) +
               " elements";
      std::vector<tcc_string> &elements = inStrings[i];
      elements.reserve(std::max<int64_t>(count, 1)); // a valid pointer even when empty
      for (const std::string &text : inputs[i].strings)
        elements.push_back(tcc_string{text.data(), static_cast<int64_t>(text.size())});
      data = elements.data();
    }
    if (!modelStrings && guardPages != GuardPages::None) {
      guarded.emplace_back(inputs[i].bytes.size(), guardPages);
      if (!guarded.back().data())
        return "input " + std::to_string(i) + ": no memory for its guard pages";
      std::copy(inputs[i].bytes.begin(), inputs[i].bytes.end(),
                static_cast<uint8_t *>(guarded.back().data()));
      data = guarded.back().data();
    }
    in[i] = DLTensor{data,
                     {kDLCPU, 0},
                     static_cast<int32_t>(inputs[i].shape.size()),
                     dtype,
                     const_cast<int64_t *>(inputs[i].shape.data()),
                     nullptr,
                     0};
    inPtrs.push_back(&in[i]);
  }
  // Output extents come from the symbols the inputs bind.
  std::vector<int64_t> symbols(std::max<int32_t>(tcc_model_num_symbols(model), 1));
  if (tcc_status s = tcc_model_bind_symbols(model, inPtrs.data(), inPtrs.size(), symbols.data(),
                                            symbols.size()))
    return "run: " + statusText(s);
  std::vector<std::vector<int64_t>> shapes(numOutputs);
  std::vector<int64_t *> shapePtrs;
  for (int32_t i = 0; i < numOutputs; ++i) {
    tcc_tensor_info info;
    if (tcc_status s = tcc_model_output_info(model, i, &info))
      return statusText(s);
    shapes[i].resize(std::max<int32_t>(info.rank, 1));
    shapePtrs.push_back(shapes[i].data());
  }
  if (tcc_status s = tcc_model_output_shapes(model, symbols.data(), symbols.size(),
                                             shapePtrs.data(), shapePtrs.size()))
    return "run: " + statusText(s);
  for (int32_t i = 0; i < numOutputs; ++i) {
    tcc_tensor_info info;
    if (tcc_status s = tcc_model_output_info(model, i, &info))
      return statusText(s);
    Type element = elementTypeOfDtype(context, info.dtype);
    if (!element)
      return "output " + std::to_string(i) + " has an unknown dtype";
    results.push_back(Tensor::zeros(element, llvm::ArrayRef<int64_t>(shapes[i].data(), info.rank)));
  }
  for (int32_t i = 0; i < numOutputs; ++i) {
    DLDataType dtype;
    tcc_tensor_info info;
    if (tcc_status s = tcc_model_output_info(model, i, &info))
      return statusText(s);
    if (tcc_status s = tcc_dtype_to_dlpack(info.dtype, &dtype))
      return statusText(s);
    void *data = results[i].bytes.data();
    if (info.dtype == TCC_DTYPE_STRING) {
      outStrings[i].assign(std::max<int64_t>(results[i].getNumElements(), 1),
                           tcc_string{nullptr, 0});
      data = outStrings[i].data();
    }
    if (info.dtype != TCC_DTYPE_STRING && guardPages != GuardPages::None) {
      guarded.emplace_back(results[i].bytes.size(), guardPages);
      if (!guarded.back().data())
        return "output " + std::to_string(i) + ": no memory for its guard pages";
      guardedOutputs.emplace_back(&guarded.back(), i);
      data = guarded.back().data();
    }
    out[i] = DLTensor{data,
                      {kDLCPU, 0},
                      static_cast<int32_t>(results[i].shape.size()),
                      dtype,
                      results[i].shape.data(),
                      nullptr,
                      0};
    outPtrs.push_back(&out[i]);
  }
  if (tcc_status s =
          tcc_session_run(session, inPtrs.data(), inPtrs.size(), outPtrs.data(), outPtrs.size()))
    return "run: " + statusText(s);
  for (auto [bytes, i] : guardedOutputs)
    std::copy_n(static_cast<const uint8_t *>(bytes->data()), results[i].bytes.size(),
                results[i].bytes.begin());
  // Data-dependent dims were passed with their capacity: keep the compact prefix the run
  // reports.
  for (int32_t i = 0; i < numOutputs; ++i) {
    llvm::SmallVector<int64_t> actual(results[i].shape.size());
    if (tcc_status s = tcc_session_output_shape(session, i, actual.data()))
      return "run: " + statusText(s);
    if (actual != results[i].shape) {
      results[i].shape = actual;
      results[i].bytes.resize(results[i].getNumElements() *
                              tcc::eval::getElementByteSize(results[i].elementType));
    }
    // Copy the strings now: they belong to the session (or the inputs) and last only
    // until its next run.
    if (isStringType(results[i].elementType)) {
      int64_t count = results[i].getNumElements();
      if (count > static_cast<int64_t>(outStrings[i].size()))
        return "run: output " + std::to_string(i) + " has " + std::to_string(count) +
               " elements, more than the " + std::to_string(outStrings[i].size()) + " allocated";
      results[i].strings.resize(count);
      for (int64_t k = 0; k < count; ++k) {
        const tcc_string &element = outStrings[i][k];
        if (element.size < 0 || (element.size > 0 && !element.data))
          return "run: output " + std::to_string(i) + " element " + std::to_string(k) +
                 " is a malformed string (size " + std::to_string(element.size) + ")";
        results[i].strings[k].assign(element.data ? element.data : "",
                                     static_cast<size_t>(element.size));
      }
    }
  }
  outputs = std::move(results);
  return "";
}
