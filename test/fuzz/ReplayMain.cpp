//===- ReplayMain.cpp - runs a fuzz target over files, without libFuzzer ------------------===//
//
// The regression half of the fuzzers: every input that once crashed a target is kept in
// test/fuzz/corpus/<target>/ and replayed by ctest through the same LLVMFuzzerTestOneInput,
// linked with this driver instead of libFuzzer (any build, no sanitizer needed). A crash is
// the test's failure.
//
//   tcc-fuzz-replay-<target> FILE_OR_FOLDER...
//
//===------------------------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {
bool replay(const std::filesystem::path &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return false;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
  return true;
}
} // namespace

int main(int argc, char **argv) {
  size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path path(argv[i]);
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(path)) {
      for (const auto &entry : std::filesystem::directory_iterator(path))
        if (entry.is_regular_file())
          files.push_back(entry.path());
    } else {
      files.push_back(path);
    }
    for (const auto &file : files) {
      if (!replay(file))
        return 1;
      ++count;
    }
  }
  std::printf("replayed %zu inputs\n", count);
  return count ? 0 : 1;
}
