// device/exclusive_open.h — the exclusive opens behind acquire_target() (held_target.h): a
// block device with O_RDWR|O_EXCL|O_DIRECT and its st_rdev checked, a regular file with
// O_RDWR|O_DIRECT, its device + inode checked and a write lease proving no other process has
// it open. Every failure to get exclusivity is a refusal (exit 3) naming the evidence.
// May use: core, system_view.
#pragma once

#include <string>

#include "core/result.h"
#include "device/system_view.h"

namespace pts::device {

/// Opens block device node `path` exclusively; its st_rdev must be `expected` (the device the
/// guard examined). EBUSY (mounted, swap, md/dm, another ptsuite, in any namespace) → Refused.
core::Result<int> open_block_exclusive(const std::string& path, DevNum expected);

/// Opens regular file `path` for direct I/O; its device + inode must be `expected`; a write
/// lease (taken and released) proves no other open file description exists, else Refused
/// naming the processes that hold it open (from /proc/<pid>/fd under `root`).
core::Result<int> open_file_exclusive(const std::string& path, FileKey expected, const std::string& root = "");

/// The hold of a measurement that only reads (a shared hold): `path` (a block device node or a
/// regular file) opened O_RDONLY|O_DIRECT under a shared flock, which every writing ptsuite's
/// exclusive open (above: an exclusive flock beside O_EXCL or the lease) is refused by for as
/// long as it is held, and which is itself refused while a writing ptsuite holds the target.
/// Readers share it. The convention is systemd's for block devices (udev takes the shared lock
/// while it probes; a tool that writes takes it exclusively).
core::Result<int> open_shared_hold(const std::string& path);

/// Takes the exclusive flock of a writer on `fd` (for `path`, in messages): a short wait for a
/// prober's shared lock (udev) to go, then Refused naming the readers that hold it.
core::Status lock_exclusive(int fd, const std::string& path);

/// "pid 123 (sleep), pid 456 (python3)": the processes with `key` open (for messages).
std::string processes_holding(FileKey key, const std::string& root = "");

}  // namespace pts::device
