// The indexer's parallel pipeline: one reader thread splits the input files into games, worker
// threads analyze batches of games (parse, replay, keys), and the calling thread receives the
// analyzed batches strictly in input order, so that the result does not depend on timing.
// Memory is bounded: only a few batches per worker are in flight.
#ifndef FIVED_INDEXER_PIPELINE_H_
#define FIVED_INDEXER_PIPELINE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "indexer/analyze.h"

namespace fived {

// The files named by `paths`: files as given, directories searched recursively for *.5dpgn,
// *.pgn and *.txt (sorted by path), "-" for standard input. Names that do not exist are
// reported in `errors` ("PATH: no such file or directory").
std::vector<std::string> ExpandInputs(const std::vector<std::string>& paths,
                                      std::vector<std::string>* errors);

struct GameBatch {
  size_t source = 0;         // index into the source list
  uint64_t source_size = 0;  // bytes of the source file (0 for standard input)
  uint64_t bytes_done = 0;   // bytes of the source read up to the end of this batch
  std::vector<GameRecord> games;
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
// game with `analyze`. Returns when every batch was delivered or on_batch returned false.
void RunPipeline(const std::vector<std::string>& sources, int jobs, const AnalyzeOptions& analyze,
                 const PipelineCallbacks& callbacks);

}  // namespace fived

#endif  // FIVED_INDEXER_PIPELINE_H_
