// SEG as blast_seg.c computes it (see seg.hpp). The windows keep a composition over the 20
// standard letters and its "state vector" (the non-zero counts, descending), updated as the
// window slides one letter.
#include "blast/seg.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>

#include "blast/alphabet.hpp"
#include "blast/statistics.hpp"

namespace gpuseq::blast {

namespace {

constexpr int kSegAlphabet = 20;
constexpr double kLn20 = 2.9957322735539909;
constexpr uint8_t kFenceSentry = 201;  // FENCE_SENTRY: a window never slides over it
constexpr int kLnFactorialTable = 10001;

// ln(n/10) as blast_seg.c tabulates it for windows of 10 (its own roundings).
constexpr double kLogWin10[] = {0.0,         -2.30258509,  -1.60943791,  -1.203982804,
                                -0.91629073, -0.6931478,   -0.510825623, -0.356674944,
                                -0.22314355, -0.105360515, 0.0};

// blast_seg.c tabulates ln(n!) to 6 decimals for n < 10001: the same numbers, made here.
const std::vector<double>& ln_factorial_table() {
  static const std::vector<double> table = [] {
    std::vector<double> t(kLnFactorialTable);
    char text[64];
    for (int n = 0; n < kLnFactorialTable; ++n) {
      std::snprintf(text, sizeof text, "%.6f", std::lgamma(n + 1.0));
      t[n] = std::strtod(text, nullptr);
    }
    return t;
  }();
  return table;
}

double ln_factorial(int n) {  // s_lnfact
  if (n < kLnFactorialTable) return ln_factorial_table()[n];
  return (n + 0.5) * std::log(n) - n + 0.9189385332;
}

// The SEG alphabet: A, C..W (codes 3..20) and Y are letters 0..19, everything else "bogus".
int seg_letter(uint8_t code) {
  if (code == 1) return 0;
  if (code >= 3 && code <= 20) return code - 2;
  if (code == 22) return 19;
  return -1;
}

struct Window {
  const uint8_t* seq;  // first letter of the window
  int32_t start;       // offset in the parent
  int32_t length;
  int32_t parent_length;
  int bogus = 0;
  double entropy = -2.0;  // -2: not tracked
  std::vector<int> composition = std::vector<int>(kSegAlphabet, 0);
  std::vector<int> state = std::vector<int>(kSegAlphabet + 1, 0);
};

double entropy_of(const std::vector<int>& sv) {  // s_Entropy
  int total = 0;
  for (int i = 0; sv[i] != 0; ++i) total += sv[i];
  if (total == 0) return 0.;
  double ent = 0.0;
  if (total == 10) {
    for (int i = 0; sv[i] != 0; ++i) ent += static_cast<double>(sv[i]) * kLogWin10[sv[i]] / kLn2;
  } else {
    for (int i = 0; sv[i] != 0; ++i)
      ent += static_cast<double>(sv[i]) *
             std::log(static_cast<double>(sv[i]) / static_cast<double>(total)) / kLn2;
  }
  return std::fabs(ent / static_cast<double>(total));
}

// s_OpenWin (s_CompOn, s_StateOn): a window over parent[start, start + length).
std::unique_ptr<Window> open_window(const uint8_t* parent, int32_t parent_length, int32_t start,
                                    int32_t length) {
  if (start < 0 || length < 0 || start + length > parent_length) return nullptr;
  auto w = std::make_unique<Window>();
  w->seq = parent + start;
  w->start = start;
  w->length = length;
  w->parent_length = parent_length;
  for (int32_t i = 0; i < length; ++i) {
    const int letter = seg_letter(w->seq[i]);
    if (letter >= 0)
      ++w->composition[letter];
    else
      ++w->bogus;
  }
  int nel = 0;
  for (int letter = 0; letter < kSegAlphabet; ++letter)
    if (w->composition[letter] != 0) w->state[nel++] = w->composition[letter];
  std::sort(w->state.begin(), w->state.begin() + nel, std::greater<int>());
  return w;
}

void decrement_state(std::vector<int>& sv, int count) {  // s_DecrementSV
  for (size_t i = 0; sv[i] != 0; ++i)
    if (sv[i] == count && sv[i + 1] < count) {
      sv[i] = count - 1;
      break;
    }
}

void increment_state(std::vector<int>& sv, int count) {  // s_IncrementSV
  for (size_t i = 0;; ++i)
    if (sv[i] == count) {
      ++sv[i];
      break;
    }
}

// s_ShiftWin1: slide one letter right; false at the parent's end. The letter after the
// window is read first, as NCBI does (past the top-level sequence it is a 0 sentinel).
bool shift_window(Window& w) {
  const int32_t length = w.length;
  const bool inside = w.start + length < w.parent_length;
  if (inside && w.seq[length] == kFenceSentry) return false;
  if (++w.start + length > w.parent_length) {
    --w.start;
    return false;
  }
  const int out = seg_letter(w.seq[0]);
  if (out >= 0)
    decrement_state(w.state, w.composition[out]--);
  else
    --w.bogus;
  const int in = seg_letter(w.seq[length]);
  ++w.seq;
  if (in >= 0)
    increment_state(w.state, w.composition[in]++);
  else
    ++w.bogus;
  if (w.entropy > -2.) w.entropy = entropy_of(w.state);
  return true;
}

// s_SeqEntropy: the entropy of the window centred on each position (-1: none).
std::vector<double> window_entropies(const uint8_t* seq, int32_t length, int window, int maxbogus) {
  const int downset = (window + 1) / 2 - 1;
  const int upset = window - downset;
  if (window > length) return {};
  std::vector<double> h(length, -1.);
  auto w = open_window(seq, length, 0, window);
  w->entropy = entropy_of(w->state);
  const int32_t last = length - upset;
  for (int32_t i = downset; i <= last; ++i) {
    h[i] = w->bogus > maxbogus ? -1. : w->entropy;
    shift_window(*w);
  }
  return h;
}

int32_t find_low(int32_t i, int32_t limit, double hicut, const std::vector<double>& h) {
  int32_t j = i;
  for (; j >= limit; --j)
    if (h[j] == -1.0 || h[j] > hicut) break;
  return j + 1;
}

int32_t find_high(int32_t i, int32_t limit, double hicut, const std::vector<double>& h) {
  int32_t j = i;
  for (; j <= limit; ++j)
    if (h[j] == -1.0 || h[j] > hicut) break;
  return j - 1;
}

double ln_assignments(const std::vector<int>& sv, int alphasize) {  // s_LnAss
  double ans = ln_factorial(alphasize);
  if (sv[0] == 0) return ans;
  int total = alphasize, cls = 1;
  int p = 0, svi = sv[0], svim1 = sv[0];
  for (int i = 0;; svim1 = svi) {
    if (++i == alphasize) {
      ans -= ln_factorial(cls);
      break;
    } else if ((svi = sv[++p]) == svim1) {
      ++cls;
      continue;
    } else {
      total -= cls;
      ans -= ln_factorial(cls);
      if (svi == 0) {
        ans -= ln_factorial(total);
        break;
      }
      cls = 1;
      continue;
    }
  }
  return ans;
}

double ln_probability(const std::vector<int>& sv, int total) {  // s_GetProb
  const double totseq = static_cast<double>(total) * kLn20;
  const double ans1 = ln_assignments(sv, kSegAlphabet);
  double ans2 = 0;
  if (ans1 > -100000.0 && sv[0] != INT_MIN) {
    ans2 = ln_factorial(total);  // s_LnPerm
    for (int i = 0; sv[i] != 0; ++i) ans2 -= ln_factorial(sv[i]);
  }
  return ans1 + ans2 - totseq;
}

// s_Trim: the least probable sub-window (trimming at most maxtrim letters) of seq[0, length).
void trim(const uint8_t* seq, int32_t length, int32_t* leftend, int32_t* rightend, int maxtrim) {
  int32_t lend = 0, rend = length - 1;
  int32_t minlen = 1;
  if (length - maxtrim > minlen) minlen = length - maxtrim;
  double minprob = 1.;
  for (int32_t len = length; len > minlen; --len) {
    auto w = open_window(seq, length, 0, len);
    bool shift = true;
    for (int32_t i = 0; shift; ++i) {
      const double prob = ln_probability(w->state, len);
      if (prob < minprob) {
        minprob = prob;
        lend = i;
        rend = len + i - 1;
      }
      shift = shift_window(*w);
    }
  }
  *leftend = *leftend + lend;
  *rightend = *rightend - (length - rend - 1);
}

struct Segment {
  int32_t begin, end;
};

// s_SegSeq on seq[0, length), segments pushed to the front of segs (offset added).
void seg_sequence(const uint8_t* seq, int32_t length, const SegParameters& p,
                  std::vector<Segment>& segs, int32_t offset) {
  if (p.window <= 0) return;
  const int window = p.window;
  const int downset = (window + 1) / 2 - 1;
  const int upset = window - downset;
  const std::vector<double> h = window_entropies(seq, length, window, p.maxbogus);
  if (h.empty()) return;
  const int32_t last = length - upset;
  int32_t lowlim = downset;
  for (int32_t i = downset; i <= last; ++i) {
    if (!(h[i] <= p.locut && h[i] != -1.0)) continue;
    const int32_t loi = find_low(i, lowlim, p.hicut, h);
    const int32_t hii = find_high(i, last, p.hicut, h);
    int32_t leftend = loi - downset;
    int32_t rightend = hii + upset - 1;
    trim(seq + leftend, rightend - leftend + 1, &leftend, &rightend, p.maxtrim);
    if (i + upset - 1 < leftend) {  // a trigger window in the trimmed-off left part
      const int32_t lend = loi - downset;
      const int32_t rend = leftend - 1;
      std::vector<Segment> left;
      seg_sequence(seq + lend, rend - lend + 1, p, left, offset + lend);
      // NCBI links only the head of that list (its last segment) into the result.
      if (!left.empty()) segs.push_back(left.back());
    }
    segs.push_back({leftend + offset, rightend + offset});
    i = std::min(hii, rightend + downset);
    lowlim = i + 1;
  }
}

}  // namespace

std::vector<std::pair<int32_t, int32_t>> seg_segments(const uint8_t* codes, int32_t length,
                                                      const SegParameters& parameters) {
  SegParameters p = parameters;  // s_SegParametersCheck
  if (p.window <= 0) p.window = 12;
  if (p.locut < 0.0) p.locut = 0.0;
  if (p.hicut < 0.0) p.hicut = 0.0;
  if (p.locut > p.hicut) p.hicut = p.locut;
  if (p.maxbogus < 0) p.maxbogus = 0;
  if (p.maxbogus > p.window) p.maxbogus = p.window;
  if (p.maxtrim < 0) p.maxtrim = 0;
  std::vector<Segment> segs;  // in the order found; NCBI's list is the reverse
  seg_sequence(codes, length, p, segs, 0);
  // s_MergeSegs with hilenmin 0, walking NCBI's list (last found first).
  std::vector<Segment> merged(segs.rbegin(), segs.rend());
  size_t s = 0;
  for (size_t next = 1; next < merged.size();) {
    if (merged[s].begin - merged[next].end - 1 < 0) {
      merged[s].end = std::max(merged[s].end, merged[next].end);
      merged[s].begin = std::min(merged[s].begin, merged[next].begin);
      merged.erase(merged.begin() + static_cast<std::ptrdiff_t>(next));
    } else {
      s = next++;
    }
  }
  if (!merged.empty() && merged[s].begin < 0) merged[s].begin = 0;
  std::vector<std::pair<int32_t, int32_t>> out;
  for (const Segment& g : merged) out.emplace_back(g.begin, g.end);
  return out;
}

bool seg_mask(uint8_t* codes, int32_t length, const SegParameters& parameters) {
  const auto segments = seg_segments(codes, length, parameters);
  for (const auto& [begin, end] : segments)
    for (int32_t i = begin; i <= end; ++i) codes[i] = kCodeX;
  return !segments.empty();
}

}  // namespace gpuseq::blast
