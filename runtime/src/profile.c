//===- profile.c - per-kernel times of a profiling session (TCC_SESSION_FLAG_PROFILE) -------===//
//
// A model lists the kernels a profile can time (model_abi.h: kernel_names, kernel_nodes). A
// CPU model's host code calls imports->profile around each kernel's parallel loop; the time
// between its begin and end events, on the thread that runs the host code, is the kernel's.
// A device model's kernels are timed by the session's device_launch (session_device.c).
//
//===------------------------------------------------------------------------------------===//
#include "profile_internal.h"

#include "model_internal.h"
#include "session_state.h"
#include "status_internal.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

/// The most kernels a model may list (a larger count is treated as corrupt).
#define MAX_KERNELS 1048576

/// Where the kernel list (and the compile options after it) ends: a descriptor has all of
/// it or none.
#define KERNEL_FIELDS_END                                                                          \
  (offsetof(tcc_model_descriptor, compile_options) +                                               \
   sizeof(((tcc_model_descriptor *)0)->compile_options))

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(offsetof(tcc_model_descriptor, num_kernels) == TCC_MODEL_DESCRIPTOR_V4_SIZE,
               "the kernel list follows device_check_messages");
_Static_assert(offsetof(tcc_import_table, profile) == TCC_IMPORT_TABLE_V4_SIZE,
               "profile follows device_read");
#endif

int32_t tcc_descriptor_num_kernels(const tcc_model_descriptor *d) {
  return d->size >= KERNEL_FIELDS_END ? d->num_kernels : 0;
}

tcc_status tcc_validate_kernel_list(const char *where, const tcc_model_descriptor *d) {
  if (d->size <= TCC_MODEL_DESCRIPTOR_V4_SIZE)
    return NULL;
  if (d->size < KERNEL_FIELDS_END)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: the model's descriptor has %u bytes: it ends inside the kernel "
                           "list (expected %d, or at least %zu)",
                           where, (unsigned)d->size, TCC_MODEL_DESCRIPTOR_V4_SIZE,
                           (size_t)KERNEL_FIELDS_END);
  if (d->num_kernels < 0 || d->num_kernels > MAX_KERNELS ||
      (d->num_kernels > 0 && (!d->kernel_names || !d->kernel_nodes)))
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s: num_kernels is %d with kernel_names %s and kernel_nodes %s, "
                           "expected 0 to %d kernels and both arrays when there are some",
                           where, (int)d->num_kernels, d->kernel_names ? "non-null" : "null",
                           d->kernel_nodes ? "non-null" : "null", MAX_KERNELS);
  for (int32_t k = 0; k < d->num_kernels; ++k)
    if (!d->kernel_names[k] || !d->kernel_names[k][0] || !d->kernel_nodes[k])
      return tcc_make_status(TCC_STATUS_INVALID_MODEL, "%s: kernel %d has %s", where, (int)k,
                             !d->kernel_names[k]      ? "a null name"
                             : !d->kernel_names[k][0] ? "an empty name"
                                                      : "null nodes");
  // A device model's list is its device kernels (the index device_launch gets).
  if (d->device_type > 1 && d->num_kernels != 0) {
    int same = d->num_kernels == d->num_device_kernels;
    for (int32_t k = 0; same && k < d->num_kernels; ++k)
      same = strcmp(d->kernel_names[k], d->device_kernel_names[k]) == 0;
    if (!same)
      return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                             "%s: the kernel list (%d kernels) is not the device kernels' (%d)",
                             where, (int)d->num_kernels, (int)d->num_device_kernels);
  }
  return NULL;
}

uint64_t tcc_profile_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

void tcc_profile_add(tcc_kernel_counter *counters, int32_t num_kernels, int32_t kernel,
                     uint64_t nanoseconds) {
  if (!counters || kernel < 0 || kernel >= num_kernels)
    return;
  atomic_fetch_add_explicit(&counters[kernel].launches, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&counters[kernel].nanoseconds, nanoseconds, memory_order_relaxed);
}

/// When the current thread's kernel began (a thread runs one kernel's host call at a time).
static _Thread_local uint64_t kernel_began;

