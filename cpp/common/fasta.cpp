#include "common/fasta.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <vector>

#include "common/alphabet.hpp"
#include "common/errors.hpp"
#include "common/parallel.hpp"

#ifdef GPUSEQ_HAVE_ZLIB
#include <zlib.h>
#endif

namespace gpuseq {

namespace {

bool is_header_blank(char c) { return c == ' ' || c == '\t'; }
bool is_line_end(char c) { return c == '\n' || c == '\r'; }
// C isspace() in the "C" locale, Easel's test before a record and at the end of a name.
bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
// Easel keeps names and descriptions in C strings: a NUL byte ends them early. NCBI's reader
// keeps it (makeblastdb's title has '#' there).
const char* c_string_end(const char* begin, const char* end, bool line_start_headers) {
  return line_start_headers ? end : std::find(begin, end, '\0');
}

std::string describe_char(unsigned char c) {
  if (c >= 32 && c < 127) return std::string("'") + static_cast<char>(c) + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
  return buf;
}

// The first problem found while parsing a piece: where (byte offset in the piece) and what.
struct PieceError {
  int64_t offset = -1;
  bool alphabet = false;  // a bad sequence character (AlphabetError), not a structural problem
  std::string record;
  std::string message;
};

// Parses whole records in [begin, end), which starts at a '>' (after optional whitespace at the
// very start of a file). Appends to out. Mirrors Easel's FASTA reader: '>' anywhere in sequence
// text starts a new record; a header ends at CR or LF; the name runs up to the first
// whitespace (isspace: also VT and FF; with line_start_headers a space or tab), the
// description is the rest of the line after spaces and tabs, up to a ctrl-A (NCBI's separator
// of merged descriptions; trailing blanks kept).
// With line_start_headers (blastp's inputs), a '>' that does not begin its line is an error:
// NCBI's FASTA reader opens a record only at a line's first byte and drops any other '>' as an
// invalid residue, reading on the rest of the line as sequence, where Easel starts a record.
bool parse_records(const char* begin, const char* end, bool line_start_headers,
                   SequenceChunk& out, PieceError& err) {
  const char* p = begin;
  auto fail = [&](const char* where, std::string record, std::string message) {
    err.offset = where - begin;
    err.record = std::move(record);
    err.message = std::move(message);
    return false;
  };
  while (p < end && is_space(*p)) ++p;
  if (p < end && *p != '>') {
    // Reached for standard input, '.fa' names and an explicit FASTA format (other files are
    // detected and read by Easel): naming the format is the way out.
    std::string hint;
    const std::string_view head(p, static_cast<size_t>(std::min<int64_t>(end - p, 16)));
    if (head.rfind("ID ", 0) == 0) hint = " (this looks like EMBL/UniProt text; --tformat embl)";
    if (head.rfind("LOCUS", 0) == 0) hint = " (this looks like GenBank text; --tformat genbank)";
    if (head.rfind("# STOCKHOLM", 0) == 0)
      hint = " (this looks like a Stockholm alignment; --tformat stockholm)";
    return fail(p, "", "unexpected " + describe_char(*p) + "; expected FASTA to start with '>'" +
                           hint);
  }
  const std::string inside_a_line =
      "'>' inside a line: blastp (NCBI's FASTA reader) opens a record only at a line's start and "
      "reads this '>' as a residue it drops, and the rest of the line as sequence; move the "
      "'>' to the line's start, or remove it";
  if (line_start_headers && p < end && p > begin && !is_line_end(p[-1]))
    return fail(p, "", inside_a_line);

  // One buffer as large as the piece's text (a piece never has more residues than bytes),
  // trimmed at the end; records are written through a cursor.
  const size_t base = out.residues.size();
  out.residues.resize(base + static_cast<size_t>(end - begin));
  uint8_t* const first = out.residues.data();
  uint8_t* dst = first + base;
  auto trim = [&] { out.residues.resize(static_cast<size_t>(dst - first)); };
  while (p < end) {
    ++p;  // the '>'
    while (p < end && is_header_blank(*p)) ++p;
    const char* name = p;
    // blastp's names end at a blank alone: a vertical tab or form feed is in the first word
    // of makeblastdb's title (as '#'), where Easel's names end at any isspace().
    if (line_start_headers) {
      while (p < end && !is_header_blank(*p) && !is_line_end(*p)) ++p;
    } else {
      while (p < end && !is_space(*p)) ++p;
    }
    if (p == name) {
      trim();
      return fail(p, "", "no sequence name after '>'");
    }
    const std::string_view record(
        name, static_cast<size_t>(c_string_end(name, p, line_start_headers) - name));
    out.names.append(record);
    out.name_offsets.push_back(static_cast<int64_t>(out.names.size()));
    while (p < end && is_header_blank(*p)) ++p;
    const char* desc = p;
    while (p < end && !is_line_end(*p) && *p != '\x01') ++p;
    out.descriptions.append(desc, c_string_end(desc, p, line_start_headers));
    out.description_offsets.push_back(static_cast<int64_t>(out.descriptions.size()));
    while (p < end && !is_line_end(*p)) ++p;

    // Sequence text up to the next '>' (anywhere, as in Easel).
    for (; p < end && *p != '>'; ++p) {
      const uint8_t code = kFastaInputMap[static_cast<unsigned char>(*p)];
      if (code < kAminoKp) {
        *dst++ = code;
      } else if (code != kFastaIgnored) {
        trim();
        const std::string what = code == kFastaNonAscii ? "non-ASCII character " : "illegal character ";
        err.alphabet = true;
        return fail(p, std::string(record), what + describe_char(static_cast<unsigned char>(*p)) +
                                   " in sequence (not an amino-acid symbol)");
      }
    }
    if (line_start_headers && p < end && !is_line_end(p[-1])) {
      trim();
      return fail(p, std::string(record), inside_a_line);
    }
    out.offsets.push_back(static_cast<int64_t>(dst - first));
  }
  trim();
  return true;
}

// Record starts usable as split points: a '>' right after a line end (a header never contains
// CR or LF, so such a '>' always opens a record).
const char* next_record_start(const char* from, const char* end) {
  for (const char* p = from; p + 1 < end; ++p) {
    p = static_cast<const char*>(std::memchr(p, '>', static_cast<size_t>(end - p)));
    if (p == nullptr) return end;
    if (is_line_end(p[-1])) return p;
  }
  return end;
}

// The pieces' records joined into out, in order, each piece copied into its place on a
// thread of its own (one thread copying them one after another was a third of a block's time).
void join_parts(const std::vector<SequenceChunk>& parts, SequenceChunk& out) {
  const size_t n = parts.size();
  std::vector<size_t> residues(n + 1, 0), names(n + 1, 0), descriptions(n + 1, 0),
      records(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    residues[i + 1] = residues[i] + parts[i].residues.size();
    names[i + 1] = names[i] + parts[i].names.size();
    descriptions[i + 1] = descriptions[i] + parts[i].descriptions.size();
    records[i + 1] = records[i] + static_cast<size_t>(parts[i].count());
  }
  out = SequenceChunk();
  out.residues.resize(residues[n]);
  out.names.resize(names[n]);
  out.descriptions.resize(descriptions[n]);
  out.offsets.resize(records[n] + 1, 0);
  out.name_offsets.resize(records[n] + 1, 0);
  out.description_offsets.resize(records[n] + 1, 0);
  parallel_for_blocks(static_cast<int64_t>(n), 1, static_cast<int>(n),
                      [&](int64_t begin, int64_t end, int) {
                        for (int64_t i = begin; i < end; ++i) {
                          const SequenceChunk& part = parts[i];
                          std::copy(part.residues.begin(), part.residues.end(),
                                    out.residues.begin() + residues[i]);
                          std::copy(part.names.begin(), part.names.end(),
                                    out.names.begin() + names[i]);
                          std::copy(part.descriptions.begin(), part.descriptions.end(),
                                    out.descriptions.begin() + descriptions[i]);
                          for (int64_t k = 1; k <= part.count(); ++k) {
                            const size_t at = records[i] + static_cast<size_t>(k);
                            out.offsets[at] = static_cast<int64_t>(residues[i]) + part.offsets[k];
                            out.name_offsets[at] =
                                static_cast<int64_t>(names[i]) + part.name_offsets[k];
                            out.description_offsets[at] = static_cast<int64_t>(descriptions[i]) +
                                                          part.description_offsets[k];
                          }
                        }
                      });
}

int64_t count_lines(const char* begin, const char* end) {
  return std::count(begin, end, '\n');
}

// Parses [text, text+size) of whole records on up to `threads` threads. first_line is the line
// number of text[0], used in error messages. Returns the number of line ends in the text
// (counted by the same threads).
int64_t parse_block(const char* text, int64_t size, int threads, int64_t first_line,
                    bool line_start_headers, SequenceChunk& out) {
  const char* end = text + size;
  // Cut points: about equal pieces, each moved forward to a record start.
  const int64_t min_piece = 1 << 20;
  int pieces = static_cast<int>(std::min<int64_t>(std::max(1, threads), size / min_piece + 1));
  std::vector<const char*> cuts{text};
  for (int i = 1; i < pieces; ++i) {
    const char* c = next_record_start(text + size * i / pieces, end);
    if (c > cuts.back() && c < end) cuts.push_back(c);
  }
  cuts.push_back(end);
  pieces = static_cast<int>(cuts.size()) - 1;

  std::vector<SequenceChunk> parts(pieces);
  std::vector<PieceError> errors(pieces);
  std::vector<char> ok(pieces, 1);
  std::vector<int64_t> lines(pieces, 0);
  parallel_for_blocks(pieces, 1, pieces, [&](int64_t begin, int64_t end, int) {
    for (int64_t i = begin; i < end; ++i) {
      ok[i] = parse_records(cuts[i], cuts[i + 1], line_start_headers, parts[i], errors[i]);
      lines[i] = count_lines(cuts[i], cuts[i + 1]);
    }
  });
  for (int i = 0; i < pieces; ++i) {
    if (!ok[i]) {
      const char* where = cuts[i] + errors[i].offset;
      if (errors[i].alphabet)
        throw AlphabetError(first_line + count_lines(text, where), errors[i].record,
                            errors[i].message);
      throw FormatError(first_line + count_lines(text, where), errors[i].record, errors[i].message);
    }
  }
  if (pieces == 1)
    out = std::move(parts[0]);
  else
    join_parts(parts, out);
  int64_t total_lines = 0;
  for (int64_t l : lines) total_lines += l;
  return total_lines;
}

}  // namespace

// ---- input: plain or gzip file, or standard input --------------------------------------

struct FastaReader::Input {
#ifdef GPUSEQ_HAVE_ZLIB
  gzFile gz = nullptr;
  ~Input() {
    if (gz) gzclose(gz);
  }
  int64_t read(char* dst, int64_t n) {
    int64_t got = 0;
    while (got < n) {
      const unsigned want = static_cast<unsigned>(std::min<int64_t>(n - got, 1 << 30));
      const int r = gzread(gz, dst + got, want);
      int errnum = 0;
      if (r < 0) throw std::runtime_error(std::string("read error: ") + gzerror(gz, &errnum));
      if (r == 0) {
        // zlib ends a gzip stream that is cut short as if it were whole, and says so only
        // through gzerror (Z_BUF_ERROR): a partly copied file must not be a smaller database.
        gzerror(gz, &errnum);
        if (errnum == Z_BUF_ERROR)
          throw std::runtime_error("read error: the gzip stream ends early (a truncated file?)");
        break;
      }
      got += r;
    }
    return got;
  }
#else
  FILE* fp = nullptr;
  bool is_stdin = false;
  ~Input() {
    if (fp && !is_stdin) std::fclose(fp);
  }
  int64_t read(char* dst, int64_t n) {
    const size_t r = std::fread(dst, 1, static_cast<size_t>(n), fp);
    if (r < static_cast<size_t>(n) && std::ferror(fp)) throw std::runtime_error("read error");
    return static_cast<int64_t>(r);
  }
#endif
};

FastaReader::FastaReader(const std::string& path, int threads, bool line_start_headers)
    : input_(std::make_unique<Input>()),
      threads_(std::max(1, threads)),
      line_start_headers_(line_start_headers) {
  const bool is_stdin = path == "-";
#ifdef GPUSEQ_HAVE_ZLIB
  // gzread passes plain files through unchanged, so one code path reads both.
  input_->gz = is_stdin ? gzdopen(0, "rb") : gzopen(path.c_str(), "rb");
  if (input_->gz == nullptr)
    throw std::runtime_error("cannot open sequence file: " + std::string(std::strerror(errno)));
  gzbuffer(input_->gz, 1 << 20);
#else
  input_->is_stdin = is_stdin;
  input_->fp = is_stdin ? stdin : std::fopen(path.c_str(), "rb");
  if (input_->fp == nullptr)
    throw std::runtime_error("cannot open sequence file: " + std::string(std::strerror(errno)));
#endif
  fill(1 << 16);
#ifndef GPUSEQ_HAVE_ZLIB
  if (buffer_.size() >= 2 && static_cast<unsigned char>(buffer_[0]) == 0x1f &&
      static_cast<unsigned char>(buffer_[1]) == 0x8b)
    throw std::runtime_error("gzip input needs zlib, and this gpuseq build has none: "
                             "decompress the file first or rebuild with zlib headers");
#endif
  const auto first = std::find_if_not(buffer_.begin(), buffer_.end(), is_space);
  if (first == buffer_.end() && eof_) throw FormatError(0, "", "sequence file is empty");
}

FastaReader::~FastaReader() = default;

int FastaReader::first_text_char() {
  for (size_t i = 0;; ++i) {
    while (i == buffer_.size()) {
      if (eof_) return -1;
      fill(1 << 16);
    }
    if (!is_space(buffer_[i])) return static_cast<unsigned char>(buffer_[i]);
  }
}

int64_t FastaReader::read_raw(char* dst, int64_t n) {
  if (n <= 0) return 0;
  if (!buffer_.empty()) {
    const int64_t k = std::min<int64_t>(n, static_cast<int64_t>(buffer_.size()));
    std::memcpy(dst, buffer_.data(), static_cast<size_t>(k));
    buffer_.erase(buffer_.begin(), buffer_.begin() + k);
    return k;
  }
  if (eof_) return 0;
  const int64_t got = input_->read(dst, n);
  if (got < n) eof_ = true;
  bytes_read_ += got;
  return got;
}

int64_t FastaReader::fill(int64_t want) {
  if (eof_ || want <= 0) return 0;
  const size_t old = buffer_.size();
  buffer_.resize(old + static_cast<size_t>(want));
  const int64_t got = input_->read(buffer_.data() + old, want);
  buffer_.resize(old + static_cast<size_t>(got));
  if (got < want) eof_ = true;
  bytes_read_ += got;
  return got;
}

bool FastaReader::read_chunk(SequenceChunk& out, int64_t block_bytes) {
  block_bytes = std::max<int64_t>(block_bytes, 1 << 16);
  int64_t cut = 0;
  while (true) {
    if (static_cast<int64_t>(buffer_.size()) < block_bytes)
      fill(block_bytes - static_cast<int64_t>(buffer_.size()));
    if (eof_) {
      cut = static_cast<int64_t>(buffer_.size());
      break;
    }
    // Cut before the last record start so that only whole records are parsed.
    const char* data = buffer_.data();
    int64_t pos = static_cast<int64_t>(buffer_.size()) - 1;
    while (pos > 0 && !(data[pos] == '>' && is_line_end(data[pos - 1]))) --pos;
    if (pos > 0) {
      cut = pos;
      break;
    }
    block_bytes *= 2;  // one record longer than the block: read more
  }
  if (cut == 0) {
    out = SequenceChunk();
    return false;
  }
  buffer_first_line_ +=
      parse_block(buffer_.data(), cut, threads_, buffer_first_line_, line_start_headers_, out);
  buffer_.erase(buffer_.begin(), buffer_.begin() + cut);
  records_read_ += out.count();
  // Whitespace-only input was caught by the constructor; text without any '>' yields no record.
  return out.count() > 0;
}

SequenceChunk parse_fasta(const char* text, int64_t size, int threads) {
  SequenceChunk out;
  const char* end = text + size;
  const char* first = std::find_if_not(text, end, is_space);
  if (first == end) throw FormatError(0, "", "sequence text is empty");
  parse_block(text, size, threads, 1, false, out);
  return out;
}

void digitize_fasta_text(const char* text, int64_t size, const std::string& record,
                         std::vector<uint8_t>& out) {
  out.clear();
  out.reserve(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const uint8_t code = kFastaInputMap[c];
    if (code < kAminoKp) {
      out.push_back(code);
    } else if (code != kFastaIgnored) {
      throw AlphabetError(0, record,
                        (code == kFastaNonAscii ? "non-ASCII character " : "illegal character ") +
                            describe_char(c) + " at position " + std::to_string(i + 1) +
                            " (not an amino-acid symbol)");
    }
  }
}

}  // namespace gpuseq
