// device/nvme_decode.cpp — byte-level decoding of NVMe identify and log data (little endian).
// May use: core.
#include "device/nvme_decode.h"

#include <algorithm>

namespace pts::device::nvme {

namespace {

uint64_t le(const std::vector<uint8_t>& d, size_t off, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v |= uint64_t(d[off + i]) << (8 * i);
  return v;
}

/// ASCII field, trailing spaces and NULs removed.
std::string text(const std::vector<uint8_t>& d, size_t off, size_t bytes) {
  std::string s(reinterpret_cast<const char*>(d.data() + off), bytes);
  size_t end = s.find_last_not_of(std::string(" \0", 2));
  s.erase(end == std::string::npos ? 0 : end + 1);
  size_t nul = s.find('\0');
  if (nul != std::string::npos) s.erase(nul);
  return s;
}

core::Error short_data(const char* what, size_t got, size_t need) {
  return core::Error(core::ErrorKind::Device, std::string(what) + ": " + std::to_string(got) +
                                                  " bytes returned, " + std::to_string(need) +
                                                  " expected");
}

}  // namespace

std::string IdCtrl::version_text() const {
  if (ver == 0) return "";
  std::string v = std::to_string(ver >> 16) + "." + std::to_string((ver >> 8) & 0xFF);
  if (ver & 0xFF) v += "." + std::to_string(ver & 0xFF);
  return v;
}

uint32_t IdNs::lba_bytes() const {
  uint8_t i = current_lbaf();
  if (i >= lbaf.size() || lbaf[i].lbads < 9 || lbaf[i].lbads > 31) return 0;
  return 1u << lbaf[i].lbads;
}

uint16_t IdNs::metadata_bytes() const {
  uint8_t i = current_lbaf();
  return i < lbaf.size() ? lbaf[i].ms : 0;
}

core::Result<IdCtrl> decode_id_ctrl(const std::vector<uint8_t>& d) {
  if (d.size() < kIdCtrlBytes) return short_data("Identify Controller", d.size(), kIdCtrlBytes);
  IdCtrl c;
  c.vid = le(d, 0, 2);
  c.ssvid = le(d, 2, 2);
  c.sn = text(d, 4, 20);
  c.mn = text(d, 24, 40);
  c.fr = text(d, 64, 8);
  c.ver = le(d, 80, 4);
  c.oacs = le(d, 256, 2);
  c.lpa = d[261];
  c.sanicap = le(d, 328, 4);
  c.nn = le(d, 516, 4);
  c.oncs = le(d, 520, 2);
  c.fna = d[524];
  c.vwc = d[525];
  c.subnqn = text(d, 768, 256);
  return c;
}

core::Result<IdNs> decode_id_ns(const std::vector<uint8_t>& d) {
  if (d.size() < kIdNsBytes) return short_data("Identify Namespace", d.size(), kIdNsBytes);
  IdNs n;
  n.nsze = le(d, 0, 8);
  n.ncap = le(d, 8, 8);
  n.nuse = le(d, 16, 8);
  n.nsfeat = d[24];
  n.nlbaf = d[25];
  n.flbas = d[26];
  n.dps = d[29];
  n.dlfeat = d[33];
  n.npwg = le(d, 64, 2);
  n.nguid.assign(d.begin() + 104, d.begin() + 120);
  n.eui64.assign(d.begin() + 120, d.begin() + 128);
  const size_t count = std::min<size_t>(size_t(n.nlbaf) + 1, 64);
  for (size_t i = 0; i < count; ++i) {
    size_t off = 128 + 4 * i;
    n.lbaf.push_back({uint16_t(le(d, off, 2)), d[off + 2], uint8_t(d[off + 3] & 0x3)});
  }
  return n;
}

core::Result<SmartLog> decode_smart_log(const std::vector<uint8_t>& d) {
  if (d.size() < 512) return short_data("SMART / Health log", d.size(), 512);
  SmartLog s;
  s.critical_warning = d[0];
  s.temperature_k = le(d, 1, 2);
  s.percent_used = d[5];
  s.data_units_read = le(d, 32, 8);
  s.data_units_written = le(d, 48, 8);
  s.power_on_hours = le(d, 128, 8);
  s.media_errors = le(d, 160, 8);
  return s;
}

core::Result<SanitizeLog> decode_sanitize_log(const std::vector<uint8_t>& d) {
  if (d.size() < 32) return short_data("Sanitize Status log", d.size(), 32);
  SanitizeLog s;
  s.sprog = le(d, 0, 2);
  s.sstat = le(d, 2, 2);
  s.scdw10 = le(d, 4, 4);
  s.eto = le(d, 8, 4);
  s.etbe = le(d, 12, 4);
  s.etce = le(d, 16, 4);
  s.etond = le(d, 20, 4);
  s.etbend = le(d, 24, 4);
  s.etcend = le(d, 28, 4);
  return s;
}

NsDescriptors decode_ns_descriptors(const std::vector<uint8_t>& d) {
  NsDescriptors out;
  for (size_t off = 0; off + 4 <= d.size();) {
    const uint8_t type = d[off], len = d[off + 1];
    if (type == 0 || len == 0 || off + 4 + len > d.size()) break;
    std::vector<uint8_t> id(d.begin() + off + 4, d.begin() + off + 4 + len);
    if (type == 1 && len == 8) out.eui64 = id;
    if (type == 2 && len == 16) out.nguid = id;
    if (type == 3 && len == 16) out.uuid = id;
    off += 4 + len;
  }
  return out;
}

std::vector<uint32_t> decode_ns_list(const std::vector<uint8_t>& d) {
  std::vector<uint32_t> out;
  for (size_t off = 0; off + 4 <= d.size(); off += 4) {
    uint32_t id = le(d, off, 4);
    if (id == 0) break;
    out.push_back(id);
  }
  return out;
}

bool admin_command_supported(const std::vector<uint8_t>& d, uint8_t opcode) {
  const size_t off = size_t{opcode} * 4;  // ACS[opcode], admin commands first
  return off + 4 <= d.size() && (le(d, off, 4) & 1u);
}

}  // namespace pts::device::nvme
