//===- Profile.h - tcc-run --profile: each kernel's share of a run -------------*- C++ -*-===//
#ifndef TCC_TOOLS_TCC_RUN_PROFILE_H
#define TCC_TOOLS_TCC_RUN_PROFILE_H

#include "tcc/runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc_run {

/// One kernel's time over the profiled runs.
struct KernelTime {
  std::string name, nodes;
  uint64_t launches = 0;
  uint64_t nanoseconds = 0;
};

/// A profile: every kernel of the session's model (tcc_session_kernel_profile), sorted by
/// time (most first, then by name), and the runs' own time.
struct Profile {
  std::vector<KernelTime> kernels;
  int runs = 0;
  double runMilliseconds = 0; ///< the mean wall time of one run
};

/// `text` as a JSON string (quotes, backslashes and control characters escaped): tcc-run's
/// JSON lines and profiles.
std::string jsonString(const std::string &text);

/// Reads the session's per-kernel counts; returns an error message or "".
std::string readProfile(const tcc_session *session, int runs, double runMilliseconds,
                        Profile &profile);

/// The profile as a table (text) or one JSON object (json), per run: each kernel's time, its
/// share of the run, its launches and ONNX nodes, then the run's time outside the listed
/// kernels (host code, kernels inside control flow).
std::string formatProfile(const Profile &profile, const std::string &model,
                          const std::string &device, int threads, bool json);

} // namespace tcc_run

#endif // TCC_TOOLS_TCC_RUN_PROFILE_H
