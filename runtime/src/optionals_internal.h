//===- optionals_internal.h - optionals at the interface, inside the runtime ------------===//
#ifndef TCC_RUNTIME_OPTIONALS_INTERNAL_H
#define TCC_RUNTIME_OPTIONALS_INTERNAL_H

#include "model_internal.h"

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

/// The descriptor's num_optionals (0 for a descriptor that predates the field).
int32_t tcc_descriptor_num_optionals(const tcc_model_descriptor *d);

/// Validates the optional list of a descriptor whose inputs, outputs and sequences are
/// valid: each a bool scalar flag and a value of 1 tensor (or 2: a sequence of the list)
/// in a row, sharing none of them with another optional. `where` prefixes the message.
tcc_status tcc_validate_optionals(const char *where, const tcc_model_descriptor *d);

/// What tcc_resolve_optional_inputs needs, kept between runs (zero-initialize it; free it
/// with tcc_optional_scratch_free).
typedef struct tcc_optional_scratch {
  const DLTensor **inputs; // the inputs the model sees
  DLTensor *holders;       // the stand-ins of absent values, one per input
  int64_t *shapes;         // their extents
  void *zeros;             // zero bytes the stand-ins point to
  size_t zeros_capacity;
  size_t num_inputs;
} tcc_optional_scratch;

void tcc_optional_scratch_free(tcc_optional_scratch *scratch);

/// The inputs the model sees (*out_inputs): `inputs` as they are, except that the value
/// tensors of an optional input whose flag is false (they may be null) become zeros, their
/// static dims as declared and each symbolic dim what another input gives the symbol (its
/// minimum when none does). Each flag must be a non-null bool scalar on the CPU. `inputs`
/// itself when the model has no optional inputs. `function` prefixes the message.
tcc_status tcc_resolve_optional_inputs(const tcc_model *model, const tcc_model_descriptor *d,
                                       const char *function, const DLTensor *const *inputs,
                                       size_t num_inputs, tcc_optional_scratch *scratch,
                                       const DLTensor *const **out_inputs);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_OPTIONALS_INTERNAL_H
