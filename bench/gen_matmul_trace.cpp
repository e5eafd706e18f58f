// Writes the din trace of a naive ijk fp32 matmul C[i][j] += A[i][k] * B[k][j]
// (N x N x N): per (i, j), for each k a read of A[i][k] and of B[k][j], then
// one write of C[i][j]. Used by the replay benchmark and the quick start.
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen_matmul_trace N > trace.din\n");
    return 2;
  }
  const long n = std::atol(argv[1]);
  if (n <= 0 || n > 4096) {
    std::fprintf(stderr, "gen_matmul_trace: N must be in 1..4096\n");
    return 2;
  }
  const unsigned long a = 0x10000000, b = a + n * n * 4 + 4096, c = b + n * n * 4 + 4096;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      for (long k = 0; k < n; ++k) {
        std::printf("r %lx 4\n", a + (i * n + k) * 4);
        std::printf("r %lx 4\n", b + (k * n + j) * 4);
      }
      std::printf("w %lx 4\n", c + (i * n + j) * 4);
    }
  return 0;
}
