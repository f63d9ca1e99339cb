//===- Status.h - a runtime status as tcc-run's error text -----------------------*- C++ -*-===//
#ifndef TCC_TOOLS_TCC_RUN_STATUS_H
#define TCC_TOOLS_TCC_RUN_STATUS_H

#include "tcc/runtime.h"

#include <optional>
#include <string>

namespace tcc_run {

/// The message of a runtime call's status, which this frees; nothing when the call succeeded
/// (a null status). Each part of the tool turns it into its own error: tcc-run.cpp's exit,
/// printInfo's and readProfile's returned message.
inline std::optional<std::string> takeStatusMessage(tcc_status status) {
  if (!status)
    return std::nullopt;
  std::string message = tcc_status_message(status);
  tcc_status_free(status);
  return message;
}

} // namespace tcc_run

#endif // TCC_TOOLS_TCC_RUN_STATUS_H
