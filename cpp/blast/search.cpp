#include "blast/search.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "blast/alphabet.hpp"
#include "blast/composition.hpp"
#include "common/kept_threads.hpp"
#include "common/parallel.hpp"
#include "common/stopwatch.hpp"

namespace gpuseq::blast {

namespace {

constexpr double kUngappedCutoffEvalue = 1.0e-300;  // CUTOFF_E_BLASTP

// One aligned pair of an HSP's columns (query's original letter, subject code) into its
// identities and positives, as blastp's tabular formatter counts them.
template <typename Hit>
void count_pair(uint8_t query_letter, uint8_t subject_code, Hit& hit, const ScoreMatrix& matrix) {
  const bool identical = query_letter == subject_code;
  hit.identities += identical;
  hit.positives += identical || formatter_positive(query_letter, subject_code, matrix);
}

// The workers' counters summed into `to` (their waits as a mean over the workers).
void merge_counters(const std::vector<SearchCounters>& workers, SearchCounters* to) {
  if (!to) return;
  for (const SearchCounters& c : workers) {
    to->word_hits += c.word_hits;
    to->extensions += c.extensions;
    to->ungapped_hsps += c.ungapped_hsps;
    to->seed_extensions += c.seed_extensions;
    for (const auto& [stage, seconds] : c.seconds)
      to->seconds[stage] +=
          stage == "wait" ? seconds / static_cast<double>(workers.size()) : seconds;
  }
}

// One subject's ungapped HSPs and, if the stage computed them, their seed extensions.
struct StagedSubject {
  std::vector<UngappedHsp> hsps;
  std::vector<SeedExtension> extensions;  // empty, or one per HSP
};

// An UngappedStage run on a kept thread (common/kept_threads.hpp: the GPU's stage calls CUDA)
// while the search's threads take its batches: take(i) waits until subject i's batch is in. The
// stage's error, if any, is thrown by a take that waited and by finish.
class StagedHsps {
 public:
  StagedHsps(const UngappedStage& stage, const WordLookup& lookup, const uint8_t* codes,
             const std::vector<QueryContext>& contexts, int32_t window, const uint8_t* subjects,
             const int64_t* offsets, int32_t subject_count, SearchCounters* counters)
      : hsps_(subject_count) {
    running_ = run_on_kept_thread([this, &stage, &lookup, &contexts, codes, window, subjects,
                                   offsets, subject_count, counters] {
      try {
        stage(lookup, codes, contexts, window, subjects, offsets, subject_count, counters,
              [this](int32_t first, int32_t last, std::vector<std::vector<UngappedHsp>>& batch,
                     std::vector<std::vector<SeedExtension>>* extensions) {
                for (int32_t i = first; i < last; ++i) {
                  hsps_[i].hsps = std::move(batch[i - first]);
                  if (extensions) hsps_[i].extensions = std::move((*extensions)[i - first]);
                }
                publish(last);
              });
        publish(static_cast<int32_t>(hsps_.size()));
      } catch (...) {
        std::lock_guard<std::mutex> guard(lock_);
        failure_ = std::current_exception();
        ready_.store(static_cast<int32_t>(hsps_.size()));
        changed_.notify_all();
      }
    });
  }
  StagedHsps(const StagedHsps&) = delete;
  StagedHsps& operator=(const StagedHsps&) = delete;
  ~StagedHsps() {
    if (running_.valid()) running_.wait();
  }

  // Subject i's HSPs; the seconds spent waiting for them are added to counters.seconds["wait"].
  // After a failure the subjects not handed over read as empty (finish throws).
  StagedSubject take(int64_t subject, SearchCounters& counters) {
    if (ready_.load(std::memory_order_acquire) <= subject) {
      Stopwatch waited;
      std::unique_lock<std::mutex> guard(lock_);
      changed_.wait(guard, [&] { return ready_.load() > subject; });
      counters.seconds["wait"] += waited.lap();
      if (failure_) std::rethrow_exception(failure_);
    }
    return std::move(hsps_[subject]);
  }

