// pts/stream_positions.h — where a sequential cell's streams start: where the previous
// sequential run of the same sub-test left them (its recorded stream_end_bytes), so SEQ cells
// sweep the ActiveRange across cells and Rounds instead of rewriting its first gigabytes each
// cell. Read from the record, so a resumed run continues exactly where the journal says the
// streams stood. May use: model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/access_spec.h"
#include "model/run_record.h"

namespace pts::runner {

/// True when two sequential specs lay out their streams over the same space (same thread
/// count, ActiveRange and AR segments), so one's end positions are valid starts for the other.
bool same_stream_layout(const model::AccessSpec& a, const model::AccessSpec& b);

/// The start positions for sequential `spec` in sub-test `subtest`: the stream_end_bytes of
/// the most recent sequential run recorded there (the Rounds' cells newest first, then the
/// WIPC), when its layout matches; else empty (each stream starts at its slice start).
std::vector<uint64_t> stream_resume_point(const model::RunRecord& record, size_t subtest,
                                          const model::AccessSpec& spec);

}  // namespace pts::runner
