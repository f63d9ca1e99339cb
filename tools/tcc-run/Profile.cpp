//===- Profile.cpp - tcc-run --profile: each kernel's share of a run ----------------------===//
#include "Profile.h"
#include "Status.h"

#include <algorithm>
#include <cstdio>

using namespace tcc_run;

namespace {

std::string format(const char *pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), pattern, value);
  return buffer;
}

} // namespace

std::string tcc_run::jsonString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof(escape), "\\u%04x", c);
      out += escape;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string tcc_run::readProfile(const tcc_session *session, int runs, double runMilliseconds,
                                 Profile &profile) {
  profile.runs = runs;
  profile.runMilliseconds = runMilliseconds;
  profile.kernels.clear();
  for (int32_t k = 0; k < tcc_session_num_kernels(session); ++k) {
    tcc_kernel_profile counts = TCC_KERNEL_PROFILE_INIT;
    if (std::optional<std::string> message =
            takeStatusMessage(tcc_session_kernel_profile(session, k, &counts)))
      return *message;
    profile.kernels.push_back({counts.name, counts.nodes, counts.launches, counts.nanoseconds});
  }
  std::sort(
      profile.kernels.begin(), profile.kernels.end(), [](const KernelTime &a, const KernelTime &b) {
        return a.nanoseconds != b.nanoseconds ? a.nanoseconds > b.nanoseconds : a.name < b.name;
      });
  return "";
}

std::string tcc_run::formatProfile(const Profile &profile, const std::string &model,
                                   const std::string &device, int threads, bool json) {
  double runs = profile.runs > 0 ? profile.runs : 1;
  double total = profile.runMilliseconds;
  double listed = 0;
  for (const KernelTime &k : profile.kernels)
    listed += k.nanoseconds / 1e6 / runs;
  // Outside the listed kernels: host code and kernels it calls directly.
  double other = std::max(0.0, total - listed);
  auto percent = [&](double ms) { return total > 0 ? 100 * ms / total : 0.0; };
  std::string out;
  if (json) {
    out = "{\"model\":" + jsonString(model) + ",\"device\":" + jsonString(device) +
          ",\"threads\":" + std::to_string(threads) + ",\"runs\":" + std::to_string(profile.runs) +
          ",\"run_ms\":" + format("%.6f", total) + ",\"kernels\":[";
    for (size_t i = 0; i < profile.kernels.size(); ++i) {
      const KernelTime &k = profile.kernels[i];
      double ms = k.nanoseconds / 1e6 / runs;
      out += (i ? "," : "") + std::string("{\"name\":") + jsonString(k.name) +
             ",\"nodes\":" + jsonString(k.nodes) + ",\"ms\":" + format("%.6f", ms) +
             ",\"percent\":" + format("%.2f", percent(ms)) +
             ",\"launches\":" + format("%.6g", k.launches / runs) + "}";
    }
    out += "],\"other_ms\":" + format("%.6f", other) + "}\n";
    return out;
  }
  char line[512];
  std::snprintf(line, sizeof(line),
                "profile of %s on %s, %d thread%s: %d runs, %.4f ms a run, %.1f%% in the %zu "
                "kernels listed\n",
                model.c_str(), device.c_str(), threads, threads == 1 ? "" : "s", profile.runs,
                total, percent(listed), profile.kernels.size());
  out += line;
  out += "      ms/run       %  launches  kernel / ONNX nodes\n";
  for (const KernelTime &k : profile.kernels) {
    double ms = k.nanoseconds / 1e6 / runs;
    std::snprintf(line, sizeof(line), "  %10.4f  %6.2f  %8.6g  %s", ms, percent(ms),
                  k.launches / runs, k.name.c_str());
    out += line;
    out += k.nodes.empty() ? "\n" : "  (" + k.nodes + ")\n";
  }
  std::snprintf(line, sizeof(line), "  %10.4f  %6.2f  %8s  %s\n", other, percent(other), "",
                "(outside these kernels: host code, kernels inside control flow)");
  out += line;
  return out;
}
