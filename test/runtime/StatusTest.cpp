//===- StatusTest.cpp - tcc_status and tcc_runtime_version ------------------------------===//
#include "RuntimeTestUtils.h"

extern "C" {
#include "status_internal.h"
}

#include <cstring>

using namespace tcc_test;

TEST_CASE("a null status is OK with an empty message", "[status]") {
  CHECK(tcc_status_code_of(nullptr) == TCC_STATUS_OK);
  CHECK(std::string(tcc_status_message(nullptr)).empty());
  tcc_status_free(nullptr); // a no-op
}

TEST_CASE("every status code has a name", "[status]") {
  CHECK(std::string(tcc_status_code_name(TCC_STATUS_OK)) == "OK");
  CHECK(std::string(tcc_status_code_name(TCC_STATUS_INVALID_ARGUMENT)) == "INVALID_ARGUMENT");
  CHECK(std::string(tcc_status_code_name(TCC_STATUS_OUT_OF_RANGE)) == "OUT_OF_RANGE");
  CHECK(std::string(tcc_status_code_name(TCC_STATUS_NOT_FOUND)) == "NOT_FOUND");
  CHECK(std::string(tcc_status_code_name(TCC_STATUS_INVALID_MODEL)) == "INVALID_MODEL");
  CHECK(std::string(tcc_status_code_name(TCC_STATUS_INCOMPATIBLE)) == "INCOMPATIBLE");
  CHECK(std::string(tcc_status_code_name(TCC_STATUS_UNIMPLEMENTED)) == "UNIMPLEMENTED");
  CHECK(std::string(tcc_status_code_name(TCC_STATUS_RESOURCE_EXHAUSTED)) ==
        "RESOURCE_EXHAUSTED");
  CHECK(std::string(tcc_status_code_name(TCC_STATUS_CHECK_FAILED)) == "CHECK_FAILED");
  CHECK(std::string(tcc_status_code_name(TCC_STATUS_INTERNAL)) == "INTERNAL");
  CHECK(std::string(tcc_status_code_name(static_cast<tcc_status_code>(1234))) == "UNKNOWN");
}

TEST_CASE("an error status carries its code and a message naming the function", "[status]") {
  tcc_status status = tcc_model_load(nullptr, nullptr, nullptr);
  REQUIRE(status != nullptr);
  CHECK(tcc_status_code_of(status) == TCC_STATUS_INVALID_ARGUMENT);
  CHECK(std::string(tcc_status_message(status)) == "tcc_model_load: path is null");
  tcc_status_free(status);
}

TEST_CASE("statuses are independent objects", "[status]") {
  tcc_status first = tcc_dtype_to_dlpack(999, nullptr);
  DLDataType type;
  tcc_status second = tcc_dtype_to_dlpack(999, &type);
  REQUIRE(first != nullptr);
  REQUIRE(second != nullptr);
  CHECK(first != second);
  CHECK(std::string(tcc_status_message(first)) == "tcc_dtype_to_dlpack: out_type is null");
  CHECK(std::string(tcc_status_message(second)) == "tcc_dtype_to_dlpack: unknown dtype 999");
  tcc_status_free(first);
  CHECK(std::string(tcc_status_message(second)) == "tcc_dtype_to_dlpack: unknown dtype 999");
  tcc_status_free(second);
}

TEST_CASE("the runtime reports its version", "[status]") {
  std::string version = tcc_runtime_version();
  CHECK(version == TCC_PROJECT_VERSION);
  CHECK(TCC_RUNTIME_API_VERSION == 1);
}

TEST_CASE("an annotated status puts its context first and keeps the cause's code", "[status]") {
  tcc_status cause = tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                                     "cpu device: allocate: out of memory for %d bytes", 128);
  Status status(tcc_annotate_status(cause, "%s: cannot allocate a workspace of %d bytes",
                                    "tcc_session_run", 128));
  REQUIRE(status != nullptr);
  CHECK(tcc_status_code_of(status.get()) == TCC_STATUS_RESOURCE_EXHAUSTED);
  CHECK(std::string(tcc_status_message(status.get())) ==
        "tcc_session_run: cannot allocate a workspace of 128 bytes: cpu device: allocate: out of "
        "memory for 128 bytes");
  CHECK(tcc_annotate_status(nullptr, "%s: nothing failed", "f") == nullptr);
}
