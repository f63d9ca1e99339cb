//===- tcc-run.cpp - run a model compiled by tcc on .npy inputs ------------------------===//
//
//   tcc-run MODEL.so [--input FILE.npy]... [--output-dir DIR] [--compare REF.npy]...
//                    [--rtol R] [--atol A] [--benchmark N] [--warmup W] [--threads T]
//                    [--whole-batch] [--device cpu|cuda[:N]|rocm[:N]|vulkan[:N]|metal] [--info]
//                    [--sessions N [--session-runs R]] [--profile [--profile-format json]]
//                    [--guard-pages after|before]
//
// Inputs are given in the model's input order. --output-dir writes DIR/output_<k>.npy;
// --compare checks output k against the k-th reference (|a - b| <= atol + rtol |b|, NaN equal
// to NaN) and prints one line per output; bfloat16, which NumPy lacks, is read and written as
// its bits in <u2 files (the ONNX test data's convention); --benchmark times N runs after W warm-up runs and
// prints one JSON line, as ../shared/bench/ort-run.js does:
//   {"model":"m.so","variant":V,"device":"CPU (kDLCPU)","threads":T,"runs":N,"median_ms":...,
//    "min_ms":...,"max_ms":...}
//
// A device model (compiled for a GPU) runs on GPU $TCC_CUDA_DEVICE, or N with --device cuda:N
// (AMD: $TCC_HIP_DEVICE, --device rocm:N); the .npy tensors stay in CPU memory and the runtime copies them to the GPU and back.
// --device also checks that the model was compiled for that device; of a model compiled for
// several targets (tcc --target cpu,nvidia:sm_90), it picks the one to run (default: the
// first the host can run). --info lists such a model's variants.
//
// --profile times each kernel of the model (TCC_SESSION_FLAG_PROFILE) over the --benchmark
// runs (20 when not given) after the warm-up runs, and prints one row per kernel, most time
// first, with the ONNX nodes it computes: a table, or one JSON object with --profile-format
// json. Profiling adds a little to each kernel on the CPU and waits for each kernel on a GPU,
// so time runs without it.
//
// --guard-pages puts each input and output (host memory) against an inaccessible page, after
// its last byte or before its first (tcc::GuardedBytes): an access beyond a tensor faults.
// The index tests run the gather-like ops on hostile indices that way (docs/SECURITY.md).
//
// Exit status: 0 success, 1 an error (`tcc-run: error: <message>` on stderr) or a --compare
// mismatch, 2 the command line is wrong (including a number of --input files that differs
// from the model's inputs, or a --device the model was not compiled for).
//
// Plain C++17 on the runtime's C API: no MLIR or LLVM, so it ships next to compiled models.
//
//===------------------------------------------------------------------------------------===//
#include "Compare.h"
#include "Info.h"
#include "NpyFile.h"
#include "Profile.h"
#include "Status.h"

using tcc_run::deviceTypeName;
using tcc_run::jsonString;

#include "tcc/runtime.h"

#include <CLI/CLI.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

struct Options {
  std::string model;
  std::vector<std::string> inputs;
  std::string outputDir;
  std::vector<std::string> compares;
  double rtol = 1e-4;
  double atol = 1e-5;
  int benchmarkRuns = 0;
  int sessions = 0;       // --sessions: threads with sessions of their own
  int sessionRuns = 100;  // --session-runs: runs of each
  int warmupRuns = 5;
  int threads = 0;
  bool wholeBatch = false;
  bool info = false;
  bool profile = false;
  std::string profileFormat = "table";
  std::string guardPages; // --guard-pages: "", "after" or "before"
  std::string device; // --device: "", "cpu", "cuda", "cuda:N", "rocm" or "rocm:N"
  int32_t deviceType = 0; // --device's DLDeviceType; 0: the model's default variant
};

/// Thrown to end the program with `code` after printing `message` as an error.
struct Failure {
  int code;
  std::string message;
};

