//===- HipDeviceTest.cpp - the HIP backend (runtime/src/hip) and AMD code objects -------===//
//
// Runs everywhere. Without the ROCm HIP runtime (no libamdhip64.so, as on CI) the tests check
// that every call that needs it fails with a status naming libamdhip64.so, and that ROCm
// models still load and validate. tcc_hsaco_inspect, which checks a code object before HIP
// reads it, is run on code objects built here byte by byte: whole, cut short, corrupted field
// by field and at random, each copied into a buffer of exactly its size (so that a sanitizer
// build catches any read past it). With HIP and an AMD GPU, memory, queues and the choice and
// checks of images run on the GPU; with HIP but no usable GPU they say so and check nothing.
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"
#include "TestModel.h"

#include "device.h"
#include "hip/hsaco.h"

#include <cstdint>
#include <cstring>
#include <dlfcn.h>
#include <limits>
#include <memory>
#include <random>

using namespace tcc_test;

namespace {
const tcc_device *hip() { return &tcc_hip_device; }

/// Whether the ROCm HIP runtime loads here, under one of the names the backend tries. The
/// library stays loaded: HIP's LLVM (through libamd_comgr) cannot be unloaded and loaded
/// again in one process ("Option ... registered more than once", then an abort), as Ubuntu's
/// ROCm 5.7 packages showed.
bool hipLoads() {
  for (const char *name :
       {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5"})
    if (dlopen(name, RTLD_NOW | RTLD_LOCAL))
      return true;
  return false;
}

//===------------------------------------------------------------------------------------===//
// Code objects built byte by byte
//===------------------------------------------------------------------------------------===//

/// A minimal AMD code object (ELF64, little-endian): the ELF header; one PT_LOAD program
/// header over the whole file; .text (16 bytes); .dynstr with the names "k.kd", "undef.kd",
/// "other" and, last and without its NUL, "trunc.kd"; .dynsym with the symbols of those names
/// ("undef.kd" undefined, the others in .text); a .bss (NOBITS: its offset and size point
/// nowhere, as they may); and the section headers at the end.
struct CodeObject {
  static constexpr size_t kProgramHeader = 64;
  static constexpr size_t kText = 120;
  static constexpr size_t kStrings = 136;
  static constexpr size_t kSymbols = 168;
  static constexpr size_t kSectionHeaders = 288;
  static constexpr size_t kSize = kSectionHeaders + 5 * 64;
  // Section header offsets: [1] .text, [2] .dynstr, [3] .dynsym, [4] .bss.
  static constexpr size_t section(int index) { return kSectionHeaders + 64 * index; }
  // 29 bytes: the literal's own NUL is not part of the table.
  static constexpr char kNames[] = "\0k.kd\0undef.kd\0other\0trunc.kd";
  static constexpr uint64_t kNamesSize = sizeof(kNames) - 1;

  std::vector<unsigned char> bytes = std::vector<unsigned char>(kSize, 0);

  explicit CodeObject(uint32_t flags = 0x04c /* gfx942 */, uint8_t abiVersion = 3 /* v5 */) {
    const unsigned char ident[16] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 64, abiVersion};
    std::memcpy(bytes.data(), ident, sizeof(ident));
    put16(0x10, 3);   // e_type: ET_DYN
    put16(0x12, 224); // e_machine: EM_AMDGPU
    put32(0x14, 1);   // e_version
    put64(0x20, kProgramHeader);
    put64(0x28, kSectionHeaders);
    put32(0x30, flags);
    put16(0x34, 64); // e_ehsize
    put16(0x36, 56); // e_phentsize
    put16(0x38, 1);  // e_phnum
    put16(0x3a, 64); // e_shentsize
    put16(0x3c, 5);  // e_shnum
    // PT_LOAD, readable and executable, the whole file.
    put32(kProgramHeader, 1);
    put32(kProgramHeader + 4, 5);
    put64(kProgramHeader + 0x20, kSize);
    put64(kProgramHeader + 0x28, kSize);
    std::memset(bytes.data() + kText, 0xcc, 16);
    std::memcpy(bytes.data() + kStrings, kNames, kNamesSize);
    // Symbols: [0] null, then name offset, section.
    const struct {
      uint32_t name;
      uint16_t section;
    } symbols[] = {{1, 1}, {6, 0}, {15, 1}, {21, 1}};
    for (size_t i = 0; i < 4; ++i) {
      size_t at = kSymbols + 24 * (i + 1);
      put32(at, symbols[i].name);
      bytes[at + 4] = 0x11; // STB_GLOBAL, STT_OBJECT
      put16(at + 6, symbols[i].section);
      put64(at + 16, 64); // a kernel descriptor's size
    }
    sectionHeader(1, 1 /* PROGBITS */, kText, 16, 0, 0);
    sectionHeader(2, 3 /* STRTAB */, kStrings, kNamesSize, 0, 0);
    sectionHeader(3, 11 /* DYNSYM */, kSymbols, 5 * 24, 2, 24);
    sectionHeader(4, 8 /* NOBITS */, ~uint64_t{0} - 7, ~uint64_t{0}, 0, 0);
  }

  void sectionHeader(int index, uint32_t type, uint64_t offset, uint64_t size, uint32_t link,
                     uint64_t entrySize) {
    size_t at = section(index);
    put32(at + 0x04, type);
    put64(at + 0x18, offset);
    put64(at + 0x20, size);
    put32(at + 0x28, link);
    put64(at + 0x38, entrySize);
  }
  void put16(size_t at, uint16_t value) { putBytes(at, value, 2); }
  void put32(size_t at, uint32_t value) { putBytes(at, value, 4); }
  void put64(size_t at, uint64_t value) { putBytes(at, value, 8); }
  void putBytes(size_t at, uint64_t value, int count) {
    for (int i = 0; i < count; ++i)
      bytes[at + i] = static_cast<unsigned char>(value >> (8 * i));
  }
};

/// Bytes on the heap in a block of exactly their size, so that a read past them is a
/// sanitizer's error rather than a read of spare capacity.
struct ExactBytes {
  std::unique_ptr<unsigned char[]> data;
  size_t size;
  explicit ExactBytes(const std::vector<unsigned char> &bytes, size_t count)
      : data(new unsigned char[count]), size(count) {
    std::memcpy(data.get(), bytes.data(), count);
  }
  explicit ExactBytes(const std::vector<unsigned char> &bytes) : ExactBytes(bytes, bytes.size()) {}
  tcc_status inspect(tcc_hsaco_info *info) const {
    return tcc_hsaco_inspect(data.get(), size, info);
  }
};

/// The EF_AMDGPU_MACH value of a chip name; 0 when the runtime does not know it.
uint32_t machineOf(const std::string &chip) {
  for (uint32_t machine = 1; machine <= 0xff; ++machine) {
    const char *name = tcc_hsaco_chip_name(machine);
    if (name && chip == name)
      return machine;
  }
  return 0;
}

/// A ROCm model (TestModel's metadata) whose kernel `names` are in `images`.
struct RocmModel : TestModel {
  RocmModel(const tcc_device_image *images, int32_t numImages, const char *const *names,
            int32_t numKernels) {
    descriptor.device_type = kDLROCM;
    descriptor.num_device_images = numImages;
    descriptor.device_images = images;
    descriptor.num_device_kernels = numKernels;
    descriptor.device_kernel_names = names;
  }
};

const char *const kKernelK[] = {"k"};

/// Whether the HIP device works here (HIP and a GPU on which a queue can be created); if not,
/// *why says why.
bool gpuWorks(std::string *why) {
  tcc_device_queue *queue = nullptr;
  Status status(hip()->create_queue(hip(), 1, &queue));
  if (status) {
    *why = tcc_status_message(status.get());
    return false;
  }
  hip()->destroy_queue(hip(), queue);
  return true;
}

/// Ends the test case, with a warning, where no AMD GPU can run it.
#define REQUIRE_GPU()                                                                              \
  do {                                                                                             \
    std::string why_;                                                                              \
    if (!gpuWorks(&why_)) {                                                                        \
      WARN("no usable AMD GPU here, nothing to check: " << why_);                                  \
      return;                                                                                      \
    }                                                                                              \
  } while (0)
} // namespace

//===------------------------------------------------------------------------------------===//
// The backend, with or without HIP
//===------------------------------------------------------------------------------------===//

TEST_CASE("kDLROCM finds the hip backend, which has the kernel members", "[hip]") {
  const tcc_device *device = nullptr;
  REQUIRE_OK(tcc_device_for_type(kDLROCM, &device));
  CHECK(device == &tcc_hip_device);
  CHECK(device->type == kDLROCM);
  CHECK(std::string(device->name) == "hip");
  CHECK(device->gpu != nullptr);
  CHECK(device->device_id != nullptr);
  CHECK(device->load_module != nullptr);
  CHECK(device->unload_module != nullptr);
  CHECK(device->launch_kernel != nullptr);
  CHECK(device->begin_capture != nullptr);
  CHECK(device->end_capture != nullptr);
  CHECK(device->launch_graph != nullptr);
  CHECK(device->destroy_graph != nullptr);
  CHECK(tcc_cpu_device.gpu == nullptr);
}

TEST_CASE("the hip device checks its arguments before it needs HIP", "[hip][errors]") {
  void *memory = &memory; // stays untouched on failure
  requireError(hip()->allocate(hip(), 64, 48, &memory), TCC_STATUS_INVALID_ARGUMENT,
               {"hip device: allocate: alignment is 48, expected a power of two"});
  requireError(hip()->allocate(hip(), 64, 4096, &memory), TCC_STATUS_INVALID_ARGUMENT,
               {"hip device: allocate: alignment is 4096, expected at most 256 (what hipMalloc "
                "gives)"});
  requireError(hip()->allocate(hip(), 64, 64, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"hip device: allocate: out_memory is null"});
  CHECK(memory == &memory);
  unsigned char bytes[4] = {};
  requireError(hip()->copy(hip(), bytes, bytes, 4, static_cast<tcc_copy_kind>(9)),
               TCC_STATUS_INVALID_ARGUMENT, {"hip device: copy: the copy kind 9 is unknown"});
  requireError(hip()->copy(hip(), bytes, nullptr, 4, TCC_COPY_DEVICE_TO_HOST),
               TCC_STATUS_INVALID_ARGUMENT, {"hip device: copy: source is null (4 bytes)"});
  requireError(hip()->fill(hip(), nullptr, 0, 4), TCC_STATUS_INVALID_ARGUMENT,
               {"hip device: fill: destination is null (4 bytes)"});
  REQUIRE_OK(hip()->copy(hip(), nullptr, nullptr, 0, TCC_COPY_HOST_TO_DEVICE));
  REQUIRE_OK(hip()->fill(hip(), nullptr, 0, 0));
  REQUIRE_OK(hip()->synchronize(hip(), nullptr));
  requireError(hip()->create_queue(hip(), 1, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"hip device: create_queue: out_queue is null"});
  tcc_device_module *module = nullptr;
  requireError(hip()->load_module(hip(), nullptr, &module), TCC_STATUS_INVALID_ARGUMENT,
               {"hip device: load_module: descriptor is null"});
  TestModel empty;
  empty.descriptor.device_type = kDLROCM;
  requireError(hip()->load_module(hip(), &empty.descriptor, &module), TCC_STATUS_INVALID_MODEL,
               {"hip device: load_module: the model has no device images or kernels"});
  CHECK(module == nullptr);
  requireError(hip()->launch_kernel(hip(), nullptr, nullptr, 0, 1, 1, 0, nullptr),
               TCC_STATUS_INVALID_ARGUMENT, {"hip device: launch_kernel: module is null"});
  requireError(hip()->begin_capture(hip(), nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"hip device: begin_capture: queue is null"});
  tcc_device_graph *graph = nullptr;
  requireError(hip()->end_capture(hip(), nullptr, &graph), TCC_STATUS_INVALID_ARGUMENT,
               {"hip device: end_capture: queue is null"});
  CHECK(graph == nullptr);
  requireError(hip()->launch_graph(hip(), nullptr, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"hip device: launch_graph: queue is null"});
  // Freeing nothing needs nothing.
  hip()->free(hip(), nullptr);
  hip()->destroy_queue(hip(), nullptr);
  hip()->unload_module(hip(), nullptr);
  hip()->destroy_graph(hip(), nullptr);
}

TEST_CASE("the hip device runs host loop bodies on the calling thread", "[hip][launch]") {
  Coverage coverage(100);
  REQUIRE_OK(hip()->launch(hip(), nullptr, 100, Coverage::body, &coverage));
  CHECK(coverage.exactlyOnce());
  requireError(hip()->launch(hip(), nullptr, -1, Coverage::body, &coverage),
               TCC_STATUS_INVALID_ARGUMENT, {"hip device: launch: count is -1, expected >= 0"});
  requireError(hip()->launch(hip(), nullptr, 4, nullptr, nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"hip device: launch: body is null"});
}

TEST_CASE("without the ROCm HIP runtime every call that needs it names libamdhip64.so",
          "[hip][errors]") {
  if (hipLoads()) {
    WARN("libamdhip64.so loads here: the GPU tests below run instead");
    return;
  }
  const char *cannotLoad = "cannot load libamdhip64.so, libamdhip64.so.7, libamdhip64.so.6 or "
                           "libamdhip64.so.5 (the ROCm HIP runtime): ";
  void *memory = &memory;
  requireError(hip()->allocate(hip(), 64, 64, &memory), TCC_STATUS_INCOMPATIBLE,
               {std::string("hip device: allocate: ") + cannotLoad, "libamdhip64.so: "});
  CHECK(memory == &memory);
  tcc_device_queue *queue = nullptr;
  requireError(hip()->create_queue(hip(), 4, &queue), TCC_STATUS_INCOMPATIBLE,
               {std::string("hip device: create_queue: ") + cannotLoad});
  CHECK(queue == nullptr);
  unsigned char bytes[4] = {};
  requireError(hip()->copy(hip(), bytes, bytes, 4, TCC_COPY_DEVICE_TO_DEVICE),
               TCC_STATUS_INCOMPATIBLE, {std::string("hip device: copy: ") + cannotLoad});
  requireError(hip()->fill(hip(), bytes, 0, 4), TCC_STATUS_INCOMPATIBLE,
               {std::string("hip device: fill: ") + cannotLoad});
  CodeObject object;
  const tcc_device_image images[] = {
      {"gfx942", TCC_IMAGE_HSACO, 0, object.bytes.data(), static_cast<int64_t>(CodeObject::kSize)}};
  RocmModel rocm(images, 1, kKernelK, 1);
  tcc_device_module *module = nullptr;
  requireError(hip()->load_module(hip(), &rocm.descriptor, &module), TCC_STATUS_INCOMPATIBLE,
               {std::string("hip device: load_module: ") + cannotLoad});
  CHECK(module == nullptr);

  // The model loads (validation needs no HIP); a session cannot be created.
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&rocm.descriptor, nullptr, &raw));
  Model model(raw);
  CHECK(tcc_model_device_type(model.get()) == kDLROCM);
  tcc_session *session = nullptr;
  requireError(tcc_session_create(model.get(), nullptr, &session), TCC_STATUS_INCOMPATIBLE,
               {std::string("tcc_session_create: hip device: create_queue: ") + cannotLoad});
  CHECK(session == nullptr);
  // TCC_HIP_GRAPHS matters only where there is HIP: without it, that is what to fix.
  ScopedVariable graphs("TCC_HIP_GRAPHS", "maybe");
  requireError(hip()->create_queue(hip(), 1, &queue), TCC_STATUS_INCOMPATIBLE,
               {std::string("hip device: create_queue: ") + cannotLoad});
}

