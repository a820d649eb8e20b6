// FASTA reader with Easel's rules (what hmmsearch and pyhmmer accept), for plain and gzip files.
// The file is read in large blocks; each block is cut at record starts and the pieces are parsed
// and digitized on several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/sequence_chunk.hpp"

namespace gpuseq {

class FastaReader {
 public:
  // path "-" reads standard input. Throws std::runtime_error if the file cannot be opened,
  // FormatError if it is empty or does not start with '>'. line_start_headers: blastp's rule
  // for where a record starts (a '>' elsewhere in a line is then a FormatError; fasta.cpp).
  FastaReader(const std::string& path, int threads, bool line_start_headers = false);
  ~FastaReader();
  FastaReader(const FastaReader&) = delete;
  FastaReader& operator=(const FastaReader&) = delete;

  // Reads whole records from about block_bytes of input text into out (replacing its contents).
  // Returns false when the input is exhausted and no record was read.
  bool read_chunk(SequenceChunk& out, int64_t block_bytes);

  // The first character of the input that is not white space (read on until one comes), or -1
  // for input of white space only. Standard input cannot be opened twice, so its format is
  // found here and, when it is not FASTA, the text goes on to another parser through
  // read_raw (hmmsearch detects EMBL and GenBank on standard input).
  int first_text_char();

  // Up to n bytes of the input not yet parsed, as read (gzip decompressed); 0 at its end. A
  // reader read this way is a byte stream: read_chunk must not be called after it.
  int64_t read_raw(char* dst, int64_t n);

  int64_t records_read() const { return records_read_; }
  int64_t bytes_read() const { return bytes_read_; }

 private:
  struct Input;
  int64_t fill(int64_t want);  // appends up to want bytes to buffer_, returns bytes appended

  std::unique_ptr<Input> input_;
  int threads_;
  bool line_start_headers_;
  std::vector<char, UninitializedAllocator<char>> buffer_;  // read but not yet parsed
  int64_t buffer_first_line_ = 1;  // line number of buffer_[0]
  bool eof_ = false;
  int64_t records_read_ = 0;
  int64_t bytes_read_ = 0;
};

// Parses FASTA text held in memory (whole records). The same rules and errors as FastaReader.
SequenceChunk parse_fasta(const char* text, int64_t size, int threads);

// Digitizes one sequence given as text with Easel's FASTA rules (whitespace ignored, '-' and
// digits illegal). Throws FormatError naming record on the first bad character.
void digitize_fasta_text(const char* text, int64_t size, const std::string& record,
                         std::vector<uint8_t>& out);

}  // namespace gpuseq
