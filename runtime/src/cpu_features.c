//===- cpu_features.c - which CPU features this host has, in LLVM's spelling -------------===//
//
// A model records the features its code was compiled for ("+avx2,+fma"); loading it on a CPU
// without them would end in SIGILL at some later kernel, so the loader refuses it up front.
// x86-64 asks cpuid, and xgetbv for whether the OS saves the AVX / AVX-512 registers (a CPU
// flag alone is not enough); AArch64 Linux asks the kernel through getauxval, and prctl for
// SVE's vector length; arm64 macOS asks sysctl (hw.optional.arm.FEAT_*; not run on a Mac
// yet).
//
//===------------------------------------------------------------------------------------===//
#include "cpu_features_internal.h"
#include "status_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define TCC_HOST_X86 1
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#define TCC_HOST_AARCH64 1
#elif defined(__aarch64__) && defined(__APPLE__)
#include <sys/sysctl.h>
#define TCC_HOST_ARM64_MACOS 1
#endif

typedef struct cpu_feature {
  const char *name;
  int present;
} cpu_feature;

#if defined(TCC_HOST_X86)

enum { REG_EAX, REG_EBX, REG_ECX, REG_EDX };
// Which register state the OS must save for the feature to be usable.
enum { STATE_NONE, STATE_AVX, STATE_AVX512 };

typedef struct x86_feature_bit {
  const char *name;
  unsigned leaf, subleaf, reg, bit, state;
} x86_feature_bit;

static const x86_feature_bit x86_feature_bits[] = {
    {"cx8", 1, 0, REG_EDX, 8, STATE_NONE},
    {"cmov", 1, 0, REG_EDX, 15, STATE_NONE},
    {"mmx", 1, 0, REG_EDX, 23, STATE_NONE},
    {"fxsr", 1, 0, REG_EDX, 24, STATE_NONE},
    {"sse", 1, 0, REG_EDX, 25, STATE_NONE},
    {"sse2", 1, 0, REG_EDX, 26, STATE_NONE},
    {"sse3", 1, 0, REG_ECX, 0, STATE_NONE},
    {"pclmul", 1, 0, REG_ECX, 1, STATE_NONE},
    {"ssse3", 1, 0, REG_ECX, 9, STATE_NONE},
    {"fma", 1, 0, REG_ECX, 12, STATE_AVX},
    {"cx16", 1, 0, REG_ECX, 13, STATE_NONE},
    {"sse4.1", 1, 0, REG_ECX, 19, STATE_NONE},
    {"sse4.2", 1, 0, REG_ECX, 20, STATE_NONE},
    {"crc32", 1, 0, REG_ECX, 20, STATE_NONE},
    {"movbe", 1, 0, REG_ECX, 22, STATE_NONE},
    {"popcnt", 1, 0, REG_ECX, 23, STATE_NONE},
    {"aes", 1, 0, REG_ECX, 25, STATE_NONE},
    {"xsave", 1, 0, REG_ECX, 26, STATE_NONE},
    {"avx", 1, 0, REG_ECX, 28, STATE_AVX},
    {"f16c", 1, 0, REG_ECX, 29, STATE_AVX},
    {"rdrnd", 1, 0, REG_ECX, 30, STATE_NONE},
    {"fsgsbase", 7, 0, REG_EBX, 0, STATE_NONE},
    {"bmi", 7, 0, REG_EBX, 3, STATE_NONE},
    {"avx2", 7, 0, REG_EBX, 5, STATE_AVX},
    {"bmi2", 7, 0, REG_EBX, 8, STATE_NONE},
    {"avx512f", 7, 0, REG_EBX, 16, STATE_AVX512},
    {"evex512", 7, 0, REG_EBX, 16, STATE_AVX512},
    {"avx512dq", 7, 0, REG_EBX, 17, STATE_AVX512},
    {"rdseed", 7, 0, REG_EBX, 18, STATE_NONE},
    {"adx", 7, 0, REG_EBX, 19, STATE_NONE},
    {"avx512ifma", 7, 0, REG_EBX, 21, STATE_AVX512},
    {"clflushopt", 7, 0, REG_EBX, 23, STATE_NONE},
    {"clwb", 7, 0, REG_EBX, 24, STATE_NONE},
    {"avx512cd", 7, 0, REG_EBX, 28, STATE_AVX512},
    {"sha", 7, 0, REG_EBX, 29, STATE_NONE},
    {"avx512bw", 7, 0, REG_EBX, 30, STATE_AVX512},
    {"avx512vl", 7, 0, REG_EBX, 31, STATE_AVX512},
    {"avx512vbmi", 7, 0, REG_ECX, 1, STATE_AVX512},
    {"avx512vbmi2", 7, 0, REG_ECX, 6, STATE_AVX512},
    {"gfni", 7, 0, REG_ECX, 8, STATE_NONE},
    {"vaes", 7, 0, REG_ECX, 9, STATE_AVX},
    {"vpclmulqdq", 7, 0, REG_ECX, 10, STATE_AVX},
    {"avx512vnni", 7, 0, REG_ECX, 11, STATE_AVX512},
    {"avx512bitalg", 7, 0, REG_ECX, 12, STATE_AVX512},
    {"avx512vpopcntdq", 7, 0, REG_ECX, 14, STATE_AVX512},
    {"rdpid", 7, 0, REG_ECX, 22, STATE_NONE},
    {"avx512fp16", 7, 0, REG_EDX, 23, STATE_AVX512},
    {"avxvnni", 7, 1, REG_EAX, 4, STATE_AVX},
    {"avx512bf16", 7, 1, REG_EAX, 5, STATE_AVX512},
    {"xsaveopt", 0xd, 1, REG_EAX, 0, STATE_NONE},
    {"xsavec", 0xd, 1, REG_EAX, 1, STATE_NONE},
    {"sahf", 0x80000001u, 0, REG_ECX, 0, STATE_NONE},
    {"lzcnt", 0x80000001u, 0, REG_ECX, 5, STATE_NONE},
    {"sse4a", 0x80000001u, 0, REG_ECX, 6, STATE_NONE},
    {"prfchw", 0x80000001u, 0, REG_ECX, 8, STATE_NONE},
    {"fma4", 0x80000001u, 0, REG_ECX, 16, STATE_AVX},
    {"64bit", 0x80000001u, 0, REG_EDX, 29, STATE_NONE},
};

