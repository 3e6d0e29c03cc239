// Times Md5Many (core/md5_lanes.h) with each engine this machine has on batches of messages of
// the sizes final states have (default 256 messages of 4,000 to 8,000 bytes), one thread. Prints
// MB/s; asserts nothing.
// Usage: bench_md5 [MESSAGES] [MIN_BYTES] [MAX_BYTES] [ROUNDS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/md5_lanes.h"

int main(int argc, char** argv) {
  const size_t count = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 256;
  const size_t min_bytes = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 4000;
  const size_t max_bytes = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 8000;
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 200;
  if (max_bytes < min_bytes) return 2;
  std::mt19937 random(1);
  std::vector<std::string> messages(count);
  size_t bytes = 0;
  for (std::string& m : messages) {
    m.resize(min_bytes + random() % (max_bytes - min_bytes + 1));
    for (char& c : m) c = static_cast<char>('/' + random() % 64);
    bytes += m.size();
  }
  std::vector<std::string_view> views(messages.begin(), messages.end());
  std::vector<std::array<uint8_t, 16>> digests(count);
  std::vector<fived::Md5Engine> engines = {fived::Md5Engine::kScalar};
  if (fived::Md5ManyEngine() == fived::Md5Engine::kLanes)
    engines.push_back(fived::Md5Engine::kLanes);
  for (fived::Md5Engine engine : engines) {
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r) fived::Md5ManyWith(engine, views, digests);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-8s %zu messages, %zu bytes, %d rounds: %.1f MB/s\n",
                engine == fived::Md5Engine::kLanes ? "lanes" : "scalar", count, bytes, rounds,
                bytes * static_cast<double>(rounds) / s / 1e6);
  }
  return 0;
}