//===------------------------------------------------------------------------------------===//
// ROCm models: validation (no HIP needed)
//===------------------------------------------------------------------------------------===//

TEST_CASE("a ROCm model carries HSACO images, and only a ROCm model does", "[hip][model]") {
  CodeObject object;
  const tcc_device_image hsaco[] = {
      {"gfx942", TCC_IMAGE_HSACO, 0, object.bytes.data(), static_cast<int64_t>(CodeObject::kSize)}};
  RocmModel rocm(hsaco, 1, kKernelK, 1);
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&rocm.descriptor, nullptr, &raw));
  Model model(raw);
  CHECK(tcc_model_device_type(model.get()) == kDLROCM);
  REQUIRE(tcc_model_num_device_images(model.get()) == 1);
  tcc_device_image image{};
  REQUIRE_OK(tcc_model_device_image(model.get(), 0, &image));
  CHECK(std::string(image.arch) == "gfx942");
  CHECK(image.format == TCC_IMAGE_HSACO);

  static const char ptx[] = ".version 7.0\n";
  const tcc_device_image ptxImage[] = {{"sm_80", TCC_IMAGE_PTX, 0, ptx, sizeof(ptx)}};
  RocmModel withPtx(ptxImage, 1, kKernelK, 1);
  requireError(createFrom(withPtx.descriptor), TCC_STATUS_INVALID_MODEL,
               {"tcc_model_create_from_descriptor: device image 0 (sm_80) has the format 1 (PTX), "
                "which is for CUDA models (kDLCUDA), but the model's device_type is 10 (ROCm, "
                "kDLROCM): expected 3 (HSACO)"});
  RocmModel cuda(hsaco, 1, kKernelK, 1);
  cuda.descriptor.device_type = kDLCUDA;
  requireError(createFrom(cuda.descriptor), TCC_STATUS_INVALID_MODEL,
               {"device image 0 (gfx942) has the format 3 (HSACO), which is for ROCm models "
                "(kDLROCM), but the model's device_type is 2 (CUDA, kDLCUDA): expected 1 (PTX) "
                "or 2 (cubin)"});
  const tcc_device_image unknown[] = {{"gfx942", 7, 0, ptx, sizeof(ptx)}};
  RocmModel withUnknown(unknown, 1, kKernelK, 1);
  requireError(createFrom(withUnknown.descriptor), TCC_STATUS_INVALID_MODEL,
               {"device image 0 (gfx942) has the unknown format 7, expected 3 (HSACO)"});
  const unsigned char notElf[64] = {'P', 'K'};
  const tcc_device_image zip[] = {{"gfx90a", TCC_IMAGE_HSACO, 0, notElf, sizeof(notElf)}};
  RocmModel withZip(zip, 1, kKernelK, 1);
  requireError(createFrom(withZip.descriptor), TCC_STATUS_INVALID_MODEL,
               {"device image 0 (gfx90a HSACO, 64 bytes) is not a 64-bit ELF file whose headers "
                "lie within its size"});
  // Tables past the end: the section headers of a code object cut short.
  const tcc_device_image cut[] = {{"gfx942", TCC_IMAGE_HSACO, 0, object.bytes.data(), 300}};
  RocmModel withCut(cut, 1, kKernelK, 1);
  requireError(createFrom(withCut.descriptor), TCC_STATUS_INVALID_MODEL,
               {"device image 0 (gfx942 HSACO, 300 bytes) is not a 64-bit ELF file"});
}