#define NUM_HOST_FEATURES (sizeof(x86_feature_bits) / sizeof(x86_feature_bits[0]))

static uint64_t read_xcr0(void) {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((uint64_t)edx << 32) | eax;
}

static void detect_host_features(cpu_feature *features) {
  unsigned max_leaf = __get_cpuid_max(0, NULL);
  unsigned max_extended_leaf = __get_cpuid_max(0x80000000u, NULL);
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  int avx_state = 0, avx512_state = 0;
  if (max_leaf >= 1 && __get_cpuid_count(1, 0, &eax, &ebx, &ecx, &edx) &&
      (ecx & (1u << 27)) /* OSXSAVE */) {
    uint64_t xcr0 = read_xcr0();
    avx_state = (xcr0 & 0x6) == 0x6;              // XMM and YMM state
    avx512_state = avx_state && (xcr0 & 0xe0) == 0xe0; // opmask, ZMM0-15 high, ZMM16-31
  }
  for (size_t i = 0; i < NUM_HOST_FEATURES; ++i) {
    const x86_feature_bit *bit = &x86_feature_bits[i];
    features[i].name = bit->name;
    features[i].present = 0;
    unsigned limit = bit->leaf >= 0x80000000u ? max_extended_leaf : max_leaf;
    if (bit->leaf > limit || !__get_cpuid_count(bit->leaf, bit->subleaf, &eax, &ebx, &ecx, &edx))
      continue;
    unsigned regs[4] = {eax, ebx, ecx, edx};
    int present = (regs[bit->reg] >> bit->bit) & 1u;
    if (bit->state == STATE_AVX)
      present = present && avx_state;
    else if (bit->state == STATE_AVX512)
      present = present && avx512_state;
    features[i].present = present;
  }
}

const char *tcc_cpu_host_arch(void) { return "x86-64"; }

#elif defined(TCC_HOST_AARCH64)

typedef struct aarch64_feature_bit {
  const char *name;
  int hwcap2; // 0: AT_HWCAP, 1: AT_HWCAP2
  unsigned bit;
} aarch64_feature_bit;

