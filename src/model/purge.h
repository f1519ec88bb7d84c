// model/purge.h — the record of one purge: method, the exact command, its status, how
// long it took and whether verification proved it. May use: core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pts::model {

/// Purge methods, strongest first. `Discard` and `Recreate` are not SNIA purges (deviations).
enum class PurgeMethod {
  SanitizeCrypto,
  SanitizeBlock,
  FormatCrypto,
  FormatUser,
  Discard,   ///< BLKDISCARD on a block device
  Recreate,  ///< file target: truncate and re-create
  None       ///< operator chose no purge (deviation)
};

/// Result of the LBA read-back check after a purge: a pattern written at sampled LBAs before
/// the purge is read back after it. It shows that those LBAs no longer return the data
/// written; it is not a media-level proof of erasure.
struct PurgeVerification {
  bool performed = false;
  bool passed = false;
  uint32_t sampled_blocks = 0;
  uint32_t blocks_still_holding_pattern = 0;
  std::string expectation;  ///< e.g. "zeroes (deallocated reads zeroes)", "not the pattern"
  std::string detail;
  std::string method = "LBA read-back check";  ///< what the check is, in the record and the report
};

/// Everything about one purge (design: PurgeRecord).
struct PurgeRecord {
  PurgeMethod method = PurgeMethod::None;
  bool chosen_automatically = true;
  std::string reason;               ///< why this method (capabilities, operator choice)
  uint8_t opcode = 0;               ///< admin opcode (0x84 Sanitize, 0x80 Format NVM)
  uint32_t nsid = 0;
  std::vector<uint32_t> cdw;        ///< cdw10..cdw15 as sent
  bool success = false;
  std::optional<uint8_t> status_sct;
  std::optional<uint8_t> status_sc;
  int sys_errno = 0;
  std::string status_text;
  uint64_t started_wall_ns = 0;
  uint64_t duration_ns = 0;
  uint32_t progress_polls = 0;
  PurgeVerification verification;
  bool is_snia_purge = false;       ///< false for Discard/Recreate/None
  bool accepted_by_operator = false;///< a failed/unverified purge the operator accepted
};

/// Every method, strongest first (the order the CLI lists them).
inline constexpr PurgeMethod kAllPurgeMethods[] = {
    PurgeMethod::SanitizeCrypto, PurgeMethod::SanitizeBlock, PurgeMethod::FormatCrypto, PurgeMethod::FormatUser,
    PurgeMethod::Discard,        PurgeMethod::Recreate,      PurgeMethod::None};

/// True when a run may go on from this purge: it succeeded and its LBA read-back check
/// passed (or the method was None, with nothing to check), or the operator accepted a failed
/// or unchecked purge (--accept-purge-failure). A purge that is not settled is repeated on
/// resume.
bool purge_settled(const PurgeRecord& record);

/// The deviations a settled purge implies (code, text), derived from the record alone so that
/// a kill between two journal lines cannot lose them. `subtest_id` names the sub-test.
std::vector<std::pair<std::string, std::string>> purge_deviations(const PurgeRecord& record,
                                                                  const std::string& subtest_id);

/// The one name of a method on the CLI and in records: "sanitize-crypto", "sanitize-block",
/// "format-crypto", "format-user", "discard", "recreate", "none".
std::string purge_method_name(PurgeMethod method);

/// The method with that name; nullopt for anything else (including "auto").
std::optional<PurgeMethod> purge_method_from_name(std::string_view name);

}  // namespace pts::model