[[noreturn]] void fail(int code, std::string message) { throw Failure{code, std::move(message)}; }

/// Turns a runtime status into a Failure (exit 1).
void check(tcc_status status) {
  if (std::optional<std::string> message = tcc_run::takeStatusMessage(status))
    fail(kExitError, *message);
}

struct ModelDeleter {
  void operator()(tcc_model *model) const { tcc_model_release(model); }
};
struct SessionDeleter {
  void operator()(tcc_session *session) const { tcc_session_release(session); }
};

/// A tensor of the run: its shape, its data, and the DLTensor that points at them. A string
/// tensor's data are tcc_string elements (16 bytes, 16-byte aligned): an input's point into
/// its stringBytes, an output's into memory of the session (valid until its next run).
struct Tensor {
  int32_t dtype = 0;
  std::vector<int64_t> shape;
  int64_t count = 0;
  tcc_run::AlignedBuffer data;
  std::vector<char> stringBytes;
  DLTensor dl{};
  bool none = false; ///< given as --input none: passed as a null tensor

  void point() {
    DLDataType type{};
    check(tcc_dtype_to_dlpack(dtype, &type));
    dl.data = data.data();
    dl.device = DLDevice{kDLCPU, 0};
    dl.ndim = static_cast<int>(shape.size());
    dl.dtype = type;
    dl.shape = shape.data();
    dl.strides = nullptr;
    dl.byte_offset = 0;
  }
};

/// Formats a number as JavaScript prints `+x.toFixed(4)`: four decimals, trailing zeros cut.
std::string formatMilliseconds(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.4f", value);
  std::string text = buffer;
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.')
      text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

std::string describe(const tcc_tensor_info &info, const char *kind, int32_t index) {
  return std::string(kind) + " " + std::to_string(index) + " '" + info.name + "'";
}

/// Reads the --input files and checks their dtypes against the model's.
std::vector<Tensor> readInputs(tcc_model *model, const Options &options) {
  std::vector<Tensor> inputs(options.inputs.size());
  for (size_t i = 0; i < options.inputs.size(); ++i) {
    // "none": no tensor (the value of an optional input whose NAME.present is false).
    if (options.inputs[i] == "none") {
      inputs[i].none = true;
      continue;
    }
    tcc_run::NpyArray array;
    std::string error = tcc_run::readNpy(options.inputs[i], array);
    if (!error.empty())
      fail(kExitError, "--input '" + options.inputs[i] + "': " + error);
    tcc_tensor_info info{};
    check(tcc_model_input_info(model, static_cast<int32_t>(i), &info));
    // bfloat16 comes as its bits in a <u2 file (NumPy has no bfloat16).
    if (info.dtype == TCC_DTYPE_BFLOAT16 && array.dtype == TCC_DTYPE_UINT16)
      array.dtype = TCC_DTYPE_BFLOAT16;
    // DLPack cannot tell bool from uint8: compare dtypes here, where the file says which.
    if (array.dtype != info.dtype)
      fail(kExitError, describe(info, "input", static_cast<int32_t>(i)) + " expects " +
                           tcc_dtype_name(info.dtype) + ", but '" + options.inputs[i] +
                           "' holds " + tcc_dtype_name(array.dtype) + " ('" + array.descr +
                           "')");
    Tensor &tensor = inputs[i];
    tensor.dtype = array.dtype;
    tensor.shape = array.shape;
    tensor.count = array.count;
    tensor.data = std::move(array.data);
    tensor.stringBytes = std::move(array.stringBytes); // keeps its buffer: data points into it
    tensor.point();
  }
  return inputs;
}

/// Allocates the outputs with the shapes the model computes for the inputs.
std::vector<Tensor> allocateOutputs(tcc_model *model, const std::vector<const DLTensor *> &inputs) {
  std::vector<int64_t> symbols(static_cast<size_t>(tcc_model_num_symbols(model)) + 1);
  check(tcc_model_bind_symbols(model, inputs.data(), inputs.size(), symbols.data(),
                               symbols.size()));
  int32_t numOutputs = tcc_model_num_outputs(model);
  std::vector<Tensor> outputs(static_cast<size_t>(numOutputs));
  std::vector<int64_t *> shapes;
  for (int32_t o = 0; o < numOutputs; ++o) {
    tcc_tensor_info info{};
    check(tcc_model_output_info(model, o, &info));
    outputs[o].dtype = info.dtype;
    outputs[o].shape.assign(static_cast<size_t>(info.rank), 0);
    shapes.push_back(outputs[o].shape.data());
  }
  check(tcc_model_output_shapes(model, symbols.data(), symbols.size(), shapes.data(),
                                shapes.size()));
  for (int32_t o = 0; o < numOutputs; ++o) {
    Tensor &tensor = outputs[o];
    uint64_t count = 1;
    for (int64_t extent : tensor.shape)
      if (__builtin_mul_overflow(count, static_cast<uint64_t>(extent), &count))
        fail(kExitError, "output " + std::to_string(o) + " is too large");
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(count, tcc_dtype_size(tensor.dtype), &bytes))
      fail(kExitError, "output " + std::to_string(o) + " is too large");
    tensor.count = static_cast<int64_t>(count);
    tensor.data = tcc_run::AlignedBuffer(static_cast<size_t>(bytes));
    if (!tensor.data.data())
      fail(kExitError, "out of memory for output " + std::to_string(o) + " (" +
                           std::to_string(bytes) + " bytes)");
    tensor.point();
  }
  return outputs;
}

