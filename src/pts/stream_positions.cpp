// pts/stream_positions.cpp — see stream_positions.h.
#include "pts/stream_positions.h"

namespace pts::runner {

bool same_stream_layout(const model::AccessSpec& a, const model::AccessSpec& b) {
  return a.pattern == model::AccessPattern::Sequential && b.pattern == model::AccessPattern::Sequential &&
         a.threads == b.threads && a.active_range_pct == b.active_range_pct && a.ar_segments == b.ar_segments;
}

std::vector<uint64_t> stream_resume_point(const model::RunRecord& record, size_t subtest,
                                          const model::AccessSpec& spec) {
  if (spec.pattern != model::AccessPattern::Sequential || subtest >= record.subtests.size()) return {};
  const model::SubTestRecord& st = record.subtests[subtest];
  const model::CellResult* last = nullptr;
  for (auto r = st.rounds.rbegin(); r != st.rounds.rend() && !last; ++r)
    for (auto c = r->cells.rbegin(); c != r->cells.rend(); ++c)
      if (c->spec.pattern == model::AccessPattern::Sequential) {
        last = &*c;
        break;
      }
  if (!last && st.wipc && st.wipc->result.spec.pattern == model::AccessPattern::Sequential) last = &st.wipc->result;
  if (!last || last->stream_end_bytes.size() != spec.threads || !same_stream_layout(last->spec, spec)) return {};
  return last->stream_end_bytes;
}

}  // namespace pts::runner
