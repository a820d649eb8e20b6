/* hmmer_filters: print HMMER's own per-sequence filter scores (reference values for tests).
 *
 * Links against the HMMER 3.4 / Easel shared libraries shipped in the pyhmmer wheel, so the
 * numbers are exactly what pyhmmer (and hmmsearch's p7_Pipeline) compute.
 *
 *   hmmer_filters MODEL.hmm SEQS.fasta
 *     one line per (model, sequence), tab-separated:
 *     model  seq_index  seq_name  L  null1  ssv  msv  vf  bias  fwd
 *     scores in nats, printed with %a; "inf"/"-inf"/"nan" as documented in print_score();
 *     L == 0: every score is "-" (p7_Pipeline skips empty targets).
 *
 *   hmmer_filters --tables MODEL.hmm L
 *     the Viterbi-filter word tables (and the MSV byte constants) of each model, configured
 *     for target length L, unstriped to node order k = 1..M.
 *
 * Setup mirrors hmmsearch: profile configured local multihit with L = 100, then per target
 * p7_bg_SetLength + p7_oprofile_ReconfigLength. Flush-to-zero is NOT enabled (impl_Init()
 * is not called), matching pyhmmer rather than the hmmsearch binary.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "easel.h"
#include "esl_alphabet.h"
#include "esl_sq.h"
#include "esl_sqio.h"

#include "hmmer.h"
#include "impl_sse.h"

static void die(const char *fmt, const char *arg)
{
  fprintf(stderr, "hmmer_filters: ");
  fprintf(stderr, fmt, arg ? arg : "");
  fprintf(stderr, "\n");
  exit(1);
}

/* Exact hex float; special values spelled the same on every libc ("-nan" is avoided). */
static void print_score(float sc)
{
  if (isnan(sc))      printf("\tnan");
  else if (isinf(sc)) printf(sc > 0 ? "\tinf" : "\t-inf");
  else                printf("\t%a", (double) sc);
}

/* A configured model, set up the way hmmsearch does it for each query. */
typedef struct {
  P7_HMM      *hmm;
  P7_PROFILE  *gm;
  P7_OPROFILE *om;
} Model;

/* Reads the next model; returns 0 at end of file. */
static int read_model(P7_HMMFILE *hfp, ESL_ALPHABET **abc, P7_BG **bg, Model *m)
{
  int status = p7_hmmfile_Read(hfp, abc, &m->hmm);
  if (status == eslEOF) return 0;
  if (status == eslEINCOMPAT) die("model is not an amino-acid HMM", NULL);
  if (status != eslOK) die("failed to read HMM: %s", hfp->errbuf);

  if (*bg == NULL && (*bg = p7_bg_Create(*abc)) == NULL) die("p7_bg_Create failed", NULL);

  m->gm = p7_profile_Create(m->hmm->M, *abc);
  m->om = p7_oprofile_Create(m->hmm->M, *abc);
  if (!m->gm || !m->om) die("allocation failed", NULL);
  if (p7_ProfileConfig(m->hmm, *bg, m->gm, 100, p7_LOCAL) != eslOK) die("p7_ProfileConfig failed", NULL);
  if (p7_oprofile_Convert(m->gm, m->om) != eslOK) die("p7_oprofile_Convert failed", NULL);
  /* p7_pli_NewModel: the bias filter's two-state HMM comes from the model's composition. */
  if (p7_bg_SetFilter(*bg, m->om->M, m->om->compo) != eslOK) die("p7_bg_SetFilter failed", NULL);
  return 1;
}

static void free_model(Model *m)
{
  p7_oprofile_Destroy(m->om);
  p7_profile_Destroy(m->gm);
  p7_hmm_Destroy(m->hmm);
}

static P7_HMMFILE *open_hmm(const char *path)
{
  P7_HMMFILE *hfp = NULL;
  char        errbuf[eslERRBUFSIZE];
  if (p7_hmmfile_Open(path, NULL, &hfp, errbuf) != eslOK) die("cannot open HMM file: %s", errbuf);
  return hfp;
}

