//===- status.c - tcc_status: a code and a message, owned by the caller -----------------===//
#include "status_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct tcc_status_object {
  tcc_status_code code;
  // Statuses made when memory is exhausted are static and must not be freed.
  int is_static;
  const char *message;
  char storage[];
};

static struct tcc_status_object out_of_memory_status = {
    TCC_STATUS_RESOURCE_EXHAUSTED, 1, "out of memory (while reporting an error)"};

/* The length of the message `format` and `args` make (without them being consumed), or -1. */
static int message_length(const char *format, va_list args) {
  va_list measure;
  va_copy(measure, args);
  int length = vsnprintf(NULL, 0, format, measure);
  va_end(measure);
  return length;
}

tcc_status tcc_make_status(tcc_status_code code, const char *format, ...) {
  if (code == TCC_STATUS_OK)
    return NULL;
  va_list args;
  va_start(args, format);
  int length = message_length(format, args);
  if (length < 0)
    length = 0;
  struct tcc_status_object *status = malloc(sizeof(*status) + (size_t)length + 1);
  if (!status) {
    va_end(args);
    return &out_of_memory_status;
  }
  status->code = code;
  status->is_static = 0;
  vsnprintf(status->storage, (size_t)length + 1, format, args);
  va_end(args);
  status->storage[length] = '\0';
  status->message = status->storage;
  return status;
}

tcc_status tcc_annotate_status(tcc_status cause, const char *format, ...) {
  if (!cause)
    return NULL;
  va_list args;
  va_start(args, format);
  int length = message_length(format, args);
  char *context = length >= 0 ? malloc((size_t)length + 1) : NULL;
  if (!context) {
    va_end(args);
    return cause;
  }
  vsnprintf(context, (size_t)length + 1, format, args);
  va_end(args);
  tcc_status status = tcc_make_status(cause->code, "%s: %s", context, cause->message);
  free(context);
  if (status->is_static)
    return cause; // out of memory: the cause says more than "out of memory"
  tcc_status_free(cause);
  return status;
}

const char *tcc_runtime_version(void) { return TCC_RUNTIME_VERSION; }

tcc_status_code tcc_status_code_of(tcc_status status) {
  return status ? status->code : TCC_STATUS_OK;
}

const char *tcc_status_message(tcc_status status) { return status ? status->message : ""; }

const char *tcc_status_code_name(tcc_status_code code) {
  switch (code) {
  case TCC_STATUS_OK:
    return "OK";
  case TCC_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case TCC_STATUS_OUT_OF_RANGE:
    return "OUT_OF_RANGE";
  case TCC_STATUS_NOT_FOUND:
    return "NOT_FOUND";
  case TCC_STATUS_INVALID_MODEL:
    return "INVALID_MODEL";
  case TCC_STATUS_INCOMPATIBLE:
    return "INCOMPATIBLE";
  case TCC_STATUS_UNIMPLEMENTED:
    return "UNIMPLEMENTED";
  case TCC_STATUS_RESOURCE_EXHAUSTED:
    return "RESOURCE_EXHAUSTED";
  case TCC_STATUS_CHECK_FAILED:
    return "CHECK_FAILED";
  case TCC_STATUS_INTERNAL:
    return "INTERNAL";
  }
  return "UNKNOWN";
}

void tcc_status_free(tcc_status status) {
  if (status && !status->is_static)
    free(status);
}
