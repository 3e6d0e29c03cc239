// The database writer of 5d-index: takes the analyzed games in input order (pipeline.h) and stores
// each one, or its rejection, with its headers and postings, in large transactions. It records
// copies (schema/copies.h: a game with the moves of an earlier original and players, date and
// result that agree with its own points to it), skips what an earlier run stored,
// trains the records' compression dictionary on the first games and shares it with the workers.
#ifndef FIVED_INDEXER_WRITER_H_
#define FIVED_INDEXER_WRITER_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "indexer/index_summary.h"
#include "indexer/pipeline.h"
#include "schema/db.h"

namespace fived {

// The dictionary the writer compresses records with, shared with the workers once chosen, so
// that they compress the games they analyze (compression was a fifth of the writer's time, and
// the writer is one thread). A record is the same whichever thread compresses it. Thread-safe.
class SharedDictionary {
 public:
  struct Dictionary {
    int64_t id = 0;  // 0: no dictionary (plain zstd)
    std::string data;
  };
  // Makes `data` (dictionary `id`) the one to compress with from now on.
  void Publish(int64_t id, std::string_view data);
  // The dictionary published last; null before the first Publish.
  std::shared_ptr<const Dictionary> Get() const;
  // On a worker: compresses the records of a batch's games (GameRecord::compressed), when a
  // dictionary was published; otherwise leaves them for the writer.
  void CompressBatch(GameBatch& batch) const;

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const Dictionary> dictionary_;
};

// Writes analyzed games into `db`, and tells `reporter` of every rejection it stores. Counts in
// `summary` the games read (and their warnings, the archive members passed over and the
// unchanged files) as they come, and the games indexed, rejected or already there (with their
// duplicates, endings and result conflicts) once they are committed: after an error, the summary
// counts what the database holds. One thread; the database, sources, summary, reporter and
// dictionary must outlive it. Every error is the database's (Status): the run must stop, and
// what was committed before stays.
class Writer {
 public:
  // Prepares the statements. In a bulk load (`bulk`: a database without games, whose secondary
  // indexes were dropped) copies are found through a map of this run's originals and Finish
  // builds the indexes. `commit_every` > 0 commits at least every that many games.
  // `stats_actions` is the database's meta.position_stats_actions: the games' GameRecord::opening
  // must hold that many actions (or all of a shorter game's).
  static Result<std::unique_ptr<Writer>> Create(Database& db, int stats_actions,
                                                const std::vector<std::string>& sources,
                                                IndexSummary& summary, IndexReporter& reporter,
                                                long commit_every, SharedDictionary& shared,
                                                bool bulk);
  ~Writer();

  // Takes a batch. Until the database has a record dictionary, batches wait (up to a thousand
  // games) so that one can be trained on them; then they are written.
  Status Write(GameBatch&& batch);
  // Remembers what the database holds before this run, which the games of standard input are
  // compared with (index.h): the last game id and the rejections' text hashes. Call before the
  // first Write when "-" is among the sources.
  Status RememberBeforeRun();
  // Writes whatever waits and the kept postings, builds the indexes of a bulk load, and commits.
  Status Finish();
  // What the open transaction counted (games indexed, rejected, already there...), which the
  // summary counts once it commits; for the progress line. Valid until the next call.
  const IndexSummary& Uncommitted() const;
  // What the last complete reading of input `source` (as named on the command line) saw, from its
  // sources row; nullopt when none completed (or for standard input).
  Result<std::optional<FileState>> PreviousState(const std::string& source);

  class Impl;

 private:
  explicit Writer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The path a source is stored under (sources.path): "-" for standard input, else the absolute
// path as given, made lexically normal (symbolic links are not resolved).
std::string StoredSourcePath(const std::string& name);

// How messages name a source: the file as given, and ":MEMBER" for an archive member.
std::string SourceName(const std::string& file, const std::string& member);

}  // namespace fived

#endif  // FIVED_INDEXER_WRITER_H_
