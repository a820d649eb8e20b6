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

namespace {

constexpr int32_t kMinSubjectLength = 10;  // BLAST_SEQSRC_MINLENGTH: SeqDB's minimum length

// A subject's place in a hit list (s_EvalueCompareHSPLists): best E-value (values below
// 1e-180 tie), then the score of its first HSP, then the higher index first.
template <class List>
bool ranks_before(const List& a, int32_t ia, const List& b, int32_t ib) {
  auto best = [](const List& l) {
    double e = l[0].hsp.evalue;
    for (const auto& h : l) e = std::min(e, h.hsp.evalue);
    return e;
  };
  int c = compare_evalues(best(a), best(b));
  if (c != 0) return c < 0;
  if (a[0].hsp.score != b[0].hsp.score) return a[0].hsp.score > b[0].hsp.score;
  return ia > ib;
}

template <class Lists>
std::vector<int32_t> ranked_subjects(const Lists& lists, size_t capacity) {
  std::vector<int32_t> ranked;
  for (int32_t i = 0; i < static_cast<int32_t>(lists.size()); ++i)
    if (!lists[i].empty()) ranked.push_back(i);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](int32_t a, int32_t b) { return ranks_before(lists[a], a, lists[b], b); });
  if (ranked.size() > capacity) ranked.resize(capacity);
  return ranked;
}

}  // namespace

std::vector<GappedSearchHit> gapped_search(const uint8_t* query, const uint8_t* query_letters,
                                           int32_t query_length, const uint8_t* subjects,
                                           const int64_t* offsets, int32_t subject_count,
                                           int64_t db_length, const GappedSearchOptions& options,
                                           GappedQueryStatistics* statistics) {
  GappedQueryStatistics st;
  st.ungapped = query_ungapped_karlin(query, query_length);
  std::vector<GappedSearchHit> result;
  if (!st.ungapped.valid()) {
    if (statistics) *statistics = st;
    return result;
  }
  GappedParams gp;
  gp.kbp = gapped_karlin_blosum62();
  gp.gbp = gumbel_blosum62_11_1(db_length);
  gp.evalue = options.evalue;
  gp.restricted_allowed = options.evalue <= 10.0;  // RESTRICTED_ALIGNMENT_WORST_EVALUE
  // BlastInitialWordParametersNew/Update, BlastHitSavingParametersUpdate,
  // BlastExtensionParametersNew.
  st.x_drop_ungapped =
      static_cast<int32_t>(std::ceil(options.x_drop_ungapped_bits * kLn2 / st.ungapped.lambda));
  st.gap_trigger = static_cast<int32_t>((options.gap_trigger_bits * kLn2 + st.ungapped.logK) /
                                        st.ungapped.lambda);
  st.prelim_cutoff = spouge_cutoff(options.evalue, gp.kbp, gp.gbp, query_length, kMinSubjectLength);
  st.ungapped_cutoff = std::min(st.gap_trigger, st.prelim_cutoff);
  st.x_drop_prelim = static_cast<int32_t>(options.x_drop_gapped_bits * kLn2 / gp.kbp.lambda);
  st.x_drop_final = static_cast<int32_t>(
      std::max(options.x_drop_final_bits * kLn2 / gp.kbp.lambda, double(st.x_drop_prelim)));
  if (statistics) *statistics = st;
  gp.prelim_cutoff = st.prelim_cutoff;
  gp.x_drop_prelim = st.x_drop_prelim;
  gp.x_drop_final = st.x_drop_final;

  const WordLookup lookup(query, query_length, options.threshold);
  UngappedParams up;
  up.x_drop = st.x_drop_ungapped;
  up.cutoff = st.ungapped_cutoff;
  up.window = options.window;
  const int threads = options.threads > 0 ? options.threads : default_thread_count();
  auto subject_at = [&](int64_t i) { return subjects + offsets[i]; };
  auto length_at = [&](int64_t i) { return static_cast<int32_t>(offsets[i + 1] - offsets[i]); };

  // Preliminary stage per subject.
  struct Entry {
    GappedHsp hsp;
  };
  std::vector<std::vector<Entry>> prelim(subject_count);
  parallel_for_blocks(subject_count, 64, threads, [&](int64_t begin, int64_t end, int) {
    TwoHitFinder finder(lookup, query, query_length, up);
    for (int64_t i = begin; i < end; ++i) {
      std::vector<UngappedHsp> ungapped = finder.run(subject_at(i), length_at(i));
      if (ungapped.empty()) continue;
      for (GappedHsp& h :
           preliminary_gapped(query, query_length, subject_at(i), length_at(i), ungapped, gp))
        prelim[i].push_back(Entry{std::move(h)});
    }
  });

  // Preliminary hit list (GetPrelimHitlistSize without composition-based statistics).
  const int64_t n = std::max(1, options.max_target_seqs);
  const size_t prelim_capacity =
      static_cast<size_t>(std::min(std::max(2 * n, int64_t{10}), n + 50));
  std::vector<int32_t> kept = ranked_subjects(prelim, prelim_capacity);

  // Traceback per kept subject.
  std::vector<std::vector<GappedSearchHit>> final_lists(subject_count);
  parallel_for_blocks(
      static_cast<int64_t>(kept.size()), 8, threads, [&](int64_t begin, int64_t end, int) {
        for (int64_t k = begin; k < end; ++k) {
          const int32_t i = kept[k];
          std::vector<GappedHsp> hsps;
          for (Entry& e : prelim[i]) hsps.push_back(std::move(e.hsp));
          const uint8_t* subject = subject_at(i);
          for (GappedHsp& h :
               traceback_gapped(query, query_length, subject, length_at(i), std::move(hsps), gp)) {
            GappedSearchHit hit;
            hit.subject = i;
            hit.bit_score = bit_score(h.score, gp.kbp);
            int32_t q = h.q_off, s = h.s_off;
            char previous = 'M';
            for (char op : h.ops) {
              if (op == 'M') {
                hit.identities += query_letters[q] == subject[s];
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
            final_lists[i].push_back(std::move(hit));
          }
        }
      });

  for (int32_t i : ranked_subjects(final_lists, static_cast<size_t>(n)))
    for (GappedSearchHit& h : final_lists[i]) result.push_back(std::move(h));
  return result;
}

}  // namespace gpuseq::blast
