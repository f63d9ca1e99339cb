//===- cpu_features_internal.h - checking a model's CPU features against the host -------===//
#ifndef TCC_RUNTIME_CPU_FEATURES_INTERNAL_H
#define TCC_RUNTIME_CPU_FEATURES_INTERNAL_H

#include "tcc/runtime.h"

/// The result of checking a feature list; the two lists are ", "-separated names owned by the
/// caller (free them with tcc_cpu_feature_check_free), NULL when empty.
typedef struct tcc_cpu_feature_check {
  char *unknown;
  char *missing;
} tcc_cpu_feature_check;

/// Checks `features` ("+a,+b,-c"); returns 0 on success, or -1 if memory ran out.
int tcc_cpu_check_feature_list(const char *features, tcc_cpu_feature_check *out_check);

void tcc_cpu_feature_check_free(tcc_cpu_feature_check *check);

/// The name of the host's architecture for messages ("x86-64", "aarch64").
const char *tcc_cpu_host_arch(void);

#endif // TCC_RUNTIME_CPU_FEATURES_INTERNAL_H