TEST_CASE("loading a ROCm model checks its code objects as a loader reads them, without a GPU",
          "[hip][model][hsaco]") {
  // The chip of the code object must be the image's arch.
  CodeObject gfx90a(0x03f);
  const tcc_device_image mislabelled[] = {
      {"gfx942", TCC_IMAGE_HSACO, 0, gfx90a.bytes.data(), static_cast<int64_t>(CodeObject::kSize)}};
  RocmModel wrongChip(mislabelled, 1, kKernelK, 1);
  requireError(createFrom(wrongChip.descriptor), TCC_STATUS_INCOMPATIBLE,
               {"tcc_model_create_from_descriptor: device image 0: the gfx942 HSACO image (608 "
                "bytes) is a code object for gfx90a (e_flags machine 0x03f), not for gfx942"});
  // Every kernel of the model needs its descriptor symbol.
  CodeObject object;
  const tcc_device_image images[] = {
      {"gfx942", TCC_IMAGE_HSACO, 0, object.bytes.data(), static_cast<int64_t>(CodeObject::kSize)}};
  const char *const names[] = {"k", "missing"};
  RocmModel missing(images, 1, names, 2);
  requireError(createFrom(missing.descriptor), TCC_STATUS_INVALID_MODEL,
               {"tcc_model_create_from_descriptor: device image 0: the gfx942 HSACO image has no "
                "kernel 1 'missing' (no kernel descriptor symbol 'missing.kd' in its .dynsym)"});
  // A code object of another OS ABI than AMD's HSA.
  CodeObject foreign;
  foreign.bytes[7] = 0; // ELFOSABI_NONE
  const tcc_device_image foreignImages[] = {{"gfx942", TCC_IMAGE_HSACO, 0, foreign.bytes.data(),
                                             static_cast<int64_t>(CodeObject::kSize)}};
  RocmModel withForeign(foreignImages, 1, kKernelK, 1);
  requireError(createFrom(withForeign.descriptor), TCC_STATUS_INCOMPATIBLE,
               {"tcc_model_create_from_descriptor: device image 0: the gfx942 HSACO image (608 "
                "bytes) is not a code object HIP can load: "});
}

