// A short, deterministic fuzzing run of one harness of tests/fuzz/ without libFuzzer, so that
// `make test` (g++, asserts on) exercises every harness: linked with a harness's
// LLVMFuzzerTestOneInput, it runs each seed input as it is, then a fixed number of pseudo-random
// mutations of the seeds (bits flipped, bytes set, inserted, deleted or copied, numbers replaced,
// two seeds spliced), the same ones at every run. A crash, a failed assert or a harness's
// __builtin_trap, or an input running longer than --timeout seconds, writes that input to
// --findings DIR (crash-NAME-RUN, timeout-NAME-RUN), says how to run it again and ends the run
// by the signal, so the test fails. Coverage-guided fuzzing is `make fuzz` (docs/FUZZING.md).
//
// Usage: fuzz_short_NAME [--runs N] [--max-len BYTES] [--seed N] [--timeout SECONDS]
//                        [--findings DIR] PATH...
// PATH is a seed file or a folder of them (its files in name order). Without --runs only the
// given inputs run: `fuzz_short_pgn build-check/fuzz-short-findings/crash-pgn-123` replays one.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// Under UBSan (make debug) a report ends the process by abort(), which the handler below sees,
// rather than by exit(1), which it would not. Unused in other builds.
extern "C" const char* __ubsan_default_options() { return "abort_on_error=1:print_stacktrace=1"; }

namespace {

// What the signal handler writes out: the input being run and where it goes. Set before each
// execution; the handler only reads them.
const uint8_t* g_input = nullptr;
size_t g_input_size = 0;
char g_crash_path[4096];
char g_timeout_path[4096];
// Executions started so far, which the watchdog reads, and whether it ended the run.
std::atomic<uint64_t> g_executions{0};
std::atomic<bool> g_timed_out{false};

void WriteAll(int fd, const void* data, size_t size) {
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = write(fd, bytes, size);
    if (written <= 0) return;
    bytes += written;
    size -= static_cast<size_t>(written);
  }
}

void Say(const char* text) { WriteAll(STDERR_FILENO, text, strlen(text)); }

// Async-signal-safe: open, write, close and raise only.
void OnFatalSignal(int signal_number) {
  const bool timed_out = g_timed_out.load();
  const char* path = timed_out ? g_timeout_path : g_crash_path;
  Say(timed_out ? "\nfuzz_short: an input ran past the time limit\n"
                : "\nfuzz_short: the harness crashed (signal ");
  if (!timed_out) {
    char number[4] = {static_cast<char>('0' + signal_number / 10 % 10),
                      static_cast<char>('0' + signal_number % 10), ')', '\0'};
    Say(signal_number < 10 ? number + 1 : number);
    Say("\n");
  }
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    WriteAll(fd, g_input, g_input_size);
    close(fd);
    Say("fuzz_short: the input is in ");
    Say(path);
    Say("\nfuzz_short: run it again with: ");
    Say(program_invocation_name);
    Say(" ");
    Say(path);
    Say("\n");
  } else {
    Say("fuzz_short: could not write the input to ");
    Say(path);
    Say("\n");
  }
  // Raised again with the default action, so that the exit status (and ctest) says which signal
  // it was; a timeout is SIGABRT.
  signal(signal_number, SIG_DFL);
  raise(signal_number);
  _exit(128 + signal_number);
}

// Ends the run when one execution has lasted `timeout` seconds: checks once a second whether the
// executions moved on (an alarm per execution would cost a system call each).
void StartWatchdog(unsigned timeout) {
  std::thread([timeout] {
    uint64_t last = g_executions.load();
    unsigned still = 0;
    for (;;) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      const uint64_t now = g_executions.load();
      still = now == last ? still + 1 : 0;
      last = now;
      if (still >= timeout) {
        g_timed_out = true;
        raise(SIGABRT);
      }
    }
  }).detach();
}

// A sanitizer's report (make debug builds with ASan and UBSan) ends the process by exit(1), not
// by a signal: its death callback writes the input.
[[maybe_unused]] void OnSanitizerReport() {
  const int fd = open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  WriteAll(fd, g_input, g_input_size);
  close(fd);
  Say("fuzz_short: the input is in ");
  Say(g_crash_path);
  Say("\n");
}

