//===- Executors.h - how a case runs: reference evaluator or compiled model -----*- C++ -*-===//
#ifndef TCC_TOOLS_CONFORMANCE_EXECUTORS_H
#define TCC_TOOLS_CONFORMANCE_EXECUTORS_H

#include "CaseData.h"

#include "tcc/Support/GuardedBytes.h"

#include <memory>
#include <string>
#include <vector>

namespace tcc::conformance {

/// A case's model, ready to run on inputs (the ones not bound at compile time).
class Executable {
public:
  virtual ~Executable() = default;
  /// Runs the model; returns "" or the error.
  virtual std::string run(const std::vector<eval::Tensor> &inputs,
                          std::vector<eval::Tensor> &outputs) = 0;
  /// For a library compiled to run elsewhere (--export): the folder that holds it, where
  /// the data sets are saved instead of run. Null for an executable that runs here.
  virtual const std::string *exportFolder() const { return nullptr; }
};

/// What compiled mode compiles for: `target`, `cpu` and `attention` as tcc's --target, --cpu
/// and --attention take them (an empty cpu: the target's default), and with
/// `exportDir` set (a target that cannot run here: a GPU), a folder of its own under it
/// for each library, which is kept rather than loaded; `guardPages`: how the libraries
/// that run here get their tensors (tcc::run::CompiledModel::setGuardPages).
struct CompileTarget {
  std::string target = "host";
  std::string cpu;
  std::string attention = "auto";
  std::string exportDir;
  GuardPages guardPages = GuardPages::None;
};

enum class Mode { Reference, Compiled };

/// Imports `dir`/model.onnx, binds the inputs listed in `bind` to their values in `set` as
/// constants, and prepares it: decomposed for the reference evaluator, or compiled to a
/// model.so (twice, checking that the bytes are identical) and loaded by the runtime, with
/// the symbolic dims fixed to the extents of the inputs of `shapes`. `scratch` is a
/// directory for the compiled files. Null and `error` set on failure.
std::unique_ptr<Executable> prepare(Mode mode, const std::string &dir,
                                    const std::vector<unsigned> &bind, const DataSet *set,
                                    const DataSet *shapes, const std::string &scratch,
                                    std::string &error, const CompileTarget &compile = {});

/// Whether an input may be bound as a compile-time constant by the retry: small 0-d/1-d
/// integer tensors (axes, shapes, k, split sizes that ONNX's cases pass as inputs), float
/// scalars (OneHot's depth), float vectors of up to 8 elements (Resize's scales, roi) and
/// bool scalars (Loop's cond).
bool isBindable(const eval::Tensor &tensor);

} // namespace tcc::conformance

#endif // TCC_TOOLS_CONFORMANCE_EXECUTORS_H
