// sim/profiles.cpp — the named drives. Every value says where it comes from: a published
// figure the profile is calibrated to (bench/sim_calibration.sh prints the comparison), a
// standard (IDEMA LBA counts, PCIe, ONFI), a typical value of the flash generation
// (assumed, stated as such), or a scaling rule. See docs/simulator.md.
#include "sim/params.h"

namespace pts::sim {

namespace {

struct Profile {
  const char* name;
  const char* description;
  SimParams params;
  std::vector<std::pair<std::string, std::string>> sources;
};

SimParams dc_tlc_2t() {
  SimParams p;
  p.profile = "dc-tlc-2t";
  p.capacity_bytes = 2000398934016ull;  // IDEMA LBA1-03: 3,907,029,168 LBAs of 512 B for 2000 GB
  p.lba_bytes = 512;
  p.pcie_mbps = 3500;
  p.cmd_read_ns = 13590;
  p.cmd_write_ns = 19800;
  p.cmd_occupancy_ns = 1400;
  p.buffer_bytes = 48ull << 20;  // 4 program units per die
  p.plp = true;
  p.page_bytes = 4096;
  p.op = 0.07;
  p.gc = GcPolicy::Greedy;
  p.gc_free = 3;
  p.idle_gc_free = 24;
  p.pe_cycles = 3000;
  p.channels = 8;
  p.dies = 64;
  p.planes = 4;
  p.flash_page_bytes = 16384;
  p.pages_per_block = 768;
  p.bits_per_cell = 3;
  p.read_ns = 60000;
  p.prog_ns = 3300000;
  p.erase_ns = 3500000;
  p.channel_mbps = 1000;
  p.crypto_erase_ms = 2000;
  return p;
}

const std::vector<std::pair<std::string, std::string>> kTlcSources = {
    {"lba", "512-byte LBAs: the format enterprise NVMe drives of 2018 ship with (512e)"},
    {"pcie_mbps", "PCIe 3.0 x4: 3.94 GB/s raw per direction, about 3.5 GB/s after protocol overhead"},
    {"cmd_read_us", "fitted: published 4 KiB random read QD 1 mean 0.079 ms = this + read_us + channel and link transfer of 4 KiB "
                    "(13.59 + 60 + 4.10 + 1.17 us)"},
    {"cmd_write_us", "fitted: published 4 KiB random write QD 1 mean 0.020 ms (47,586 IOPS) = this + link transfer of 4 KiB"},
    {"cmd_occupancy_ns", "fitted: published 4 KiB random read at 16 threads x QD 16, 657,240 IOPS (the controller's share of the limit)"},
    {"plp", "enterprise drives protect their buffer with capacitors and report no volatile write cache"},
    {"page", "4 KiB mapping unit: the usual page-mapped FTL granularity (1 byte of DRAM per 1 KiB of flash)"},
    {"op", "assumed: the usual spare of a 1-DWPD enterprise drive (raw 2 TiB less parity, bad blocks and metadata)"},
    {"gc", "greedy: the policy the closed-form write amplification is stated for"},
    {"gc_free", "assumed: a small reserve (a frontier for host data, one for GC data, one spare)"},
    {"idle_gc_free", "assumed: idle-time GC raises the free pool to about a third of the spare space"},
    {"pe_cycles", "assumed: 3,000 P/E cycles, typical of 64-layer enterprise TLC"},
    {"channels", "assumed: 8 flash channels, the controller class of 2018 enterprise NVMe drives"},
    {"dies", "assumed: 2 TiB raw / 256 Gbit (32 GiB) dies = 64 dies, 8 per channel"},
    {"planes", "assumed: 4 planes per die, typical of 64-layer 3D TLC"},
    {"flash_page", "assumed: 16 KiB flash pages, typical of 64-layer 3D TLC"},
    {"pages_per_block", "assumed: 768 pages per block (256 wordlines x 3 bits), typical of 64-layer 3D TLC"},
    {"bits_per_cell", "TLC: three pages per wordline, programmed together (one-shot)"},
    {"read_us", "assumed: tR of 64-layer TLC, 60 us (also fits the QD 1 read latency)"},
    {"prog_us", "fitted: published 4 KiB random write at steady state, 87-89 k IOPS from QD 16 to 256, with the emergent write "
                "amplification (8.1 after 6 fills) and channel_mbps: 3.3 ms gave 91.8 k, 3.0 ms 93.8 k (1/16 scale model, "
                "bench/sim_bench.py calibration); 192 KiB per tPROG"},
    {"erase_us", "assumed: tBERS 3.5 ms, typical of 3D TLC"},
    {"channel_mbps", "assumed: Toggle DDR at 1,000 MT/s x 8 bit, the interface of 64-layer V-NAND (2017); under 4 KiB random "
                     "writes at steady state the channels carry every program and GC read: with tPROG 4 ms the sim gave 73 k IOPS "
                     "at 800 MT/s (after 6 fills) and 52 k at 533 MT/s (after 4), bench/sim_bench.py calibration"},
    {"buffer", "assumed: 4 program units per die of power-loss-protected DRAM"},
    {"crypto_erase_ms", "assumed: a key change plus unmapping takes about 2 s"},
    {"capacity", "2.0 TB: IDEMA LBA1-03 count for 2000 GB, 3,907,029,168 LBAs of 512 B"},
};

SimParams demo() {
  SimParams p = dc_tlc_2t();
  p.profile = "demo";
  p.capacity_bytes = 32017047552ull;  // IDEMA: 62,533,296 LBAs for 32 GB
  p.channels = 1;
  p.dies = 1;
  // One die standing for 1/64 of dc-tlc-2t. The full drive reads a fragmented 1 MiB as fast
  // as a contiguous one (its pages sit on many dies); one real die would not. So the demo's
  // die is one plane of 4 KiB pages: every page read costs one tR, fragmented or not, and its
  // read, program and erase throughput per die equal dc-tlc-2t's.
  p.planes = 1;
  p.flash_page_bytes = 4096;
  p.pages_per_block = 3 * 4096;                // 48 MiB blocks, as dc-tlc-2t's 4 planes x 12 MiB
  p.prog_ns = 3300000 / 16;                    // 12 KiB per unit instead of 192 KiB: same MB/s
  p.buffer_bytes = 768ull << 10;               // dc-tlc-2t's buffer per die
  return p;
}

SimParams tiny() {
  SimParams p = demo();
  p.profile = "tiny";
  p.capacity_bytes = 1ull << 30;
  p.pages_per_block = 3 * 256;  // 3 MiB blocks: a 1 GiB drive still has hundreds of superblocks
  return p;
}

const std::vector<Profile>& profiles() {
  static const std::vector<Profile> list = [] {
    std::vector<Profile> v;
    auto demo_sources = kTlcSources;
    auto& d = demo_sources;
    d.insert(d.begin(), {"capacity", "32 GB (IDEMA: 62,533,296 LBAs): one 64th of dc-tlc-2t, rounded to a standard size"});
    d.insert(d.begin(), {"dies", "1 die on 1 channel: dc-tlc-2t's 64 dies scaled down with the capacity (1/64)"});
    d.insert(d.begin(), {"channels", "1: scaled down with the dies"});
    d.insert(d.begin(), {"buffer", "dc-tlc-2t's buffer per die (768 KiB)"});
    d.insert(d.begin(), {"planes", "1: a many-die drive reads scattered pages in parallel; one die stands for it only if it "
                                   "reads page by page (no multi-plane groups), so random and sequential reads run at one rate"});
    d.insert(d.begin(), {"flash_page", "4 KiB: one mapping page per flash read (see planes)"});
    d.insert(d.begin(), {"pages_per_block", "12288 (4096 wordlines x 3): 48 MiB blocks, the bytes of dc-tlc-2t's 4-plane block"});
    d.insert(d.begin(), {"prog_us", "dc-tlc-2t's prog_us / 16: a program unit of 12 KiB instead of 192 KiB at the same MB/s"});
    v.push_back({"demo",
                 "one die's share of dc-tlc-2t (32 GB, 1 channel, 1 die): parallelism scaled down with the capacity, "
                 "so a Round writes about the same fraction of the drive; the built-in target of `ptsuite run`",
                 demo(), demo_sources});
    v.push_back({"dc-tlc-2t",
                 "a 2 TB enterprise TLC NVMe drive of 2018, calibrated to its published 4 KiB random read/write "
                 "figures (bench/sim_calibration.sh)",
                 dc_tlc_2t(), kTlcSources});
    auto tiny_sources = demo_sources;
    tiny_sources.insert(tiny_sources.begin(), {"capacity", "1 GiB: small enough for unit and end-to-end tests"});
    tiny_sources.insert(tiny_sources.begin(), {"pages_per_block", "768 (256 wordlines x 3): 3 MiB blocks, so a 1 GiB drive "
                                                                  "has hundreds of superblocks"});
    v.push_back({"tiny", "the demo's die with 1 GiB and 3 MiB blocks, for tests and quick trials", tiny(), tiny_sources});
    return v;
  }();
  return list;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> profile_list() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& p : profiles()) out.emplace_back(p.name, p.description);
  return out;
}

core::Result<SimParams> profile_params(const std::string& name) {
  std::string names;
  for (const auto& p : profiles()) {
    if (name == p.name) return p.params;
    names += (names.empty() ? "" : ", ") + std::string(p.name);
  }
  return core::bad_input("unknown simulated-drive profile '" + name + "' (known: " + names + ")");
}

std::vector<std::pair<std::string, std::string>> profile_sources(const std::string& name) {
  for (const auto& p : profiles()) {
    if (name != p.name) continue;
    // First entry per parameter wins (profile-specific ones are inserted in front).
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& doc : param_docs())
      for (const auto& [k, v] : p.sources)
        if (k == doc.name) {
          out.emplace_back(k, v);
          break;
        }
    return out;
  }
  return {};
}

}  // namespace pts::sim
