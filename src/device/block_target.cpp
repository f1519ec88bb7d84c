// device/block_target.cpp — a non-NVMe block device (SATA/SAS disk, loop device...) as a
// TargetDevice: identity from sysfs and block ioctls, purge = BLKDISCARD (a recorded
// deviation), write cache read from the block queue (it cannot be set here).
// May use: core, model, device.
#include <sys/stat.h>

#include "device/block_ops.h"
#include "device/guard.h"
#include "device/pcie_link.h"
#include "device/sysfs.h"
#include "device/target_base.h"
#include "device/targets.h"

namespace pts::device {

namespace {

class BlockTarget final : public TargetBase {
 public:
  BlockTarget(const ResolvedTarget& t, std::shared_ptr<model::BlockAccessFactory> io)
      : TargetBase(t.io_path, std::move(io), nullptr), target_(t), sys_("/sys/class/block/" + t.block_name) {}

  core::Status guard() override {
    if (auto g = guard_block_device(target_.block_name); !g.ok()) return g;
    return guard_partition_table();
  }

  core::Result<model::WriteCacheState> write_cache() override {
    auto wc = sysfs::read_line(sys_ + "/queue/write_cache");
    if (!wc) return model::WriteCacheState::Unknown;
    if (*wc == "write back") return model::WriteCacheState::Enabled;
    if (*wc == "write through") return model::WriteCacheState::Disabled;
    return model::WriteCacheState::Unknown;
  }

  /// The device's cache cannot be switched from here: reports the state unchanged, the
  /// caller compares it with what it asked for and records the deviation.
  core::Result<model::WriteCacheState> set_write_cache(bool, model::WriteCacheScope) override { return write_cache(); }

 protected:
  core::Result<model::DeviceIdentity> read_identity() override {
    if (held_fd() >= 0)
      if (auto same = held_is_still(target_.block_name); !same.ok()) return same.error();
    auto g = held_fd() >= 0 ? block_geometry(held_fd(), target_.io_path) : block_geometry(target_.io_path);
    if (!g.ok()) return g.error();
    if (g->size_bytes == 0)
      return core::bad_input("TARGET " + target_.path + ": has no capacity (an unbound loop device?)");
    model::DeviceIdentity id;
    id.kind = model::TargetKind::BlockDevice;
    id.path = target_.path;
    id.capacity_bytes = g->size_bytes;
    id.lba_size = g->logical_block_bytes;
    id.physical_block_bytes = g->physical_block_bytes;
    id.capabilities.discard = sysfs::read_line(sys_ + "/queue/discard_max_bytes").value_or("0") != "0";
    if (target_.is_loop) {
      auto backing = sysfs::read_line(sys_ + "/loop/backing_file").value_or("");
      struct stat st {};
      if (backing.empty() || ::stat(backing.c_str(), &st) != 0)
        return core::bad_input("TARGET " + target_.path + ": loop device without a readable backing file");
      id.model = "Linux loop device (" + backing + ")";
      id.serial = "LOOP-" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
      id.serial_made_up = true;
      id.interface = "loop device";
      id.capabilities.deallocated_reads_zeroes = true;  // discard punches holes in the file
      return id;
    }
    const std::string dev = sys_ + "/device/";
    id.manufacturer = sysfs::read_line(dev + "vendor").value_or("");
    id.model = sysfs::read_line(dev + "model").value_or(target_.block_name);
    id.firmware = sysfs::read_line(dev + "rev").value_or(sysfs::read_line(dev + "firmware_rev").value_or(""));
    id.serial = sysfs::read_line(dev + "serial").value_or("");
    if (id.serial.empty()) {  // SCSI/SATA: Unit Serial Number VPD page (4-byte header)
      auto vpd = sysfs::read_text(dev + "vpd_pg80").value_or("");
      if (vpd.size() > 4) id.serial = sysfs::trim(vpd.substr(4));
    }
    id.wwid = sysfs::read_line(sys_ + "/wwid").value_or(sysfs::read_line(dev + "wwid").value_or(""));
    if (id.serial.empty()) id.serial = id.wwid;
    if (id.serial.empty()) {
      id.serial = "BLOCK-" + sysfs::read_line(sys_ + "/dev").value_or(target_.block_name);
      id.serial_made_up = true;
    }
    id.interface = "block device";
    id.pcie_link = read_pcie_link(target_.block_name);
    return id;
  }

  void execute_purge(model::PurgeMethod method, const model::DeviceIdentity& id, const PurgeRequest&,
                     model::PurgeRecord& rec) override {
    if (method != model::PurgeMethod::Discard) {
      rec.status_text = "method not applicable to a block device";
      return;
    }
    discard_all(held_fd(), target_.io_path, id.capacity_bytes, rec);
  }

  ErasedValue erased_value(model::PurgeMethod, const model::DeviceIdentity& id) const override {
    return id.capabilities.deallocated_reads_zeroes ? ErasedValue::Zeroes : ErasedValue::NotPattern;
  }

 private:
  /// The held descriptor must still be the device sysfs calls `name` (a device that went away
  /// and a new one under the same name would otherwise be identified by the wrong node).
  core::Status held_is_still(const std::string& name) {
    struct stat st {};
    DevNum sys;
    auto line = sysfs::read_line(sys_ + "/dev");
    if (::fstat(held_fd(), &st) != 0 || !line || !parse_devnum(*line, sys) || !(devnum_of(st.st_rdev) == sys))
      return core::Error(core::ErrorKind::Refused, "refused: the held descriptor of " + target_.path +
                                                       " is no longer /dev/" + name + "; nothing was written");
    return core::ok_status();
  }

  ResolvedTarget target_;
  std::string sys_;
};

}  // namespace

std::unique_ptr<TargetDevice> make_block_target(const ResolvedTarget& target,
                                                std::shared_ptr<model::BlockAccessFactory> block_access) {
  return std::make_unique<BlockTarget>(target, std::move(block_access));
}

}  // namespace pts::device
