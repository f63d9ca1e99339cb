//===- session_imports.c - the import table a session gives its model ----------------------===//
//
// model_abi.h's tcc_import_table: what a model's host code calls back into the runtime for.
// Errors (the first one wins), parallel loops on the session's device, the string functions
// on the session's arena, and the extents of data-dependent outputs. session.c fills a
// session's table with them when it creates the session.
//
//===------------------------------------------------------------------------------------===//
#include "device.h"
#include "model_internal.h"
#include "session_internal.h"
#include "session_state.h"
#include "status_internal.h"
#include "strings_internal.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

/// Records `message` as the run's error; returns 0 when an error was recorded already.
int tcc_session_record_error(tcc_session *session, const char *message) {
  // The first error wins; kernels running in parallel may report at the same time.
  if (atomic_exchange(&session->error_reported, 1) != 0)
    return 0;
  if (!message)
    message = "(the model gave no message)";
  size_t length = strnlen(message, MAX_ERROR_MESSAGE - 1);
  memcpy(session->error_message, message, length);
  session->error_message[length] = '\0';
  return 1;
}

void tcc_session_import_report_error(void *context, const char *message) {
  tcc_session_record_error(context, message);
}

static void import_parallel_for(void *context, int64_t count,
                                void (*body)(void *arg, int64_t begin, int64_t end), void *arg) {
  tcc_session *session = context;
  // An empty loop is no error for the import (model_abi.h), unlike for launch.
  if (count <= 0 || !body)
    return;
  tcc_status status = session->device->launch(session->device, session->queue, count, body, arg);
  if (status) { // never on the CPU; a GPU's failure fails the run with its message
    tcc_session_import_report_error(context, tcc_status_message(status));
    tcc_status_free(status);
  }
}

// The string functions, appended to the table after the first release: models compiled
// before them check `size` against the old layout, models with strings against this one.
_Static_assert(offsetof(tcc_import_table, string_format) == TCC_IMPORT_TABLE_V1_SIZE,
               "the string functions follow the first release's import table");
_Static_assert(sizeof(tcc_string) == 16 && _Alignof(tcc_string) == 16,
               "a tcc_string is 16 bytes, 16-byte aligned");
// The arena reports failures through tcc_session_import_report_error (see
// tcc_session_create).

static void import_string_format(void *context, int32_t dtype, const void *value, tcc_string *out) {
  tcc_strings_format(((tcc_session *)context)->strings, dtype, value, out);
}

static void import_string_parse(void *context, const tcc_string *text, int32_t dtype, void *out) {
  tcc_strings_parse(((tcc_session *)context)->strings, text, dtype, out);
}

static void import_string_change_case(void *context, const tcc_string *text, int32_t upper,
                                      tcc_string *out) {
  tcc_strings_change_case(((tcc_session *)context)->strings, text, upper, out);
}

static int32_t import_string_find(void *context, const tcc_string *text, const char *set,
                                  int64_t count, int32_t ignore_case) {
  return tcc_strings_find(((tcc_session *)context)->strings, text, set, count, ignore_case);
}

static int32_t import_string_equal(void *context, const tcc_string *a, const tcc_string *b) {
  return tcc_strings_equal(((tcc_session *)context)->strings, a, b);
}

static void import_string_concat(void *context, const tcc_string *a, const tcc_string *b,
                                 tcc_string *out) {
  tcc_strings_concat(((tcc_session *)context)->strings, a, b, out);
}

static int32_t import_string_match(void *context, const tcc_string *text, const char *pattern,
                                   int64_t pattern_size) {
  return tcc_strings_match(((tcc_session *)context)->strings, text, pattern, pattern_size);
}

tcc_strings *tcc_session_strings(tcc_session *session) { return session->strings; }

size_t tcc_session_output_offset(const tcc_model *model, int32_t output) {
  size_t offset = 0;
  for (int32_t o = 0; o < output; ++o)
    offset += (size_t)model->outputs[o].info.rank;
  return offset;
}

static void import_set_output_extent(void *context, int32_t output, int32_t dim, int64_t extent) {
  tcc_session *session = context;
  const tcc_model *model = session->model;
  if (output < 0 || output >= session->descriptor->num_outputs || dim < 0 ||
      dim >= model->outputs[output].info.rank ||
      model->outputs[output].dim_symbols[dim] != TCC_DIM_DATA_DEPENDENT) {
    tcc_session_import_report_error(context,
                                    "the model reported the extent of an output dim that is not "
                                    "data-dependent");
    return;
  }
  size_t k = tcc_session_output_offset(model, output) + (size_t)dim;
  if (extent < 0 || extent > session->output_shapes[k]) {
    tcc_session_import_report_error(context,
                                    "the model reported a data-dependent output extent outside "
                                    "[0, capacity]");
    return;
  }
  session->actual_shapes[k] = extent;
}

void tcc_session_fill_imports(tcc_session *session) {
  session->imports.abi_version = TCC_ABI_VERSION;
  session->imports.size = sizeof(tcc_import_table);
  session->imports.context = session;
  session->imports.parallel_for = import_parallel_for;
  session->imports.report_error = tcc_session_import_report_error;
  session->imports.set_output_extent = import_set_output_extent;
  session->imports.string_format = import_string_format;
  session->imports.string_parse = import_string_parse;
  session->imports.string_change_case = import_string_change_case;
  session->imports.string_find = import_string_find;
  session->imports.string_equal = import_string_equal;
  session->imports.string_concat = import_string_concat;
  session->imports.string_match = import_string_match;
}
