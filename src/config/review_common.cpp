// config/review_common.cpp — see review_common.h.
#include "config/review_common.h"

#include <algorithm>
#include <cctype>

#include "config/resolver_text.h"
#include "config/toml_reader.h"
#include "config/workloads.h"
#include "core/units.h"

namespace pts::config::detail {

namespace {
constexpr uint32_t kSeqBytes = 64 * 1024;
constexpr uint32_t kRandomBytes = 4096;
}  // namespace

const std::vector<std::string_view>& review_key_names() {
  static const std::vector<std::string_view> keys = {"preconditioning", "review_seq_minutes", "review_random_minutes",
                                                     "source", "approximation", "threads_meaning"};
  return keys;
}

void read_review_keys(TableReader& r, ReviewKeys& k) {
  k.line = r.line();
  if (auto v = r.choice("preconditioning", {"review", "none"})) k.preconditioning = *v;
  if (auto v = r.number("review_seq_minutes", 0, false, 1440)) k.review_seq_minutes = *v;
  if (auto v = r.number("review_random_minutes", 0, false, 1440)) k.review_random_minutes = *v;
  if (auto v = r.string("source", true)) k.source = *v;
  if (auto v = r.boolean("approximation")) k.approximation = *v;
  if (auto v = r.string("threads_meaning")) k.threads_meaning = *v;
}

namespace {

/// The profile's source as planned, with its readings (source, approximation, threads).
model::ProfileSource resolve_profile(ResolveCtx& c, const ReviewKeys& k, const std::string& name) {
  model::ProfileSource s;
  s.source = k.source;
  s.approximation = k.approximation;
  s.threads_meaning = k.threads_meaning;
  c.interpret(name + " source: " + k.source);
  if (k.approximation)
    c.interpret(name + " is an APPROXIMATION: built from a published description, not from the lab's own definition "
                       "(which is not public)");
  const auto& p = c.plan();
  c.interpret(name + " outstanding I/Os: TC " + std::to_string(p.threads) + " × QD " + std::to_string(p.queue_depth) +
              " = " + std::to_string(uint64_t{p.threads} * p.queue_depth) +
              (k.threads_meaning.empty() ? std::string() : " — " + k.threads_meaning));
  return s;
}

/// The review preconditioning as planned (scaled) and, when enabled, its sub-test appended to
/// the plan: purge, the whole surface written with SEQ 64 KiB, SEQ 64 KiB for an hour, and for a
/// random profile RND 4 KiB writes for an hour inside the ActiveRange (the labs' partition).
model::ReviewPreconditionPlan add_review_precondition(ResolveCtx& c, const ReviewKeys& k, bool random_profile,
                                                     const std::string& name) {
  model::ReviewPreconditionPlan r;
  if (k.preconditioning != "review") return r;
  auto& p = c.plan();
  r.enabled = true;
  r.spec_seq_seconds = k.review_seq_minutes * 60;
  r.seq_seconds = c.scaled(r.spec_seq_seconds);
  r.spec_random_seconds = random_profile ? k.review_random_minutes * 60 : 0;
  r.random_seconds = c.scaled(r.spec_random_seconds);

  model::SubTestPlan s;
  s.id = "review-precondition";
  s.title = name + " – Review preconditioning (not the PTS's)";
  s.role = model::SubTestRole::ReviewPrecondition;
  s.purge = purge_wanted(c);
  s.wipc_enabled = false;
  model::AccessSpec seq;
  seq.pattern = model::AccessPattern::Sequential;
  seq.read_pct = 0;
  seq.block_bytes = kSeqBytes;
  seq.threads = 1;
  seq.queue_depth = 32;
  seq.active_range_pct = 100;
  if (c.o.seed) seq.seed = *c.o.seed;
  model::AccessSpec fill = seq;
  const uint64_t surface = c.id.capacity_bytes / kSeqBytes * kSeqBytes;
  fill.bytes_limit = std::max<uint64_t>(kSeqBytes, static_cast<uint64_t>(static_cast<double>(surface) * p.time_scale) /
                                                        kSeqBytes * kSeqBytes);
  fill.seconds = 0;
  s.cells.push_back(make_cell("fill-64k", "Whole surface: SEQ 64 KiB writes of " + core::format_bytes(fill.bytes_limit) +
                                              (p.time_scale != 1 ? " (capacity × time scale)" : "") + " at TC 1 / QD 32",
                              fill));
  if (r.seq_seconds > 0) {
    model::AccessSpec more = seq;
    more.seconds = r.seq_seconds;
    s.cells.push_back(make_cell("seq-64k", "SEQ 64 KiB writes for " + duration_words(r.seq_seconds) + " at TC 1 / QD 32",
                                more));
  }
  if (r.random_seconds > 0) {
    model::AccessSpec rnd;
    rnd.pattern = model::AccessPattern::Random;
    rnd.read_pct = 0;
    rnd.block_bytes = kRandomBytes;
    rnd.threads = 4;
    rnd.queue_depth = 32;
    rnd.seconds = r.random_seconds;
    rnd.active_range_pct = p.active_range_pct;
    if (c.o.seed) rnd.seed = *c.o.seed;
    s.cells.push_back(make_cell("rnd-4k", "RND 4 KiB writes for " + duration_words(r.random_seconds) + " in the " +
                                              num(p.active_range_pct) + " % ActiveRange at TC 4 / QD 32",
                                rnd));
  }
  for (const auto& cell : s.cells)
    if (std::string why = not_applicable(cell.spec.block_bytes, c.id.lba_size); !why.empty())
      c.errors.push_back(c.at(k.line) + "preconditioning = \"review\" cannot run on this target: " + why);
  c.interpret(name + " preconditioning \"review\" (the review lab's, not the PTS's; its TC/QD are not published, "
                     "ptsuite's choice): purge (the secure erase), the whole surface written with SEQ 64 KiB at TC 1 / "
                     "QD 32, " + duration_words(r.spec_seq_seconds) + " more of them, then the test confined to the " +
              num(p.active_range_pct) + " % ActiveRange (the lab's partition)" +
              (random_profile ? ", in which " + duration_words(r.spec_random_seconds) +
                                    " of RND 4 KiB writes at TC 4 / QD 32 run before the random profile"
                              : "") +
              ". The lab notes it is not a full-entropy steady state");
  p.subtests.push_back(std::move(s));
  return r;
}

}  // namespace

ReviewStart start_review(ResolveCtx& c, const ReviewKeys& k, const WorkloadDef& w) {
  ReviewStart out;
  out.name = c.d.id;
  for (auto& ch : out.name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  c.interpret(out.name + " is not a SNIA PTS test: a workload review labs run beside the PTS (ptsuite list groups it "
                         "apart); no steady-state rule applies to it");
  out.profile = resolve_profile(c, k, out.name);
  out.review = add_review_precondition(c, k, w.pattern == model::AccessPattern::Random, out.name);
  return out;
}

SubtestWorstCase review_worst_case(const model::TestPlan& /*plan*/, const model::SubTestPlan& sub) {
  SubtestWorstCase out;
  for (const auto& c : sub.cells) out.seconds += c.spec.seconds;
  out.how = "the timed steps; the fill writes its bytes at the drive's rate";
  return out;
}

SubtestText describe_review(const model::TestPlan& /*plan*/, const model::SubTestPlan& sub) {
  SubtestText out;
  for (const auto& c : sub.cells) out.phases.push_back(c.label);
  return out;
}

}  // namespace pts::config::detail