static void profile_import(void *context, int32_t kernel, int32_t event) {
  tcc_session *session = context;
  if (event == TCC_PROFILE_BEGIN) {
    kernel_began = tcc_profile_now();
    return;
  }
  if (event == TCC_PROFILE_END)
    tcc_profile_add(session->profile, session->num_kernels, kernel,
                    tcc_profile_now() - kernel_began);
}

int tcc_session_start_profile(tcc_session *session) {
  session->num_kernels = tcc_descriptor_num_kernels(session->descriptor);
  session->profile =
      tcc_session_allocate_array((size_t)session->num_kernels, sizeof(tcc_kernel_counter));
  if (!session->profile)
    return 0;
  if (!session->device_model)
    session->imports.profile = profile_import;
  return 1;
}

int32_t tcc_session_num_kernels(const tcc_session *session) {
  return session ? tcc_descriptor_num_kernels(session->descriptor) : 0;
}

tcc_status tcc_session_kernel_profile(const tcc_session *session, int32_t kernel,
                                      tcc_kernel_profile *out_profile) {
  const char *function = "tcc_session_kernel_profile";
  if (!session || !out_profile)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           session ? "out_profile" : "session");
  if (out_profile->size < sizeof(tcc_kernel_profile))
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: out_profile->size is %zu, expected at least %zu (initialize it "
                           "with TCC_KERNEL_PROFILE_INIT)",
                           function, out_profile->size, sizeof(tcc_kernel_profile));
  int32_t count = tcc_session_num_kernels(session);
  if (kernel < 0 || kernel >= count)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s: kernel %d is out of range (the model lists %d)", function,
                           (int)kernel, (int)count);
  const tcc_model_descriptor *d = session->descriptor;
  out_profile->name = d->kernel_names[kernel];
  out_profile->nodes = d->kernel_nodes[kernel];
  out_profile->launches = 0;
  out_profile->nanoseconds = 0;
  if (session->profile) {
    out_profile->launches = atomic_load(&session->profile[kernel].launches);
    out_profile->nanoseconds = atomic_load(&session->profile[kernel].nanoseconds);
  }
  return NULL;
}

void tcc_session_reset_profile(tcc_session *session) {
  if (!session || !session->profile)
    return;
  for (int32_t k = 0; k < session->num_kernels; ++k) {
    atomic_store(&session->profile[k].launches, 0);
    atomic_store(&session->profile[k].nanoseconds, 0);
  }
}

const char *tcc_model_compile_options(const tcc_model *model, int32_t variant) {
  if (!model || variant < 0 || variant >= model->num_variants)
    return NULL;
  const tcc_model_descriptor *d = model->variants[variant].descriptor;
  return d->size >= KERNEL_FIELDS_END && d->compile_options ? d->compile_options : "";
}

int32_t tcc_model_num_kernels(const tcc_model *model, int32_t variant) {
  if (!model || variant < 0 || variant >= model->num_variants)
    return 0;
  return tcc_descriptor_num_kernels(model->variants[variant].descriptor);
}

tcc_status tcc_model_kernel_info(const tcc_model *model, int32_t variant, int32_t kernel,
                                 const char **out_name, const char **out_nodes) {
  const char *function = "tcc_model_kernel_info";
  if (!model || !out_name || !out_nodes)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s: %s is null", function,
                           !model      ? "model"
                           : !out_name ? "out_name"
                                       : "out_nodes");
  if (variant < 0 || variant >= model->num_variants)
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: variant %d is out of range: the model has %d variants", function,
                           (int)variant, (int)model->num_variants);
  const tcc_model_descriptor *d = model->variants[variant].descriptor;
  int32_t count = tcc_descriptor_num_kernels(d);
  if (kernel < 0 || kernel >= count)
    return tcc_make_status(TCC_STATUS_OUT_OF_RANGE,
                           "%s: kernel %d is out of range: variant %d lists %d kernels", function,
                           (int)kernel, (int)variant, (int)count);
  *out_name = d->kernel_names[kernel];
  *out_nodes = d->kernel_nodes[kernel];
  return NULL;
}