/* Load every target up front: the FASTA is scanned once, then reused for each model. */
static ESL_SQ **read_seqs(const char *path, const ESL_ALPHABET *abc, int *ret_n)
{
  ESL_SQFILE *sqfp  = NULL;
  ESL_SQ    **seqs  = NULL;
  int         n = 0, alloc = 0, status;

  status = esl_sqfile_OpenDigital(abc, path, eslSQFILE_FASTA, NULL, &sqfp);
  if (status == eslENOTFOUND) die("no such sequence file: %s", path);
  if (status != eslOK)        die("cannot open sequence file: %s", path);

  for (;;) {
    if (n == alloc) {
      alloc = alloc ? 2 * alloc : 64;
      if ((seqs = realloc(seqs, sizeof(ESL_SQ *) * alloc)) == NULL) die("allocation failed", NULL);
    }
    seqs[n] = esl_sq_CreateDigital(abc);
    status  = esl_sqio_Read(sqfp, seqs[n]);
    if (status == eslEOF) { esl_sq_Destroy(seqs[n]); break; }
    if (status == eslEFORMAT) die("sequence file parse error: %s", esl_sqfile_GetErrorBuf(sqfp));
    if (status != eslOK)      die("error reading sequence file: %s", path);
    n++;
  }
  esl_sqfile_Close(sqfp);
  *ret_n = n;
  return seqs;
}

static void score_one(Model *m, P7_BG *bg, P7_OMX *ox, const ESL_SQ *sq, int idx)
{
  const P7_OPROFILE *om = m->om;
  int   L = (int) sq->n;
  float null1, ssv, msv, vf, bias, fwd;
  int   status;

  printf("%s\t%d\t%s\t%d", om->name, idx, sq->name, L);
  if (L == 0) { printf("\t-\t-\t-\t-\t-\t-\n"); return; }

  /* Per-target reconfiguration, as hmmsearch's loop does before calling p7_Pipeline. */
  p7_bg_SetLength(bg, L);
  p7_oprofile_ReconfigLength(m->om, L);
  /* p7_Pipeline grows the one-row matrix to (M, 0 rows, L special-state rows) once; the
   * same matrix then serves MSV, Viterbi filter and ForwardParser. */
  if (p7_omx_GrowTo(ox, om->M, 0, L) != eslOK) die("p7_omx_GrowTo failed", NULL);

  p7_bg_NullOne(bg, sq->dsq, L, &null1);
  print_score(null1);

  /* SSV alone: NORESULT means "run the full MSV" (no score), ERANGE means overflow. */
  status = p7_SSVFilter(sq->dsq, L, om, &ssv);
  if      (status == eslENORESULT) ssv = NAN;
  else if (status == eslERANGE)    ssv = INFINITY;
  print_score(ssv);

  status = p7_MSVFilter(sq->dsq, L, om, ox, &msv);
  if (status == eslERANGE) msv = INFINITY;
  print_score(msv);

  status = p7_ViterbiFilter(sq->dsq, L, om, ox, &vf);
  if (status == eslERANGE) vf = INFINITY;
  print_score(vf);

  if (p7_bg_FilterScore(bg, sq->dsq, L, &bias) != eslOK) bias = NAN;
  print_score(bias);

  /* ForwardParser raises (non-fatally, see main) on underflow/overflow; beyond the
   * pipeline's 100K limit a failure is reported as "-" since HMMER never gets there. */
  status = p7_ForwardParser(sq->dsq, L, om, ox, &fwd);
  if (status != eslOK && L > 100000) printf("\t-");
  else                               print_score(status == eslOK ? fwd : NAN);
  printf("\n");
}

static int run_scores(const char *hmmpath, const char *seqpath)
{
  ESL_ALPHABET *abc = esl_alphabet_Create(eslAMINO);
  P7_BG        *bg  = NULL;
  P7_HMMFILE   *hfp = open_hmm(hmmpath);
  P7_OMX       *ox  = p7_omx_Create(400, 0, 400);  /* one-row matrix, grown per target */
  ESL_SQ      **seqs;
  Model         m;
  int           nseq, i;

  seqs = read_seqs(seqpath, abc, &nseq);
  while (read_model(hfp, &abc, &bg, &m)) {
    for (i = 0; i < nseq; i++) score_one(&m, bg, ox, seqs[i], i);
    free_model(&m);
  }

  for (i = 0; i < nseq; i++) esl_sq_Destroy(seqs[i]);
  free(seqs);
  p7_omx_Destroy(ox);
  p7_hmmfile_Close(hfp);
  if (bg) p7_bg_Destroy(bg);
  esl_alphabet_Destroy(abc);
  return 0;
}