TEST_CASE("a ROCm model takes CPU tensors and tensors of its GPU, no others", "[hip][model]") {
  CodeObject object;
  const tcc_device_image hsaco[] = {
      {"gfx942", TCC_IMAGE_HSACO, 0, object.bytes.data(), static_cast<int64_t>(CodeObject::kSize)}};
  RocmModel rocm(hsaco, 1, kKernelK, 1);
  tcc_model *raw = nullptr;
  REQUIRE_OK(tcc_model_create_from_descriptor(&rocm.descriptor, nullptr, &raw));
  Model model(raw);
  int32_t ordinal = hip()->device_id(hip());
  HostTensor<float> x({3, 2}, kFloat32);
  const DLTensor *inputs[] = {x.get()};
  int64_t n = 0;
  REQUIRE_OK(tcc_model_bind_symbols(model.get(), inputs, 1, &n, 1));
  CHECK(n == 3);
  x.dl.device = DLDevice{kDLROCM, ordinal};
  REQUIRE_OK(tcc_model_bind_symbols(model.get(), inputs, 1, &n, 1));
  x.dl.device = DLDevice{kDLROCM, ordinal + 2};
  requireError(tcc_model_bind_symbols(model.get(), inputs, 1, &n, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"input 0 'x' is on ROCm device " + std::to_string(ordinal + 2) +
                ", but the runtime uses ROCm device " + std::to_string(ordinal)});
  x.dl.device = DLDevice{kDLCUDA, 0};
  requireError(tcc_model_bind_symbols(model.get(), inputs, 1, &n, 1), TCC_STATUS_INVALID_ARGUMENT,
               {"input 0 'x' is on device type 2 (CUDA); only ROCm tensors (kDLROCM) and CPU "
                "tensors (kDLCPU, copied to the device) are supported"});
}

