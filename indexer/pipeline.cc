// The indexer's reader / workers / ordered consumer pipeline; see pipeline.h.
#include "indexer/pipeline.h"

#include <sys/stat.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "indexer/input.h"

namespace fived {

namespace fs = std::filesystem;

namespace {

// The extension of the last component of a path, lowercase ("" when it has none).
std::string LowerExtension(std::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || name.find('/', dot) != std::string_view::npos) return "";
  std::string extension(name.substr(dot));
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

bool IsCompressionExtension(std::string_view extension) {
  return extension == ".gz" || extension == ".xz" || extension == ".bz2" || extension == ".zst" ||
         extension == ".zstd";
}

}  // namespace

std::vector<std::string> ExpandInputs(const std::vector<std::string>& paths,
                                      std::vector<std::string>* errors) {
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    if (path == "-") {
      out.push_back(path);
      continue;
    }
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      errors->push_back(path + ": no such file or directory");
      continue;
    }
    if (!fs::is_directory(status)) {
      out.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(
             path, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      const std::string extension = LowerExtension(it->path().filename().string());
      if (IsGameFileName(it->path().filename().string()) || IsCompressionExtension(extension) ||
          extension == ".zip" || extension == ".tar" || extension == ".tgz" ||
          extension == ".tbz" || extension == ".tbz2" || extension == ".txz" ||
          extension == ".tzst") {
        found.push_back(it->path().string());
      }
    }
    if (ec) errors->push_back(path + ": " + ec.message());
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

bool IsGameFileName(std::string_view name) {
  std::string extension = LowerExtension(name);
  // A compressed member is read decompressed: "jan.5dpgn.gz" holds jan.5dpgn.
  if (IsCompressionExtension(extension)) {
    extension = LowerExtension(name.substr(0, name.size() - extension.size()));
  }
  return extension == ".5dpgn" || extension == ".pgn" || extension == ".txt";
}

namespace {

constexpr size_t kBatchGames = 256;
constexpr size_t kBatchBytes = 4 << 20;
// Batches read but not yet consumed. Enough that the workers keep going while the writer
// commits (a commit of ~20,000 games takes a second or two), few enough to bound memory.
constexpr uint64_t kBatchesInFlight = 48;

struct Task {
  uint64_t seq = 0;
  GameBatch batch;
  std::vector<RawGame> raw;
  Status error;  // ok, or why the source could not be read (kIo)
};

// A batch's final states are hashed together (HashFinalStates), several at a time.
AnalyzeOptions DeferFinalMd5(AnalyzeOptions options) {
  options.defer_final_md5 = true;
  return options;
}

class Pipeline {
 public:
  Pipeline(const std::vector<std::string>& sources,
           const std::vector<std::optional<FileState>>& previous, int jobs,
           const AnalyzeOptions& analyze, const PipelineCallbacks& callbacks)
      : sources_(sources),
        previous_(previous),
        jobs_(std::max(1, jobs)),
        analyze_(DeferFinalMd5(analyze)),
        callbacks_(callbacks) {}

  void Run() {
    std::thread reader([this] { ReadAll(); });
    std::vector<std::thread> workers;
    for (int i = 0; i < jobs_; ++i) workers.emplace_back([this] { Work(); });
    Consume();
    reader.join();
    for (std::thread& t : workers) t.join();
  }

 private:
  // Waits for room, then queues a task. Returns false when the consumer stopped.
  bool Push(Task task) {
    std::unique_lock lock(mu_);
    room_.wait(lock, [&] { return stop_ || read_ - consumed_ < kBatchesInFlight; });
    if (stop_) return false;
    task.seq = read_++;
    if (!task.error.ok()) {
      done_.emplace(task.seq, std::move(task));
      ready_.notify_all();
    } else {
      pending_.push_back(std::move(task));
      work_.notify_one();
    }
    return true;
  }

  void ReadAll() {
    for (size_t source = 0; source < sources_.size(); ++source) {
      if (!ReadSource(source)) break;
    }
    std::lock_guard lock(mu_);
    reader_done_ = true;
    work_.notify_all();
    ready_.notify_all();
  }

  // Pushes the error of a source that cannot be read (further).
  bool PushError(size_t source, std::string message) {
    Task task;
    task.batch.source = source;
    task.error = Status::Io(std::move(message));
    return Push(std::move(task));
  }

  bool ReadSource(size_t source) {
    const std::string& path = sources_[source];
    if (path == "-") return ReadMembers(source, nullptr);
    struct stat status;
    if (stat(path.c_str(), &status) != 0) return PushError(source, path + ": cannot read the file");
    FileState state;
    state.size = static_cast<uint64_t>(status.st_size);
    state.mtime_ns = static_cast<int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 +
                     static_cast<int64_t>(status.st_mtim.tv_nsec);
    const Result<InputKind> kind = SniffFile(path);
    if (!kind.ok()) return PushError(source, kind.error().message());
    const FileState* before =
        source < previous_.size() && previous_[source] ? &*previous_[source] : nullptr;
    // The whole file is hashed first (a pass over bytes that are read again at once, from the
    // page cache): an unchanged file is then not read at all, and a grown one only from its
    // last game, when its first bytes hash as the whole file did last time.
    uint64_t prefix_hash = 0;
    const uint64_t prefix = before && before->size < state.size ? before->size : UINT64_MAX;
    if (!HashFile(path, prefix, &state.content_hash, &prefix_hash)) {
      return PushError(source, path + ": read error");
    }
    if (before && before->size == state.size && before->mtime_ns == state.mtime_ns &&
        before->content_hash == state.content_hash) {
      Task task;
      task.batch.source = source;
      task.batch.source_size = state.size;
      task.batch.bytes_done = state.size;
      task.batch.unchanged = true;
      task.batch.finished = *before;
      return Push(std::move(task));
    }
    if (kind.value() == InputKind::kPlain) {
      GameSplitter::Start start;
      if (before && before->resumable && prefix != UINT64_MAX &&
          prefix_hash == before->content_hash) {
        start = before->resume;
      }
      std::ifstream file(path, std::ios::binary);
      if (file) file.seekg(static_cast<std::streamoff>(start.offset));
      if (!file) return PushError(source, path + ": cannot read the file");
      state.resumable = true;
      return SplitStream(source, "", file, state.size, start, &state);
    }
    return ReadMembers(source, &state);
  }

  // Reads a packed source by its members (input.h): a file whose FileState is `state`, or
  // standard input (nullptr), which may also be plain text.
  bool ReadMembers(size_t source, const FileState* state) {
    const std::string& path = sources_[source];
    const uint64_t size = state ? state->size : 0;
    bool go_on = true;
    bool failed = false;
    int passed = 0;
    auto member = [&](const std::string& name, std::istream& in) {
      if (!name.empty() && !IsGameFileName(name)) {
        ++passed;
        return true;
      }
      go_on = SplitStream(source, name, in, size, {}, nullptr);
      return go_on;
    };
    auto error = [&](const std::string& message) {
      failed = true;
      if (go_on) go_on = PushError(source, message);
    };
    if (state) {
      ReadPacked(path, member, error);
    } else {
      ReadStream(std::cin, path, member, error);
    }
    if (!go_on) return false;
    Task task;
    task.batch.source = source;
    task.batch.source_size = size;
    task.batch.bytes_done = size;
    task.batch.members_passed = passed;
    // A damaged archive is read again next time.
    if (!failed && state) task.batch.finished = *state;
    return Push(std::move(task));
  }

  // XXH3-64 of the file's bytes into `*hash`, and of its first `prefix` bytes into `*prefix_hash`
  // (when it has that many). False on a read error.
  static bool HashFile(const std::string& path, uint64_t prefix, uint64_t* hash,
                       uint64_t* prefix_hash) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(),
                                                                   &XXH3_freeState);
    XXH3_64bits_reset(state.get());
    std::vector<char> buffer(1 << 20);
    uint64_t done = 0;
    while (in) {
      in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      const size_t got = static_cast<size_t>(in.gcount());
      if (got == 0) break;
      if (done < prefix && done + got >= prefix) {
        const size_t head = static_cast<size_t>(prefix - done);
        XXH3_64bits_update(state.get(), buffer.data(), head);
        *prefix_hash = XXH3_64bits_digest(state.get());
        XXH3_64bits_update(state.get(), buffer.data() + head, got - head);
      } else {
        XXH3_64bits_update(state.get(), buffer.data(), got);
      }
      done += got;
    }
    if (in.bad()) return false;
    *hash = XXH3_64bits_digest(state.get());
    return true;
  }

  // Cuts a stream (a file, standard input or an archive member) into games and pushes them in
  // batches. With `finish` (a plain file), the last batch carries it, with the resume point set
  // to the start of the last game read, once the whole stream was read.
  bool SplitStream(size_t source, const std::string& member, std::istream& in, uint64_t size,
                   const GameSplitter::Start& start, FileState* finish) {
    // A stream read from its start may be UTF-16 (TextReader); a file read from a later game on is
    // known to be UTF-8 (a transcoded one is never resumed).
    std::optional<TextReader> text;
    if (start.offset == 0) text.emplace(in);
    GameSplitter splitter(text ? text->stream() : in, start);
    GameSplitter::Start last = start;
    Task task;
    size_t bytes = 0;
    auto flush = [&](uint64_t done) {
      task.batch.source = source;
      task.batch.member = member;
      task.batch.source_size = size;
      task.batch.bytes_done = done;
      const bool ok = Push(std::move(task));
      task = Task();
      bytes = 0;
      return ok;
    };
    uint64_t position = start.offset;
    while (std::optional<RawGame> raw = splitter.Next()) {
      position = raw->byte_offset + raw->text.size();
      last = GameSplitter::Start{raw->byte_offset, raw->first_line, raw->index - 1};
      bytes += raw->text.size();
      task.raw.push_back(std::move(*raw));
      if ((task.raw.size() >= kBatchGames || bytes >= kBatchBytes) && !flush(position))
        return false;
    }
    if (in.bad() || (text && text->stream().bad())) {
      if (!task.raw.empty() && !flush(position)) return false;
      return PushError(source, sources_[source] + ": read error");
    }
    if (finish) {
      finish->resume = last;
      // Offsets of a transcoded text are not the file's: a grown file is read again whole.
      if (text && text->transcoded()) finish->resumable = false;
      task.batch.finished = *finish;
    }
    return flush(size != 0 ? size : position);
  }

  void Work() {
    while (true) {
      Task task;
      {
        std::unique_lock lock(mu_);
        work_.wait(lock, [&] { return stop_ || !pending_.empty() || reader_done_; });
        if (stop_ || pending_.empty()) return;
        task = std::move(pending_.front());
        pending_.pop_front();
      }
      task.batch.games.reserve(task.raw.size());
      for (RawGame& raw : task.raw)
        task.batch.games.push_back(AnalyzeGame(std::move(raw), analyze_));
      task.raw.clear();
      HashFinalStates(task.batch.games);
      if (callbacks_.on_analyzed) callbacks_.on_analyzed(task.batch);
      std::lock_guard lock(mu_);
      done_.emplace(task.seq, std::move(task));
      ready_.notify_all();
    }
  }

  void Consume() {
    while (true) {
      Task task;
      {
        std::unique_lock lock(mu_);
        ready_.wait(lock, [&] {
          return done_.count(consumed_) > 0 || (reader_done_ && consumed_ == read_);
        });
        auto it = done_.find(consumed_);
        if (it == done_.end()) return;  // everything delivered
        task = std::move(it->second);
        done_.erase(it);
      }
      bool go_on = true;
      if (!task.error.ok()) {
        if (callbacks_.on_source_error) {
          callbacks_.on_source_error(task.batch.source, task.error.message());
        }
      } else {
        go_on = callbacks_.on_batch(std::move(task.batch));
      }
      std::lock_guard lock(mu_);
      ++consumed_;
      if (!go_on) stop_ = true;
      room_.notify_all();
      work_.notify_all();
      if (stop_) return;
    }
  }

  const std::vector<std::string>& sources_;
  const std::vector<std::optional<FileState>>& previous_;
  const int jobs_;
  const AnalyzeOptions analyze_;
  const PipelineCallbacks& callbacks_;

  std::mutex mu_;
  std::condition_variable work_;   // pending_ gained a task, or the run ends
  std::condition_variable ready_;  // done_ gained a task, or the reader finished
  std::condition_variable room_;   // a batch was consumed
  std::deque<Task> pending_;
  std::map<uint64_t, Task> done_;
  uint64_t read_ = 0;
  uint64_t consumed_ = 0;
  bool reader_done_ = false;
  bool stop_ = false;
};

}  // namespace

void RunPipeline(const std::vector<std::string>& sources,
                 const std::vector<std::optional<FileState>>& previous, int jobs,
                 const AnalyzeOptions& analyze, const PipelineCallbacks& callbacks) {
  Pipeline(sources, previous, jobs, analyze, callbacks).Run();
}

}  // namespace fived
