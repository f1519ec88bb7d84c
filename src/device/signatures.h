// device/signatures.h — on-disk signatures through libblkid (the only user of libblkid): file
// systems, LVM PV / md / ZFS / Ceph / LUKS members, swap and partition tables, probed through
// the guard's held descriptor (never by path). Any signature makes the guard refuse unless the
// operator passes --force-signatures, which is recorded as a deviation. May use: core.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace pts::device {

/// One signature libblkid found, in words: "ext4 file system (UUID 1b2c..., label data) at
/// byte 1080", "LVM2_member raid member (UUID ...) at byte 536", "gpt partition table at byte 512".
struct Signature {
  std::string type;   ///< libblkid TYPE or PTTYPE: ext4, LVM2_member, swap, gpt, dos...
  std::string text;
};

/// Probes every signature libblkid knows on the open descriptor `fd` (a block device or a
/// regular file). The descriptor's O_DIRECT flag is cleared while libblkid reads (it reads
/// into unaligned buffers) and restored after. Fails (Refused) when the probe cannot run.
core::Result<std::vector<Signature>> probe_signatures(int fd, const std::string& name);

/// The refusal for `found` (Refused), naming each signature.
core::Error signature_refusal(const std::string& name, const std::vector<Signature>& found);

}  // namespace pts::device