  void finish() {
    running_.wait();
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  void publish(int32_t ready) {
    std::lock_guard<std::mutex> guard(lock_);
    ready_.store(std::max(ready_.load(), ready), std::memory_order_release);
    changed_.notify_all();
  }

  std::vector<StagedSubject> hsps_;
  std::atomic<int32_t> ready_{0};
  std::mutex lock_;
  std::condition_variable changed_;
  std::exception_ptr failure_;
  std::future<void> running_;  // the stage, its errors caught into failure_
};

// s_EvalueComp: E-values below 1e-180 compare equal.
int compare_evalues(double a, double b) {
  if (a < 1.0e-180 && b < 1.0e-180) return 0;
  return a < b ? -1 : (a > b ? 1 : 0);
}

// Blast_HSPListSortByEvalue, the order blastp writes a subject's HSPs in (it sorts each list so
// as it makes their Seq-aligns): E-value (below 1e-180 tie), then the score order. It differs
// from the score order after the composition-based realignment, which ranks by scaled scores:
// two of them a fraction of a unit apart report the same score, and the offsets then decide.
void sort_for_report(std::vector<GappedSearchHit>& hits) {
  std::stable_sort(hits.begin(), hits.end(),
                   [](const GappedSearchHit& a, const GappedSearchHit& b) {
                     const int c = compare_evalues(a.hsp.evalue, b.hsp.evalue);
                     return c != 0 ? c < 0 : ranks_before(a.hsp, b.hsp);
                   });
}

// -max_hsps N: a subject's first N HSPs in its list's order (blastp's
// Blast_TrimHSPListByMaxHsps, in the traceback stage's last steps; gapped_search says which
// order that is). It cuts each list after the lists are ranked, and before the HSPs of score
// 0 are left out of the output, as blastp does; the ranking reads only a list's first HSP and
// best E-value, which the cut keeps.
template <class Hit>
void keep_first_hsps(std::vector<Hit>& hits, int32_t max_hsps) {
  if (max_hsps > 0 && hits.size() > static_cast<size_t>(max_hsps))
    hits.resize(static_cast<size_t>(max_hsps));
}

// -qcov_hsp_perc: whether an HSP covering `covered` of the query's `query_length` residues
// is kept (Blast_HSPQueryCoverageTest: the percent is rounded half up below 99, cut from 99 on).
bool covers_enough(int32_t covered, int32_t query_length, double qcov_hsp_perc) {
  if (qcov_hsp_perc <= 0.0 || query_length <= 0) return true;
  double percent = 100.0 * covered / query_length;
  if (percent < 99) percent += 0.5;
  return !(percent < qcov_hsp_perc);
}

// A subject's place in a hit list (s_EvalueCompareHSPLists): best E-value (values below
// 1e-180 tie), then the score of its first HSP, then the higher index first. The best E-value
// is s_BlastGetBestEvalue's, which starts from INT4_MAX: lists whose HSPs all have E-values
// above 2^31 - 1 (a huge -dbsize and -evalue) tie on it.
double evalue_of(const SearchHit& h) { return h.evalue; }
int32_t score_of(const SearchHit& h) { return h.hsp.score; }
double evalue_of(const GappedSearchHit& h) { return h.hsp.evalue; }
int32_t score_of(const GappedSearchHit& h) { return h.hsp.score; }
double evalue_of(const GappedHsp& h) { return h.evalue; }
int32_t score_of(const GappedHsp& h) { return h.score; }

// One subject's hits for one query.
template <class Hit>
struct SubjectList {
  int32_t subject = 0;
  std::vector<Hit> hits;
};

template <class Hit>
double best_evalue(const SubjectList<Hit>& list) {
  double e = static_cast<double>(INT32_MAX);
  for (const Hit& h : list.hits) e = std::min(e, evalue_of(h));
  return e;
}

template <class Hit>
bool ranks_before(const SubjectList<Hit>& a, const SubjectList<Hit>& b) {
  int c = compare_evalues(best_evalue(a), best_evalue(b));
  if (c != 0) return c < 0;
  if (score_of(a.hits[0]) != score_of(b.hits[0]))
    return score_of(a.hits[0]) > score_of(b.hits[0]);
  return a.subject > b.subject;
}

// The CPU threads scanning subjects beside a pipelined stage: one fewer than asked, so that
// the thread driving the GPU is not queued behind them between its launches.
int scan_threads(int threads, bool pipelined) {
  return pipelined && threads > 1 ? threads - 1 : threads;
}

// The hit lists of several queries for the subjects that have hits only (a queries x subjects
// table of empty lists costs more than the search itself for a hundred queries), filled by
// the search's threads, each into its own part.
template <class Hit>
class SparseLists {
 public:
  explicit SparseLists(int workers) : parts_(static_cast<size_t>(std::max(1, workers))) {}

  void add(int worker, int32_t query, int32_t subject, std::vector<Hit>&& hits) {
    parts_[worker].push_back({query, SubjectList<Hit>{subject, std::move(hits)}});
  }

  // Each query's lists in increasing subject.
  std::vector<std::vector<SubjectList<Hit>>> per_query(size_t queries) {
    std::vector<std::vector<SubjectList<Hit>>> out(queries);
    for (auto& part : parts_)
      for (auto& [query, list] : part) out[query].push_back(std::move(list));
    parts_.clear();
    for (auto& lists : out)
      std::sort(lists.begin(), lists.end(),
                [](const SubjectList<Hit>& a, const SubjectList<Hit>& b) {
                  return a.subject < b.subject;
                });
    return out;
  }