//===------------------------------------------------------------------------------------===//
// tcc_hsaco_inspect
//===------------------------------------------------------------------------------------===//

TEST_CASE("tcc_hsaco_inspect reads a code object's chip, version and kernel descriptors",
          "[hip][hsaco]") {
  CodeObject object;
  ExactBytes image(object.bytes);
  tcc_hsaco_info info{};
  REQUIRE_OK(image.inspect(&info));
  REQUIRE(info.chip != nullptr);
  CHECK(std::string(info.chip) == "gfx942");
  CHECK(info.machine == 0x04c);
  CHECK(info.version == 5);
  CHECK(tcc_hsaco_has_kernel(&info, "k"));
  CHECK_FALSE(tcc_hsaco_has_kernel(&info, "undef")); // undefined: not a descriptor here
  CHECK_FALSE(tcc_hsaco_has_kernel(&info, "other")); // "other", not "other.kd"
  CHECK_FALSE(tcc_hsaco_has_kernel(&info, "trunc")); // its name has no NUL in the table
  CHECK_FALSE(tcc_hsaco_has_kernel(&info, "missing"));
  CHECK_FALSE(tcc_hsaco_has_kernel(&info, "k.kd"));
  CHECK_FALSE(tcc_hsaco_has_kernel(&info, ""));
  CHECK_FALSE(tcc_hsaco_has_kernel(&info, nullptr));
  CHECK_FALSE(tcc_hsaco_has_kernel(nullptr, "k"));

  // Target feature bits (xnack, sramecc) are not the chip.
  CodeObject features(0x04c | 0xf00);
  ExactBytes featureImage(features.bytes);
  REQUIRE_OK(featureImage.inspect(&info));
  CHECK(std::string(info.chip) == "gfx942");
  // Code object versions 4 and 6 as well.
  for (uint8_t abi : {uint8_t{2}, uint8_t{4}}) {
    CodeObject versioned(0x03f, abi);
    ExactBytes versionedImage(versioned.bytes);
    REQUIRE_OK(versionedImage.inspect(&info));
    CHECK(info.version == abi + 2);
    CHECK(std::string(info.chip) == "gfx90a");
  }
  // A chip newer than the runtime's table: no name, HIP decides.
  CodeObject future(0x05e);
  ExactBytes futureImage(future.bytes);
  REQUIRE_OK(futureImage.inspect(&info));
  CHECK(info.chip == nullptr);
  CHECK(info.machine == 0x05e);
  CHECK(tcc_hsaco_has_kernel(&info, "k"));

  requireError(tcc_hsaco_inspect(nullptr, 64, &info), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_hsaco_inspect: data is null"});
  requireError(tcc_hsaco_inspect(object.bytes.data(), CodeObject::kSize, nullptr),
               TCC_STATUS_INVALID_ARGUMENT, {"tcc_hsaco_inspect: out is null"});
}

TEST_CASE("the chips of EF_AMDGPU_MACH have the names HIP gives them", "[hip][hsaco]") {
  const std::pair<uint32_t, const char *> chips[] = {
      {0x030, "gfx908"},  {0x03f, "gfx90a"},  {0x04c, "gfx942"},  {0x04f, "gfx950"},
      {0x036, "gfx1030"}, {0x041, "gfx1100"}, {0x046, "gfx1101"}, {0x047, "gfx1102"},
      {0x048, "gfx1200"}, {0x04e, "gfx1201"}};
  for (auto [machine, name] : chips) {
    INFO("machine " << machine);
    REQUIRE(tcc_hsaco_chip_name(machine) != nullptr);
    CHECK(std::string(tcc_hsaco_chip_name(machine)) == name);
    CodeObject object(machine);
    ExactBytes image(object.bytes);
    tcc_hsaco_info info{};
    REQUIRE_OK(image.inspect(&info));
    CHECK(std::string(info.chip) == name);
  }
  CHECK(tcc_hsaco_chip_name(0x000) == nullptr); // EF_AMDGPU_MACH_NONE
  CHECK(tcc_hsaco_chip_name(0x001) == nullptr); // R600
  CHECK(tcc_hsaco_chip_name(0x0ff) == nullptr);
}

TEST_CASE("tcc_hsaco_inspect refuses every code object cut short", "[hip][hsaco][errors]") {
  CodeObject object;
  // The section headers end the file: each prefix lacks some of them (or more).
  for (size_t size = 0; size < CodeObject::kSize; ++size) {
    INFO("size " << size);
    ExactBytes image(object.bytes, size);
    tcc_hsaco_info info{};
    info.machine = 12345;
    Status status(image.inspect(&info));
    REQUIRE(status != nullptr);
    CHECK(tcc_status_code_of(status.get()) == TCC_STATUS_INVALID_MODEL);
    CHECK(info.machine == 12345); // untouched on failure
  }
  ExactBytes whole(object.bytes);
  tcc_hsaco_info info{};
  REQUIRE_OK(whole.inspect(&info));
  requireError(ExactBytes(object.bytes, 63).inspect(&info), TCC_STATUS_INVALID_MODEL,
               {"it has 63 bytes, fewer than the 64 of an ELF header"});
  requireError(ExactBytes(object.bytes, 300).inspect(&info), TCC_STATUS_INVALID_MODEL,
               {"its segment 0 (608 bytes at offset 0) ends past its 300 bytes"});
}

namespace {
struct CorruptCase {
  const char *what;
  void (*corrupt)(CodeObject &object);
  tcc_status_code code;
  const char *message;
};

constexpr uint64_t kHuge = std::numeric_limits<uint64_t>::max();
} // namespace

TEST_CASE("tcc_hsaco_inspect refuses corrupt and foreign code objects with a message",
          "[hip][hsaco][errors]") {
  const std::vector<CorruptCase> cases = {
      {"no ELF magic", [](CodeObject &o) { o.bytes[1] = 'X'; }, TCC_STATUS_INVALID_MODEL,
       "it does not start with the ELF magic"},
      {"32-bit", [](CodeObject &o) { o.bytes[4] = 1; }, TCC_STATUS_INVALID_MODEL,
       "it is an ELF file of class 1 and data encoding 1, expected a 64-bit (2) little-endian (1) "
       "one"},
      {"big-endian", [](CodeObject &o) { o.bytes[5] = 2; }, TCC_STATUS_INVALID_MODEL,
       "class 2 and data encoding 2"},
      {"another machine", [](CodeObject &o) { o.put16(0x12, 62); }, TCC_STATUS_INCOMPATIBLE,
       "it is an ELF file for machine 62, expected EM_AMDGPU (224)"},
      {"another OS ABI", [](CodeObject &o) { o.bytes[7] = 0; }, TCC_STATUS_INCOMPATIBLE,
       "it has the OS ABI 0, expected ELFOSABI_AMDGPU_HSA (64)"},
      {"code object v3", [](CodeObject &o) { o.bytes[8] = 1; }, TCC_STATUS_INCOMPATIBLE,
       "it is a code object of version 3 (ABI version 1), expected version 4 to 6 (ABI version 2 "
       "to 4)"},
      {"code object v7", [](CodeObject &o) { o.bytes[8] = 5; }, TCC_STATUS_INCOMPATIBLE,
       "version 7 (ABI version 5)"},
      {"an executable", [](CodeObject &o) { o.put16(0x10, 2); }, TCC_STATUS_INVALID_MODEL,
       "it has the ELF type 2, expected a shared object (ET_DYN, 3)"},
      {"program headers past the end", [](CodeObject &o) { o.put64(0x20, CodeObject::kSize - 8); },
       TCC_STATUS_INVALID_MODEL,
       "its program header table (1 entries of 56 bytes at offset 600) ends past its 608 bytes"},
      {"program headers at 2^64 - 8", [](CodeObject &o) { o.put64(0x20, kHuge - 7); },
       TCC_STATUS_INVALID_MODEL, "its program header table (1 entries of 56 bytes at offset"},
      {"program header entries too small", [](CodeObject &o) { o.put16(0x36, 32); },
       TCC_STATUS_INVALID_MODEL,
       "its program header table has entries of 32 bytes, expected at least 56"},
      {"a segment past the end",
       [](CodeObject &o) { o.put64(CodeObject::kProgramHeader + 0x20, CodeObject::kSize + 1); },
       TCC_STATUS_INVALID_MODEL, "its segment 0 (609 bytes at offset 0) ends past its 608 bytes"},
      {"a segment whose end wraps around",
       [](CodeObject &o) {
         o.put64(CodeObject::kProgramHeader + 0x08, kHuge);
         o.put64(CodeObject::kProgramHeader + 0x20, 2);
       },
       TCC_STATUS_INVALID_MODEL, "its segment 0 (2 bytes at offset 18446744073709551615)"},
      {"section headers past the end", [](CodeObject &o) { o.put64(0x28, CodeObject::kSize - 63); },
       TCC_STATUS_INVALID_MODEL, "its section header table (5 entries of 64 bytes at offset 545)"},
      {"one section header too many", [](CodeObject &o) { o.put16(0x3c, 6); },
       TCC_STATUS_INVALID_MODEL,
       "its section header table (6 entries of 64 bytes at offset 288) ends past its 608 bytes"},
      {"section header entries too small", [](CodeObject &o) { o.put16(0x3a, 40); },
       TCC_STATUS_INVALID_MODEL,
       "its section header table has entries of 40 bytes, expected at least 64"},
      {"a section past the end",
       [](CodeObject &o) { o.put64(CodeObject::section(2) + 0x20, kHuge); },
       TCC_STATUS_INVALID_MODEL,
       "its section 2 (18446744073709551615 bytes at offset 136) ends past its 608 bytes"},
      {"a section whose end wraps around",
       [](CodeObject &o) { o.put64(CodeObject::section(3) + 0x18, kHuge - 4); },
       TCC_STATUS_INVALID_MODEL, "its section 3 (120 bytes at offset 18446744073709551611)"},
      {"no .dynsym", [](CodeObject &o) { o.put32(CodeObject::section(3) + 0x04, 2); },
       TCC_STATUS_INVALID_MODEL, "it has no dynamic symbol table (a section of type SHT_DYNSYM)"},
      {"symbols of another size", [](CodeObject &o) { o.put64(CodeObject::section(3) + 0x38, 16); },
       TCC_STATUS_INVALID_MODEL, "its dynamic symbols have 16 bytes each, expected 24"},
      {"symbol names in no section",
       [](CodeObject &o) { o.put32(CodeObject::section(3) + 0x28, 99); }, TCC_STATUS_INVALID_MODEL,
       "its dynamic symbol table links to section 99, which is not a string table"},
      {"symbol names in code", [](CodeObject &o) { o.put32(CodeObject::section(3) + 0x28, 1); },
       TCC_STATUS_INVALID_MODEL,
       "its dynamic symbol table links to section 1, which is not a string table"},
  };
  for (const CorruptCase &c : cases) {
    INFO("case: " << c.what);
    CodeObject object;
    c.corrupt(object);
    tcc_hsaco_info info{};
    requireError(ExactBytes(object.bytes).inspect(&info), c.code, {c.message});
  }
}

TEST_CASE("kernel lookups stay inside the string table", "[hip][hsaco][errors]") {
  CodeObject object;
  // Symbol names at the last byte of the table and far past it.
  object.put32(CodeObject::kSymbols + 24 * 1, static_cast<uint32_t>(CodeObject::kNamesSize - 1));
  object.put32(CodeObject::kSymbols + 24 * 3, 0xffffffffu);
  ExactBytes image(object.bytes);
  tcc_hsaco_info info{};
  REQUIRE_OK(image.inspect(&info));
  CHECK_FALSE(tcc_hsaco_has_kernel(&info, "k"));
  CHECK_FALSE(tcc_hsaco_has_kernel(&info, "d"));
  // A table of no symbols.
  CodeObject none;
  none.put64(CodeObject::section(3) + 0x20, 0);
  ExactBytes noneImage(none.bytes);
  REQUIRE_OK(noneImage.inspect(&info));
  CHECK_FALSE(tcc_hsaco_has_kernel(&info, "k"));
}

TEST_CASE("tcc_hsaco_inspect survives code objects corrupted at random", "[hip][hsaco][errors]") {
  std::mt19937 random(20240613);
  const CodeObject valid;
  // Where the structures are, to corrupt them more often than the bytes between them.
  const size_t fields[] = {0x10,
                           0x20,
                           0x28,
                           0x36,
                           0x38,
                           0x3a,
                           0x3c,
                           CodeObject::kProgramHeader + 0x08,
                           CodeObject::kProgramHeader + 0x20,
                           CodeObject::section(2) + 0x18,
                           CodeObject::section(2) + 0x20,
                           CodeObject::section(3) + 0x18,
                           CodeObject::section(3) + 0x20,
                           CodeObject::section(3) + 0x28,
                           CodeObject::kSymbols + 24,
                           CodeObject::kSymbols + 48};
  int accepted = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    CodeObject object = valid;
    int changes = 1 + static_cast<int>(random() % 4);
    for (int c = 0; c < changes; ++c) {
      size_t at = random() % 2
                      ? fields[random() % (sizeof(fields) / sizeof(fields[0]))] + random() % 8
                      : random() % CodeObject::kSize;
      object.bytes[at] = static_cast<unsigned char>(random());
    }
    size_t size = random() % 8 ? CodeObject::kSize : random() % (CodeObject::kSize + 1);
    ExactBytes image(object.bytes, size);
    tcc_hsaco_info info{};
    Status status(image.inspect(&info));
    if (status)
      continue;
    ++accepted;
    // Whatever was accepted, lookups read inside the image (a sanitizer build checks).
    for (const char *kernel : {"k", "undef", "trunc", "other", "", "kk"})
      (void)tcc_hsaco_has_kernel(&info, kernel);
  }
  CHECK(accepted > 0); // some changes leave the code object readable
}

