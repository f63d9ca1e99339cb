// The FMA ceiling of one core: 12 independent chains of vector FMAs (enough to cover the
// latency of two FMA pipes), 512-bit where the compiler targets AVX-512, else 256-bit.
// scripts/gemm_bench.py compiles it with -O2 -march=native and runs one copy per thread.
//
//   fma_peak [ITERATIONS]   prints GFLOP/s (an FMA counts as 2 FLOPs)
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef __AVX512F__
typedef __m512 vec;
#define LANES 16
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
#define SUM _mm512_reduce_add_ps
#else
typedef __m256 vec;
#define LANES 8
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
static float SUM(__m256 v) {
  float lanes[8];
  _mm256_storeu_ps(lanes, v);
  float sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += lanes[i];
  return sum;
}
#endif

enum { CHAINS = 12 };

int main(int argc, char **argv) {
  long iterations = argc > 1 ? atol(argv[1]) : 200000000;
  vec acc[CHAINS];
  vec x = SET1(1.0000001f), y = SET1(0.9999999f);
  for (int i = 0; i < CHAINS; ++i)
    acc[i] = SET1((float)i);
  struct timespec begin, end;
  clock_gettime(CLOCK_MONOTONIC, &begin);
  for (long n = 0; n < iterations; ++n)
    for (int i = 0; i < CHAINS; ++i)
      acc[i] = FMA(acc[i], x, y);
  clock_gettime(CLOCK_MONOTONIC, &end);
  double seconds = (end.tv_sec - begin.tv_sec) + (end.tv_nsec - begin.tv_nsec) * 1e-9;
  float sum = 0;
  for (int i = 0; i < CHAINS; ++i)
    sum += SUM(acc[i]);
  // The sum keeps the chains alive; it is printed so that nothing is optimized away.
  printf("%.1f GFLOP/s (%d lanes, checksum %g)\n",
         iterations * (double)CHAINS * LANES * 2 / seconds * 1e-9, LANES, sum);
  return 0;
}