// Bit numbers of the Linux kernel's uapi asm/hwcap.h (stable ABI).
static const aarch64_feature_bit aarch64_feature_bits[] = {
    {"fp-armv8", 0, 0},  {"neon", 0, 1},      {"aes", 0, 3},        {"sha2", 0, 6},
    {"crc", 0, 7},       {"lse", 0, 8},       {"fullfp16", 0, 10},  {"fp16", 0, 10},
    {"rdm", 0, 12},      {"jsconv", 0, 13},   {"complxnum", 0, 14}, {"rcpc", 0, 15},
    {"sha3", 0, 17},     {"dotprod", 0, 20},  {"sve", 0, 22},       {"fp16fml", 0, 23},
    {"sve2", 1, 1},      {"i8mm", 1, 13},     {"bf16", 1, 14},
};

// SVE vector lengths that code may be compiled for exactly (fixed-length SVE: tcc
// --cpu=neoverse-v1 requires "sve256"): present when the thread's length is that many bits.
typedef struct sve_length {
  const char *name;
  unsigned bits;
} sve_length;
static const sve_length sve_lengths[] = {{"sve256", 256}, {"sve512", 512}};

#define NUM_SVE_LENGTHS (sizeof(sve_lengths) / sizeof(sve_lengths[0]))
#define NUM_BIT_FEATURES (sizeof(aarch64_feature_bits) / sizeof(aarch64_feature_bits[0]))
#define NUM_HOST_FEATURES (NUM_BIT_FEATURES + NUM_SVE_LENGTHS)

static void detect_host_features(cpu_feature *features) {
  unsigned long hwcap = getauxval(AT_HWCAP);
  unsigned long hwcap2 = getauxval(AT_HWCAP2);
  for (size_t i = 0; i < NUM_BIT_FEATURES; ++i) {
    const aarch64_feature_bit *bit = &aarch64_feature_bits[i];
    features[i].name = bit->name;
    features[i].present = (int)(((bit->hwcap2 ? hwcap2 : hwcap) >> bit->bit) & 1ul);
  }
  // The kernel reports the vector length in bytes (PR_SVE_VL_LEN_MASK); -1 without SVE.
  int vl = (hwcap >> 22) & 1ul ? prctl(PR_SVE_GET_VL) : -1;
  for (size_t k = 0; k < NUM_SVE_LENGTHS; ++k) {
    features[NUM_BIT_FEATURES + k].name = sve_lengths[k].name;
    features[NUM_BIT_FEATURES + k].present =
        vl >= 0 && (unsigned)(vl & PR_SVE_VL_LEN_MASK) * 8 == sve_lengths[k].bits;
  }
}

const char *tcc_cpu_host_arch(void) { return "aarch64"; }

#elif defined(TCC_HOST_ARM64_MACOS)

typedef struct macos_feature {
  const char *name;
  const char *sysctl; // NULL: architectural on every Apple arm64 CPU
} macos_feature;

// The names of Apple's "Determining instruction set characteristics" (an integer, 1 when
// the CPU has the feature); Apple's CPUs have no SVE.
static const macos_feature macos_features[] = {
    {"fp-armv8", NULL},
    {"neon", NULL},
    {"fullfp16", "hw.optional.arm.FEAT_FP16"},
    {"fp16", "hw.optional.arm.FEAT_FP16"},
    {"dotprod", "hw.optional.arm.FEAT_DotProd"},
    {"fp16fml", "hw.optional.arm.FEAT_FHM"},
    {"bf16", "hw.optional.arm.FEAT_BF16"},
    {"i8mm", "hw.optional.arm.FEAT_I8MM"},
    {"lse", "hw.optional.arm.FEAT_LSE"},
    {"rdm", "hw.optional.arm.FEAT_RDM"},
    {"crc", "hw.optional.armv8_crc32"},
    {"aes", "hw.optional.arm.FEAT_AES"},
    {"sha2", "hw.optional.arm.FEAT_SHA256"},
    {"sha3", "hw.optional.arm.FEAT_SHA3"},
    {"jsconv", "hw.optional.arm.FEAT_JSCVT"},
    {"complxnum", "hw.optional.arm.FEAT_FCMA"},
    {"rcpc", "hw.optional.arm.FEAT_LRCPC"},
};
#define NUM_HOST_FEATURES (sizeof(macos_features) / sizeof(macos_features[0]))

static void detect_host_features(cpu_feature *features) {
  for (size_t i = 0; i < NUM_HOST_FEATURES; ++i) {
    features[i].name = macos_features[i].name;
    int value = 0;
    size_t size = sizeof(value);
    features[i].present =
        !macos_features[i].sysctl ||
        (sysctlbyname(macos_features[i].sysctl, &value, &size, NULL, 0) == 0 && value == 1);
  }
}

