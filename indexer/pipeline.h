// The indexer's parallel pipeline: one reader thread splits the input files into games, worker
// threads analyze batches of games (parse, replay, keys), and the calling thread receives the
// analyzed batches strictly in input order, so that the result does not depend on timing.
// Memory is bounded: only a few batches per worker are in flight.
#ifndef FIVED_INDEXER_PIPELINE_H_
#define FIVED_INDEXER_PIPELINE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "indexer/analyze.h"

namespace fived {

// The files named by `paths`: files as given (whatever their names: input.h reads them by
// content), directories searched recursively for games (*.5dpgn, *.pgn, *.txt), compressed files
// and archives (*.gz, *.tgz, *.xz, *.bz2, *.zst, *.zip, *.tar) (sorted by path), "-" for standard
// input. Names that do not exist are reported in `errors` ("PATH: no such file or directory").
std::vector<std::string> ExpandInputs(const std::vector<std::string>& paths,
                                      std::vector<std::string>* errors);

// What a complete reading of a file saw (its sources row, member ''), kept for the next run: an
// unchanged file (same size, modification time and content) is skipped, and a plain text file
// that grew (its first `size` bytes unchanged) is read again from where its last game started.
struct FileState {
  uint64_t size = 0;
  int64_t mtime_ns = 0;        // modification time, nanoseconds since 1970 (UTC)
  uint64_t content_hash = 0;   // XXH3-64 (seed 0) of the file's bytes
  bool resumable = false;      // plain text: the resume point below is meaningful
  GameSplitter::Start resume;  // where its last game starts (the end, when it has none)
};

struct GameBatch {
  size_t source = 0;         // index into the source list
  std::string member;        // the archive member the games are from ("" for the file itself)
  uint64_t source_size = 0;  // bytes of the source file (0 for standard input)
  uint64_t bytes_done = 0;   // bytes of the source read up to the end of this batch
  std::vector<GameRecord> games;
  // Set on the last batch of a file read completely: what the next run compares with. With
  // `unchanged` the file was the same as at the last reading, and was not read (no games).
  std::optional<FileState> finished;
  bool unchanged = false;
  int members_passed = 0;  // archive members that are not game files, passed over (input.h)
};

struct PipelineCallbacks {
  // Called in input order, on the calling thread. Return false to stop early.
  std::function<bool(GameBatch&&)> on_batch;
  // Called on a worker thread once it has analyzed a batch, before the batch is delivered;
  // may be empty. Runs on several threads at once.
  std::function<void(GameBatch&)> on_analyzed;
  // Called on the calling thread when a source cannot be opened or read.
  std::function<void(size_t source, const std::string& message)> on_source_error;
};

// Runs the pipeline over `sources` with `jobs` worker threads (at least 1), which analyze every
// game with `analyze`. `previous[i]`, when given, is what the last complete reading of source i
// saw (an empty vector: nothing known). Returns when every batch was delivered or on_batch
// returned false. A source can fail more than once (damaged archive members).
void RunPipeline(const std::vector<std::string>& sources,
                 const std::vector<std::optional<FileState>>& previous, int jobs,
                 const AnalyzeOptions& analyze, const PipelineCallbacks& callbacks);

// Whether an archive member's name is a game file's (*.5dpgn, *.pgn, *.txt, any case), also
// compressed (*.5dpgn.gz, .xz, .bz2, .zst): compressed members are read decompressed.
bool IsGameFileName(std::string_view name);

}  // namespace fived

#endif  // FIVED_INDEXER_PIPELINE_H_