/* Word tables are striped: node k = z*Q8 + q + 1 sits in vector q, lane z. */
static int16_t word_at(const __m128i *vecs, int Q8, int k)
{
  const int16_t *w = (const int16_t *) vecs;
  int q = (k - 1) % Q8, z = (k - 1) / Q8;
  return w[q * 8 + z];
}

static void print_tables(const P7_OPROFILE *om)
{
  static const char *tname[8] = { "BM", "MM", "IM", "DM", "MD", "MI", "II", "DD" };
  const int16_t *tw = (const int16_t *) om->twv;
  int M = om->M, Q8 = p7O_NQW(om->M);
  int x, k, t, s;

  printf("model %s\n", om->name);
  printf("M %d\n", M);
  printf("base_w %d\n", om->base_w);
  printf("scale_w %a\n", (double) om->scale_w);
  printf("ddbound_w %d\n", om->ddbound_w);
  printf("xw");  /* E, N, J, C; MOVE then LOOP for each */
  for (s = 0; s < p7O_NXSTATES; s++)
    printf(" %d %d", om->xw[s][p7O_MOVE], om->xw[s][p7O_LOOP]);
  printf("\n");
  printf("tbm %d\ntec %d\ntjb %d\nbias_b %d\nbase_b %d\n",
         om->tbm_b, om->tec_b, om->tjb_b, om->bias_b, om->base_b);
  printf("scale_b %a\n", (double) om->scale_b);

  for (x = 0; x < om->abc->Kp; x++) {
    printf("rw %d", x);
    for (k = 1; k <= M; k++) printf(" %d", word_at(om->rwv[x], Q8, k));
    printf("\n");
  }

  /* twv: for each q, 7 interleaved vectors (BM..II), then Q8 vectors of DD. */
  for (t = 0; t < 8; t++) {
    printf("tw %s", tname[t]);
    for (k = 1; k <= M; k++) {
      int q = (k - 1) % Q8, z = (k - 1) / Q8;
      int v = (t < 7) ? (7 * q + t) : (7 * Q8 + q);
      printf(" %d", tw[v * 8 + z]);
    }
    printf("\n");
  }
}

static int run_tables(const char *hmmpath, const char *Larg)
{
  ESL_ALPHABET *abc = esl_alphabet_Create(eslAMINO);
  P7_BG        *bg  = NULL;
  P7_HMMFILE   *hfp;
  Model         m;
  char         *end;
  long          L = strtol(Larg, &end, 10);

  if (*Larg == '\0' || *end != '\0' || L < 0 || L > 100000000) die("bad length: %s", Larg);
  hfp = open_hmm(hmmpath);
  while (read_model(hfp, &abc, &bg, &m)) {
    p7_oprofile_ReconfigLength(m.om, (int) L);  /* what the filters see for a length-L target */
    print_tables(m.om);
    free_model(&m);
  }
  p7_hmmfile_Close(hfp);
  if (bg) p7_bg_Destroy(bg);
  esl_alphabet_Destroy(abc);
  return 0;
}

int main(int argc, char **argv)
{
  /* Easel's default handler aborts; we want error codes back (e.g. Forward underflow). */
  esl_exception_SetHandler(esl_nonfatal_handler);

  if (argc == 4 && strcmp(argv[1], "--tables") == 0) return run_tables(argv[2], argv[3]);
  if (argc == 3 && argv[1][0] != '-')                 return run_scores(argv[1], argv[2]);

  fprintf(stderr,
          "usage: hmmer_filters MODEL.hmm SEQS.fasta\n"
          "       hmmer_filters --tables MODEL.hmm L\n");
  return 2;
}
