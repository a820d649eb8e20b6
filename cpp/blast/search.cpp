#include "blast/search.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "common/parallel.hpp"

namespace gpuseq::blast {

namespace {

constexpr double kUngappedCutoffEvalue = 1.0e-300;  // CUTOFF_E_BLASTP

// s_EvalueComp: E-values below 1e-180 compare equal.
int compare_evalues(double a, double b) {
  if (a < 1.0e-180 && b < 1.0e-180) return 0;
  return a < b ? -1 : (a > b ? 1 : 0);
}

}  // namespace

QueryStatistics ungapped_query_statistics(const uint8_t* query, int32_t query_length,
                                          int64_t db_length, int32_t db_sequences,
                                          int64_t average_subject_length,
                                          const UngappedSearchOptions& options) {
  QueryStatistics st;
  st.kbp = query_ungapped_karlin(query, query_length);
  if (!st.kbp.valid()) return st;
  const KarlinBlock& kbp = st.kbp;

  // BLAST_CalcEffLengths with the ungapped alpha and beta of BLOSUM62.
  st.length_adjustment =
      length_adjustment(kbp.K, kbp.logK, kBlosum62Ungapped.alpha / kbp.lambda,
                        kBlosum62Ungapped.beta, query_length, db_length, db_sequences);
  st.search_space =
      effective_search_space(query_length, db_length, db_sequences, st.length_adjustment);

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

std::vector<SearchHit> ungapped_search(const uint8_t* query, const uint8_t* query_letters,
                                       int32_t query_length, const uint8_t* subjects,
                                       const int64_t* offsets, int32_t subject_count,
                                       int64_t db_length, const UngappedSearchOptions& options,
                                       QueryStatistics* statistics, SearchCounters* counters) {
  const int64_t average_length = (offsets[subject_count] - offsets[0]) / std::max(1, subject_count);
  const QueryStatistics st = ungapped_query_statistics(query, query_length, db_length,
                                                       subject_count, average_length, options);
  if (statistics) *statistics = st;
  std::vector<SearchHit> result;
  if (!st.kbp.valid()) return result;

  const WordLookup lookup(query, query_length, options.threshold);
  UngappedParams params;
  params.x_drop = st.x_drop;
  params.cutoff = st.word_cutoff;
  params.window = options.window;

  // Each subject's HSP list after the E-value threshold (blast_engine.c, per subject).
  std::vector<std::vector<SearchHit>> per_subject(subject_count);
  const int threads = options.threads > 0 ? options.threads : default_thread_count();
  std::vector<SearchCounters> worker_counters(std::max(1, threads));
  parallel_for_blocks(subject_count, 64, threads, [&](int64_t begin, int64_t end, int worker) {
    TwoHitFinder finder(lookup, query, query_length, params);
    SearchCounters& count = worker_counters[worker];
    for (int64_t i = begin; i < end; ++i) {
      const uint8_t* subject = subjects + offsets[i];
      const auto subject_length = static_cast<int32_t>(offsets[i + 1] - offsets[i]);
      std::vector<UngappedHsp> hsps =
          finder.run(subject, subject_length, &count.word_hits, &count.extensions);
      count.ungapped_hsps += static_cast<int64_t>(hsps.size());
      for (const UngappedHsp& h : hsps) {
        SearchHit hit;
        hit.subject = static_cast<int32_t>(i);
        hit.hsp = h;
        hit.evalue = karlin_evalue(h.score, st.kbp, st.search_space);
        if (hit.evalue > options.evalue) continue;  // s_Blast_HSPListReapByPrelimEvalue
        hit.bit_score = bit_score(h.score, st.kbp);
        for (int32_t k = 0; k < h.length; ++k)
          hit.identities += query_letters[h.q_start + k] == subject[h.s_start + k];
        per_subject[i].push_back(hit);
      }
    }
  });
  if (counters) {
    for (const SearchCounters& c : worker_counters) {
      counters->word_hits += c.word_hits;
      counters->extensions += c.extensions;
      counters->ungapped_hsps += c.ungapped_hsps;
    }
  }

  // The hit list (s_EvalueCompareHSPLists): best E-value, then the best HSP's score, then
  // the higher subject index first; at most max_target_seqs subjects.
  std::vector<int32_t> ranked;
  for (int32_t i = 0; i < subject_count; ++i)
    if (!per_subject[i].empty()) ranked.push_back(i);
  auto best_evalue = [&](int32_t i) {
    double best = per_subject[i][0].evalue;
    for (const SearchHit& h : per_subject[i]) best = std::min(best, h.evalue);
    return best;
  };
  std::stable_sort(ranked.begin(), ranked.end(), [&](int32_t a, int32_t b) {
    int c = compare_evalues(best_evalue(a), best_evalue(b));
    if (c != 0) return c < 0;
    int32_t sa = per_subject[a][0].hsp.score, sb = per_subject[b][0].hsp.score;
    if (sa != sb) return sa > sb;
    return a > b;
  });
  if (options.max_target_seqs > 0 && ranked.size() > static_cast<size_t>(options.max_target_seqs))
    ranked.resize(options.max_target_seqs);
  for (int32_t i : ranked)
    result.insert(result.end(), per_subject[i].begin(), per_subject[i].end());
  return result;
}

}  // namespace gpuseq::blast
