// LineReader: reads a text file line by line, plain or gzip-compressed, through zlib.
//
// zlib's gzread decompresses gzip input and passes any other file through unchanged, so one
// reader serves "docword.kos.txt" and "docword.kos.txt.gz" alike. Lines are returned without
// the trailing "\n" (and "\r"), as views into an internal buffer valid until the next call.
// The reader keeps the 1-based number of the last line returned, so parsers can name
// "file:line" in their errors (see Error()).
//
// Cost: O(bytes): one memchr per line over blocks of up to 1 MiB, plus inflate for gzip input.
// The buffers are sized to the input: a regular file's first block is its size (at least
// 4 KiB, at most 1 MiB), zlib's input buffer its size up to 128 KiB; a block that comes back
// full doubles the next one up to 1 MiB (gzip input, standard input from 64 KiB). Opening a
// 100-byte file thus allocates a few KiB instead of ~1.4 MiB, which matters for text corpora of
// one small file per document (data/text_reader.h) and for the fuzz targets.
// Measured through the UCI reader on top of it: data/uci_reader_benchmark.cc.
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(LineReader reader, LineReader::Open(path));
//   absl::string_view line;
//   while (reader.Next(&line)) { ...; if (bad) return reader.Error("expected ..."); }
//   SGMCMC_RETURN_IF_ERROR(reader.status());  // I/O or gzip error, if any
#ifndef SGMCMC_DATA_LINE_READER_H_
#define SGMCMC_DATA_LINE_READER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sgmcmc::data {

// The path that names standard input.
inline constexpr char kStandardInput[] = "-";

class LineReader {
 public:
  // Opens `path` (plain or gzip); kStandardInput ("-") reads standard input (plain or gzip
  // too), which cannot be rewound. NotFound if it cannot be opened.
  static absl::StatusOr<LineReader> Open(const std::string& path);

  LineReader(LineReader&&) noexcept;
  LineReader& operator=(LineReader&&) noexcept;
  ~LineReader();

  // Sets *line to the next line and returns true, or returns false at the end of the file or
  // on an I/O error (then status() is not OK). The last line need not end with "\n".
  bool Next(absl::string_view* line);

  // OK, or DataLoss naming the file when reading or decompressing failed (e.g. a truncated
  // gzip stream).
  const absl::Status& status() const { return status_; }

  // Restarts at the first line (line_number() becomes 0). Returns the reader's status;
  // FailedPrecondition for standard input.
  absl::Status Rewind();

  // 1-based number of the line last returned by Next(); 0 before the first.
  int64_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }
  // Uncompressed bytes consumed so far (lines returned, including their newlines).
  int64_t bytes_consumed() const { return bytes_consumed_; }

  // InvalidArgument "path:line: message" for the line last returned.
  absl::Status Error(absl::string_view message) const;

 private:
  struct GzFile;
  LineReader(std::string path, std::unique_ptr<GzFile> file, size_t first_block);
  // Moves the unread tail to the front of the buffer and appends the next block. Returns
  // false at the end of the input or on error.
  bool Fill();

  std::string path_;
  std::unique_ptr<GzFile> file_;
  std::string buffer_;
  size_t block_size_;  // bytes the next Fill() reads: from the input's size up to 1 MiB
  size_t begin_ = 0;  // first unread byte of buffer_
  size_t end_ = 0;    // one past the last valid byte of buffer_
  bool eof_ = false;
  int64_t line_number_ = 0;
  int64_t bytes_consumed_ = 0;
  absl::Status status_;
};

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_LINE_READER_H_