//===------------------------------------------------------------------------------------===//
// On an AMD GPU
//===------------------------------------------------------------------------------------===//

TEST_CASE("hip memory: allocate, copy both ways, fill", "[hip][gpu]") {
  REQUIRE_GPU();
  std::vector<unsigned char> source(1000);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<unsigned char>(i * 7 + 3);
  void *a = nullptr;
  void *b = nullptr;
  REQUIRE_OK(hip()->allocate(hip(), source.size(), 256, &a));
  REQUIRE_OK(hip()->allocate(hip(), source.size(), 64, &b));
  CHECK(reinterpret_cast<uintptr_t>(a) % 256 == 0);
  REQUIRE_OK(hip()->copy(hip(), a, source.data(), source.size(), TCC_COPY_HOST_TO_DEVICE));
  REQUIRE_OK(hip()->copy(hip(), b, a, source.size(), TCC_COPY_DEVICE_TO_DEVICE));
  REQUIRE_OK(hip()->fill(hip(), static_cast<char *>(b) + 10, 0xab, 100));
  std::vector<unsigned char> back(source.size());
  REQUIRE_OK(hip()->copy(hip(), back.data(), b, back.size(), TCC_COPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < back.size(); ++i) {
    INFO("byte " << i);
    CHECK(back[i] == (i >= 10 && i < 110 ? 0xab : source[i]));
  }
  void *empty = nullptr;
  REQUIRE_OK(hip()->allocate(hip(), 0, 64, &empty));
  CHECK(empty != nullptr);
  CHECK(empty != a);
  hip()->free(hip(), empty);
  hip()->free(hip(), a);
  hip()->free(hip(), b);
  tcc_device_queue *queue = nullptr;
  REQUIRE_OK(hip()->create_queue(hip(), 1, &queue));
  REQUIRE_OK(hip()->synchronize(hip(), queue));
  hip()->destroy_queue(hip(), queue);
}

TEST_CASE("load_module picks the code object of the GPU's chip and checks it before HIP does",
          "[hip][gpu][model][errors]") {
  REQUIRE_GPU();
  CodeObject object(0x02c); // gfx900, which no HIP of today runs
  const tcc_device_image none[] = {
      {"gfx900", TCC_IMAGE_HSACO, 0, object.bytes.data(), static_cast<int64_t>(CodeObject::kSize)},
      {"sm_90", TCC_IMAGE_PTX, 0, "", 1}};
  RocmModel model(none, 2, kKernelK, 1);
  tcc_device_module *module = nullptr;
  Status status(hip()->load_module(hip(), &model.descriptor, &module));
  REQUIRE(status != nullptr);
  std::string message = tcc_status_message(status.get());
  INFO("message: " << message);
  CHECK(tcc_status_code_of(status.get()) == TCC_STATUS_INCOMPATIBLE);
  const std::string prefix = "hip device: load_module: no image of the model runs on this GPU "
                             "(device " +
                             std::to_string(hip()->device_id(hip())) + ", ";
  REQUIRE(message.rfind(prefix, 0) == 0);
  CHECK(message.find("): the model has gfx900 HSACO (608 bytes), sm_90 PTX (1 bytes)") !=
        std::string::npos);
  // The GPU's chip, from the message.
  std::string chip = message.substr(prefix.size(), message.find(')') - prefix.size());
  uint32_t machine = machineOf(chip);
  if (machine == 0) {
    WARN("the GPU's chip " << chip << " is not in the runtime's table: nothing more to check");
    return;
  }
  // A code object of another chip than its arch says.
  CodeObject other(machine == 0x03f ? 0x04c : 0x03f);
  const tcc_device_image mislabelled[] = {{chip.c_str(), TCC_IMAGE_HSACO, 0, other.bytes.data(),
                                           static_cast<int64_t>(CodeObject::kSize)}};
  RocmModel wrongChip(mislabelled, 1, kKernelK, 1);
  requireError(
      hip()->load_module(hip(), &wrongChip.descriptor, &module), TCC_STATUS_INCOMPATIBLE,
      {"hip device: load_module: the " + chip +
       " HSACO image (608 bytes) is a code "
       "object for " +
       (machine == 0x03f ? "gfx942 (e_flags machine 0x04c)" : "gfx90a (e_flags machine 0x03f)") +
       ", not for " + chip});
  // A kernel without its descriptor.
  CodeObject mine(machine);
  const tcc_device_image images[] = {{chip.c_str(), TCC_IMAGE_HSACO, 0, mine.bytes.data(),
                                      static_cast<int64_t>(CodeObject::kSize)}};
  const char *const names[] = {"k", "missing"};
  RocmModel missing(images, 1, names, 2);
  requireError(hip()->load_module(hip(), &missing.descriptor, &module), TCC_STATUS_INVALID_MODEL,
               {"hip device: load_module: the " + chip +
                " HSACO image has no kernel 1 'missing' "
                "(no kernel descriptor symbol 'missing.kd' in its .dynsym)"});
  // Broken bytes.
  CodeObject broken(machine);
  broken.put16(0x3c, 6);
  const tcc_device_image brokenImages[] = {{chip.c_str(), TCC_IMAGE_HSACO, 0, broken.bytes.data(),
                                            static_cast<int64_t>(CodeObject::kSize)}};
  RocmModel withBroken(brokenImages, 1, kKernelK, 1);
  requireError(hip()->load_module(hip(), &withBroken.descriptor, &module), TCC_STATUS_INVALID_MODEL,
               {"hip device: load_module: the " + chip +
                " HSACO image (608 bytes) is not a code "
                "object HIP can load: its section header table"});
  CHECK(module == nullptr);
}