void InstallHandlers() {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_set_death_callback(OnSanitizerReport);
#endif
  // An alternate stack, so that a stack overflow (runaway recursion) is reported too.
  static std::vector<char> alternate(1 << 16);
  stack_t stack{};
  stack.ss_sp = alternate.data();
  stack.ss_size = alternate.size();
  sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_handler = OnFatalSignal;
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer reports bad accesses itself (and then calls the death callback).
  for (int signal_number : {SIGILL, SIGABRT}) {
#else
  for (int signal_number : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) {
#endif
    sigaction(signal_number, &action, nullptr);
  }
}

// splitmix64: a fixed sequence from a fixed seed, the same on every machine.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform enough in [0, bound) for bound > 0.
  size_t Below(size_t bound) { return static_cast<size_t>(Next() % bound); }

 private:
  uint64_t state_;
};

using Bytes = std::vector<uint8_t>;

// Bytes that mean something to the readers: separators of the notations, line ends, the bounds
// of a byte.
constexpr uint8_t kInterestingBytes[] = {0,   0xff, 0x7f, 0x80, '\n', '\r', ' ', '[', ']', ':',
                                         '/', '*',  '+',  '-',  '(',  ')',  '.', '"', '0', '9'};
// Numbers that stand at or beyond the limits the code sets (timelines, turns, sizes, counts).
constexpr std::string_view kInterestingNumbers[] = {
    "0",          "1",          "-1",
    "7",          "8",          "9",
    "10",         "16",         "31",
    "32",         "99",         "255",
    "256",        "9999",       "10000",
    "10001",      "14999",      "15000",
    "32767",      "32768",      "65535",
    "65536",      "99999",      "2147483647",
    "2147483648", "4294967296", "18446744073709551616"};

// Replaces a run of decimal digits (the one at or after a random place) by an interesting number.
void ReplaceNumber(Bytes* data, Random* random) {
  if (data->empty()) return;
  size_t start = random->Below(data->size());
  while (start < data->size() && !isdigit((*data)[start])) ++start;
  if (start == data->size()) return;
  size_t end = start;
  while (end < data->size() && isdigit((*data)[end])) ++end;
  const std::string_view number =
      kInterestingNumbers[random->Below(std::size(kInterestingNumbers))];
  data->erase(data->begin() + static_cast<ptrdiff_t>(start),
              data->begin() + static_cast<ptrdiff_t>(end));
  data->insert(data->begin() + static_cast<ptrdiff_t>(start), number.begin(), number.end());
}

// One mutation of *data; `other` is another seed to splice from.
void Mutate(Bytes* data, const Bytes& other, Random* random) {
  const size_t size = data->size();
  switch (random->Below(8)) {
    case 0:  // flip a bit
      if (size > 0) (*data)[random->Below(size)] ^= static_cast<uint8_t>(1u << random->Below(8));
      break;
    case 1:  // set a byte to an interesting or a random value
      if (size > 0) {
        (*data)[random->Below(size)] =
            random->Below(2) == 0 ? kInterestingBytes[random->Below(std::size(kInterestingBytes))]
                                  : static_cast<uint8_t>(random->Next());
      }
      break;
    case 2: {  // insert 1 to 8 bytes
      const size_t at = random->Below(size + 1);
      const size_t count = 1 + random->Below(8);
      for (size_t i = 0; i < count; ++i) {
        const uint8_t byte = random->Below(2) == 0
                                 ? kInterestingBytes[random->Below(std::size(kInterestingBytes))]
                                 : static_cast<uint8_t>(random->Next());
        data->insert(data->begin() + static_cast<ptrdiff_t>(at), byte);
      }
      break;
    }
    case 3: {  // delete a range of up to 64 bytes
      if (size == 0) break;
      const size_t at = random->Below(size);
      const size_t count = 1 + random->Below(std::min<size_t>(64, size - at));
      data->erase(data->begin() + static_cast<ptrdiff_t>(at),
                  data->begin() + static_cast<ptrdiff_t>(at + count));
      break;
    }
    case 4: {  // copy a range of up to 64 bytes to another place
      if (size == 0) break;
      const size_t from = random->Below(size);
      const size_t count = 1 + random->Below(std::min<size_t>(64, size - from));
      const Bytes range(data->begin() + static_cast<ptrdiff_t>(from),
                        data->begin() + static_cast<ptrdiff_t>(from + count));
      const size_t to = random->Below(size + 1);
      data->insert(data->begin() + static_cast<ptrdiff_t>(to), range.begin(), range.end());
      break;
    }
    case 5:  // a number replaced by one at or beyond a limit
      ReplaceNumber(data, random);
      break;
    case 6: {  // splice: this one's head, the other's tail
      const size_t head = random->Below(size + 1);
      const size_t tail_from = random->Below(other.size() + 1);
      data->resize(head);
      data->insert(data->end(), other.begin() + static_cast<ptrdiff_t>(tail_from), other.end());
      break;
    }
    default: {  // insert a range of up to 256 bytes of the other seed
      if (other.empty()) break;
      const size_t from = random->Below(other.size());
      const size_t count = 1 + random->Below(std::min<size_t>(256, other.size() - from));
      data->insert(data->begin() + static_cast<ptrdiff_t>(random->Below(size + 1)),
                   other.begin() + static_cast<ptrdiff_t>(from),
                   other.begin() + static_cast<ptrdiff_t>(from + count));
      break;
    }
  }
}