void writeOutputs(tcc_model *model, const std::vector<Tensor> &outputs, const std::string &dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    fail(kExitError, "--output-dir '" + dir + "': " + error.message());
  for (size_t o = 0; o < outputs.size(); ++o) {
    std::string path = (std::filesystem::path(dir) / ("output_" + std::to_string(o) + ".npy"))
                           .string();
    const Tensor &tensor = outputs[o];
    std::string message =
        tcc_run::writeNpy(path, tensor.dtype, tensor.shape, tensor.data.data(),
                          static_cast<size_t>(tensor.count) * tcc_dtype_size(tensor.dtype));
    if (!message.empty())
      fail(kExitError, "'" + path + "': " + message);
    if (tensor.dtype == TCC_DTYPE_BFLOAT16) {
      tcc_tensor_info info{};
      check(tcc_model_output_info(model, static_cast<int32_t>(o), &info));
      std::cerr << "tcc-run: note: " << describe(info, "output", static_cast<int32_t>(o))
                << " is bfloat16, which NumPy lacks: '" << path << "' holds its bits as <u2\n";
    }
  }
}

/// Compares the outputs with the --compare files; returns whether all passed.
bool compareOutputs(tcc_model *model, const std::vector<Tensor> &outputs, const Options &options) {
  bool allPass = true;
  for (size_t k = 0; k < options.compares.size(); ++k) {
    tcc_tensor_info info{};
    check(tcc_model_output_info(model, static_cast<int32_t>(k), &info));
    std::string name = describe(info, "output", static_cast<int32_t>(k));
    tcc_run::NpyArray reference;
    std::string error = tcc_run::readNpy(options.compares[k], reference);
    if (!error.empty())
      fail(kExitError, "--compare '" + options.compares[k] + "': " + error);
    const Tensor &actual = outputs[k];
    // A bfloat16 output's reference holds its bits as <u2, as --output-dir writes it.
    if (actual.dtype == TCC_DTYPE_BFLOAT16 && reference.dtype == TCC_DTYPE_UINT16)
      reference.dtype = TCC_DTYPE_BFLOAT16;
    bool actualString = actual.dtype == TCC_DTYPE_STRING;
    if (actualString != (reference.dtype == TCC_DTYPE_STRING)) {
      std::printf("%s: the output is %s, but the reference '%s' holds %s ('%s'): FAIL\n",
                  name.c_str(), tcc_dtype_name(actual.dtype), options.compares[k].c_str(),
                  tcc_dtype_name(reference.dtype), reference.descr.c_str());
      allPass = false;
      continue;
    }
    if (actualString) {
      // Strings compare exactly, element by element; tolerances do not apply.
      tcc_run::Comparison result =
          tcc_run::compareStrings(actual.shape, actual.data.data(), reference.shape,
                                  reference.data.data(), actual.count);
      if (!result.problem.empty()) {
        std::printf("%s: %s: FAIL\n", name.c_str(), result.problem.c_str());
        allPass = false;
      } else if (result.pass) {
        std::printf("%s: mismatches=0/%lld PASS\n", name.c_str(),
                    static_cast<long long>(result.count));
      } else {
        std::printf("%s: mismatches=%lld/%lld FAIL (first at %s: %s vs %s)\n", name.c_str(),
                    static_cast<long long>(result.mismatches),
                    static_cast<long long>(result.count),
                    tcc_run::formatIndex(actual.shape, result.firstMismatch).c_str(),
                    result.firstActualText.c_str(), result.firstExpectedText.c_str());
        allPass = false;
      }
      continue;
    }
    tcc_run::Comparison result = tcc_run::compareArrays(
        actual.dtype, actual.shape, actual.data.data(), reference.dtype, reference.shape,
        reference.data.data(), actual.count, options.rtol, options.atol);
    if (!result.problem.empty()) {
      std::printf("%s: %s: FAIL\n", name.c_str(), result.problem.c_str());
      allPass = false;
      continue;
    }
    std::printf("%s: max_abs_error=%.3g rel_l2_error=%.3g mismatches=%lld/%lld", name.c_str(),
                result.maxAbsError, result.relativeL2Error,
                static_cast<long long>(result.mismatches), static_cast<long long>(result.count));
    if (result.pass) {
      std::printf(" PASS\n");
    } else {
      std::printf(" FAIL (first at %s: %.9g vs %.9g)\n",
                  tcc_run::formatIndex(actual.shape, result.firstMismatch).c_str(),
                  result.firstActual, result.firstExpected);
      allPass = false;
    }
  }
  return allPass;
}

