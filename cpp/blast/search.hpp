// blastp -ungapped (with -comp_based_stats 0 -seg no) for one query against a set of subjects:
// the stages of lookup.hpp and ungapped.hpp, then blastp's ungapped cutoffs, E-values,
// E-value threshold and hit list (NCBI blast_engine.c, blast_parameters.c, blast_hits.c).
#pragma once

#include <cstdint>
#include <utility>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "blast/gapped.hpp"
#include "blast/matrices.hpp"
#include "blast/statistics.hpp"
#include "blast/ungapped.hpp"

namespace gpuseq::blast {

struct SearchCounters;

// Receives the two-hit stage's HSPs of subjects [first, last): hsps[i - first] for subject i;
// extensions (nullptr where the contexts ask for none, QueryContext::gapped_x_drop):
// (*extensions)[i - first][h], the seed_extension of HSP h (gapped.hpp), done or not.
using UngappedBatchSink =
    std::function<void(int32_t first, int32_t last, std::vector<std::vector<UngappedHsp>>& hsps,
                       std::vector<std::vector<SeedExtension>>* extensions)>;

// The two-hit stage in place of TwoHitFinder per subject (the bindings set the GPU's,
// cuda/blast/gpu_ungapped.hpp, for backend="cuda"): hands `sink` each subject's HSPs as
// TwoHitFinder::run gives them for these contexts, in batches of consecutive subjects in
// order; adds word hits and extensions. The search runs it on a thread of its own and its CPU
// threads take each batch as it comes (the GPU runs the next batch meanwhile).
using UngappedStage = std::function<void(
    const WordLookup& lookup, const uint8_t* codes, const std::vector<QueryContext>& contexts,
    int32_t window, const uint8_t* subjects, const int64_t* offsets, int32_t subject_count,
    SearchCounters* counters, const UngappedBatchSink& sink)>;

// The CPU's two-hit stage (TwoHitFinder) as an UngappedStage: one thread, batches of
// `batch_subjects` consecutive subjects, the HSPs' seed extensions where asked. The GPU
// stage's pipeline without a GPU, for tests.
UngappedStage batched_cpu_stage(int32_t batch_subjects);

struct UngappedSearchOptions {
  const ProteinMatrix* matrix = &blosum62_matrix();  // -matrix
  double evalue = 10.0;
  int32_t max_target_seqs = 500;
  int threshold = kDefaultThreshold;
  int window = kTwoHitWindow;
  double x_drop_bits = 7.0;        // -xdrop_ungap
  double gap_trigger_bits = 22.0;  // BLAST_GAP_TRIGGER_PROT (caps the ungapped cutoff)
  int32_t max_hsps = 0;            // -max_hsps: a subject's first N HSPs (0: all of them)
  int64_t searchsp = 0;            // -searchsp: the search space E-values use (0: computed)
  double qcov_hsp_perc = 0.0;      // -qcov_hsp_perc: HSPs covering less of the query go (0: none)
  // The number of subjects the statistics count (0: those searched). blastp -subject counts
  // its empty records too, which are not searched.
  int32_t db_sequences = 0;
  // The subjects' letters as read, where the searched codes differ (blastp -subject searches
  // O as X, as it does a query's): identities and positives compare them. nullptr: the codes.
  const uint8_t* subject_letters = nullptr;
  int threads = 0;                 // 0: all cores
  UngappedStage ungapped_stage;    // empty: TwoHitFinder on the CPU threads
};

// Everything blastp derives from the query and the database size before searching.
struct QueryStatistics {
  KarlinBlock kbp;  // the query's ungapped block (lambda, K, H)
  int32_t length_adjustment = 0;
  int64_t search_space = 0;  // effective search space (E-values use it)
  int32_t x_drop = 0;        // ungapped X-drop, raw score
  int32_t gap_trigger = 0;
  int32_t evalue_cutoff = 0;  // lowest score with E-value <= evalue
  int32_t word_cutoff = 0;    // ungapped HSPs are kept from this score on
};

// BlastInitialWordParametersNew/Update, BlastHitSavingParametersUpdate and
// BLAST_CalcEffLengths for an ungapped blastp search. db_length: total residues (or -dbsize),
// db_sequences: number of subjects, average_subject_length: the database's real total over
// its count (BlastSeqSrcGetAvgSeqLen; -dbsize does not change it).
QueryStatistics ungapped_query_statistics(const uint8_t* query, int32_t query_length,
                                          int64_t db_length, int32_t db_sequences,
                                          int64_t average_subject_length,
                                          const UngappedSearchOptions& options);

struct SearchHit {
  int32_t subject = 0;  // index into the subjects
  UngappedHsp hsp;      // its context: the query's index
  int32_t identities = 0;
  int32_t positives = 0;  // identities and formatter_positive pairs
  double evalue = 0.0;
  double bit_score = 0.0;
};

struct SearchCounters {
  int64_t word_hits = 0;
  int64_t extensions = 0;
  int64_t ungapped_hsps = 0;
  int64_t seed_extensions = 0;  // HSPs a pipelined stage extended ahead (SeedExtension done)
  // Wall seconds by stage: "lookup", "scan" (the subjects' two-hit stage, and for gapped
  // searches their preliminary gapped extension), "wait" (of "scan": the CPU threads' mean
  // time waiting for a pipelined stage's batches), "traceback", "lists" (hit lists); a
  // pipelined stage adds its own ("gpu_detect", ...).
  std::map<std::string, double> seconds;
};

// A query: its NCBIstdaa search buffer (O replaced by X, masked residues by X) and its
// original letters (for identities and positives only).
struct QueryInput {
  const uint8_t* codes = nullptr;
  const uint8_t* letters = nullptr;
  int32_t length = 0;
  // The [begin, end) ranges whose words enter the lookup table (blastp's lookup segments: the
  // query outside its mask); nullptr: the whole query.
  const std::vector<std::pair<int32_t, int32_t>>* lookup_segments = nullptr;
};

// blastp -ungapped for several queries, scanned together as blastp concatenates them. For
// each query, its rows in blastp's output order: subjects ranked by best E-value (values
// below 1e-180 tie), then best score, then the higher subject index first; each subject's
// HSPs by score. subjects: codes back to back, subject i is [offsets[i], offsets[i+1]).
// A query without statistics (e.g. all X) gets no rows.
std::vector<std::vector<SearchHit>> ungapped_search(
    const std::vector<QueryInput>& queries, const uint8_t* subjects, const int64_t* offsets,
    int32_t subject_count, int64_t db_length, const UngappedSearchOptions& options,
    std::vector<QueryStatistics>* statistics = nullptr, SearchCounters* counters = nullptr);

// Gapped blastp for one query.
struct GappedSearchOptions {
  const ProteinMatrix* matrix = &blosum62_matrix();  // -matrix
  // -gapopen, -gapextend: a row of the matrix's (else std::invalid_argument)
  int32_t gap_open = kGapOpen, gap_extend = kGapExtend;
  double evalue = 10.0;
  int32_t max_target_seqs = 500;
  int threshold = kDefaultThreshold;
  int window = kTwoHitWindow;
  double x_drop_ungapped_bits = 7.0;  // -xdrop_ungap
  double x_drop_gapped_bits = 15.0;   // -xdrop_gap
  double x_drop_final_bits = 25.0;    // -xdrop_gap_final
  double gap_trigger_bits = 22.0;
  int comp_based_stats = 0;  // 0, 1, 2 or 3 (spec 14)
  int32_t max_hsps = 0;      // -max_hsps: a subject's first N HSPs (0: all of them)
  // -searchsp (-1: not given). Given, even as 0, E-values and cutoffs are the classic
  // formula's over it (0: over the computed space), as blastp's OLD_FSC makes them.
  int64_t searchsp = -1;
  double qcov_hsp_perc = 0.0;  // -qcov_hsp_perc (0: every HSP), as UngappedSearchOptions
  int32_t db_sequences = 0;    // as UngappedSearchOptions
  const uint8_t* subject_letters = nullptr;  // as UngappedSearchOptions
  int threads = 0;
  UngappedStage ungapped_stage;  // empty: TwoHitFinder on the CPU threads
};

struct GappedSearchHit {
  int32_t subject = 0;
  GappedHsp hsp;  // final coordinates, score, E-value and alignment columns
  double bit_score = 0.0;
  int32_t identities = 0;
  int32_t positives = 0;  // identities and formatter_positive pairs
  int32_t gaps = 0;       // gap columns
  int32_t gap_opens = 0;  // runs of gap columns
};

struct GappedQueryStatistics {
  KarlinBlock ungapped;  // the query's own block (X-drop, gap trigger)
  int32_t x_drop_ungapped = 0, gap_trigger = 0, prelim_cutoff = 0, ungapped_cutoff = 0;
  int32_t x_drop_prelim = 0, x_drop_final = 0;
};

// Gapped blastp for several queries scanned together; for each query its rows in output
// order (as ungapped_search). The preliminary hit list keeps min(max(2N, 10), N + 50)
// subjects for the traceback (N = max_target_seqs).
std::vector<std::vector<GappedSearchHit>> gapped_search(
    const std::vector<QueryInput>& queries, const uint8_t* subjects, const int64_t* offsets,
    int32_t subject_count, int64_t db_length, const GappedSearchOptions& options,
    std::vector<GappedQueryStatistics>* statistics = nullptr, SearchCounters* counters = nullptr);

}  // namespace gpuseq::blast