struct Options {
  uint64_t runs = 0;
  size_t max_len = 4096;
  uint64_t seed = 1;
  unsigned timeout = 60;
  std::string findings = "fuzz-short-findings";
  std::vector<std::string> paths;
};

bool ParseOptions(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--runs" && has_value) {
      options->runs = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--max-len" && has_value) {
      options->max_len = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--seed" && has_value) {
      options->seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--timeout" && has_value) {
      options->timeout = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    } else if (arg == "--findings" && has_value) {
      options->findings = argv[++i];
    } else if (!arg.empty() && arg[0] == '-') {
      return false;
    } else {
      options->paths.emplace_back(arg);
    }
  }
  return !options->paths.empty() && options->max_len > 0;
}

bool ReadFile(const std::filesystem::path& path, size_t max_len, std::vector<Bytes>* inputs) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  Bytes data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() > max_len) data.resize(max_len);
  inputs->push_back(std::move(data));
  return true;
}

bool ReadInputs(const Options& options, std::vector<Bytes>* inputs) {
  for (const std::string& arg : options.paths) {
    const std::filesystem::path path(arg);
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& file : files) {
        if (!ReadFile(file, options.max_len, inputs)) return false;
      }
    } else if (!ReadFile(path, options.max_len, inputs)) {
      std::fprintf(stderr, "fuzz_short: cannot read %s\n", arg.c_str());
      return false;
    }
  }
  return true;
}

void SetFindingPaths(const Options& options, const std::string& name, uint64_t run) {
  const std::string suffix = name + "-" + std::to_string(run);
  std::snprintf(g_crash_path, sizeof g_crash_path, "%s/crash-%s", options.findings.c_str(),
                suffix.c_str());
  std::snprintf(g_timeout_path, sizeof g_timeout_path, "%s/timeout-%s", options.findings.c_str(),
                suffix.c_str());
}

void RunOne(const Bytes& input) {
  g_input = input.data();
  g_input_size = input.size();
  g_executions.fetch_add(1, std::memory_order_relaxed);
  LLVMFuzzerTestOneInput(input.data(), input.size());
}

// The harness's name from the program's: fuzz_short_pgn -> pgn.
std::string HarnessName(const char* program) {
  std::string name = std::filesystem::path(program).filename().string();
  const std::string_view prefix = "fuzz_short_";
  if (name.compare(0, prefix.size(), prefix) == 0) name.erase(0, prefix.size());
  return name;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, &options)) {
    std::fprintf(stderr,
                 "usage: %s [--runs N] [--max-len BYTES] [--seed N] [--timeout SECONDS] "
                 "[--findings DIR] PATH...\n",
                 argv[0]);
    return 2;
  }
  const std::string name = HarnessName(argv[0]);
  std::vector<Bytes> seeds;
  if (!ReadInputs(options, &seeds)) return 2;
  if (seeds.empty()) {
    std::fprintf(stderr, "fuzz_short: no input in the paths given\n");
    return 2;
  }
  std::error_code error;
  std::filesystem::create_directories(options.findings, error);
  InstallHandlers();
  StartWatchdog(options.timeout);
  const auto start = std::chrono::steady_clock::now();

  uint64_t run = 0;
  for (const Bytes& seed : seeds) {
    SetFindingPaths(options, name, run++);
    RunOne(seed);
  }
  Random random(options.seed);
  Bytes input;
  for (uint64_t i = 0; i < options.runs; ++i) {
    input = seeds[random.Below(seeds.size())];
    const Bytes& other = seeds[random.Below(seeds.size())];
    for (size_t count = 1 + random.Below(4); count > 0; --count) Mutate(&input, other, &random);
    if (input.size() > options.max_len) input.resize(options.max_len);
    SetFindingPaths(options, name, run++);
    RunOne(input);
  }

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("fuzz_short_%s: %zu seeds and %llu mutations of them run in %.1f s, no crash\n",
              name.c_str(), seeds.size(), static_cast<unsigned long long>(options.runs), seconds);
  return 0;
}