 private:
  std::vector<std::vector<std::pair<int32_t, SubjectList<Hit>>>> parts_;
};

// The lists in hit-list order (lists: in increasing subject), at most `capacity` of them:
// indices into lists.
template <class Hit>
std::vector<size_t> ranked_lists(const std::vector<SubjectList<Hit>>& lists, size_t capacity) {
  std::vector<size_t> ranked(lists.size());
  for (size_t i = 0; i < lists.size(); ++i) ranked[i] = i;
  std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
    return ranks_before(lists[a], lists[b]);
  });
  if (ranked.size() > capacity) ranked.resize(capacity);
  return ranked;
}

// The final lists under composition-based statistics. blastp keeps the realigned subjects in
// a heap of max_target_seqs (BlastCompo_HeapInsert) ranked by best E-value (compared exactly,
// capped at INT4_MAX), then the best HSP's scaled score (scaled_best: by subject), then the
// higher index, and holds every list with E <= 0.002 beyond that size; the hit list is then
// filled from the heap in hit-list order (s_FillResultsFromCompoHeaps). Where fewer than
// max_target_seqs lists are that significant, the heap has chosen which of the rest remain:
// by the scaled score where E-values tie above 2^31 - 1 (a huge -dbsize and -evalue), where
// ranked_lists would go by the rounded score.
constexpr double kInclusionEvalue = 0.002;  // the composition heap's ecutoff (inclusion_ethresh)

// The lists the composition heap keeps whatever their number: best E-value <= 0.002.
size_t significant_lists(const std::vector<SubjectList<GappedSearchHit>>& lists) {
  size_t significant = 0;
  for (const SubjectList<GappedSearchHit>& list : lists) {
    double best = static_cast<double>(INT32_MAX);
    for (const GappedSearchHit& h : list.hits) best = std::min(best, h.hsp.evalue);
    significant += best <= kInclusionEvalue;
  }
  return significant;
}

std::vector<size_t> composition_ranked_lists(
    const std::vector<SubjectList<GappedSearchHit>>& lists,
    const std::unordered_map<int32_t, int32_t>& scaled_best, size_t capacity) {
  std::vector<double> best(lists.size(), static_cast<double>(INT32_MAX));
  for (size_t i = 0; i < lists.size(); ++i)
    for (const GappedSearchHit& h : lists[i].hits) best[i] = std::min(best[i], h.hsp.evalue);
  if (lists.size() <= capacity || significant_lists(lists) >= capacity)
    return ranked_lists(lists, capacity);
  std::vector<size_t> kept(lists.size());
  for (size_t i = 0; i < lists.size(); ++i) kept[i] = i;
  auto heap_order = [&](size_t a, size_t b) {
    if (best[a] != best[b]) return best[a] < best[b];
    const int32_t sa = scaled_best.at(lists[a].subject), sb = scaled_best.at(lists[b].subject);
    if (sa != sb) return sa > sb;
    return lists[a].subject > lists[b].subject;
  };
  std::partial_sort(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(capacity),
                    kept.end(), heap_order);
  kept.resize(capacity);
  std::stable_sort(kept.begin(), kept.end(), [&](size_t a, size_t b) {
    return ranks_before(lists[a], lists[b]);
  });
  return kept;
}

// The valid queries in one buffer, one 0 between neighbours (blastp's concatenated query).
struct Concatenated {
  std::vector<uint8_t> codes;
  std::vector<QueryContext> contexts;
  std::vector<int32_t> query_of;  // context -> index into the queries
  std::vector<std::pair<int32_t, int32_t>> segments;
};

Concatenated concatenate(const std::vector<QueryInput>& queries, const std::vector<bool>& valid,
                         const std::vector<int32_t>& x_drop, const std::vector<int32_t>& cutoff) {
  Concatenated all;
  for (size_t k = 0; k < queries.size(); ++k) {
    if (!valid[k]) continue;
    if (!all.codes.empty()) all.codes.push_back(kGapCode);
    QueryContext c;
    c.start = static_cast<int32_t>(all.codes.size());
    c.length = queries[k].length;
    c.x_drop = x_drop[k];
    c.cutoff = cutoff[k];
    all.codes.insert(all.codes.end(), queries[k].codes, queries[k].codes + queries[k].length);
    all.contexts.push_back(c);
    all.query_of.push_back(static_cast<int32_t>(k));
    if (queries[k].lookup_segments == nullptr)
      all.segments.emplace_back(c.start, c.start + c.length);
    else
      for (const auto& [begin, end] : *queries[k].lookup_segments)
        all.segments.emplace_back(c.start + begin, c.start + end);
  }
  return all;
}

// The two-hit stage of every subject, on the search's threads (TwoHitFinder) or from a
// pipelined UngappedStage on its own thread (stage_counters: its counts): body(i, hsps,
// extensions, worker) for each subject i with its ungapped HSPs and their seed extensions
// (nullptr unless the stage computed them), on `threads` workers (one fewer beside a stage);
// each worker counts into worker_counters[worker].
template <class Body>
void scan_subjects(const UngappedStage& stage, const WordLookup& lookup, const Concatenated& all,
                   int32_t window, const uint8_t* subjects, const int64_t* offsets,
                   int32_t subject_count, int threads, std::vector<SearchCounters>& worker_counters,
                   SearchCounters* stage_counters, const Body& body) {
  std::unique_ptr<StagedHsps> staged;
  if (stage)
    staged = std::make_unique<StagedHsps>(stage, lookup, all.codes.data(), all.contexts, window,
                                          subjects, offsets, subject_count, stage_counters);
  parallel_for_blocks(
      subject_count, 64, scan_threads(threads, staged != nullptr),
      [&](int64_t begin, int64_t end, int worker) {
        TwoHitFinder finder(lookup, all.codes.data(), all.contexts, window);
        SearchCounters& count = worker_counters[worker];
        for (int64_t i = begin; i < end; ++i) {
          StagedSubject one;
          if (staged)
            one = staged->take(i, count);
          else
            one.hsps =
                finder.run(subjects + offsets[i], static_cast<int32_t>(offsets[i + 1] - offsets[i]),
                           &count.word_hits, &count.extensions);
          count.ungapped_hsps += static_cast<int64_t>(one.hsps.size());
          body(i, one.hsps, one.extensions.empty() ? nullptr : one.extensions.data(), worker);
        }
      });
  if (staged) staged->finish();
}

}  // namespace

