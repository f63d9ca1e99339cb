//===- unavailable_device.h - a backend this build of the runtime cannot have -----------===//
//
// A backend whose platform or headers were missing where the runtime was built (Vulkan
// without its headers, Metal off macOS) still answers for its device type, so that a model
// compiled for it loads (its images are checked) and says why it cannot run: every call that
// needs the device fails with UNIMPLEMENTED "<name> device: <function>: <reason>".
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_UNAVAILABLE_DEVICE_H
#define TCC_RUNTIME_UNAVAILABLE_DEVICE_H

#include "device.h"
#include "status_internal.h"

/// Defines `const tcc_device SYMBOL` for DLPack type TYPE, named NAME, whose calls fail with
/// REASON (a string literal).
#define TCC_UNAVAILABLE_DEVICE(SYMBOL, TYPE, NAME, REASON)                                         \
  static tcc_status SYMBOL##_fail(const char *function) {                                          \
    return tcc_make_status(TCC_STATUS_UNIMPLEMENTED, NAME " device: %s: " REASON, function);       \
  }                                                                                                \
  static tcc_status SYMBOL##_allocate(const tcc_device *d, size_t b, size_t a, void **m) {         \
    (void)d, (void)b, (void)a, (void)m;                                                            \
    return SYMBOL##_fail("allocate");                                                              \
  }                                                                                                \
  static void SYMBOL##_free(const tcc_device *d, void *m) { (void)d, (void)m; }                    \
  static tcc_status SYMBOL##_copy(const tcc_device *d, void *t, const void *f, size_t b,           \
                                  tcc_copy_kind k) {                                               \
    (void)d, (void)t, (void)f, (void)b, (void)k;                                                   \
    return SYMBOL##_fail("copy");                                                                  \
  }                                                                                                \
  static tcc_status SYMBOL##_fill(const tcc_device *d, void *t, uint8_t v, size_t b) {             \
    (void)d, (void)t, (void)v, (void)b;                                                            \
    return SYMBOL##_fail("fill");                                                                  \
  }                                                                                                \
  static tcc_status SYMBOL##_create_queue(const tcc_device *d, int32_t n, tcc_device_queue **q) {  \
    (void)d, (void)n, (void)q;                                                                     \
    return SYMBOL##_fail("create_queue");                                                          \
  }                                                                                                \
  static void SYMBOL##_destroy_queue(const tcc_device *d, tcc_device_queue *q) {                   \
    (void)d, (void)q;                                                                              \
  }                                                                                                \
  static tcc_status SYMBOL##_launch(const tcc_device *d, tcc_device_queue *q, int64_t c,           \
                                    tcc_loop_body b, void *a) {                                    \
    (void)d, (void)q, (void)c, (void)b, (void)a;                                                   \
    return SYMBOL##_fail("launch");                                                                \
  }                                                                                                \
  static tcc_status SYMBOL##_synchronize(const tcc_device *d, tcc_device_queue *q) {               \
    (void)d, (void)q;                                                                              \
    return NULL;                                                                                   \
  }                                                                                                \
  static tcc_status SYMBOL##_load_module(const tcc_device *d, const tcc_model_descriptor *m,       \
                                         tcc_device_module **o) {                                  \
    (void)d, (void)m, (void)o;                                                                     \
    return SYMBOL##_fail("load_module");                                                           \
  }                                                                                                \
  static void SYMBOL##_unload_module(const tcc_device *d, tcc_device_module *m) {                  \
    (void)d, (void)m;                                                                              \
  }                                                                                                \
  static tcc_status SYMBOL##_launch_kernel(const tcc_device *d, tcc_device_queue *q,               \
                                           tcc_device_module *m, int32_t k, int64_t g, int32_t b,  \
                                           int32_t s, void **a) {                                  \
    (void)d, (void)q, (void)m, (void)k, (void)g, (void)b, (void)s, (void)a;                        \
    return SYMBOL##_fail("launch_kernel");                                                         \
  }                                                                                                \
  const tcc_device SYMBOL = {.type = TYPE,                                                         \
                             .name = NAME,                                                         \
                             .allocate = SYMBOL##_allocate,                                        \
                             .free = SYMBOL##_free,                                                \
                             .copy = SYMBOL##_copy,                                                \
                             .fill = SYMBOL##_fill,                                                \
                             .create_queue = SYMBOL##_create_queue,                                \
                             .destroy_queue = SYMBOL##_destroy_queue,                              \
                             .launch = SYMBOL##_launch,                                            \
                             .synchronize = SYMBOL##_synchronize,                                  \
                             .load_module = SYMBOL##_load_module,                                  \
                             .unload_module = SYMBOL##_unload_module,                              \
                             .launch_kernel = SYMBOL##_launch_kernel}

#endif // TCC_RUNTIME_UNAVAILABLE_DEVICE_H
