// The indexer's reader / workers / ordered consumer pipeline; see pipeline.h.
#include "indexer/pipeline.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace fived {

namespace fs = std::filesystem;

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
      std::string extension = it->path().extension().string();
      std::transform(extension.begin(), extension.end(), extension.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (extension == ".5dpgn" || extension == ".pgn" || extension == ".txt") {
        found.push_back(it->path().string());
      }
    }
    if (ec) errors->push_back(path + ": " + ec.message());
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
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
  std::optional<std::string> error;  // the source could not be read
};

class Pipeline {
 public:
  Pipeline(const std::vector<std::string>& sources, int jobs, const AnalyzeOptions& analyze,
           const PipelineCallbacks& callbacks)
      : sources_(sources), jobs_(std::max(1, jobs)), analyze_(analyze), callbacks_(callbacks) {}

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
    if (task.error) {
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

  bool ReadSource(size_t source) {
    const std::string& path = sources_[source];
    std::ifstream file;
    std::istream* in = &std::cin;
    uint64_t size = 0;
    if (path != "-") {
      file.open(path, std::ios::binary);
      std::error_code ec;
      size = std::filesystem::file_size(path, ec);
      if (!file || ec) {
        Task task;
        task.batch.source = source;
        task.error = path + ": cannot read the file";
        return Push(std::move(task));
      }
      in = &file;
    }
    GameSplitter splitter(*in);
    Task task;
    size_t bytes = 0;
    auto flush = [&](uint64_t done) {
      task.batch.source = source;
      task.batch.source_size = size;
      task.batch.bytes_done = done;
      const bool ok = Push(std::move(task));
      task = Task();
      bytes = 0;
      return ok;
    };
    uint64_t position = 0;
    while (std::optional<RawGame> raw = splitter.Next()) {
      position = raw->byte_offset + raw->text.size();
      bytes += raw->text.size();
      task.raw.push_back(std::move(*raw));
      if ((task.raw.size() >= kBatchGames || bytes >= kBatchBytes) && !flush(position))
        return false;
    }
    if (in->bad()) {
      Task error;
      error.batch.source = source;
      error.error = path + ": read error";
      if (!task.raw.empty() && !flush(position)) return false;
      return Push(std::move(error));
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
      if (task.error) {
        if (callbacks_.on_source_error) callbacks_.on_source_error(task.batch.source, *task.error);
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

void RunPipeline(const std::vector<std::string>& sources, int jobs, const AnalyzeOptions& analyze,
                 const PipelineCallbacks& callbacks) {
  Pipeline(sources, jobs, analyze, callbacks).Run();
}

}  // namespace fived
