// 5d-query serve: the database over HTTP, as a JSON API with the objects --format json writes,
// for the explorer pages and for scripts. Every request goes through the request layer
// (query/request.h) on a read-only connection of its own while it runs (kept for later requests:
// query/store_pool.h), so the server answers as the command line does, many requests at once,
// also while 5d-index appends to the database; answers asked again come from a cache that the
// database's version keeps current (query/answer_cache.h). Nothing it serves writes anything,
// and nothing is read from disk but the database: pages are compiled in.
//
// Endpoints (GET, or POST with the parameters in a JSON body too, for those too long for an
// address: a long line's picture; parameters as the command line's options without "--"):
//   /api/find            find's games (format json); "limit" defaults to kDefaultPageRows and
//                        may be at most kMaxPageRows; with "count" the number alone
//   /api/tree            tree's position and actions
//   /api/game/ID         show's JSON (show.h ShowJson); "action" picks the position
//   /api/game/ID.5dpgn   the game as 5dpgn, a download (show with format 5dpgn)
//   /api/game/ID.vmn     the game as Verbose Matrix Notation, text (show with format vmn)
//   /api/duplicates      the duplicate groups
//   /api/stats           the statistics
//   /api/picture         SVG of the position "moves" or "state" names (request.h RunPicture)
//   /api/position        that position as JSON: its board size and 5DFEN (request.h RunPosition)
//   /api/pattern         the patterns "pattern" gives, read and written back, or where the
//                        first that does not read goes wrong (request.h RunPattern)
// and the explorer's pages, compiled in (query/web_files.h): / (the opening explorer), /search,
// /patterns (the board editor), /game/ID, /duplicates, /stats, and /static/NAME for their
// scripts and styles; any other address outside /api/ gets 404 with a page saying there is no
// such page (query/web/not-found.html).
// Answers: 200 with the JSON (and a newline) or the SVG; 400 {"error": "..."} for a wrong
// parameter (a pattern that does not read adds "parameter", "index", "column" and "reason":
// core/status.h Place), 404 {"error": ...} for an unknown game or API path, 503 when a
// query runs longer than the time limit, 500 when the database fails.
#ifndef FIVED_QUERY_SERVE_H_
#define FIVED_QUERY_SERVE_H_

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace fived {

inline constexpr int kDefaultPageRows = 100;
inline constexpr int kMaxPageRows = 500;

struct ServeOptions {
  std::string database;  // opened read-only
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (Bind says which)
  // A query still running after this long is stopped and answered 503.
  std::chrono::milliseconds query_time{10'000};
  // Answers of the API kept for requests that ask the same again while the database has not
  // changed (query/answer_cache.h); 0 keeps none.
  size_t cache_bytes = 64 << 20;
  // Requests answered at once; more wait for a worker. Connections have threads of their own
  // (8 per worker), so that clients that are slow to send a request, or keep a connection open
  // for the next one, never hold a worker; a connection is closed after 5 s outside an answer
  // (sending nothing, trickling a request, not reading its answer), and when the server stops,
  // once the answers being made are written.
  int workers = 16;
};

// One answer of the API, before HTTP.
struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json; charset=utf-8";
  std::string body;
  std::string attachment;  // when set, a download: the file name to save the body as
  // The body compressed with gzip (RFC 1952) for clients that accept it; empty for the pages and
  // answers too small to gain from it. Made once per answer and kept with it in the cache: a
  // game's answer of 800 KB takes 7 ms to compress so, where cpp-httplib's brotli at its best
  // quality took 0.5 s on every request. Answers with a body here have a content type cpp-httplib
  // leaves alone (a charset parameter), so that they are never compressed twice.
  std::string gzip;
};

// The pages and the JSON API, before HTTP. Keeps a pool of read-only connections to the database
// (query/store_pool.h) and a cache of answers (query/answer_cache.h) checked against the
// database's version at every request, so that games 5d-index appends show at once.
class Api {
 public:
  explicit Api(ServeOptions options);
  ~Api();

  // The answer to GET `path` with `params` (each name with its values in order): a page, or the
  // API's answer. Thread-safe.
  ApiResponse Get(const std::string& path,
                  const std::map<std::string, std::vector<std::string>>& params);
  // The answer to POST `path`: Get's, with parameters from `body` too when `content_type` is
  // JSON (application/json): an object whose members are parameters, each a string, a number,
  // true or false, or an array of those (a parameter given several times), after those of
  // `params` (the address's, and a form's). Only addresses under /api/ take POST; any other
  // answers 405. A body that is no such object answers 400 saying why. Thread-safe.
  ApiResponse Post(const std::string& path, std::map<std::string, std::vector<std::string>> params,
                   std::string_view body, std::string_view content_type);

  // Asks the questions every visitor's first pages ask, so that their answers are in the cache:
  // the variants and statistics, and the opening tree at the start of each official variant in
  // the database (the explorer's first page; tens of milliseconds each on 100,000 games). Returns
  // early once `stop` is set. Does nothing without a cache. Thread-safe.
  void Warm(const std::atomic<bool>& stop);

  // The answers in the cache now.
  size_t cached_answers() const;

 private:
  // The answer to an API path, before it is compressed.
  ApiResponse Answer(const std::string& path,
                     const std::map<std::string, std::vector<std::string>>& params);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class Server {
 public:
  explicit Server(ServeOptions options);
  ~Server();

  // Binds the address: the port bound, or kInvalidArgument saying that it could not be.
  Result<int> Bind();
  // Serves on the bound address until Stop; false when it could not serve. Meanwhile warms the
  // cache (Api::Warm) in another thread.
  bool Listen();
  // Makes Listen return once the requests being answered are done. Thread-safe; call it from
  // another thread than Listen's (for example one waiting for SIGINT).
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fived

#endif  // FIVED_QUERY_SERVE_H_
