//===- RuntimeTestUtils.h - helpers shared by the runtime's unit tests ------------------===//
#ifndef TCC_TEST_RUNTIME_RUNTIMETESTUTILS_H
#define TCC_TEST_RUNTIME_RUNTIMETESTUTILS_H

#include "tcc/model_abi.h"
#include "tcc/runtime.h"

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace tcc_test {

/// Counts how often a parallel loop's chunks visited each index of [0, count).
struct Coverage {
  std::vector<std::atomic<int>> visits;
  explicit Coverage(int64_t count) : visits(static_cast<size_t>(count)) {}
  static void body(void *arg, int64_t begin, int64_t end) {
    Coverage *coverage = static_cast<Coverage *>(arg);
    for (int64_t i = begin; i < end; ++i)
      coverage->visits[static_cast<size_t>(i)]++;
  }
  bool exactlyOnce() const {
    for (const std::atomic<int> &v : visits)
      if (v != 1)
        return false;
    return true;
  }
};

struct StatusDeleter {
  void operator()(tcc_status_object *status) const { tcc_status_free(status); }
};
/// Owns a tcc_status; empty means OK.
using Status = std::unique_ptr<tcc_status_object, StatusDeleter>;

struct ModelDeleter {
  void operator()(tcc_model *model) const { tcc_model_release(model); }
};
using Model = std::unique_ptr<tcc_model, ModelDeleter>;

struct SessionDeleter {
  void operator()(tcc_session *session) const { tcc_session_release(session); }
};
using Session = std::unique_ptr<tcc_session, SessionDeleter>;

/// The folder of the fixture models: $TCC_FIXTURES_DIR if set (to run the tests on another
/// machine), else the build's.
inline std::string fixturesDir() {
  const char *dir = std::getenv("TCC_FIXTURES_DIR");
  return dir && *dir ? dir : TCC_FIXTURES_DIR;
}

/// The path of a fixture model, e.g. fixture("add") -> .../fixtures/add.so.
inline std::string fixture(const std::string &name) {
  return fixturesDir() + "/" + name + ".so";
}

/// Requires an OK status; prints the message otherwise.
#define REQUIRE_OK(expression)                                                                   \
  do {                                                                                           \
    ::tcc_test::Status status_(expression);                                                      \
    INFO(tcc_status_message(status_.get()));                                                     \
    REQUIRE(status_ == nullptr);                                                                 \
  } while (0)

/// Requires a status with `code` whose message contains every one of `parts`.
inline void requireError(tcc_status raw, tcc_status_code code,
                         const std::vector<std::string> &parts) {
  Status status(raw);
  REQUIRE(status != nullptr);
  std::string message = tcc_status_message(status.get());
  INFO("message: " << message);
  CHECK(tcc_status_code_name(tcc_status_code_of(status.get())) ==
        std::string(tcc_status_code_name(code)));
  for (const std::string &part : parts)
    CHECK(message.find(part) != std::string::npos);
}

inline Model loadModel(const std::string &name) {
  tcc_model *model = nullptr;
  REQUIRE_OK(tcc_model_load(fixture(name).c_str(), nullptr, &model));
  return Model(model);
}

/// Symbol `symbol` of fixture model `name` (its library stays loaded).
inline const void *fixtureSymbol(const std::string &name, const char *symbol) {
  void *library = dlopen(fixture(name).c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(library != nullptr);
  const void *address = dlsym(library, symbol);
  REQUIRE(address != nullptr);
  return address;
}

/// The descriptor of a fixture model, to copy and change (its library stays loaded).
inline const tcc_model_descriptor &fixtureDescriptor(const std::string &name) {
  return *static_cast<const tcc_model_descriptor *>(fixtureSymbol(name, TCC_MODEL_SYMBOL));
}

/// Creates a model from `descriptor` and releases it: the status of the creation.
inline tcc_status createFrom(const tcc_model_descriptor &descriptor) {
  tcc_model *model = nullptr;
  tcc_status status = tcc_model_create_from_descriptor(&descriptor, nullptr, &model);
  tcc_model_release(model);
  return status;
}

inline Session createSession(tcc_model *model, int32_t numThreads, uint32_t flags = 0) {
  tcc_session_options options = TCC_SESSION_OPTIONS_INIT;
  options.num_threads = numThreads;
  options.flags = flags;
  tcc_session *session = nullptr;
  REQUIRE_OK(tcc_session_create(model, &options, &session));
  return Session(session);
}

constexpr DLDataType kFloat32{kDLFloat, 32, 1};
constexpr DLDataType kInt32{kDLInt, 32, 1};
constexpr DLDataType kInt64{kDLInt, 64, 1};
constexpr DLDataType kUInt8{kDLUInt, 8, 1};

/// A CPU tensor that owns its shape and data; `dl` points into them.
template <typename T> struct HostTensor {
  std::vector<int64_t> shape;
  std::vector<T> data;
  DLTensor dl{};

  HostTensor(std::vector<int64_t> shapeIn, DLDataType type, std::vector<T> values = {})
      : shape(std::move(shapeIn)) {
    int64_t count = 1;
    for (int64_t extent : shape)
      count *= extent < 0 ? 0 : extent;
    data = values.empty() ? std::vector<T>(static_cast<size_t>(count)) : std::move(values);
    dl.data = data.empty() ? nullptr : data.data();
    dl.device = DLDevice{kDLCPU, 0};
    dl.ndim = static_cast<int>(shape.size());
    dl.dtype = type;
    dl.shape = shape.data();
    dl.strides = nullptr;
    dl.byte_offset = 0;
  }
  HostTensor(const HostTensor &) = delete;
  HostTensor &operator=(const HostTensor &) = delete;

  DLTensor *get() { return &dl; }
};

/// Sets environment variable `name` to `value` (nullptr: unsets it) while it lives.
struct ScopedVariable {
  std::string name;
  bool had;
  std::string old;
  ScopedVariable(const char *nameIn, const char *value) : name(nameIn) {
    const char *current = std::getenv(nameIn);
    had = current != nullptr;
    old = had ? current : "";
    if (value)
      setenv(nameIn, value, 1);
    else
      unsetenv(nameIn);
  }
  ~ScopedVariable() {
    if (had)
      setenv(name.c_str(), old.c_str(), 1);
    else
      unsetenv(name.c_str());
  }
  ScopedVariable(const ScopedVariable &) = delete;
  ScopedVariable &operator=(const ScopedVariable &) = delete;
};

/// Float32 [n, 4] tensors for the add fixture: a[i] = i, b[i] = 10 * i.
struct AddTensors {
  HostTensor<float> a, b, y;
  explicit AddTensors(int64_t n)
      : a({n, 4}, kFloat32), b({n, 4}, kFloat32), y({n, 4}, kFloat32) {
    for (size_t i = 0; i < a.data.size(); ++i) {
      a.data[i] = static_cast<float>(i);
      b.data[i] = 10.0f * static_cast<float>(i);
    }
  }
  tcc_status run(tcc_session *session) {
    const DLTensor *inputs[] = {a.get(), b.get()};
    const DLTensor *outputs[] = {y.get()};
    return tcc_session_run(session, inputs, 2, outputs, 1);
  }
};

} // namespace tcc_test

#endif // TCC_TEST_RUNTIME_RUNTIMETESTUTILS_H