/// Prints each output's shape and first values (when nothing else was asked for).
void printOutputs(tcc_model *model, const std::vector<Tensor> &outputs) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    tcc_tensor_info info{};
    check(tcc_model_output_info(model, static_cast<int32_t>(o), &info));
    const Tensor &tensor = outputs[o];
    std::printf("%s: %s %s", describe(info, "output", static_cast<int32_t>(o)).c_str(),
                tcc_dtype_name(tensor.dtype), tcc_run::formatShape(tensor.shape).c_str());
    int64_t shown = std::min<int64_t>(tensor.count, 8);
    std::printf(":");
    for (int64_t i = 0; i < shown; ++i) {
      if (tensor.dtype == TCC_DTYPE_STRING) {
        const tcc_string &element = static_cast<const tcc_string *>(tensor.data.data())[i];
        std::printf(" %s", tcc_run::quoteString(element.data, element.size, 40).c_str());
      } else {
        std::printf(" %.9g", tcc_run::elementValue(tensor.dtype, tensor.data.data(), i));
      }
    }
    if (tensor.count > shown)
      std::printf(" ...");
    std::printf("\n");
  }
}

/// Whether output `b` holds the same elements as `a` (the compact prefix of `a.count`
/// elements; strings by their bytes, which belong to each session).
bool sameElements(const Tensor &a, const Tensor &b) {
  if (a.count != b.count || a.dtype != b.dtype)
    return false;
  if (a.dtype != TCC_DTYPE_STRING)
    return std::memcmp(a.data.data(), b.data.data(),
                       static_cast<size_t>(a.count) * tcc_dtype_size(a.dtype)) == 0;
  auto *x = static_cast<const tcc_string *>(a.data.data());
  auto *y = static_cast<const tcc_string *>(b.data.data());
  for (int64_t i = 0; i < a.count; ++i)
    if (x[i].size != y[i].size ||
        (x[i].size > 0 && std::memcmp(x[i].data, y[i].data, static_cast<size_t>(x[i].size)) != 0))
      return false;
  return true;
}

