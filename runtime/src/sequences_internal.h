//===- sequences_internal.h - sequences at the interface, inside the runtime ------------===//
#ifndef TCC_RUNTIME_SEQUENCES_INTERNAL_H
#define TCC_RUNTIME_SEQUENCES_INTERNAL_H

#include "model_internal.h"

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

/// The descriptor's num_sequences (0 for a descriptor that predates the field).
int32_t tcc_descriptor_num_sequences(const tcc_model_descriptor *d);

/// Validates the sequence list of a descriptor whose inputs and outputs are valid: each a
/// pair of distinct inputs (or outputs), an int64 [count, rank <= TCC_MAX_SEQUENCE_RANK]
/// and a 1-d tensor, shared with no other sequence. `where` prefixes the message.
tcc_status tcc_validate_sequences(const char *where, const tcc_model_descriptor *d);

/// Checks the sequence inputs among `inputs` (which passed the layout checks): the shapes
/// tensor on the CPU, every extent >= 0, the rows' element counts adding up to the data's
/// extent. `function` prefixes the message.
tcc_status tcc_check_sequence_inputs(const tcc_model *model, const tcc_model_descriptor *d,
                                     const char *function, const DLTensor *const *inputs);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_SEQUENCES_INTERNAL_H
