// Compressed game records; see record.h.
#include "schema/record.h"

// ZDICT_trainFromBuffer_fastCover and its parameters are in zdict.h's advanced section.
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

namespace fived {

namespace {
constexpr int kLevel = 3;
}  // namespace

std::string TrainRecordDictionary(const std::vector<std::string>& samples, size_t capacity) {
  std::string joined;
  std::vector<size_t> sizes;
  for (const std::string& s : samples) {
    joined += s;
    sizes.push_back(s.size());
  }
  std::string dictionary(capacity, '\0');
  // The fast-cover trainer with fixed parameters: ZDICT_trainFromBuffer runs the same trainer
  // for several segment sizes and keeps the best, four times the work for dictionaries that
  // compressed game records no better (2.78x and 2.90x on the benchmark's long and random games
  // either way).
  ZDICT_fastCover_params_t params{};
  params.k = 1000;  // segment size
  params.d = 8;     // the length of the substrings counted
  params.f = 20;    // log2 of the frequency table's size
  params.accel = 1;
  params.splitPoint = 1.0;  // train on every sample (no held-out test set)
  params.zParams.compressionLevel = kLevel;
  const size_t size =
      ZDICT_trainFromBuffer_fastCover(dictionary.data(), capacity, joined.data(), sizes.data(),
                                      static_cast<unsigned>(sizes.size()), params);
  if (ZDICT_isError(size)) return {};
  dictionary.resize(size);
  return dictionary;
}

struct RecordCodec::Impl {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  ZSTD_CDict* cdict = nullptr;
  ZSTD_DDict* ddict = nullptr;
  std::string frame;
  ~Impl() {
    ZSTD_freeCDict(cdict);
    ZSTD_freeDDict(ddict);
    ZSTD_freeCCtx(cctx);
    ZSTD_freeDCtx(dctx);
  }
};

Result<RecordCodec*> RecordCodecs::For(int64_t dictionary) {
  auto found = codecs_.find(dictionary);
  if (found != codecs_.end()) return found->second.get();
  std::string data;
  if (dictionary != 0) {
    Result<Statement> select = db_.Prepare("SELECT data FROM dictionaries WHERE id = ?1");
    if (!select.ok()) return select.error();
    select.value().Bind(1, dictionary);
    Result<StepResult> step = select.value().Step();
    if (!step.ok()) return step.error();
    if (step.value() != StepResult::kRow) return static_cast<RecordCodec*>(nullptr);
    const std::span<const uint8_t> blob = select.value().Blob(0);
    data.assign(reinterpret_cast<const char*>(blob.data()), blob.size());
  }
  return codecs_.emplace(dictionary, std::make_unique<RecordCodec>(data)).first->second.get();
}

RecordCodec::RecordCodec(std::string_view dictionary) : impl_(std::make_unique<Impl>()) {
  if (!dictionary.empty()) {
    impl_->cdict = ZSTD_createCDict(dictionary.data(), dictionary.size(), kLevel);
    impl_->ddict = ZSTD_createDDict(dictionary.data(), dictionary.size());
  }
}

RecordCodec::~RecordCodec() = default;

std::string RecordCodec::Compress(std::string_view text, std::string_view moves) {
  std::string& frame = impl_->frame;
  frame.clear();
  const uint32_t length = static_cast<uint32_t>(text.size());
  for (int i = 0; i < 4; ++i) frame.push_back(static_cast<char>(length >> (8 * i)));
  frame.append(text);
  frame.append(moves);
  std::string out(ZSTD_compressBound(frame.size()), '\0');
  const size_t size = impl_->cdict != nullptr
                          ? ZSTD_compress_usingCDict(impl_->cctx, out.data(), out.size(),
                                                     frame.data(), frame.size(), impl_->cdict)
                          : ZSTD_compressCCtx(impl_->cctx, out.data(), out.size(), frame.data(),
                                              frame.size(), kLevel);
  // Compressing into a buffer of ZSTD_compressBound bytes cannot fail.
  out.resize(ZSTD_isError(size) ? 0 : size);
  return out;
}

bool RecordCodec::Decompress(std::span<const uint8_t> data, std::string* text, std::string* moves) {
  const unsigned long long content = ZSTD_getFrameContentSize(data.data(), data.size());
  if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN ||
      content > (size_t{1} << 31)) {
    return false;
  }
  std::string& frame = impl_->frame;
  frame.resize(content);
  const size_t size =
      impl_->ddict != nullptr
          ? ZSTD_decompress_usingDDict(impl_->dctx, frame.data(), frame.size(), data.data(),
                                       data.size(), impl_->ddict)
          : ZSTD_decompressDCtx(impl_->dctx, frame.data(), frame.size(), data.data(), data.size());
  if (ZSTD_isError(size) || size != content) return false;
  if (frame.size() < 4) return false;
  uint32_t length = 0;
  for (int i = 0; i < 4; ++i)
    length |= static_cast<uint32_t>(static_cast<uint8_t>(frame[i])) << (8 * i);
  if (length > frame.size() - 4) return false;
  if (text != nullptr) text->assign(frame, 4, length);
  if (moves != nullptr) moves->assign(frame, 4 + length, std::string::npos);
  return true;
}

}  // namespace fived