QueryStatistics ungapped_query_statistics(const uint8_t* query, int32_t query_length,
                                          int64_t db_length, int32_t db_sequences,
                                          int64_t average_subject_length,
                                          const UngappedSearchOptions& options) {
  QueryStatistics st;
  st.kbp = query_ungapped_karlin(query, query_length, *options.matrix);
  if (!st.kbp.valid()) return st;
  const KarlinBlock& kbp = st.kbp;

  // BLAST_CalcEffLengths with the ungapped alpha and beta of the matrix.
  const TabulatedParams& ungapped = options.matrix->ungapped_row().params;
  st.length_adjustment =
      length_adjustment(kbp.K, kbp.logK, ungapped.alpha / kbp.lambda, ungapped.beta, query_length,
                        db_length, db_sequences);
  st.search_space =
      options.searchsp > 0
          ? options.searchsp
          : effective_search_space(query_length, db_length, db_sequences, st.length_adjustment);

  // BlastInitialWordParametersNew: X-drop in whole raw units, rounded up.
  st.x_drop = static_cast<int32_t>(std::ceil(options.x_drop_bits * kLn2 / kbp.lambda));
  // BlastHitSavingParametersUpdate: the score reaching the E-value threshold.
  st.evalue_cutoff = cutoff_score(options.evalue, kbp, st.search_space);
  // BlastInitialWordParametersUpdate for ungapped searches: the score for E = 1e-300 over
  // min(average subject length, query length) x average subject length, capped by the gap
  // trigger and by the E-value cutoff.
  st.gap_trigger = static_cast<int32_t>((options.gap_trigger_bits * kLn2 + kbp.logK) / kbp.lambda);
  const int64_t word_space =
      std::min<int64_t>(average_subject_length, query_length) * average_subject_length;
  int32_t cutoff = cutoff_score(kUngappedCutoffEvalue, kbp, word_space);
  cutoff = std::min(cutoff, st.gap_trigger);
  st.word_cutoff = std::min(cutoff, st.evalue_cutoff);
  return st;
}

UngappedStage batched_cpu_stage(int32_t batch_subjects) {
  if (batch_subjects < 1) throw std::invalid_argument("batch_subjects must be positive");
  return [batch_subjects](const WordLookup& lookup, const uint8_t* codes,
                          const std::vector<QueryContext>& contexts, int32_t window,
                          const uint8_t* subjects, const int64_t* offsets, int32_t subject_count,
                          SearchCounters* counters, const UngappedBatchSink& sink) {
    TwoHitFinder finder(lookup, codes, contexts, window);
    SearchCounters count;
    const bool extend = std::any_of(contexts.begin(), contexts.end(),
                                    [](const QueryContext& c) { return c.gapped_x_drop > 0; });
    std::vector<std::vector<UngappedHsp>> batch;
    std::vector<std::vector<SeedExtension>> extensions;
    for (int32_t first = 0; first < subject_count; first += batch_subjects) {
      const int32_t last = std::min(subject_count, first + batch_subjects);
      batch.assign(static_cast<size_t>(last - first), {});
      extensions.assign(static_cast<size_t>(last - first), {});
      for (int32_t i = first; i < last; ++i) {
        const auto length = static_cast<int32_t>(offsets[i + 1] - offsets[i]);
        batch[i - first] =
            finder.run(subjects + offsets[i], length, &count.word_hits, &count.extensions);
        if (!extend) continue;
        for (const UngappedHsp& h : batch[i - first]) {
          const QueryContext& c = contexts[h.context];
          extensions[i - first].push_back(
              c.gapped_x_drop > 0 ? seed_extension(codes + c.start, c.length, subjects + offsets[i],
                                                   length, h, c.gapped_x_drop, 0, 0, c.gap_open,
                                                   c.gap_extend, lookup.matrix())
                                  : SeedExtension{});
          count.seed_extensions += extensions[i - first].back().done;
        }
      }
      sink(first, last, batch, extend ? &extensions : nullptr);
    }
    if (counters) {
      counters->word_hits += count.word_hits;
      counters->extensions += count.extensions;
      counters->seed_extensions += count.seed_extensions;
    }
  };
}