const char *tcc_cpu_host_arch(void) { return "arm64"; }

#else

// Other hosts: no feature is known, so only models that require none load.
#define NUM_HOST_FEATURES 1
static void detect_host_features(cpu_feature *features) {
  features[0].name = "";
  features[0].present = 0;
}
const char *tcc_cpu_host_arch(void) { return "this architecture"; }

#endif

static cpu_feature host_features[NUM_HOST_FEATURES];
static pthread_once_t host_features_once = PTHREAD_ONCE_INIT;

static void detect_host_features_once(void) { detect_host_features(host_features); }

/// Returns the host entry for a feature name of `length` bytes, or NULL if unknown.
static const cpu_feature *find_feature(const char *name, size_t length) {
  pthread_once(&host_features_once, detect_host_features_once);
  if (length == 0)
    return NULL;
  for (size_t i = 0; i < NUM_HOST_FEATURES; ++i)
    if (strlen(host_features[i].name) == length &&
        memcmp(host_features[i].name, name, length) == 0)
      return &host_features[i];
  return NULL;
}

tcc_status tcc_cpu_has_feature(const char *name, int *out_present) {
  if (!name || !out_present)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "tcc_cpu_has_feature: %s is null", name ? "out_present" : "name");
  const cpu_feature *feature = find_feature(name, strlen(name));
  if (!feature)
    return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                           "tcc_cpu_has_feature: unknown %s CPU feature '%s'",
                           tcc_cpu_host_arch(), name);
  *out_present = feature->present;
  return NULL;
}

/// Appends `name` (of `length` bytes) to a ", "-separated list of at most `capacity` bytes.
static void append_name(char *list, const char *name, size_t length) {
  size_t used = strlen(list);
  if (used) {
    memcpy(list + used, ", ", 2);
    used += 2;
  }
  memcpy(list + used, name, length);
  list[used + length] = '\0';
}

int tcc_cpu_check_feature_list(const char *features, tcc_cpu_feature_check *out_check) {
  out_check->unknown = NULL;
  out_check->missing = NULL;
  if (!features || !*features)
    return 0;
  // Each list holds names from `features` plus separators: twice its length is enough.
  size_t capacity = 2 * strlen(features) + 1;
  char *unknown = calloc(capacity, 1);
  char *missing = calloc(capacity, 1);
  if (!unknown || !missing) {
    free(unknown);
    free(missing);
    return -1;
  }
  const char *cursor = features;
  while (*cursor) {
    const char *end = strchr(cursor, ',');
    if (!end)
      end = cursor + strlen(cursor);
    const char *name = cursor;
    while (name < end && (*name == ' ' || *name == '\t'))
      ++name;
    const char *name_end = end;
    while (name_end > name && (name_end[-1] == ' ' || name_end[-1] == '\t'))
      --name_end;
    int required = 1;
    if (name < name_end && (*name == '+' || *name == '-')) {
      required = *name == '+';
      ++name;
    }
    size_t length = (size_t)(name_end - name);
    // "-feature" only forbids the compiler to use something: nothing to check.
    if (required && length > 0) {
      const cpu_feature *feature = find_feature(name, length);
      if (!feature)
        append_name(unknown, name, length);
      else if (!feature->present)
        append_name(missing, name, length);
    }
    cursor = *end ? end + 1 : end;
  }
  if (*unknown)
    out_check->unknown = unknown;
  else
    free(unknown);
  if (*missing)
    out_check->missing = missing;
  else
    free(missing);
  return 0;
}

void tcc_cpu_feature_check_free(tcc_cpu_feature_check *check) {
  free(check->unknown);
  free(check->missing);
  check->unknown = NULL;
  check->missing = NULL;
}

tcc_status tcc_cpu_check_features(const char *features) {
  tcc_cpu_feature_check check;
  if (tcc_cpu_check_feature_list(features, &check) != 0)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "tcc_cpu_check_features: out of memory");
  tcc_status status = NULL;
  if (check.unknown)
    status = tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                             "tcc_cpu_check_features: unknown %s CPU features: %s",
                             tcc_cpu_host_arch(), check.unknown);
  else if (check.missing)
    status = tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                             "tcc_cpu_check_features: this CPU lacks %s", check.missing);
  tcc_cpu_feature_check_free(&check);
  return status;
}