/// --sessions N: N threads run the model --session-runs times each, every thread on a session
/// of its own (one thread each) with outputs of its own, all at once on the one model; every
/// run's outputs must be bit-identical to `reference` (the first run's). Prints one line, or
/// fails naming the first session, run and output that differed.
void checkSessions(tcc_model *model, const Options &options,
                   const std::vector<const DLTensor *> &inputs,
                   const std::vector<Tensor> &reference) {
  struct Worker {
    std::unique_ptr<tcc_session, SessionDeleter> session;
    std::vector<Tensor> outputs;
    std::vector<const DLTensor *> pointers;
    std::string error;
  };
  std::vector<Worker> workers(static_cast<size_t>(options.sessions));
  for (Worker &worker : workers) {
    tcc_session_options sessionOptions = TCC_SESSION_OPTIONS_INIT;
    sessionOptions.num_threads = 1;
    sessionOptions.device_type = options.deviceType;
    tcc_session *raw = nullptr;
    check(tcc_session_create(model, &sessionOptions, &raw));
    worker.session.reset(raw);
    worker.outputs = allocateOutputs(model, inputs);
    for (Tensor &tensor : worker.outputs)
      worker.pointers.push_back(&tensor.dl);
  }
  auto work = [&](Worker &worker, size_t k) {
    for (int run = 0; run < options.sessionRuns; ++run) {
      std::string where = "session " + std::to_string(k) + ", run " + std::to_string(run);
      tcc_status status = tcc_session_run(worker.session.get(), inputs.data(), inputs.size(),
                                          worker.pointers.data(), worker.pointers.size());
      if (status) {
        worker.error = where + ": " + tcc_status_message(status);
        tcc_status_free(status);
        return;
      }
      for (size_t o = 0; o < reference.size(); ++o) {
        Tensor &tensor = worker.outputs[o];
        std::vector<int64_t> actual(tensor.shape.size());
        status = tcc_session_output_shape(worker.session.get(), static_cast<int32_t>(o),
                                          actual.data());
        if (status) {
          worker.error = where + ": " + tcc_status_message(status);
          tcc_status_free(status);
          return;
        }
        int64_t count = 1;
        for (int64_t extent : actual)
          count *= extent;
        if (actual != reference[o].shape) {
          worker.error = where + ": output " + std::to_string(o) + " has another shape";
          return;
        }
        tensor.count = count;
        if (!sameElements(reference[o], tensor)) {
          worker.error = where + ": output " + std::to_string(o) +
                         " differs from the first run's";
          return;
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (size_t k = 0; k < workers.size(); ++k)
    threads.emplace_back(work, std::ref(workers[k]), k);
  for (std::thread &thread : threads)
    thread.join();
  for (const Worker &worker : workers)
    if (!worker.error.empty())
      fail(kExitError, "--sessions: " + worker.error);
  std::printf("sessions: %d threads x %d runs, each thread on a session of its own: every "
              "output bit-identical to the first run's\n",
              options.sessions, options.sessionRuns);
}

int runTool(const Options &options) {
  tcc_model *rawModel = nullptr;
  check(tcc_model_load(options.model.c_str(), nullptr, &rawModel));
  std::unique_ptr<tcc_model, ModelDeleter> model(rawModel);
  if (options.deviceType != 0) {
    // The model must have code for the device: one of its variants' device types.
    std::string compiled;
    bool found = false;
    for (int32_t v = 0; v < tcc_model_num_variants(model.get()); ++v) {
      tcc_variant_info info{};
      check(tcc_model_variant_info(model.get(), v, &info));
      found |= info.device_type == options.deviceType;
      if (compiled.find(deviceTypeName(info.device_type)) == std::string::npos)
        compiled += (compiled.empty() ? "" : ", ") + deviceTypeName(info.device_type);
    }
    if (!found)
      fail(kExitUsage, "--device " + options.device + ": the model was compiled for " + compiled);
  }
  if (options.info) {
    if (std::string error = tcc_run::printInfo(model.get()); !error.empty())
      fail(kExitError, error);
    if (options.inputs.empty())
      return 0;
  }

  int32_t numInputs = tcc_model_num_inputs(model.get());
  int32_t numOutputs = tcc_model_num_outputs(model.get());
  if (options.inputs.size() != static_cast<size_t>(numInputs)) {
    std::string names;
    for (int32_t i = 0; i < numInputs; ++i) {
      tcc_tensor_info info{};
      check(tcc_model_input_info(model.get(), i, &info));
      names += (i ? ", " : "") + std::string(info.name);
    }
    fail(kExitUsage, "the model has " + std::to_string(numInputs) + " inputs (" + names + "), " +
                         std::to_string(options.inputs.size()) + " --input files given");
  }
  if (options.compares.size() > static_cast<size_t>(numOutputs))
    fail(kExitUsage, std::to_string(options.compares.size()) +
                         " --compare files given, but the model has " +
                         std::to_string(numOutputs) + " outputs");

  std::vector<Tensor> inputs = readInputs(model.get(), options);
  std::vector<const DLTensor *> inputPointers;
  for (Tensor &tensor : inputs)
    inputPointers.push_back(tensor.none ? nullptr : &tensor.dl);
  std::vector<Tensor> outputs = allocateOutputs(model.get(), inputPointers);
  std::vector<const DLTensor *> outputPointers;
  for (Tensor &tensor : outputs)
    outputPointers.push_back(&tensor.dl);

  tcc_session_options sessionOptions = TCC_SESSION_OPTIONS_INIT;
  sessionOptions.num_threads = options.threads;
  sessionOptions.device_type = options.deviceType;
  if (options.wholeBatch)
    sessionOptions.flags |= TCC_SESSION_FLAG_WHOLE_BATCH;
  if (options.profile)
    sessionOptions.flags |= TCC_SESSION_FLAG_PROFILE;
  tcc_session *rawSession = nullptr;
  check(tcc_session_create(model.get(), &sessionOptions, &rawSession));
  std::unique_ptr<tcc_session, SessionDeleter> session(rawSession);

  auto runOnce = [&] {
    check(tcc_session_run(session.get(), inputPointers.data(), inputPointers.size(),
                          outputPointers.data(), outputPointers.size()));
  };
  std::vector<double> times;
  int timedRuns = options.benchmarkRuns > 0 ? options.benchmarkRuns : options.profile ? 20 : 0;
  if (timedRuns > 0) {
    for (int i = 0; i < options.warmupRuns; ++i)
      runOnce();
    tcc_session_reset_profile(session.get());
    for (int i = 0; i < timedRuns; ++i) {
      auto start = std::chrono::steady_clock::now();
      runOnce();
      std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
      times.push_back(elapsed.count());
    }
  } else {
    runOnce();
  }

  // Data-dependent dims were passed with their capacity; the run wrote the compact prefix.
  for (size_t o = 0; o < outputs.size(); ++o) {
    std::vector<int64_t> actual(outputs[o].shape.size());
    check(tcc_session_output_shape(session.get(), o, actual.data()));
    if (actual != outputs[o].shape) {
      outputs[o].shape = actual;
      int64_t count = 1;
      for (int64_t extent : actual)
        count *= extent;
      outputs[o].count = count;
      outputs[o].point();
    }
  }
  if (options.sessions > 0)
    checkSessions(model.get(), options, inputPointers, outputs);
  if (!options.outputDir.empty())
    writeOutputs(model.get(), outputs, options.outputDir);
  bool pass = compareOutputs(model.get(), outputs, options);
  if (timedRuns == 0 && options.outputDir.empty() && options.compares.empty())
    printOutputs(model.get(), outputs);
  if (options.profile) {
    double sum = 0;
    for (double t : times)
      sum += t;
    tcc_run::Profile profile;
    std::string error = tcc_run::readProfile(session.get(), timedRuns, sum / timedRuns, profile);
    if (!error.empty())
      fail(kExitError, error);
    tcc_variant_info variant{};
    check(tcc_model_variant_info(model.get(), tcc_session_variant(session.get()), &variant));
    std::fputs(tcc_run::formatProfile(profile,
                                      std::filesystem::path(options.model).filename().string(),
                                      deviceTypeName(variant.device_type),
                                      tcc_session_num_threads(session.get()),
                                      options.profileFormat == "json")
                   .c_str(),
               stdout);
  }

  if (options.benchmarkRuns > 0) {
    std::sort(times.begin(), times.end());
    size_t n = times.size();
    double median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    // Memory: the session's workspace (allocated once for a size, then reused: the count
    // of allocations shows it) and the process's peak resident set.
    tcc_session_stats stats = TCC_SESSION_STATS_INIT;
    check(tcc_session_get_stats(session.get(), &stats));
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    // The variant the session ran (a fat model's: the device it chose).
    tcc_variant_info variant{};
    check(tcc_model_variant_info(model.get(), tcc_session_variant(session.get()), &variant));
    std::printf("{\"model\":%s,\"variant\":%d,\"device\":%s,\"threads\":%d,\"runs\":%d,"
                "\"median_ms\":%s,\"min_ms\":%s,"
                "\"max_ms\":%s,\"workspace_bytes\":%llu,\"workspace_allocations\":%llu,"
                "\"peak_rss_kib\":%ld}\n",
                jsonString(std::filesystem::path(options.model).filename().string()).c_str(),
                tcc_session_variant(session.get()),
                jsonString(deviceTypeName(variant.device_type)).c_str(),
                tcc_session_num_threads(session.get()), options.benchmarkRuns,
                formatMilliseconds(median).c_str(), formatMilliseconds(times.front()).c_str(),
                formatMilliseconds(times.back()).c_str(),
                static_cast<unsigned long long>(stats.workspace_bytes),
                static_cast<unsigned long long>(stats.workspace_allocations), usage.ru_maxrss);
  }
  std::fflush(stdout);
  return pass ? 0 : kExitError;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  CLI::App app{"tcc-run: run a model compiled by tcc on .npy inputs"};
  app.add_option("model", options.model, "the compiled model (model.so)")->required();
  app.add_option("--input", options.inputs,
                 "an input .npy file, in the model's input order ('none': no tensor, for the "
                 "value of an empty optional input)");
  app.add_option("--output-dir", options.outputDir, "write DIR/output_<k>.npy");
  app.add_option("--compare", options.compares,
                 "a reference .npy for the next output (output 0, then 1, ...)");
  app.add_option("--rtol", options.rtol, "relative tolerance of --compare (default 1e-4)");
  app.add_option("--atol", options.atol, "absolute tolerance of --compare (default 1e-5)");
  app.add_option("--benchmark", options.benchmarkRuns, "time N runs; print one JSON line")
      ->check(CLI::Range(1, 1000000000));
  app.add_option("--warmup", options.warmupRuns, "untimed runs before --benchmark (default 5)")
      ->check(CLI::Range(0, 1000000000));
  app.add_option("--threads", options.threads, "threads per run; 0 = one per core (default)")
      ->check(CLI::Range(0, 1024));
  app.add_option("--sessions", options.sessions,
                 "after the run, N threads run the model at once, each on a session of its own, "
                 "--session-runs times; every output must be bit-identical to the first run's")
      ->check(CLI::Range(0, 256));
  app.add_option("--session-runs", options.sessionRuns, "runs of each --sessions thread (100)")
      ->check(CLI::Range(1, 1000000));
  app.add_flag("--whole-batch", options.wholeBatch,
               "run the whole batch at once, even when the model may run image by image");
  app.add_option("--device", options.device,
                 "cpu, cuda[:N], rocm[:N], vulkan[:N] or metal: the device to run on (one the "
                 "model was compiled for; of a model compiled for several, the one it runs on), "
                 "and the GPU to run it on (N, as TCC_CUDA_DEVICE, TCC_HIP_DEVICE or "
                 "TCC_VULKAN_DEVICE; default 0)");
  app.add_flag("--profile", options.profile,
               "time each kernel over the --benchmark runs (default 20) and print them, most "
               "time first, with their ONNX nodes");
  app.add_option("--profile-format", options.profileFormat, "--profile's output: table or json")
      ->check(CLI::IsMember({"table", "json"}));
  app.add_option("--guard-pages", options.guardPages,
                 "after or before: put every input and output against an inaccessible page, "
                 "after its last byte or before its first, so that a read or write beyond it "
                 "faults (a check for the runtime and the compiled code; host tensors only)")
      ->check(CLI::IsMember({"after", "before"}));
  app.add_flag("--info", options.info,
               "print the model's symbols (with their ranges), inputs, outputs and parameters, "
               "and which of them form sequences and optionals; with no --input, only that");
  app.set_version_flag("--version", std::string("tcc-run ") + tcc_runtime_version());
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::cerr << "tcc-run: error: " << e.what() << "\n";
    return kExitUsage;
  }
  if (!options.guardPages.empty())
    tcc_run::setGuardPages(options.guardPages == "after" ? tcc::GuardPages::After
                                                         : tcc::GuardPages::Before);
  for (auto [name, value] : {std::pair{"--rtol", options.rtol}, {"--atol", options.atol}}) {
    if (!(value >= 0)) {
      std::cerr << "tcc-run: error: " << name << " must be a non-negative number, got " << value
                << "\n";
      return kExitUsage;
    }
  }
  // --device cuda:N (rocm:N) picks the GPU before the runtime first reads TCC_CUDA_DEVICE
  // (TCC_HIP_DEVICE).
  auto ordinalOf = [&](const std::string &prefix) {
    return options.device.rfind(prefix, 0) == 0 && options.device.size() > prefix.size() &&
           options.device.size() <= prefix.size() + 9 &&
           options.device.find_first_not_of("0123456789", prefix.size()) == std::string::npos;
  };
  bool cudaOrdinal = ordinalOf("cuda:");
  bool rocmOrdinal = ordinalOf("rocm:");
  bool vulkanOrdinal = ordinalOf("vulkan:");
  if (!options.device.empty() && options.device != "cpu" && options.device != "cuda" &&
      options.device != "rocm" && options.device != "vulkan" && options.device != "metal" &&
      !cudaOrdinal && !rocmOrdinal && !vulkanOrdinal) {
    std::cerr << "tcc-run: error: --device is '" << options.device
              << "', expected cpu, cuda, cuda:N, rocm, rocm:N, vulkan, vulkan:N (N a GPU "
                 "ordinal) or metal\n";
    return kExitUsage;
  }
  if (cudaOrdinal || rocmOrdinal)
    setenv(cudaOrdinal ? "TCC_CUDA_DEVICE" : "TCC_HIP_DEVICE", options.device.c_str() + 5, 1);
  if (vulkanOrdinal)
    setenv("TCC_VULKAN_DEVICE", options.device.c_str() + 7, 1);
  if (!options.device.empty())
    options.deviceType = options.device == "cpu"                 ? kDLCPU
                         : options.device.rfind("rocm", 0) == 0   ? kDLROCM
                         : options.device.rfind("vulkan", 0) == 0 ? kDLVulkan
                         : options.device == "metal"              ? kDLMetal
                                                                  : kDLCUDA;
  try {
    return runTool(options);
  } catch (const Failure &failure) {
    std::fflush(stdout);
    std::cerr << "tcc-run: error: " << failure.message << "\n";
    return failure.code;
  }
}
