// BLASTP stages (cpp/blast): each stage callable on its own, numpy arrays in and out.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/numpy_util.hpp"
#include "blast/alphabet.hpp"
#include "blast/composition.hpp"
#include "blast/gapped.hpp"
#include "blast/lookup.hpp"
#include "blast/matrices.hpp"
#include "blast/search.hpp"
#include "blast/seg.hpp"
#include "blast/statistics.hpp"
#include "blast/ungapped.hpp"

#ifdef GPUSEQ_WITH_CUDA
#include "blast/gpu_ungapped.hpp"
#endif

namespace gpuseq::bindings {

namespace {

using namespace gpuseq::blast;

// Subjects as NCBIstdaa codes back to back, subject i = codes[offsets[i]:offsets[i+1]].
struct SubjectArrays {
  const uint8_t* codes;
  const int64_t* offsets;
  int32_t count;
};

SubjectArrays subject_arrays(const CArray<uint8_t>& codes, const CArray<int64_t>& offsets) {
  if (codes.ndim() != 1 || offsets.ndim() != 1 || offsets.shape(0) < 1)
    throw std::invalid_argument("subjects: 1-D codes and at least one offset expected");
  const int64_t n = offsets.shape(0) - 1;
  const int64_t* o = offsets.data();
  if (o[0] != 0 || o[n] != codes.shape(0))
    throw std::invalid_argument("subject offsets must run from 0 to len(codes)");
  for (int64_t i = 0; i < n; ++i)
    if (o[i + 1] < o[i] || o[i + 1] - o[i] > INT32_MAX)
      throw std::invalid_argument("subject offsets must be increasing");
  if (n > INT32_MAX) throw std::invalid_argument("too many subjects");
  return {codes.data(), o, static_cast<int32_t>(n)};
}

void check_codes(const uint8_t* codes, int64_t n, const char* what) {
  for (int64_t i = 0; i < n; ++i)
    if (codes[i] >= kAlphabetSize)
      throw std::invalid_argument(std::string(what) + ": NCBIstdaa codes must be below 28");
}

int32_t query_length_of(const CArray<uint8_t>& query) {
  if (query.ndim() != 1 || query.shape(0) > INT32_MAX)
    throw std::invalid_argument("query must be a 1-D array of codes");
  check_codes(query.data(), query.shape(0), "query");
  return static_cast<int32_t>(query.shape(0));
}

using Segments = std::vector<std::pair<int32_t, int32_t>>;

// The queries' search buffers, original letters (identities) and lookup segments (None: the
// whole of every query), checked; the inputs point into the arguments.
std::vector<QueryInput> query_inputs(const std::vector<CArray<uint8_t>>& queries,
                                     const std::vector<CArray<uint8_t>>& letters,
                                     const std::optional<std::vector<Segments>>& segments) {
  if (queries.size() != letters.size())
    throw std::invalid_argument("one letters array per query expected");
  if (segments && segments->size() != queries.size())
    throw std::invalid_argument("one list of lookup segments per query expected");
  std::vector<QueryInput> inputs;
  for (size_t k = 0; k < queries.size(); ++k) {
    QueryInput q;
    q.length = query_length_of(queries[k]);
    if (letters[k].ndim() != 1 || letters[k].shape(0) != q.length)
      throw std::invalid_argument("query_letters must have the query's length");
    q.codes = queries[k].data();
    q.letters = letters[k].data();
    if (segments) {
      int32_t previous_end = 0;
      for (const auto& [begin, end] : (*segments)[k]) {
        if (begin < previous_end || end < begin || end > q.length)
          throw std::invalid_argument("lookup segments must be increasing [begin, end) ranges "
                                      "inside the query");
        previous_end = end;
      }
      q.lookup_segments = &(*segments)[k];
    }
    inputs.push_back(q);
  }
  return inputs;
}

py::dict karlin_dict(const KarlinBlock& k) {
  py::dict d;
  d["lambda"] = k.lambda;
  d["K"] = k.K;
  d["logK"] = k.logK;
  d["H"] = k.H;
  d["valid"] = k.valid();
  return d;
}

py::dict statistics_dict(const QueryStatistics& st) {
  py::dict d = karlin_dict(st.kbp);
  d["length_adjustment"] = st.length_adjustment;
  d["search_space"] = st.search_space;
  d["x_drop"] = st.x_drop;
  d["gap_trigger"] = st.gap_trigger;
  d["evalue_cutoff"] = st.evalue_cutoff;
  d["word_cutoff"] = st.word_cutoff;
  return d;
}

// The subjects the statistics count: 0 (those searched) or at least as many.
int32_t checked_db_sequences(int32_t db_sequences, int32_t searched) {
  if (db_sequences != 0 && db_sequences < searched)
    throw std::invalid_argument("db_sequences must be 0 or at least the number of subjects");
  return db_sequences;
}

// The subjects' letters as read beside their searched codes: as many, each a code.
const uint8_t* checked_subject_letters(const std::optional<CArray<uint8_t>>& letters,
                                       const CArray<uint8_t>& codes) {
  if (!letters) return nullptr;
  if (letters->ndim() != 1 || letters->shape(0) != codes.shape(0))
    throw std::invalid_argument("subject_letters must be as long as codes");
  check_codes(letters->data(), letters->shape(0), "subject_letters");
  return letters->data();
}

// -qcov_hsp_perc (0: every HSP), from 0 to 100 as blastp takes it.
double checked_qcov_hsp_perc(double qcov_hsp_perc) {
  if (!(qcov_hsp_perc >= 0.0 && qcov_hsp_perc <= 100.0))
    throw std::invalid_argument("qcov_hsp_perc must be from 0 to 100");
  return qcov_hsp_perc;
}

// -max_hsps (0 in the bindings: blastp's default, every HSP).
int32_t checked_max_hsps(int32_t max_hsps) {
  if (max_hsps < 0) throw std::invalid_argument("max_hsps must be 0 (all) or more");
  return max_hsps;
}

UngappedSearchOptions search_options(double evalue, int32_t max_target_seqs, int threshold,
                                     int window, double x_drop_bits, int threads) {
  if (!(evalue > 0)) throw std::invalid_argument("evalue must be positive");
  if (window < 1) throw std::invalid_argument("window must be at least 1");
  UngappedSearchOptions o;
  o.evalue = evalue;
  o.max_target_seqs = max_target_seqs;
  o.threshold = threshold;
  o.window = window;
  o.x_drop_bits = x_drop_bits;
  o.threads = threads;
  return o;
}

#ifdef GPUSEQ_WITH_CUDA
// Subjects kept on the GPU across searches, with the host arrays they were made from (a
// search given them must be given these arrays).
struct GpuBlastSubjects {
  CArray<uint8_t> codes;
  CArray<int64_t> offsets;
  std::shared_ptr<const cuda::blast::DeviceSubjects> device;
};

// The GPU stage's options from a dict (sort, bins, bin_capacity, batch_hits, extension,
// scoring, the seed extensions').
cuda::blast::GpuUngappedOptions gpu_stage_options(const py::dict& d) {
  cuda::blast::GpuUngappedOptions o;
  for (auto item : d) {
    const std::string key = py::str(item.first);
    if (key == "bins") {
      o.bins = item.second.cast<int32_t>();
    } else if (key == "hits_per_bin") {
      o.hits_per_bin = item.second.cast<int32_t>();
    } else if (key == "bin_capacity") {
      o.bin_capacity = item.second.cast<int32_t>();
    } else if (key == "batch_hits") {
      o.batch_hits = item.second.cast<int64_t>();
    } else if (key == "sort") {
      const std::string v = item.second.cast<std::string>();
      if (v != "tiles" && v != "bins")
        throw std::invalid_argument("sort must be 'tiles' or 'bins'");
      o.sort = v == "bins" ? cuda::blast::GpuHitSort::kBins : cuda::blast::GpuHitSort::kTiles;
    } else if (key == "extension") {
      const std::string v = item.second.cast<std::string>();
      if (v != "diagonal" && v != "hit" && v != "window")
        throw std::invalid_argument("extension must be 'diagonal', 'hit' or 'window'");
      o.extension = v == "window" ? cuda::blast::GpuExtension::kWindow
                    : v == "hit"  ? cuda::blast::GpuExtension::kHit
                                  : cuda::blast::GpuExtension::kDiagonal;
    } else if (key == "extend_seeds") {
      o.extend_seeds = item.second.cast<bool>();
    } else if (key == "seed_ring_columns") {
      o.seed_ring_columns = item.second.cast<int32_t>();
    } else if (key == "seed_max_rows") {
      o.seed_max_rows = item.second.cast<int32_t>();
    } else if (key == "scoring") {
      const std::string v = item.second.cast<std::string>();
      if (v != "auto" && v != "pssm" && v != "blosum62")
        throw std::invalid_argument("scoring must be 'auto', 'pssm' or 'blosum62'");
      o.scoring = v == "pssm"       ? cuda::blast::GpuScoring::kPssm
                  : v == "blosum62" ? cuda::blast::GpuScoring::kBlosum62
                                    : cuda::blast::GpuScoring::kAuto;
    } else {
      throw std::invalid_argument(
          "unknown GPU stage option '" + key +
          "' (sort, bins, hits_per_bin, bin_capacity, batch_hits, extension, "
          "scoring, extend_seeds, seed_ring_columns, seed_max_rows)");
    }
  }
  return o;
}
#endif

// The two-hit stage for the searches: "cpu" (none: TwoHitFinder on the search's threads),
// "cuda" (the GPU's, options as gpu_stage_options) or "cpu-batches" (TwoHitFinder on the
// stage's thread in batches of options["batch_subjects"]: the GPU's pipeline without a GPU).
UngappedStage ungapped_stage(const std::string& stage, const py::dict& options) {
  if (stage == "cpu") {
    if (!options.empty()) throw std::invalid_argument("the CPU stage takes no stage options");
    return {};
  }
  if (stage == "cpu-batches") {
    int32_t batch = 64;
    for (auto item : options) {
      if (py::str(item.first).cast<std::string>() != "batch_subjects")
        throw std::invalid_argument("the cpu-batches stage takes batch_subjects only");
      batch = item.second.cast<int32_t>();
    }
    return batched_cpu_stage(batch);
  }
  if (stage != "cuda") throw std::invalid_argument("stage must be 'cpu', 'cuda' or 'cpu-batches'");
#ifdef GPUSEQ_WITH_CUDA
  // "subjects": the searched subjects' copy on the GPU (GpuBlastSubjects), kept across searches.
  std::shared_ptr<const cuda::blast::DeviceSubjects> resident;
  py::dict settings;
  for (auto item : options) {
    if (py::str(item.first).cast<std::string>() == "subjects")
      resident = item.second.cast<const GpuBlastSubjects&>().device;
    else
      settings[item.first] = item.second;
  }
  const cuda::blast::GpuUngappedOptions gpu_options = gpu_stage_options(settings);
  return [gpu_options, resident](const WordLookup& lookup, const uint8_t* query,
                                 const std::vector<QueryContext>& contexts, int32_t window,
                                 const uint8_t* subjects, const int64_t* offsets,
                                 int32_t subject_count, SearchCounters* counters,
                                 const UngappedBatchSink& sink) {
    cuda::blast::GpuUngappedCounters c;
    std::vector<std::vector<UngappedHsp>> per_subject;
    std::vector<std::vector<SeedExtension>> extensions;
    const bool extended =
        gpu_options.extend_seeds &&
        std::any_of(contexts.begin(), contexts.end(), [](auto& q) { return q.gapped_x_drop > 0; });
    cuda::blast::gpu_ungapped_hsps(
        lookup, query, contexts, window, subjects, offsets, subject_count, gpu_options, &c,
        [&](int32_t first, int32_t last, std::vector<cuda::blast::SubjectHsp>& hsps) {
          per_subject.assign(static_cast<size_t>(last - first), {});
          extensions.assign(extended ? static_cast<size_t>(last - first) : 0, {});
          for (cuda::blast::SubjectHsp& h : hsps) {
            per_subject[h.subject - first].push_back(h.hsp);
            if (extended) extensions[h.subject - first].push_back(h.extension);
          }
          sink(first, last, per_subject, extended ? &extensions : nullptr);
        },
        resident.get());
    if (counters) {
      counters->word_hits += c.word_hits;
      counters->extensions += c.extensions;
      counters->seed_extensions += c.seed_extensions;
      counters->seconds["gpu_seed"] += c.seed_s;
      counters->seconds["gpu_seed_wait"] += c.seed_wait_s;
      counters->seconds["gpu_upload"] += c.upload_s;
      counters->seconds["gpu_detect"] += c.detect_s;
      counters->seconds["gpu_sort"] += c.sort_s;
      counters->seconds["gpu_filter"] += c.filter_s;
      counters->seconds["gpu_extend"] += c.extend_s;
      counters->seconds["gpu_order"] += c.order_s;
    }
  };
#else
  throw std::runtime_error("this gpuseq build has no CUDA code");
#endif
}

py::dict counters_dict(const SearchCounters& counters) {
  py::dict c;
  c["word_hits"] = counters.word_hits;
  c["extensions"] = counters.extensions;
  c["ungapped_hsps"] = counters.ungapped_hsps;
  c["seed_extensions"] = counters.seed_extensions;
  py::dict seconds;
  for (const auto& [stage, value] : counters.seconds) seconds[py::str(stage)] = value;
  c["seconds"] = seconds;
  return c;
}

// Named int32 fields of each row as NumPy columns of a dict (added to `d`).
template <class T>
py::dict int32_columns(const std::vector<T>& rows,
                       std::initializer_list<std::pair<const char*, int32_t T::*>> fields,
                       py::dict d = py::dict()) {
  for (const auto& [name, field] : fields) {
    std::vector<int32_t> column;
    column.reserve(rows.size());
    for (const T& row : rows) column.push_back(row.*field);
    d[name] = to_numpy(std::move(column));
  }
  return d;
}

py::dict hsp_rows(const std::vector<int32_t>& subject_index, const std::vector<UngappedHsp>& hsps) {
  py::dict d;
  d["subject"] = to_numpy(std::vector<int32_t>(subject_index));
  return int32_columns(hsps,
                       {{"q_start", &UngappedHsp::q_start},
                        {"s_start", &UngappedHsp::s_start},
                        {"length", &UngappedHsp::length},
                        {"score", &UngappedHsp::score},
                        {"seed_q", &UngappedHsp::seed_q},
                        {"seed_s", &UngappedHsp::seed_s}},
                       d);
}

py::dict seed_extension_rows(const std::vector<SeedExtension>& extensions) {
  return int32_columns(extensions, {{"q_off", &SeedExtension::q_off},
                                    {"q_end", &SeedExtension::q_end},
                                    {"s_off", &SeedExtension::s_off},
                                    {"s_end", &SeedExtension::s_end},
                                    {"score", &SeedExtension::score},
                                    {"seed_q", &SeedExtension::seed_q},
                                    {"seed_s", &SeedExtension::seed_s},
                                    {"done", &SeedExtension::done}});
}

TrueAaProbabilities true_aa_argument(const CArray<double>& p, const char* what) {
  if (p.ndim() != 1 || p.shape(0) != kTrueAminoAcids)
    throw std::invalid_argument(std::string(what) + ": 20 probabilities expected");
  TrueAaProbabilities out{};
  for (int i = 0; i < kTrueAminoAcids; ++i) out[i] = p.data()[i];
  return out;
}

}  // namespace

void bind_blast(py::module_& m) {
  {
    std::vector<int32_t> flat;
    for (const auto& row : blosum62()) flat.insert(flat.end(), row.begin(), row.end());
    // Lists, not arrays: an array made here would import NumPy with the module, and the CLI
    // imports the module first to start the CUDA driver while NumPy loads.
    m.attr("blast_blosum62") = py::cast(flat);
    const auto& map = easel_to_ncbi();
    m.attr("blast_easel_to_ncbi") = py::cast(std::vector<int>(map.begin(), map.end()));
    m.attr("blast_letters") = std::string(kNcbiLetters);
  }

  {
    std::vector<double> joint, background;
    for (const auto& row : matrix_joint_probabilities())
      joint.insert(joint.end(), row.begin(), row.end());
    const auto bg = matrix_background();
    background.assign(bg.begin(), bg.end());
    m.attr("blast_blosum62_joint_probabilities") = py::cast(joint);
    m.attr("blast_blosum62_background") = py::cast(background);
  }

  m.def(
      "blast_composition",
      [](CArray<uint8_t> codes) {
        const int32_t n = query_length_of(codes);
        const AaComposition c = read_composition(codes.data(), n);
        const TrueAaProbabilities p = true_aa_probabilities(c);
        return py::make_tuple(to_numpy(std::vector<double>(p.begin(), p.end())),
                              c.true_amino_acids);
      },
      py::arg("codes"),
      "Blast_ReadAaComposition: (20 probabilities in ARNDCQEGHILKMFPSTWYV order, letters "
      "counted); U counts as C.");

  m.def(
      "blast_matrix_adjust_rule",
      [](int mode, int32_t query_length, int32_t subject_length, CArray<double> query,
         CArray<double> subject) {
        if (mode < 0 || mode > 3) throw std::invalid_argument("mode must be 0 to 3");
        const MatrixAdjustRule rule = choose_matrix_adjust_rule(
            mode, query_length, subject_length, true_aa_argument(query, "query"),
            true_aa_argument(subject, "subject"));
        switch (rule) {
          case MatrixAdjustRule::kDontAdjust:
            return std::string("none");
          case MatrixAdjustRule::kScaleOldMatrix:
            return std::string("scale");
          default:
            return std::string("relative_entropy");
        }
      },
      py::arg("mode"), py::arg("query_length"), py::arg("subject_length"), py::arg("query"),
      py::arg("subject"), "Blast_ChooseMatrixAdjustRule: 'none', 'scale' or 'relative_entropy'.");

  m.def(
      "blast_composition_lambda",
      [](CArray<double> scores, CArray<double> rows, CArray<double> columns) {
        if (scores.ndim() != 2 || scores.shape(0) != scores.shape(1))
          throw std::invalid_argument("scores must be a square matrix");
        const auto n = scores.shape(0);
        if (rows.ndim() != 1 || columns.ndim() != 1 || rows.shape(0) != n || columns.shape(0) != n)
          throw std::invalid_argument("one probability per matrix row and column expected");
        std::vector<double> flat(scores.data(), scores.data() + n * n);
        int iterations = 0;
        const double lambda = lambda_full_precision(
            flat, static_cast<int>(n), rows.data(), columns.data(), kCompoLambdaErrorTolerance,
            kCompoLambdaFunctionTolerance, kCompoLambdaIterationLimit, &iterations);
        return py::make_tuple(lambda, iterations);
      },
      py::arg("scores"), py::arg("row_probabilities"), py::arg("column_probabilities"),
      "Blast_CalcLambdaFullPrecision with blastp's tolerances: (lambda or -1, iterations).");

  m.def(
      "blast_seg",
      [](CArray<uint8_t> codes, int window, double locut, double hicut) {
        const int32_t n = query_length_of(codes);
        SegParameters p;
        p.window = window;
        p.locut = locut;
        p.hicut = hicut;
        auto segments = seg_segments(codes.data(), n, p);
        std::sort(segments.begin(), segments.end());
        return segments;
      },
      py::arg("codes"), py::arg("window") = 10, py::arg("locut") = 1.8, py::arg("hicut") = 2.1,
      "SEG (blast_seg.c SeqBufferSeg): low-complexity segments [begin, end], sorted; the "
      "defaults are the composition stage's.");

  m.def(
      "blast_traceback_from_seed",
      [](CArray<uint8_t> query, CArray<uint8_t> subject, int32_t seed_q, int32_t seed_s,
         int32_t x_drop, CArray<int32_t> matrix, int32_t gap_open, int32_t gap_extend) {
        const int32_t qn = query_length_of(query), sn = query_length_of(subject);
        if (seed_q < 0 || seed_q >= qn || seed_s < 0 || seed_s >= sn)
          throw std::invalid_argument("the seed must lie inside both sequences");
        if (matrix.size() != kAlphabetSize * kAlphabetSize)
          throw std::invalid_argument("matrix must hold 28 x 28 scores");
        ScoreMatrix m;
        for (int i = 0; i < kAlphabetSize; ++i)
          for (int j = 0; j < kAlphabetSize; ++j) m[i][j] = matrix.data()[i * kAlphabetSize + j];
        const DpScoring scoring{&m, gap_open, gap_extend};
        std::vector<char> left_ops, right_ops;
        const uint8_t* q = query.data();
        const uint8_t* s = subject.data();
        const DpEnd left =
            traceback_align(Letters{q + seed_q, seed_q + 1, -1},
                            Letters{s + seed_s, seed_s + 1, -1}, x_drop, &left_ops, scoring);
        const DpEnd right = traceback_align(Letters{q + seed_q + 1, qn - seed_q - 1, 1},
                                            Letters{s + seed_s + 1, sn - seed_s - 1, 1}, x_drop,
                                            &right_ops, scoring);
        std::string ops(left_ops.begin(), left_ops.end());
        ops.append(right_ops.rbegin(), right_ops.rend());
        return py::make_tuple(left.score + right.score, seed_q - left.a_len + 1,
                              seed_q + right.a_len + 1, seed_s - left.b_len + 1,
                              seed_s + right.b_len + 1, ops);
      },
      py::arg("query"), py::arg("subject"), py::arg("seed_q"), py::arg("seed_s"), py::arg("x_drop"),
      py::arg("matrix"), py::arg("gap_open"), py::arg("gap_extend"),
      "BLAST_GappedAlignmentWithTraceback's two X-drop DPs from a seed pair with any matrix "
      "and gap costs: (score, q_off, q_end, s_off, s_end, columns 'M'/'I'/'D').");

  m.def(
      "blast_ideal_lambda",
      [](const std::string& matrix) { return ideal_ungapped_lambda(protein_matrix(matrix)); },
      py::arg("matrix") = "BLOSUM62",
      "A matrix's ideal ungapped lambda (Robinson & Robinson frequencies both sides).");

  m.def(
      "blast_matrix_scores",
      [](const std::string& matrix) {
        std::vector<int32_t> flat;
        for (const auto& row : protein_matrix(matrix).scores)
          flat.insert(flat.end(), row.begin(), row.end());
        return to_numpy(std::move(flat));
      },
      py::arg("matrix"),
      "A matrix blastp takes as its searches score with: 28 x 28 over NCBIstdaa (flat), U as "
      "C, O as X, the gap code -32768.");

  m.def(
      "blast_matrix_names",
      []() {
        std::vector<std::string> names;
        for (const MatrixTables& t : ncbi_matrix_tables()) names.emplace_back(t.name);
        return names;
      },
      "The matrices blastp takes that gpuseq searches with.");

  m.def(
      "blast_optimize_target_frequencies",
      [](CArray<double> q, CArray<double> row_sums, CArray<double> col_sums,
         double relative_entropy) {
        const auto n = row_sums.shape(0);
        if (row_sums.ndim() != 1 || col_sums.ndim() != 1 || col_sums.shape(0) != n ||
            q.size() != n * n)
          throw std::invalid_argument("q must hold n x n values for n row and column sums");
        std::vector<double> x(static_cast<size_t>(n * n));
        int iterations = 0;
        const int status = optimize_target_frequencies(
            x.data(), static_cast<int>(n), &iterations, q.data(), row_sums.data(), col_sums.data(),
            relative_entropy > 0.0, relative_entropy, 0.00000001, 2000);
        return py::make_tuple(to_numpy(std::move(x)), status, iterations);
      },
      py::arg("q"), py::arg("row_sums"), py::arg("col_sums"), py::arg("relative_entropy"),
      "Blast_OptimizeTargetFrequencies with blastp's tolerance (1e-8, 2000 iterations): "
      "(x, status 0 when converged, iterations); relative_entropy 0: unconstrained.");

  m.def(
      "blast_adjusted_matrix",
      [](int mode, CArray<uint8_t> query, CArray<uint8_t> subject, const std::string& name) {
        if (mode < 1 || mode > 3) throw std::invalid_argument("mode must be 1 to 3");
        const int32_t qn = query_length_of(query), sn = query_length_of(subject);
        const ProteinMatrix& scoring = protein_matrix(name);
        const double lambda = ideal_ungapped_lambda(scoring) / kCompoScalingFactor;
        const ScoreMatrix start = matrix_at_lambda(scoring, lambda);
        ScoreMatrix matrix = start;
        const MatrixAdjustment a =
            adjust_scores(&matrix, mode, read_composition(query.data(), qn), qn,
                          read_composition(subject.data(), sn), sn, lambda, start, scoring);
        std::vector<int32_t> flat;
        for (const auto& row : matrix) flat.insert(flat.end(), row.begin(), row.end());
        const char* rule = a.rule == MatrixAdjustRule::kScaleOldMatrix    ? "scale"
                           : a.rule == MatrixAdjustRule::kRelativeEntropy ? "relative_entropy"
                                                                          : "none";
        return py::make_tuple(to_numpy(std::move(flat)), std::string(rule), a.lambda_ratio,
                              a.status);
      },
      py::arg("mode"), py::arg("query"), py::arg("subject"), py::arg("matrix") = "BLOSUM62",
      "Blast_AdjustScores: the subject's 28 x 28 matrix in 1/32 units (flat), the rule, the "
      "lambda ratio (scaling) and the status (1: a sequence without true amino acids).");

  m.def(
      "blast_blosum62_at_lambda",
      [](double lambda) {
        std::vector<int32_t> flat;
        for (const auto& row : matrix_at_lambda(blosum62_matrix(), lambda))
          flat.insert(flat.end(), row.begin(), row.end());
        return to_numpy(std::move(flat));
      },
      py::arg("lambda_"), "Blast_Int4MatrixFromFreq on BLOSUM62's frequency ratios (flat).");

  m.def(
      "blast_query_karlin",
      [](CArray<uint8_t> query, const std::string& matrix) {
        int32_t n = query_length_of(query);
        return karlin_dict(query_ungapped_karlin(query.data(), n, protein_matrix(matrix)));
      },
      py::arg("query"), py::arg("matrix") = "BLOSUM62",
      "The query's ungapped Karlin-Altschul block (lambda, K, logK, H).");

  m.def("blast_length_adjustment", &length_adjustment, py::arg("K"), py::arg("logK"),
        py::arg("alpha_over_lambda"), py::arg("beta"), py::arg("query_length"),
        py::arg("db_length"), py::arg("db_sequences"), "BLAST_ComputeLengthAdjustment.");

  m.def(
      "blast_ungapped_query_statistics",
      [](CArray<uint8_t> query, int64_t db_length, int32_t db_sequences, double evalue,
         double x_drop_bits, int64_t average_subject_length) {
        int32_t n = query_length_of(query);
        if (db_sequences < 1) throw std::invalid_argument("db_sequences must be at least 1");
        UngappedSearchOptions o =
            search_options(evalue, 0, kDefaultThreshold, kTwoHitWindow, x_drop_bits, 1);
        if (average_subject_length < 0) average_subject_length = db_length / db_sequences;
        return statistics_dict(ungapped_query_statistics(query.data(), n, db_length, db_sequences,
                                                         average_subject_length, o));
      },
      py::arg("query"), py::arg("db_length"), py::arg("db_sequences"), py::arg("evalue"),
      py::arg("x_drop_bits") = 7.0, py::arg("average_subject_length") = -1,
      "Karlin block, effective search space, X-drop and cutoffs of an ungapped blastp query.");

  m.def(
      "blast_gapped_statistics",
      [](int32_t query_length, int64_t db_length, int32_t db_sequences, int32_t gap_open,
         int32_t gap_extend, const std::string& matrix) {
        if (query_length < 1 || db_sequences < 1)
          throw std::invalid_argument("query_length and db_sequences must be at least 1");
        const GapCostRow& row = protein_matrix(matrix).gap_costs(gap_open, gap_extend);
        const KarlinBlock kbp = gapped_karlin(row);
        py::dict d = karlin_dict(kbp);
        // BLAST_CalcEffLengths with the gapped block and its alpha, beta.
        const AlphaBeta ab = gapped_alpha_beta(row);
        const int32_t adjustment = length_adjustment(kbp.K, kbp.logK, ab.alpha / kbp.lambda,
                                                     ab.beta, query_length, db_length,
                                                     db_sequences);
        d["length_adjustment"] = adjustment;
        d["search_space"] =
            effective_search_space(query_length, db_length, db_sequences, adjustment);
        return d;
      },
      py::arg("query_length"), py::arg("db_length"), py::arg("db_sequences"),
      py::arg("gap_open") = kGapOpen, py::arg("gap_extend") = kGapExtend,
      py::arg("matrix") = "BLOSUM62",
      "A matrix's gapped block of the gap costs, length adjustment and effective search space "
      "of a query.");

  m.def(
      "blast_gap_cost_rows",
      [](const std::string& matrix) {
        py::list rows;
        for (const GapCostRow& r : protein_matrix(matrix).tables->rows) {
          py::dict d;
          d["gap_open"] = r.gap_open;
          d["gap_extend"] = r.gap_extend;
          d["lambda"] = r.params.lambda;
          d["K"] = r.params.K;
          d["H"] = r.params.H;
          d["alpha"] = r.params.alpha;
          d["beta"] = r.params.beta;
          d["C"] = r.C;
          d["alpha_v"] = r.alpha_v;
          d["sigma"] = r.sigma;
          rows.append(d);
        }
        return rows;
      },
      py::arg("matrix") = "BLOSUM62",
      "A matrix's rows of blast_stat.c (the ungapped one, 32767/32767, first): gap costs, "
      "lambda, K, H, alpha, beta, C, alpha_v, sigma.");

  m.def(
      "blast_matrix_defaults",
      [](const std::string& matrix) {
        const ProteinMatrix& m = protein_matrix(matrix);
        py::dict d;
        d["gap_open"] = m.tables->default_gap_open;
        d["gap_extend"] = m.tables->default_gap_extend;
        d["threshold"] = m.default_threshold;
        d["window_size"] = m.default_window_size;
        return d;
      },
      py::arg("matrix"),
      "What blastp takes with a matrix where not given: gap_open, gap_extend, threshold and "
      "window_size.");

  m.def(
      "blast_gapped_scores",
      [](CArray<int32_t> scores, int32_t query_length, CArray<int32_t> subject_lengths,
         int64_t db_length, int32_t gap_open, int32_t gap_extend, const std::string& matrix) {
        if (scores.ndim() != 1 || subject_lengths.ndim() != 1 ||
            scores.shape(0) != subject_lengths.shape(0))
          throw std::invalid_argument("scores and subject_lengths must be 1-D of one length");
        const ProteinMatrix& scoring = protein_matrix(matrix);
        const GapCostRow& row = scoring.gap_costs(gap_open, gap_extend);
        const KarlinBlock kbp = gapped_karlin(row);
        const GumbelBlock gbp = gumbel_block(row, scoring.ungapped_row(), db_length);
        std::vector<double> evalues(scores.shape(0)), bits(scores.shape(0));
        for (py::ssize_t i = 0; i < scores.shape(0); ++i) {
          evalues[i] =
              spouge_evalue(scores.data()[i], kbp, gbp, query_length, subject_lengths.data()[i]);
          bits[i] = bit_score(scores.data()[i], kbp);
        }
        py::dict d;
        d["evalue"] = to_numpy(std::move(evalues));
        d["bit_score"] = to_numpy(std::move(bits));
        return d;
      },
      py::arg("scores"), py::arg("query_length"), py::arg("subject_lengths"), py::arg("db_length"),
      py::arg("gap_open") = kGapOpen, py::arg("gap_extend") = kGapExtend,
      py::arg("matrix") = "BLOSUM62",
      "Gapped blastp's E-values (Spouge's finite-size correction) and bit scores of raw scores.");

  m.def(
      "blast_spouge_cutoff",
      [](double evalue, int32_t query_length, int32_t subject_length, int64_t db_length,
         int32_t gap_open, int32_t gap_extend) {
        if (!(evalue > 0)) throw std::invalid_argument("evalue must be positive");
        const ProteinMatrix& scoring = blosum62_matrix();
        const GapCostRow& row = scoring.gap_costs(gap_open, gap_extend);
        return spouge_cutoff(evalue, gapped_karlin(row),
                             gumbel_block(row, scoring.ungapped_row(), db_length), query_length,
                             subject_length);
      },
      py::arg("evalue"), py::arg("query_length"), py::arg("subject_length"), py::arg("db_length"),
      py::arg("gap_open") = kGapOpen, py::arg("gap_extend") = kGapExtend,
      "BLAST_SpougeEtoS: the largest gapped score whose E-value is still above evalue.");

  m.def(
      "blast_word_hits",
      [](CArray<uint8_t> query, CArray<uint8_t> codes, CArray<int64_t> offsets, int threshold) {
        int32_t n = query_length_of(query);
        SubjectArrays subjects = subject_arrays(codes, offsets);
        std::vector<int32_t> subject_index, q_off, s_off;
        {
          py::gil_scoped_release release;
          WordLookup lookup(query.data(), n, threshold);
          for (int32_t i = 0; i < subjects.count; ++i) {
            const int64_t begin = subjects.offsets[i];
            scan_subject(lookup, subjects.codes + begin,
                         static_cast<int32_t>(subjects.offsets[i + 1] - begin),
                         [&](int32_t q, int32_t s) {
                           subject_index.push_back(i);
                           q_off.push_back(q);
                           s_off.push_back(s);
                         });
          }
        }
        py::dict d;
        d["subject"] = to_numpy(std::move(subject_index));
        d["query_offset"] = to_numpy(std::move(q_off));
        d["subject_offset"] = to_numpy(std::move(s_off));
        return d;
      },
      py::arg("query"), py::arg("codes"), py::arg("offsets"),
      py::arg("threshold") = kDefaultThreshold,
      "Word hits (subject, query offset, subject offset) in blastp's scan order.");

  m.def(
      "blast_ungapped_hsps",
      [](CArray<uint8_t> query, CArray<uint8_t> codes, CArray<int64_t> offsets, int32_t x_drop,
         int32_t cutoff, int window, int threshold) {
        int32_t n = query_length_of(query);
        SubjectArrays subjects = subject_arrays(codes, offsets);
        std::vector<int32_t> subject_index;
        std::vector<UngappedHsp> hsps;
        int64_t word_hits = 0, extensions = 0;
        {
          py::gil_scoped_release release;
          WordLookup lookup(query.data(), n, threshold);
          UngappedParams params;
          params.x_drop = x_drop;
          params.cutoff = cutoff;
          params.window = window;
          TwoHitFinder finder(lookup, query.data(), n, params);
          for (int32_t i = 0; i < subjects.count; ++i) {
            const int64_t begin = subjects.offsets[i];
            for (const UngappedHsp& h : finder.run(
                     subjects.codes + begin, static_cast<int32_t>(subjects.offsets[i + 1] - begin),
                     &word_hits, &extensions)) {
              subject_index.push_back(i);
              hsps.push_back(h);
            }
          }
        }
        py::dict c;
        c["word_hits"] = word_hits;
        c["extensions"] = extensions;
        return py::make_tuple(hsp_rows(subject_index, hsps), c);
      },
      py::arg("query"), py::arg("codes"), py::arg("offsets"), py::arg("x_drop"), py::arg("cutoff"),
      py::arg("window") = kTwoHitWindow, py::arg("threshold") = kDefaultThreshold,
      "Two-hit ungapped extensions scoring at least cutoff, per subject in blastp's order: "
      "(rows, counters word_hits and extensions).");

  m.def(
      "blast_seed_extensions",
      [](CArray<uint8_t> query, CArray<uint8_t> codes, CArray<int64_t> offsets,
         CArray<int32_t> subject, CArray<int32_t> q_start, CArray<int32_t> s_start,
         CArray<int32_t> length, int32_t x_drop, int32_t ring_columns, int32_t max_rows,
         int32_t gap_open, int32_t gap_extend, const std::string& matrix) {
        const ProteinMatrix& scoring = protein_matrix(matrix);
        const int32_t n = query_length_of(query);
        SubjectArrays subjects = subject_arrays(codes, offsets);
        check_codes(subjects.codes, codes.shape(0), "subjects");
        const py::ssize_t count = subject.shape(0);
        if (q_start.shape(0) != count || s_start.shape(0) != count || length.shape(0) != count)
          throw std::invalid_argument("subject, q_start, s_start and length differ in length");
        std::vector<SeedExtension> out(static_cast<size_t>(count));
        for (py::ssize_t k = 0; k < count; ++k) {
          const int32_t i = subject.data()[k];
          if (i < 0 || i >= subjects.count)
            throw std::invalid_argument("HSP " + std::to_string(k) + ": no subject " +
                                        std::to_string(i));
          const auto sn = static_cast<int32_t>(subjects.offsets[i + 1] - subjects.offsets[i]);
          UngappedHsp u;
          u.q_start = q_start.data()[k];
          u.s_start = s_start.data()[k];
          u.length = length.data()[k];
          if (u.length < 1 || u.q_start < 0 || u.s_start < 0 || u.q_start + u.length > n ||
              u.s_start + u.length > sn)
            throw std::invalid_argument("HSP " + std::to_string(k) +
                                        " lies outside its query or subject");
          out[static_cast<size_t>(k)] =
              seed_extension(query.data(), n, subjects.codes + subjects.offsets[i], sn, u, x_drop,
                             ring_columns, max_rows, gap_open, gap_extend, scoring.scores);
        }
        return seed_extension_rows(out);
      },
      py::arg("query"), py::arg("codes"), py::arg("offsets"), py::arg("subject"),
      py::arg("q_start"), py::arg("s_start"), py::arg("length"), py::arg("x_drop"),
      py::arg("ring_columns") = 0, py::arg("max_rows") = std::numeric_limits<int32_t>::max(),
      py::arg("gap_open") = kGapOpen, py::arg("gap_extend") = kGapExtend,
      py::arg("matrix") = "BLOSUM62",
      "The preliminary gapped stage's extension of each ungapped HSP (cpp/blast/semi_gapped.hpp: "
      "its gapped start, the score-only DPs to both sides): columns q_off, q_end, s_off, s_end, "
      "score, seed_q, seed_s, done. ring_columns > 0: the DP in a ring of that many columns and at "
      "most max_rows rows a direction as "
      "the GPU's, done = 0 where its live columns do not fit.");

#ifdef GPUSEQ_WITH_CUDA
  m.def(
      "gpu_blast_ungapped_hsps",
      [](CArray<uint8_t> query, CArray<uint8_t> codes, CArray<int64_t> offsets, int32_t x_drop,
         int32_t cutoff, int window, int threshold, int32_t bins, int32_t bin_capacity,
         int64_t batch_hits, const std::string& extension, const std::string& scoring,
         int32_t hits_per_bin, int32_t gapped_x_drop, int32_t seed_ring_columns,
         int32_t seed_max_rows, const std::string& sort, int32_t gap_open, int32_t gap_extend,
         const std::string& matrix) {
        int32_t n = query_length_of(query);
        const ProteinMatrix& scores = protein_matrix(matrix);
        SubjectArrays subjects = subject_arrays(codes, offsets);
        check_codes(subjects.codes, codes.shape(0), "subjects");
        if (window < 1) throw std::invalid_argument("window must be at least 1");
        py::dict given;
        given["bins"] = bins;
        given["bin_capacity"] = bin_capacity;
        given["batch_hits"] = batch_hits;
        given["extension"] = extension;
        given["scoring"] = scoring;
        given["hits_per_bin"] = hits_per_bin;
        given["seed_ring_columns"] = seed_ring_columns;
        given["seed_max_rows"] = seed_max_rows;
        given["extend_seeds"] = gapped_x_drop > 0;
        given["sort"] = sort;
        const cuda::blast::GpuUngappedOptions options = gpu_stage_options(given);
        if (gapped_x_drop < 0) throw std::invalid_argument("gapped_x_drop must be >= 0");
        std::vector<int32_t> subject_index;
        std::vector<UngappedHsp> hsps;
        std::vector<SeedExtension> extended;
        cuda::blast::GpuUngappedCounters counters;
        {
          py::gil_scoped_release release;
          WordLookup lookup(query.data(), n, threshold, scores.scores);
          for (const cuda::blast::SubjectHsp& h : cuda::blast::gpu_ungapped_hsps(
                   lookup, query.data(),
                   {QueryContext{0, n, x_drop, cutoff, gapped_x_drop, gap_open, gap_extend}},
                   window, subjects.codes, subjects.offsets, subjects.count, options, &counters)) {
            subject_index.push_back(h.subject);
            hsps.push_back(h.hsp);
            extended.push_back(h.extension);
          }
        }
        py::dict rows = hsp_rows(subject_index, hsps);
        if (gapped_x_drop > 0) rows["extension"] = seed_extension_rows(extended);
        py::dict c;
        c["word_hits"] = counters.word_hits;
        c["pairs"] = counters.pairs;
        c["extensions"] = counters.extensions;
        c["overflowed_subjects"] = counters.overflowed_subjects;
        c["large_tiles"] = counters.large_tiles;
        c["batches"] = counters.batches;
        c["upload_s"] = counters.upload_s;
        c["detect_s"] = counters.detect_s;
        c["sort_s"] = counters.sort_s;
        c["filter_s"] = counters.filter_s;
        c["extend_s"] = counters.extend_s;
        c["order_s"] = counters.order_s;
        c["seed_extensions"] = counters.seed_extensions;
        c["seed_s"] = counters.seed_s;
        c["seed_wait_s"] = counters.seed_wait_s;
        return py::make_tuple(rows, c);
      },
      py::arg("query"), py::arg("codes"), py::arg("offsets"), py::arg("x_drop"), py::arg("cutoff"),
      py::arg("window") = kTwoHitWindow, py::arg("threshold") = kDefaultThreshold,
      py::arg("bins") = 0, py::arg("bin_capacity") = 0, py::arg("batch_hits") = 0,
      py::arg("extension") = "hit", py::arg("scoring") = "auto", py::arg("hits_per_bin") = 24,
      py::arg("gapped_x_drop") = 0, py::arg("seed_ring_columns") = 256,
      py::arg("seed_max_rows") = std::numeric_limits<int32_t>::max(), py::arg("sort") = "tiles",
      py::arg("gap_open") = kGapOpen, py::arg("gap_extend") = kGapExtend,
      py::arg("matrix") = "BLOSUM62",
      "blast_ungapped_hsps on the GPU (cuda/blast: hit detection and sorting by diagonal "
      "('tiles': in shared memory, a tile of diagonals at a time; 'bins': the paper's bins and "
      "CUB's segmented sort), the two-hit filter, the diagonal-based ('diagonal': a thread per "
      "diagonal), hit-based ('hit': a thread per pair, then each diagonal replayed) or "
      "window-based ('window': a warp per diagonal, 32 cells a step) extension, scored from a "
      "query PSSM or BLOSUM62 in shared memory (scoring 'pssm', 'blosum62' or 'auto')): "
      "(rows, counters and seconds per stage).");

  py::class_<GpuBlastSubjects>(m, "GpuBlastSubjects",
                               "Subjects (NCBIstdaa codes and offsets) uploaded to the GPU once "
                               "for every search given them (stage option 'subjects'); the "
                               "arrays are kept and must be the searches' own.")
      .def(py::init([](CArray<uint8_t> codes, CArray<int64_t> offsets) {
             const SubjectArrays subjects = subject_arrays(codes, offsets);
             auto held = std::make_unique<GpuBlastSubjects>();
             held->codes = codes;
             held->offsets = offsets;
             py::gil_scoped_release release;
             held->device = std::make_shared<const cuda::blast::DeviceSubjects>(
                 subjects.codes, subjects.offsets, subjects.count);
             return held;
           }),
           py::arg("codes"), py::arg("offsets"))
      .def_property_readonly("count", [](const GpuBlastSubjects& s) { return s.device->count(); })
      .def_property_readonly("residue_count",
                             [](const GpuBlastSubjects& s) { return s.device->residues(); });
#endif

  m.def(
      "blast_ungapped_search",
      [](std::vector<CArray<uint8_t>> queries, std::vector<CArray<uint8_t>> letters,
         CArray<uint8_t> codes, CArray<int64_t> offsets, int64_t db_length, double evalue,
         int32_t max_target_seqs, int threshold, int window, double x_drop_bits, int threads,
         std::optional<std::vector<Segments>> segments, const std::string& stage,
         const py::dict& stage_options, int32_t max_hsps, int64_t searchsp,
         double qcov_hsp_perc, int32_t db_sequences,
         std::optional<CArray<uint8_t>> subject_letters, const std::string& matrix) {
        std::vector<QueryInput> inputs = query_inputs(queries, letters, segments);
        SubjectArrays subjects = subject_arrays(codes, offsets);
        check_codes(subjects.codes, codes.shape(0), "subjects");
        UngappedSearchOptions o =
            search_options(evalue, max_target_seqs, threshold, window, x_drop_bits, threads);
        o.max_hsps = checked_max_hsps(max_hsps);
        if (searchsp < 0) throw std::invalid_argument("searchsp must be 0 (computed) or more");
        o.searchsp = searchsp;
        o.qcov_hsp_perc = checked_qcov_hsp_perc(qcov_hsp_perc);
        o.db_sequences = checked_db_sequences(db_sequences, subjects.count);
        o.subject_letters = checked_subject_letters(subject_letters, codes);
        o.matrix = &protein_matrix(matrix);
        o.ungapped_stage = ungapped_stage(stage, stage_options);
        std::vector<QueryStatistics> st;
        SearchCounters counters;
        std::vector<std::vector<SearchHit>> hits;
        {
          py::gil_scoped_release release;
          hits = ungapped_search(inputs, subjects.codes, subjects.offsets, subjects.count,
                                 db_length, o, &st, &counters);
        }
        py::list out;
        for (size_t k = 0; k < hits.size(); ++k) {
          std::vector<int32_t> subject_index, q_start, s_start, length, score, identities,
              positives;
          std::vector<double> evalues, bits;
          for (const SearchHit& h : hits[k]) {
            subject_index.push_back(h.subject);
            q_start.push_back(h.hsp.q_start);
            s_start.push_back(h.hsp.s_start);
            length.push_back(h.hsp.length);
            score.push_back(h.hsp.score);
            identities.push_back(h.identities);
            positives.push_back(h.positives);
            evalues.push_back(h.evalue);
            bits.push_back(h.bit_score);
          }
          py::dict d;
          d["subject"] = to_numpy(std::move(subject_index));
          d["q_start"] = to_numpy(std::move(q_start));
          d["s_start"] = to_numpy(std::move(s_start));
          d["length"] = to_numpy(std::move(length));
          d["score"] = to_numpy(std::move(score));
          d["identities"] = to_numpy(std::move(identities));
          d["positives"] = to_numpy(std::move(positives));
          d["evalue"] = to_numpy(std::move(evalues));
          d["bit_score"] = to_numpy(std::move(bits));
          d["statistics"] = statistics_dict(st[k]);
          out.append(d);
        }
        return py::make_tuple(out, counters_dict(counters));
      },
      py::arg("queries"), py::arg("query_letters"), py::arg("codes"), py::arg("offsets"),
      py::arg("db_length"), py::arg("evalue") = 10.0, py::arg("max_target_seqs") = 500,
      py::arg("threshold") = kDefaultThreshold, py::arg("window") = kTwoHitWindow,
      py::arg("x_drop_bits") = 7.0, py::arg("threads") = 0, py::arg("lookup_segments") = py::none(),
      py::arg("stage") = "cpu", py::arg("stage_options") = py::dict(), py::arg("max_hsps") = 0,
      py::arg("searchsp") = 0, py::arg("qcov_hsp_perc") = 0.0, py::arg("db_sequences") = 0,
      py::arg("subject_letters") = py::none(), py::arg("matrix") = "BLOSUM62",
      "blastp -ungapped for several queries scanned together (stage: 'cpu', 'cuda' the "
      "two-hit stage on the GPU, stage_options its bins, bin_capacity, batch_hits, extension, "
      "scoring; 'cpu-batches' the CPU's stage pipelined as the GPU's, stage_options "
      "batch_subjects): (one dict of rows in output order and statistics per query, "
      "counters: word_hits, extensions, ungapped_hsps, seconds by stage). "
      "lookup_segments: per query the [begin, end) ranges whose words enter the lookup table "
      "(blastp's query outside its mask). max_hsps: -max_hsps, each subject's first HSPs "
      "(0: all). searchsp: -searchsp, the search space of the E-values (0: computed). "
      "qcov_hsp_perc: -qcov_hsp_perc, the least percent of the query an HSP covers (0: any). "
      "db_sequences: the number of subjects the statistics count (0: those given; blastp "
      "-subject counts its empty records too). subject_letters: the subjects as read, where "
      "codes differ from them (blastp -subject searches O as X): identities and positives "
      "compare them.");

  m.def(
      "blast_gapped_search",
      [](std::vector<CArray<uint8_t>> queries, std::vector<CArray<uint8_t>> letters,
         CArray<uint8_t> codes, CArray<int64_t> offsets, int64_t db_length, double evalue,
         int32_t max_target_seqs, int threshold, int window, double x_drop_ungapped_bits,
         double x_drop_gapped_bits, double x_drop_final_bits, int threads, int comp_based_stats,
         std::optional<std::vector<Segments>> segments, const std::string& stage,
         const py::dict& stage_options, int32_t max_hsps, int64_t searchsp,
         double qcov_hsp_perc, int32_t db_sequences,
         std::optional<CArray<uint8_t>> subject_letters, int32_t gap_open, int32_t gap_extend,
         const std::string& matrix) {
        std::vector<QueryInput> inputs = query_inputs(queries, letters, segments);
        const ProteinMatrix& scoring = protein_matrix(matrix);
        scoring.gap_costs(gap_open, gap_extend);  // (checked before the search starts)
        if (comp_based_stats < 0 || comp_based_stats > 3)
          throw std::invalid_argument("comp_based_stats must be 0, 1, 2 or 3");
        SubjectArrays subjects = subject_arrays(codes, offsets);
        check_codes(subjects.codes, codes.shape(0), "subjects");
        if (!(evalue > 0)) throw std::invalid_argument("evalue must be positive");
        if (window < 1) throw std::invalid_argument("window must be at least 1");
        GappedSearchOptions o;
        o.evalue = evalue;
        o.max_target_seqs = max_target_seqs;
        o.threshold = threshold;
        o.window = window;
        o.x_drop_ungapped_bits = x_drop_ungapped_bits;
        o.x_drop_gapped_bits = x_drop_gapped_bits;
        o.x_drop_final_bits = x_drop_final_bits;
        o.threads = threads;
        o.comp_based_stats = comp_based_stats;
        o.matrix = &scoring;
        o.gap_open = gap_open;
        o.gap_extend = gap_extend;
        o.max_hsps = checked_max_hsps(max_hsps);
        if (searchsp < -1) throw std::invalid_argument("searchsp must be -1 (not given) or more");
        o.searchsp = searchsp;
        o.qcov_hsp_perc = checked_qcov_hsp_perc(qcov_hsp_perc);
        o.db_sequences = checked_db_sequences(db_sequences, subjects.count);
        o.subject_letters = checked_subject_letters(subject_letters, codes);
        o.ungapped_stage = ungapped_stage(stage, stage_options);
        std::vector<GappedQueryStatistics> st;
        SearchCounters counters;
        std::vector<std::vector<GappedSearchHit>> hits;
        {
          py::gil_scoped_release release;
          hits = gapped_search(inputs, subjects.codes, subjects.offsets, subjects.count, db_length,
                               o, &st, &counters);
        }
        py::list out;
        for (size_t k = 0; k < hits.size(); ++k) {
          std::vector<int32_t> subject_index, q_start, q_end, s_start, s_end, score, identities,
              positives, columns, gaps, gap_opens;
          std::vector<int8_t> methods;
          std::vector<double> evalues, bits;
          std::string ops;  // every hit's traceback columns, one after another
          for (const GappedSearchHit& h : hits[k]) {
            subject_index.push_back(h.subject);
            q_start.push_back(h.hsp.q_off);
            q_end.push_back(h.hsp.q_end);
            s_start.push_back(h.hsp.s_off);
            s_end.push_back(h.hsp.s_end);
            score.push_back(h.hsp.score);
            identities.push_back(h.identities);
            positives.push_back(h.positives);
            columns.push_back(static_cast<int32_t>(h.hsp.ops.size()));
            ops.append(h.hsp.ops.begin(), h.hsp.ops.end());
            gaps.push_back(h.gaps);
            gap_opens.push_back(h.gap_opens);
            methods.push_back(h.hsp.composition_method);
            evalues.push_back(h.hsp.evalue);
            bits.push_back(h.bit_score);
          }
          py::dict d;
          d["subject"] = to_numpy(std::move(subject_index));
          d["q_start"] = to_numpy(std::move(q_start));
          d["q_end"] = to_numpy(std::move(q_end));
          d["s_start"] = to_numpy(std::move(s_start));
          d["s_end"] = to_numpy(std::move(s_end));
          d["score"] = to_numpy(std::move(score));
          d["identities"] = to_numpy(std::move(identities));
          d["positives"] = to_numpy(std::move(positives));
          d["length"] = to_numpy(std::move(columns));
          d["gaps"] = to_numpy(std::move(gaps));
          d["gap_opens"] = to_numpy(std::move(gap_opens));
          d["composition_method"] = to_numpy(std::move(methods));
          d["ops"] = py::bytes(ops);
          d["evalue"] = to_numpy(std::move(evalues));
          d["bit_score"] = to_numpy(std::move(bits));
          const GappedQueryStatistics& q = st[k];
          py::dict sd = karlin_dict(q.ungapped);
          sd["x_drop_ungapped"] = q.x_drop_ungapped;
          sd["gap_trigger"] = q.gap_trigger;
          sd["prelim_cutoff"] = q.prelim_cutoff;
          sd["ungapped_cutoff"] = q.ungapped_cutoff;
          sd["x_drop_prelim"] = q.x_drop_prelim;
          sd["x_drop_final"] = q.x_drop_final;
          d["statistics"] = sd;
          out.append(d);
        }
        return py::make_tuple(out, counters_dict(counters));
      },
      py::arg("queries"), py::arg("query_letters"), py::arg("codes"), py::arg("offsets"),
      py::arg("db_length"), py::arg("evalue") = 10.0, py::arg("max_target_seqs") = 500,
      py::arg("threshold") = kDefaultThreshold, py::arg("window") = kTwoHitWindow,
      py::arg("x_drop_ungapped_bits") = 7.0, py::arg("x_drop_gapped_bits") = 15.0,
      py::arg("x_drop_final_bits") = 25.0, py::arg("threads") = 0, py::arg("comp_based_stats") = 0,
      py::arg("lookup_segments") = py::none(), py::arg("stage") = "cpu",
      py::arg("stage_options") = py::dict(), py::arg("max_hsps") = 0, py::arg("searchsp") = -1,
      py::arg("qcov_hsp_perc") = 0.0, py::arg("db_sequences") = 0,
      py::arg("subject_letters") = py::none(), py::arg("gap_open") = kGapOpen,
      py::arg("gap_extend") = kGapExtend, py::arg("matrix") = "BLOSUM62",
      "Gapped blastp (-comp_based_stats 0, 1, 2 or 3; BLOSUM62 with gap costs gap_open/"
      "gap_extend, a row of blast_gap_cost_rows) for several queries scanned together: (one "
      "dict of rows in output order per query, counters; its 'ops': the rows' traceback columns "
      "one after another, M a pair, I a query residue against a gap, D a subject residue against "
      "a gap, 'length' of them per row). lookup_segments, stage, "
      "stage_options, max_hsps: as blast_ungapped_search. searchsp: -searchsp (-1: not given; "
      "given, even as 0, E-values are the classic formula's over it, 0 the computed space). "
      "qcov_hsp_perc, db_sequences, subject_letters: as blast_ungapped_search.");
}

}  // namespace gpuseq::bindings