std::vector<std::vector<SearchHit>> ungapped_search(const std::vector<QueryInput>& queries,
                                                    const uint8_t* subjects, const int64_t* offsets,
                                                    int32_t subject_count, int64_t db_length,
                                                    const UngappedSearchOptions& options,
                                                    std::vector<QueryStatistics>* statistics,
                                                    SearchCounters* counters) {
  const size_t nq = queries.size();
  const int32_t db_sequences = options.db_sequences > 0 ? options.db_sequences : subject_count;
  const int64_t average_length = (offsets[subject_count] - offsets[0]) / std::max(1, db_sequences);
  std::vector<QueryStatistics> st(nq);
  std::vector<bool> valid(nq);
  std::vector<int32_t> x_drop(nq), cutoff(nq);
  for (size_t k = 0; k < nq; ++k) {
    st[k] = ungapped_query_statistics(queries[k].codes, queries[k].length, db_length, db_sequences,
                                      average_length, options);
    valid[k] = st[k].kbp.valid();
    x_drop[k] = st[k].x_drop;
    cutoff[k] = st[k].word_cutoff;
  }
  if (statistics) *statistics = st;
  std::vector<std::vector<SearchHit>> result(nq);
  const Concatenated all = concatenate(queries, valid, x_drop, cutoff);
  if (all.contexts.empty()) return result;
  Stopwatch clock;
  const WordLookup lookup(all.codes.data(), all.segments, options.threshold,
                          options.matrix->scores);
  const double lookup_s = clock.lap();

  // Each (query, subject) HSP list after the E-value threshold (blast_engine.c).
  const int threads = options.threads > 0 ? options.threads : default_thread_count();
  SparseLists<SearchHit> found(threads);
  std::vector<SearchCounters> worker_counters(std::max(1, threads));
  SearchCounters stage_counters;
  std::vector<std::vector<std::vector<SearchHit>>> per_query(
      worker_counters.size(), std::vector<std::vector<SearchHit>>(nq));
  std::vector<std::vector<int32_t>> touched(worker_counters.size());
  scan_subjects(
      options.ungapped_stage, lookup, all, options.window, subjects, offsets, subject_count,
      threads, worker_counters, &stage_counters,
      [&](int64_t i, const std::vector<UngappedHsp>& hsps, const SeedExtension*, int worker) {
        const uint8_t* subject = (options.subject_letters ? options.subject_letters : subjects) +
                                 offsets[i];  // (its letters: only the identities read it)
        std::vector<std::vector<SearchHit>>& lists = per_query[worker];
        for (const UngappedHsp& h : hsps) {
          const int32_t k = all.query_of[h.context];
          SearchHit hit;
          hit.subject = static_cast<int32_t>(i);
          hit.hsp = h;
          hit.hsp.context = k;
          hit.evalue = karlin_evalue(h.score, st[k].kbp, st[k].search_space);
          if (hit.evalue > options.evalue) continue;  // s_Blast_HSPListReapByPrelimEvalue
          // Blast_HSPListReapByQueryCoverage, before the subject enters the hit list.
          if (!covers_enough(h.length, queries[k].length, options.qcov_hsp_perc)) continue;
          hit.bit_score = bit_score(h.score, st[k].kbp);
          for (int32_t p = 0; p < h.length; ++p)
            count_pair(queries[k].letters[h.q_start + p], subject[h.s_start + p], hit,
                       options.matrix->scores);
          if (lists[k].empty()) touched[worker].push_back(k);
          lists[k].push_back(hit);
        }
        for (int32_t k : touched[worker]) {
          found.add(worker, k, static_cast<int32_t>(i), std::move(lists[k]));
          lists[k].clear();
        }
        touched[worker].clear();
      });
  const double scan_s = clock.lap();
  // The hit list of each query: at most max_target_seqs subjects.
  const size_t capacity = options.max_target_seqs > 0 ? static_cast<size_t>(options.max_target_seqs)
                                                      : static_cast<size_t>(subject_count);
  std::vector<std::vector<SubjectList<SearchHit>>> lists = found.per_query(nq);
  for (size_t k = 0; k < nq; ++k)
    for (size_t j : ranked_lists(lists[k], capacity)) {
      std::vector<SearchHit>& hits = lists[k][j].hits;
      keep_first_hsps(hits, options.max_hsps);
      result[k].insert(result[k].end(), hits.begin(), hits.end());
    }
  if (counters) {
    merge_counters(worker_counters, counters);
    merge_counters(std::vector<SearchCounters>{stage_counters}, counters);
    counters->seconds["lookup"] += lookup_s;
    counters->seconds["scan"] += scan_s;
    counters->seconds["lists"] += clock.lap();
  }
  return result;
}

namespace {

constexpr int32_t kMinSubjectLength = 10;  // BLAST_SEQSRC_MINLENGTH: SeqDB's minimum length

}  // namespace

