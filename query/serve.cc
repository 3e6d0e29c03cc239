// The HTTP server of 5d-query serve; see serve.h.
#include "query/serve.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <semaphore>
#include <sstream>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "query/answer_cache.h"
#include "query/json.h"
#include "query/request.h"
#include "query/show.h"
#include "query/store_pool.h"
#include "query/web_files.h"

namespace fived {

namespace {

// The pages people open, and the embedded file (query/web/) that answers each. /game/ID is
// game.html for any number ID: the page reads the id from its address.
constexpr std::pair<std::string_view, std::string_view> kPages[] = {
    {"/", "explorer.html"},         {"/search", "search.html"},
    {"/patterns", "patterns.html"}, {"/duplicates", "duplicates.html"},
    {"/stats", "stats.html"},
};
constexpr std::string_view kGamePage = "/game/";
// Scripts, styles and the icon, by their file name.
constexpr std::string_view kStatic = "/static/";
// The API's addresses: what is not found under it is answered in JSON, anything else with the
// page saying there is no such page.
constexpr std::string_view kApi = "/api/";
constexpr std::string_view kNotFoundPage = "not-found.html";

bool AllDigits(std::string_view text) {
  return !text.empty() && text.size() <= 18 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The embedded file `path` names, or nullptr: the pages, and /static/NAME for a file NAME.
// Only names are looked up, never paths, so nothing outside the embedded files can answer.
const WebFile* PageFile(std::string_view path) {
  for (const auto& [page, file] : kPages) {
    if (path == page) return FindWebFile(file);
  }
  if (path.starts_with(kGamePage) && AllDigits(path.substr(kGamePage.size()))) {
    return FindWebFile("game.html");
  }
  if (path.starts_with(kStatic)) return FindWebFile(path.substr(kStatic.size()));
  return nullptr;
}

// Requests larger than this are refused (413). POST bodies carry lines too long for an address
// (8 KiB, cpp-httplib's limit: 414), such as the 64 actions of a game of 40 timelines, 14 KiB
// of moves; the longest lines of the public games are far shorter than this.
constexpr size_t kMaxPayload = 256 * 1024;

ApiResponse JsonAnswer(int status, const Json& json) {
  return {status, "application/json; charset=utf-8", DumpJson(json) + "\n", "", ""};
}

// Answers shorter than this go out as they are: the gzip header and a round of the compressor
// cost more than they save.
constexpr size_t kCompressFrom = 1024;

// `body` compressed with gzip at zlib's default level (6), or empty when zlib fails.
std::string Gzip(std::string_view body) {
  z_stream stream{};
  // 15 + 16: the largest window, with a gzip header and trailer rather than zlib's.
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return "";
  }
  std::string out(deflateBound(&stream, static_cast<uLong>(body.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  stream.avail_in = static_cast<uInt>(body.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return status == Z_STREAM_END ? out : "";
}

// Fills response->gzip when the body is worth compressing.
void Compress(ApiResponse* response) {
  if (!response->gzip.empty() || response->body.size() < kCompressFrom) return;
  response->gzip = Gzip(response->body);
  if (response->gzip.size() >= response->body.size()) response->gzip.clear();
}

// Whether an Accept-Encoding header accepts gzip ("gzip", "gzip;q=0.5", not "gzip;q=0").
bool AcceptsGzip(std::string_view header) {
  size_t at = 0;
  while (at < header.size()) {
    size_t end = header.find(',', at);
    if (end == std::string_view::npos) end = header.size();
    std::string_view coding = header.substr(at, end - at);
    at = end + 1;
    while (!coding.empty() && coding.front() == ' ') coding.remove_prefix(1);
    const size_t semicolon = coding.find(';');
    std::string_view name = coding.substr(0, semicolon);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name != "gzip" && name != "*") continue;
    if (semicolon == std::string_view::npos) return true;
    std::string_view quality = coding.substr(semicolon + 1);
    while (!quality.empty() && quality.front() == ' ') quality.remove_prefix(1);
    // q=0, q=0.0, q=0.000: refused; anything else accepts.
    if (quality.starts_with("q=0") &&
        quality.find_first_not_of("0.", 2) == std::string_view::npos) {
      continue;
    }
    return true;
  }
  return false;
}

ApiResponse ErrorAnswer(int status, const std::string& message) {
  return JsonAnswer(status, {{"error", message}});
}

// Parameters that exist on the command line but not in the API: the API answers JSON, writes
// no file and draws no terminal picture.
constexpr std::string_view kCommandLineOnly[] = {"format", "svg", "export-unique", "unicode"};

// An API response for a failed request. A value that does not read says where, so that a page
// can point at the character (core/status.h Place).
ApiResponse Fail(const Status& error) {
  switch (error.code()) {
    case StatusCode::kInvalidArgument:
      if (error.place()) {
        return JsonAnswer(400, {{"error", error.message()},
                                {"parameter", error.place()->parameter},
                                {"index", error.place()->index},
                                {"column", error.place()->column},
                                {"reason", error.place()->reason}});
      }
      return ErrorAnswer(400, error.message());
    case StatusCode::kNotFound:
      return ErrorAnswer(404, error.message());
    case StatusCode::kOk:
    case StatusCode::kDatabase:
    case StatusCode::kIo:
      break;
  }
  return ErrorAnswer(500, error.message());
}

// find's games as the command line writes them with --format json, or the count alone.
ApiResponse Find(GameStore& store, const Request& request) {
  Result<FindAnswer> answer = RunFind(store, request);
  if (!answer.ok()) return Fail(answer.error());
  const FindAnswer& found = answer.value();
  if (found.count) return JsonAnswer(200, *found.count);
  std::ostringstream out;
  if (Status error =
          WriteGames(store, found.games, OutputFormat::kJson, found.search.positions.has_value(),
                     false, out, found.pattern, found.mates);
      !error.ok()) {
    return ErrorAnswer(500, error.message());
  }
  return {200, "application/json; charset=utf-8", out.str(), "", ""};
}

// The request layer's answer to a checked request as an API response.
ApiResponse Run(GameStore& store, const Request& request) {
  if (request.command == "find") return Find(store, request);
  if (request.command == "tree") {
    Result<TreeAnswer> answer = RunTree(store, request);
    if (!answer.ok()) return Fail(answer.error());
    return JsonAnswer(200, TreeJson(answer.value().root));
  }
  if (request.command == "show") {
    Result<ShowAnswer> answer = RunShow(store, request);
    if (!answer.ok()) return Fail(answer.error());
    if (answer.value().format == OutputFormat::kPgn) {
      Result<std::string> text = ShowPgn(store, answer.value());
      if (!text.ok()) return Fail(text.error());
      return {200, "text/plain; charset=utf-8", std::move(text).value(),
              "game-" + request.args.front() + ".5dpgn", ""};
    }
    if (answer.value().format == OutputFormat::kVmn) {
      return {200, "text/plain; charset=utf-8", std::move(answer.value().vmn), "", ""};
    }
    Result<Json> json = ShowJson(store, answer.value());
    if (!json.ok()) return Fail(json.error());
    return JsonAnswer(200, json.value());
  }
  if (request.command == "starts") {
    Result<std::vector<CustomStart>> answer = RunStarts(store, request);
    if (!answer.ok()) return Fail(answer.error());
    return JsonAnswer(200, CustomStartsJson(answer.value()));
  }
  if (request.command == "duplicates") {
    Result<DuplicatesAnswer> answer = RunDuplicates(store, request);
    if (!answer.ok()) return Fail(answer.error());
    return JsonAnswer(200, DuplicatesJson(answer.value().groups));
  }
  Result<StatsAnswer> answer = RunStats(store, request);
  if (!answer.ok()) return Fail(answer.error());
  return JsonAnswer(200, StatsJson(answer.value().stats));
}

// find's pages: a page of kDefaultPageRows games unless "limit" says how many, at most
// kMaxPageRows. Sets *request's limit; an error when it asks for too many.
std::optional<ApiResponse> SetPage(Request* request) {
  const auto limit = request->params.find("limit");
  if (limit == request->params.end()) {
    request->params["limit"] = {std::to_string(kDefaultPageRows)};
    return std::nullopt;
  }
  // CheckRequest has read it as a number.
  if (limit->second.size() == 1 && std::stoll(limit->second.front()) > kMaxPageRows) {
    return ErrorAnswer(400, "limit: at most " + std::to_string(kMaxPageRows) +
                                " games a page (offset gives the next pages)");
  }
  return std::nullopt;
}

// Whether find's "count" flag is on (an unreadable value is left to CheckRequest to refuse).
bool Counting(const Request& request) {
  const auto count = request.params.find("count");
  return count != request.params.end() && !count->second.empty() && count->second.front() != "0" &&
         count->second.front() != "false";
}

// The request layer's command for an API path ("/api/game/12" is show with the argument 12,
// "/api/game/12.5dpgn" the same with format 5dpgn, "/api/game/12.vmn" with format vmn); false
// for any other path.
bool ToCommand(const std::string& path, Request* request) {
  constexpr std::string_view kGame = "/api/game/";
  if (path.rfind(kGame, 0) == 0) {
    std::string id = path.substr(kGame.size());
    for (std::string_view format : {"5dpgn", "vmn"}) {
      const std::string suffix = "." + std::string(format);
      if (!id.ends_with(suffix)) continue;
      id.resize(id.size() - suffix.size());
      request->params["format"] = {std::string(format)};
    }
    request->command = "show";
    request->args = {std::move(id)};
    return true;
  }
  for (const char* command :
       {"find", "tree", "duplicates", "stats", "picture", "position", "pattern", "starts"}) {
    if (path == std::string("/api/") + command) {
      request->command = command;
      return true;
    }
  }
  return false;
}

// Adds the parameters of the JSON object `body` (Api::Post) to *params; an invalid argument
// saying what is wrong when `body` is no such object.
Status AddJsonParams(std::string_view body,
                     std::map<std::string, std::vector<std::string>>* params) {
  const Json json = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    return Status::InvalidArgument("the request's body must be a JSON object of parameters");
  }
  for (const auto& [name, value] : json.items()) {
    std::vector<std::string>& values = (*params)[name];
    for (const Json& one : value.is_array() ? value : Json::array({value})) {
      if (one.is_string()) {
        values.push_back(one.get<std::string>());
      } else if (one.is_boolean()) {
        values.push_back(one.get<bool>() ? "true" : "false");
      } else if (one.is_number()) {
        values.push_back(one.dump());
      } else {
        return Status::InvalidArgument(
            name + ": a parameter is a string, a number, true or false, or an array of those");
      }
    }
  }
  return Status();
}

// The cache's key of a checked request: its command, arguments and parameters, each value
// after its name (the map keeps names sorted, so the order in the URL does not matter), each
// text after its length so that no two requests share a key.
std::string CacheKey(const Request& request) {
  std::string key = request.command;
  const auto add = [&key](std::string_view text) {
    key += ' ' + std::to_string(text.size()) + ':';
    key += text;
  };
  for (const std::string& arg : request.args) add(arg);
  for (const auto& [name, values] : request.params) {
    add(name);
    for (const std::string& value : values) add(value);
  }
  return key;
}

}  // namespace

struct Api::Impl {
  explicit Impl(ServeOptions o)
      : options(std::move(o)), stores(options.database), cache(options.cache_bytes) {}

  // A checked request's answer from the database.
  ApiResponse Query(const Request& request) {
    Result<std::unique_ptr<GameStore>> taken = stores.Take();
    if (!taken.ok()) return ErrorAnswer(500, taken.error().message());
    std::unique_ptr<GameStore> store = std::move(taken).value();
    // Read before the search, not in its transaction: a commit between the two gives an answer
    // newer than its version says, which requests that still see that version may well get; a
    // request after the commit sees the new version and never an older answer.
    Result<std::string> version = DatabaseVersion(*store);
    if (!version.ok()) return ErrorAnswer(500, version.error().message());
    const bool cacheable = options.cache_bytes > 0;
    const std::string key = cacheable ? CacheKey(request) : "";
    if (cacheable) {
      if (std::optional<ApiResponse> kept = cache.Find(key, version.value())) {
        stores.Give(std::move(store));
        return *kept;
      }
    }
    bool stopped = false;
    ApiResponse response;
    {
      QueryDeadline deadline(store->db(), std::chrono::steady_clock::now() + options.query_time);
      response = Run(*store, request);
      stopped = deadline.passed();
    }
    if (stopped) {
      // An interrupted search may have left the connection anywhere: it is not kept.
      return ErrorAnswer(503, "the query ran longer than " +
                                  std::to_string(options.query_time.count()) +
                                  " ms and was stopped");
    }
    stores.Give(std::move(store));
    Compress(&response);
    if (cacheable && response.status == 200) {
      cache.Keep(key, version.value(), response, response.body.size());
    }
    return response;
  }

  const ServeOptions options;
  StorePool stores;
  AnswerCache<ApiResponse> cache;
};

Api::Api(ServeOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Api::~Api() = default;

void Api::Warm(const std::atomic<bool>& stop) {
  if (impl_->options.cache_bytes == 0) return;
  // As the pages ask: the variants (every page's list) and the statistics page.
  const ApiResponse variants = Get("/api/stats", {{"top", {"0"}}});
  if (stop || variants.status != 200) return;
  Get("/api/stats", {{"top", {"15"}}});
  const Json stats = Json::parse(variants.body);
  for (const Json& variant : stats["variants"]) {
    if (stop) return;
    const std::string name = variant["variant"].get<std::string>();
    if (name != "custom") Get("/api/tree", {{"variant", {name}}});
  }
}

size_t Api::cached_answers() const { return impl_->cache.size(); }

ApiResponse Api::Get(const std::string& path,
                     const std::map<std::string, std::vector<std::string>>& params) {
  // The pages are left to cpp-httplib, which compresses text/ types itself; they are small.
  if (const WebFile* file = PageFile(path)) {
    return {200, std::string(file->content_type), std::string(file->content), "", ""};
  }
  if (!path.starts_with(kApi)) {
    const WebFile* page = FindWebFile(kNotFoundPage);
    return {404, std::string(page->content_type), std::string(page->content), "", ""};
  }
  ApiResponse response = Answer(path, params);
  Compress(&response);
  return response;
}

ApiResponse Api::Post(const std::string& path,
                      std::map<std::string, std::vector<std::string>> params, std::string_view body,
                      std::string_view content_type) {
  if (!path.starts_with(kApi)) return ErrorAnswer(405, "only addresses under /api/ take POST");
  // "application/json", perhaps with a charset after it.
  const std::string_view type = content_type.substr(0, content_type.find(';'));
  if (type == "application/json") {
    if (const Status added = AddJsonParams(body, &params); !added.ok()) return Fail(added);
  }
  return Get(path, params);
}

ApiResponse Api::Answer(const std::string& path,
                        const std::map<std::string, std::vector<std::string>>& params) {
  for (std::string_view name : kCommandLineOnly) {
    if (params.count(std::string(name))) {
      return ErrorAnswer(400, std::string(name) + " is a parameter of the command line only");
    }
  }
  Request request;
  request.spelling = kApiSpelling;
  request.params = params;
  if (!ToCommand(path, &request)) return ErrorAnswer(404, "no such page: " + path);
  // The commands that need no database.
  if (request.command == "picture") {
    Result<std::string> svg = RunPicture(request);
    if (!svg.ok()) return Fail(svg.error());
    return {200, "image/svg+xml; charset=utf-8", std::move(svg).value(), "", ""};
  }
  if (request.command == "position" || request.command == "pattern") {
    Result<Json> json = request.command == "position" ? RunPosition(request) : RunPattern(request);
    if (!json.ok()) return Fail(json.error());
    return JsonAnswer(200, json.value());
  }
  // The API always answers JSON; find's count is a number of its own.
  const bool counting = request.command == "find" && Counting(request);
  if (!counting && !request.params.count("format")) request.params["format"] = {"json"};
  // Parameters are checked before the database is opened, as on the command line.
  if (Status status = CheckRequest(request); !status.ok()) return Fail(status);
  if (request.command == "find" && !counting) {
    if (auto refused = SetPage(&request)) return *refused;
  }
  return impl_->Query(request);
}

namespace {

// cpp-httplib gives each connection a thread of its pool from accept to close, and reads a
// request with a time limit per read: a client that connects and sends nothing holds a thread for
// that limit, and one that sends a byte a second holds it for ever, through Ctrl-C too (stopping
// waits for every thread). The library keeps its sockets to itself (0.11, Debian 12), so a
// watchdog finds the server's connections among the process's open files (/proc/self/fd: the
// sockets whose local port is the server's) and shuts down those that spent more than
// kOutsideAnswer outside an answer (reading a request, writing an answer, waiting on a kept-alive
// connection), and, once the server stops, every connection not answering. Answers take one of
// `workers` places, so that slow clients cost a connection thread (the pool has
// kThreadsPerWorker per worker) for seconds at most, never a place that answers.
constexpr auto kOutsideAnswer = std::chrono::seconds(5);
constexpr int kThreadsPerWorker = 8;
constexpr auto kWatchdogTick = std::chrono::milliseconds(200);
constexpr auto kStaleAnswer = std::chrono::minutes(10);

class ConnectionWatch {
 public:
  explicit ConnectionWatch(int workers) : places_(workers) {}

  void SetPort(int port) { port_ = port; }

  // Runs `answer` in one of the places that answer. The connection (by the client's port) counts
  // as answering from here until Answered, once the answer is written.
  template <typename Answer>
  void Answering(int remote_port, Answer&& answer) {
    Mark(remote_port, true);
    places_.acquire();
    answer();
    places_.release();
  }
  void Answered(int remote_port) { Mark(remote_port, false); }

  // Until `done`: shuts down the connections that overstayed outside an answer (every one not
  // answering once `stopping`).
  void Watch(const std::atomic<bool>& stopping, const std::atomic<bool>& done) {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done) {
      Sweep(stopping);
      wake_.wait_for(lock, kWatchdogTick);
    }
  }
  void Wake() { wake_.notify_all(); }

 private:
  using Clock = std::chrono::steady_clock;
  struct Peer {
    int answering = 0;
    Clock::time_point last_answer{};  // when its last answer was made
  };
  struct Seen {
    Clock::time_point first;
    bool kept = false;  // seen in the last sweep
  };

  void Mark(int remote_port, bool answering) {
    std::lock_guard<std::mutex> lock(mutex_);
    Peer& peer = peers_[remote_port];
    peer.answering = answering ? peer.answering + 1 : std::max(0, peer.answering - 1);
    peer.last_answer = Clock::now();  // peers are forgotten a while after (Sweep)
  }

  // Under mutex_.
  void Sweep(bool stopping) {
    const Clock::time_point now = Clock::now();
    for (auto& [inode, seen] : seen_) seen.kept = false;
    DIR* fds = opendir("/proc/self/fd");
    if (fds == nullptr) return;
    while (const dirent* entry = readdir(fds)) {
      char* end = nullptr;
      const long fd = std::strtol(entry->d_name, &end, 10);
      if (end == entry->d_name || *end != '\0' || fd == dirfd(fds)) continue;
      struct stat info {};
      if (fstat(static_cast<int>(fd), &info) != 0 || !S_ISSOCK(info.st_mode)) continue;
      sockaddr_storage local{}, remote{};
      socklen_t local_size = sizeof(local), remote_size = sizeof(remote);
      if (getsockname(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&local), &local_size) !=
              0 ||
          getpeername(static_cast<int>(fd), reinterpret_cast<sockaddr*>(&remote), &remote_size) !=
              0) {
        continue;  // not connected: the listening socket, or another kind
      }
      if (PortOf(local) != port_) continue;
      auto [it, added] = seen_.try_emplace(info.st_ino, Seen{now});
      it->second.kept = true;
      Clock::time_point since = it->second.first;
      if (auto peer = peers_.find(PortOf(remote)); peer != peers_.end()) {
        // An answer whose writing failed is never marked answered: after the longest an answer
        // takes, the mark is stale.
        if (peer->second.answering > 0 && now - peer->second.last_answer < kStaleAnswer) continue;
        since = std::max(since, peer->second.last_answer);
      }
      if (!stopping && now - since <= kOutsideAnswer) continue;
      // The same socket still (a closed number may have been given to a new connection).
      struct stat again {};
      if (fstat(static_cast<int>(fd), &again) == 0 && again.st_ino == info.st_ino) {
        ::shutdown(static_cast<int>(fd), SHUT_RDWR);
      }
    }
    closedir(fds);
    std::erase_if(seen_, [](const auto& entry) { return !entry.second.kept; });
    std::erase_if(peers_, [now](const auto& entry) {
      return entry.second.answering == 0 && now - entry.second.last_answer > 4 * kOutsideAnswer;
    });
  }

  static int PortOf(const sockaddr_storage& address) {
    if (address.ss_family == AF_INET) {
      return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
    }
    if (address.ss_family == AF_INET6) {
      return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
    }
    return -1;
  }

  std::counting_semaphore<> places_;
  std::atomic<int> port_{-1};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::unordered_map<ino_t, Seen> seen_;  // the connections by their socket's inode
  std::unordered_map<int, Peer> peers_;   // by the client's port
};

}  // namespace

struct Server::Impl {
  explicit Impl(ServeOptions o)
      : options(o), api(std::move(o)), watch(std::max(1, options.workers)) {}
  const ServeOptions options;
  Api api;
  httplib::Server http;
  ConnectionWatch watch;
  std::atomic<bool> stopping{false};
  int listening = -1;  // the listening socket, once bound
};

Server::Server(ServeOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  httplib::Server& http = impl_->http;
  const int threads = std::max(1, impl_->options.workers) * kThreadsPerWorker;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(kMaxPayload);
  // Headers and body go out in separate writes: with Nagle's algorithm the body would wait for
  // the client's delayed acknowledgement of the headers, 40 ms on Linux, on every small answer.
  http.set_tcp_nodelay(true);
  // cpp-httplib listens with a backlog of 5 connections: past it, the kernel drops a client's
  // SYN, which the client sends again after 1 s, then 3 s. Bind listens again with the system's
  // backlog (Linux takes a second listen() as a new backlog).
  http.set_socket_options([this](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    impl_->listening = sock;
  });
  http.set_read_timeout(std::chrono::seconds(5));
  http.set_write_timeout(std::chrono::seconds(5));
  // Writes the answer to a GET or a POST.
  const auto answer = [this](const httplib::Request& in, httplib::Response& out, bool post) {
    std::map<std::string, std::vector<std::string>> params;
    for (const auto& [name, value] : in.params) params[name].push_back(value);
    ApiResponse response;
    impl_->watch.Answering(in.remote_port, [&] {
      response = post ? impl_->api.Post(in.path, std::move(params), in.body,
                                        in.get_header_value("Content-Type"))
                      : impl_->api.Get(in.path, params);
    });
    out.status = response.status;
    out.set_header("X-Content-Type-Options", "nosniff");
    // Pages run only their own scripts (never inline ones); SVG pictures run none. The game
    // page shows the SVG of /api/game/ID through a blob: address. The SVG's own <style> needs
    // inline styles.
    out.set_header("Content-Security-Policy",
                   "default-src 'self'; img-src 'self' blob:; style-src 'self' 'unsafe-inline'; "
                   "frame-ancestors 'none'; form-action 'self'; base-uri 'none'");
    out.set_header("Referrer-Policy", "no-referrer");
    // Answers change as 5d-index appends, and pages with a new build: always ask again.
    out.set_header("Cache-Control", "no-cache");
    if (!response.attachment.empty()) {
      out.set_header("Content-Disposition", "attachment; filename=\"" + response.attachment + "\"");
    }
    if (!response.gzip.empty()) {
      out.set_header("Vary", "Accept-Encoding");
      if (AcceptsGzip(in.get_header_value("Accept-Encoding"))) {
        out.set_header("Content-Encoding", "gzip");
        response.body = std::move(response.gzip);
      }
    }
    out.set_content(std::move(response.body), response.content_type);
  };
  // Every path, so that an unknown one is answered by Api::Get (404: JSON under /api/, the page
  // saying so elsewhere), never from disk.
  http.Get(".*", [answer](const httplib::Request& in, httplib::Response& out) {
    answer(in, out, false);
  });
  // The API with parameters in the body too: a form's (cpp-httplib reads those into in.params,
  // up to 8 KiB) or a JSON object's (Api::Post).
  http.Post(".*", [answer](const httplib::Request& in, httplib::Response& out) {
    answer(in, out, true);
  });
  // Called once an answer is written (or failed to be, as a connection's reading did).
  http.set_logger([this](const httplib::Request& in, const httplib::Response&) {
    impl_->watch.Answered(in.remote_port);
  });
  http.set_exception_handler(
      [](const httplib::Request&, httplib::Response& out, std::exception_ptr) {
        out.status = 500;
        out.set_content(DumpJson({{"error", "internal error"}}) + "\n", "application/json");
      });
}

Server::~Server() = default;

Result<int> Server::Bind() {
  const ServeOptions& options = impl_->options;
  const int port = options.port == 0
                       ? impl_->http.bind_to_any_port(options.host)
                       : (impl_->http.bind_to_port(options.host, options.port) ? options.port : -1);
  if (port < 0) {
    return Status::InvalidArgument("cannot listen on " + options.host + " port " +
                                   std::to_string(options.port));
  }
  impl_->watch.SetPort(port);
  if (impl_->listening >= 0) ::listen(impl_->listening, SOMAXCONN);
  return port;
}

bool Server::Listen() {
  // The first questions are answered while the server already listens.
  std::atomic<bool> stop{false};
  std::thread warm([this, &stop] { impl_->api.Warm(stop); });
  std::atomic<bool> done{false};
  std::thread watchdog([this, &done] { impl_->watch.Watch(impl_->stopping, done); });
  const bool served = impl_->http.listen_after_bind();
  stop = true;
  done = true;
  impl_->watch.Wake();
  watchdog.join();
  warm.join();
  return served;
}

void Server::Stop() {
  impl_->stopping = true;
  impl_->watch.Wake();
  impl_->http.stop();
}

}  // namespace fived