std::vector<std::vector<GappedSearchHit>> gapped_search(
    const std::vector<QueryInput>& queries, const uint8_t* subjects, const int64_t* offsets,
    int32_t subject_count, int64_t db_length, const GappedSearchOptions& options,
    std::vector<GappedQueryStatistics>* statistics, SearchCounters* counters) {
  const size_t nq = queries.size();
  const int32_t db_sequences = options.db_sequences > 0 ? options.db_sequences : subject_count;
  std::vector<GappedQueryStatistics> st(nq);
  std::vector<GappedParams> gp(nq);
  std::vector<bool> valid(nq);
  std::vector<int32_t> x_drop(nq), cutoff(nq);
  const ProteinMatrix& matrix = *options.matrix;
  const GapCostRow& gap_costs = matrix.gap_costs(options.gap_open, options.gap_extend);
  for (size_t k = 0; k < nq; ++k) {
    GappedQueryStatistics& s = st[k];
    s.ungapped = query_ungapped_karlin(queries[k].codes, queries[k].length, matrix);
    valid[k] = s.ungapped.valid();
    if (!valid[k]) continue;
    GappedParams& p = gp[k];
    p.kbp = gapped_karlin(gap_costs);
    p.evalues.gbp = gumbel_block(gap_costs, matrix.ungapped_row(), db_length);
    p.scoring = DpScoring{&matrix.scores, options.gap_open, options.gap_extend};
    p.evalue = options.evalue;
    p.restricted_allowed = options.evalue <= 10.0;  // RESTRICTED_ALIGNMENT_WORST_EVALUE
    // BlastInitialWordParametersNew/Update, BlastHitSavingParametersUpdate,
    // BlastExtensionParametersNew.
    s.x_drop_ungapped =
        static_cast<int32_t>(std::ceil(options.x_drop_ungapped_bits * kLn2 / s.ungapped.lambda));
    s.gap_trigger = static_cast<int32_t>((options.gap_trigger_bits * kLn2 + s.ungapped.logK) /
                                         s.ungapped.lambda);
    // -searchsp (OLD_FSC, no Gumbel block): the classic formula over that space or, for 0,
    // over BLAST_CalcEffLengths' (the gapped block's alpha and beta, -dbsize's length and the
    // real number of subjects); BlastHitSavingParametersUpdate's cutoff from it, and no
    // stretch.
    if (options.searchsp >= 0) {
      const AlphaBeta ab = gapped_alpha_beta(gap_costs);
      const int32_t adjustment = length_adjustment(p.kbp.K, p.kbp.logK, ab.alpha / p.kbp.lambda,
                                                   ab.beta, queries[k].length, db_length,
                                                   db_sequences);
      p.evalues.classic = true;
      p.evalues.search_space =
          options.searchsp > 0
              ? options.searchsp
              : effective_search_space(queries[k].length, db_length, db_sequences, adjustment);
    }
    // Composition-based statistics modes 2 and 3 keep 5 times the E-value for the
    // composition stage to decide (cbs_stretch; Spouge's E-values only).
    const double stretch = options.comp_based_stats >= 2 && !p.evalues.classic ? 5.0 : 1.0;
    p.evalue = options.evalue * stretch;
    s.prelim_cutoff =
        p.evalues.classic
            ? cutoff_score(p.evalue, p.kbp, p.evalues.search_space)
            : spouge_cutoff(p.evalue, p.kbp, p.evalues.gbp, queries[k].length, kMinSubjectLength);
    s.ungapped_cutoff = std::min(s.gap_trigger, s.prelim_cutoff);
    s.x_drop_prelim = static_cast<int32_t>(options.x_drop_gapped_bits * kLn2 / p.kbp.lambda);
    s.x_drop_final = static_cast<int32_t>(
        std::max(options.x_drop_final_bits * kLn2 / p.kbp.lambda, double(s.x_drop_prelim)));
    p.prelim_cutoff = s.prelim_cutoff;
    p.x_drop_prelim = s.x_drop_prelim;
    p.x_drop_final = s.x_drop_final;
    x_drop[k] = s.x_drop_ungapped;
    cutoff[k] = s.ungapped_cutoff;
  }
  if (statistics) *statistics = st;
  std::vector<std::vector<GappedSearchHit>> result(nq);
  Concatenated all = concatenate(queries, valid, x_drop, cutoff);
  if (all.contexts.empty()) return result;
  // A pipelined stage may extend the HSPs ahead (the GPU's does it for all of them at once).
  for (size_t c = 0; c < all.contexts.size(); ++c) {
    all.contexts[c].gapped_x_drop = gp[all.query_of[c]].x_drop_prelim;
    all.contexts[c].gap_open = options.gap_open;
    all.contexts[c].gap_extend = options.gap_extend;
  }
  Stopwatch clock;
  const WordLookup lookup(all.codes.data(), all.segments, options.threshold, matrix.scores);
  const double lookup_s = clock.lap();
  const int threads = options.threads > 0 ? options.threads : default_thread_count();
  auto subject_at = [&](int64_t i) { return subjects + offsets[i]; };
  auto length_at = [&](int64_t i) { return static_cast<int32_t>(offsets[i + 1] - offsets[i]); };

  // Preliminary stage per subject, all queries at once.
  SparseLists<GappedHsp> prelim_found(threads);
  std::vector<SearchCounters> worker_counters(std::max(1, threads));
  SearchCounters stage_counters;
  std::vector<std::vector<std::vector<UngappedHsp>>> per_query(
      worker_counters.size(), std::vector<std::vector<UngappedHsp>>(nq));
  std::vector<std::vector<std::vector<SeedExtension>>> per_query_extensions(
      worker_counters.size(), std::vector<std::vector<SeedExtension>>(nq));
  scan_subjects(options.ungapped_stage, lookup, all, options.window, subjects, offsets,
                subject_count, threads, worker_counters, &stage_counters,
                [&](int64_t i, const std::vector<UngappedHsp>& ungapped,
                    const SeedExtension* extensions, int worker) {
                  if (ungapped.empty()) return;
                  std::vector<std::vector<UngappedHsp>>& lists = per_query[worker];
                  std::vector<std::vector<SeedExtension>>& extended = per_query_extensions[worker];
                  for (auto& l : lists) l.clear();
                  for (auto& l : extended) l.clear();
                  for (size_t h = 0; h < ungapped.size(); ++h) {
                    const int32_t k = all.query_of[ungapped[h].context];
                    lists[k].push_back(ungapped[h]);
                    if (extensions) extended[k].push_back(extensions[h]);
                  }
                  for (size_t k = 0; k < nq; ++k) {
                    if (lists[k].empty()) continue;
                    std::vector<GappedHsp> kept = preliminary_gapped(
                        queries[k].codes, queries[k].length, subject_at(i), length_at(i), lists[k],
                        gp[k], extensions ? extended[k].data() : nullptr);
                    if (!kept.empty())
                      prelim_found.add(worker, static_cast<int32_t>(k), static_cast<int32_t>(i),
                                       std::move(kept));
                  }
                });
  const double scan_s = clock.lap();

  // Preliminary hit lists (GetPrelimHitlistSize).
  const int64_t n = std::max(1, options.max_target_seqs);
  const bool composition = options.comp_based_stats != 0;
  const auto prelim_capacity =
      composition ? static_cast<size_t>(n <= 500 ? 1050 : 2 * n + 50)
                  : static_cast<size_t>(std::min(std::max(2 * n, int64_t{10}), n + 50));
  // The composition stage's parameters (blast_kappa.c): everything scaled by 32.
  std::vector<RedoParams> redo(nq);
  std::vector<AaComposition> query_composition(nq);
  std::vector<std::vector<uint8_t>> query_cbs(nq);
  if (composition) {
    const double scaled_lambda = ideal_ungapped_lambda(matrix) / kCompoScalingFactor;
    const ScoreMatrix start = matrix_at_lambda(matrix, scaled_lambda);
    for (size_t k = 0; k < nq; ++k) {
      if (!valid[k]) continue;
      RedoParams& r = redo[k];
      r.mode = options.comp_based_stats;
      r.matrix = &matrix;
      r.scaled_lambda = scaled_lambda;
      r.start_matrix = start;
      r.kbp = gp[k].kbp;
      r.kbp.lambda /= kCompoScalingFactor;
      r.evalues = gp[k].evalues;
      r.evalue = options.evalue;
      // (the larger of the X-drop at the scaled lambda and the unscaled one, as blastp's)
      r.x_drop = static_cast<int32_t>(std::max(options.x_drop_final_bits * kLn2 / r.kbp.lambda,
                                               double(gp[k].x_drop_final)));
      r.gap_open = options.gap_open * kCompoScalingFactor;
      r.gap_extend = options.gap_extend * kCompoScalingFactor;
      query_cbs[k].assign(queries[k].codes, queries[k].codes + queries[k].length);
      for (uint8_t& c : query_cbs[k])
        if (c == kCodeU) c = kCodeC;
      query_composition[k] = read_composition(query_cbs[k].data(), queries[k].length);
    }
  }
  std::vector<std::vector<SubjectList<GappedHsp>>> prelim = prelim_found.per_query(nq);
  struct Work {
    int32_t query, subject;
    std::vector<GappedHsp>* hsps;
  };
  std::vector<Work> work;  // (query, subject) to trace back
  for (size_t k = 0; k < nq; ++k)
    for (size_t j : ranked_lists(prelim[k], prelim_capacity))
      work.push_back({static_cast<int32_t>(k), prelim[k][j].subject, &prelim[k][j].hits});

  const double prelim_lists_s = clock.lap();

  // Traceback per kept (query, subject).
  std::vector<std::vector<GappedSearchHit>> traced(work.size());
  std::vector<int32_t> scaled_best(work.size(), 0);  // composition: the best scaled score
  std::vector<double> prelim_best(work.size(), 0.0);  // best preliminary E-value
  for (size_t w = 0; w < work.size(); ++w) {
    const std::vector<GappedHsp>& hsps = *work[w].hsps;
    for (size_t h = 0; h < hsps.size(); ++h)
      if (h == 0 || hsps[h].evalue < prelim_best[w]) prelim_best[w] = hsps[h].evalue;
  }
  parallel_for_blocks(
      static_cast<int64_t>(work.size()), 8, threads, [&](int64_t begin, int64_t end, int) {
        for (int64_t w = begin; w < end; ++w) {
          const int32_t k = work[w].query, i = work[w].subject;
          std::vector<GappedHsp> hsps = std::move(*work[w].hsps);
          const uint8_t* subject = subject_at(i);
          const uint8_t* subject_letters =
              options.subject_letters ? options.subject_letters + offsets[i] : subject;
          const uint8_t* letters = queries[k].letters;
          std::vector<GappedHsp> final_hsps =
              composition
                  ? composition_realign(query_cbs[k].data(), queries[k].length,
                                        query_composition[k], subject, length_at(i), hsps, redo[k],
                                        &scaled_best[w])
                  : traceback_gapped(queries[k].codes, queries[k].length, subject, length_at(i),
                                     std::move(hsps), gp[k]);
          for (GappedHsp& h : final_hsps) {
            GappedSearchHit hit;
            hit.subject = i;
            hit.bit_score = bit_score(h.score, gp[k].kbp);
            int32_t q = h.q_off, s = h.s_off;
            char previous = 'M';
            for (char op : h.ops) {
              if (op == 'M') {
                count_pair(letters[q], subject_letters[s], hit, matrix.scores);
                ++q;
                ++s;
              } else {
                ++hit.gaps;
                if (op != previous) ++hit.gap_opens;
                if (op == 'I')
                  ++q;
                else
                  ++s;
              }
              previous = op;
            }
            hit.hsp = std::move(h);
            traced[w].push_back(std::move(hit));
          }
        }
      });

  // BlastCompo_EarlyTermination: blastp realigns subjects in increasing index; once
  // max_target_seqs of them reached E <= 0.002 (the heap's inclusion threshold), a subject
  // whose preliminary best E-value is above 5 x 0.002 is skipped. Realigning needs nothing
  // from other subjects, so replaying that order on the finished results is exact.
  if (composition) {
    constexpr double kEvalueStretch = 5;
    std::vector<int64_t> significant(nq, 0);
    std::vector<size_t> order(work.size());
    for (size_t w = 0; w < work.size(); ++w) order[w] = w;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return work[a].subject < work[b].subject; });
    for (size_t w : order) {
      const int32_t k = work[w].query;
      if (significant[k] >= n && prelim_best[w] > kEvalueStretch * kInclusionEvalue) {
        traced[w].clear();
        continue;
      }
      double best = 0.0;
      for (size_t h = 0; h < traced[w].size(); ++h)
        if (h == 0 || traced[w][h].hsp.evalue < best) best = traced[w][h].hsp.evalue;
      if (!traced[w].empty() && best <= kInclusionEvalue) ++significant[k];
    }
  }

  const double traceback_s = clock.lap();

  // Final hit lists: at most max_target_seqs subjects per query.
  SparseLists<GappedSearchHit> final_found(1);
  std::vector<std::unordered_map<int32_t, int32_t>> scaled_best_of(nq);  // by subject
  for (size_t w = 0; w < work.size(); ++w)
    if (!traced[w].empty()) {
      scaled_best_of[work[w].query][work[w].subject] = scaled_best[w];
      final_found.add(0, work[w].query, work[w].subject, std::move(traced[w]));
    }
  std::vector<std::vector<SubjectList<GappedSearchHit>>> lists = final_found.per_query(nq);
  for (size_t k = 0; k < nq; ++k) {
    // blastp cuts -max_hsps in each list's order at the traceback's end and sorts by E-value
    // as it writes. The realigned lists are in scaled-score order, where E-values below
    // 1e-180 tie and the rounded scores may too, unless the composition heap held more than
    // N lists (all with E <= 0.002): the hit list then overflowed and sorted each list by
    // E-value (Blast_HitListUpdate). Without composition, score order is E-value order.
    const bool cut_in_score_order =
        composition && significant_lists(lists[k]) <= static_cast<size_t>(n);
    for (size_t j : composition ? composition_ranked_lists(lists[k], scaled_best_of[k],
                                                           static_cast<size_t>(n))
                                : ranked_lists(lists[k], static_cast<size_t>(n))) {
      if (cut_in_score_order) keep_first_hsps(lists[k][j].hits, options.max_hsps);
      sort_for_report(lists[k][j].hits);
      keep_first_hsps(lists[k][j].hits, options.max_hsps);
      // blastp makes no Seq-align of an HSP with score 0 (s_BlastHSP2SeqAlign), so it writes
      // none of the realigned HSPs whose score rounds to 0 (a scaled score below 16, which
      // only E-value thresholds of 1e16 and more let through); their subject has taken its
      // place in the list all the same.
      // -qcov_hsp_perc drops its HSPs here too, as one thread's blastp 2.12 does
      // (s_FilterBlastResults): after the lists are ranked and cut to -max_hsps, so a list
      // keeps the rank its dropped HSPs gave it (2024's blastp ranks after, SB-4084) and one
      // left empty leaves its place to none. With several threads each holds N lists of its
      // own, merged before this cut, so another thread's list may take an emptied place and
      // blastp's own rows change from run to run (random commands 15800053, 15940394).
      for (GappedSearchHit& h : lists[k][j].hits)
        if (h.hsp.score != 0 &&
            covers_enough(h.hsp.q_end - h.hsp.q_off, queries[k].length, options.qcov_hsp_perc))
          result[k].push_back(std::move(h));
    }
  }
  if (counters) {
    merge_counters(worker_counters, counters);
    merge_counters(std::vector<SearchCounters>{stage_counters}, counters);
    counters->seconds["lookup"] += lookup_s;
    counters->seconds["scan"] += scan_s;
    counters->seconds["traceback"] += traceback_s;
    counters->seconds["lists"] += prelim_lists_s + clock.lap();
  }
  return result;
}

}  // namespace gpuseq::blast
