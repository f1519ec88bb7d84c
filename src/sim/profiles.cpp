// sim/profiles.cpp — the named drives. Every value says where it comes from: a published
// figure the profile is calibrated to (bench/sim_bench.py calibration prints the comparison), a
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
  p.cmd_read_ns = 11400;
  p.cmd_write_ns = 17800;
  p.cmd_occupancy_ns = 1400;
  p.ftl_page_ns = 1400;
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
  p.prog_ns = 500000;
  p.erase_ns = 3500000;
  p.channel_mbps = 1000;
  p.crypto_erase_ms = 2000;
  p.read_priority = true;
  p.suspend_ns = 20000;
  p.erase_suspend_ns = 50000;
  p.resume_ns = 5000;
  p.max_suspends = 4;
  p.prog_var = 0.1;
  p.read_retry = 0.005;
  p.ctrl_jitter_ns = 2000;
  return p;
}

const std::vector<std::pair<std::string, std::string>> kTlcSources = {
    {"lba", "512-byte LBAs: the format enterprise NVMe drives of 2018 ship with (512e)"},
    {"pcie_mbps", "PCIe 3.0 x4: 3.94 GB/s raw per direction, about 3.5 GB/s after protocol overhead"},
    {"cmd_read_us", "fitted: published 4 KiB random read QD 1 mean 0.079 ms = this + read_us + channel and link transfer of 4 KiB "
                    "+ the mean controller jitter and read retries (11.4 + 60 + 4.10 + 1.17 + 2 + 0.3 us)"},
    {"cmd_write_us", "fitted: published 4 KiB random write QD 1 mean 0.020 ms (47,586 IOPS, i.e. 21.0 us) = this + link transfer "
                     "of 4 KiB + the mean controller jitter (17.8 + 1.17 + 2 us)"},
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
    {"read_us", "assumed: tR of 64-layer TLC, 60 us: not published for Samsung's 64-layer V-NAND; its 96-layer successor was "
                "announced with tR 50 us, 'significantly reduced' (Samsung Begins Production of 5th Gen V-NAND, "
                "https://www.convergedigest.com/2018/07/samsung-begins-production-of-5th-gen.html)"},
    {"prog_us", "published: tPROG 500 us of Samsung's 64-layer 256 Gb TLC V-NAND (Samsung soon with 64-layer 3D V-NAND flash "
                "memory, https://www.ocaholic.ch/modules/news/article.php?storyid=16656); a wordline's three pages take "
                "1:2:4 shares of it (assumed)"},
    {"erase_us", "assumed: tBERS 3.5 ms, typical of 3D TLC (no vendor of the generation publishes it)"},
    {"channel_mbps", "published: the 64-layer V-NAND's 1 Gbps interface (Samsung announces mass production of 62-layer NAND "
                     "chips [sic], Korea Herald, http://www.koreaherald.com/view.php?ud=20170615000735), x 8 bit = 1,000 MB/s"},
    {"buffer", "assumed: 4 program units per die of power-loss-protected DRAM"},
    {"crypto_erase_ms", "assumed: a key change plus unmapping takes about 2 s"},
    {"capacity", "2.0 TB: IDEMA LBA1-03 count for 2000 GB, 3,907,029,168 LBAs of 512 B"},
    {"ftl_page_ns", "fitted: published 4 KiB random write at steady state, 87-89 k IOPS from QD 16 to 256, with the emergent "
                    "write amplification (about 8 pages programmed per host write): the controller's per-page work (mapping, "
                    "ECC and parity encode, flash commands), which no vendor publishes"},
    {"read_priority", "assumed on: enterprise controllers of 2018 schedule host reads ahead of background work and suspend "
                      "programs and erases for them (the NAND of the generation supports program and erase suspend)"},
    {"suspend_us", "assumed: program suspend latency of 3D TLC, about 20 us (no vendor of the generation publishes it)"},
    {"erase_suspend_us", "assumed: erase suspend latency of 3D TLC, about 50 us (not published)"},
    {"resume_us", "assumed: 5 us of extra die time per resume (re-ramping the program or erase voltage; not published)"},
    {"max_suspends", "assumed: 4 suspends per page program or erase, then reads wait (firmware policy; not published)"},
    {"prog_var", "assumed: page program times vary +-10 % (program-verify loop counts differ from wordline to wordline)"},
    {"read_retry", "assumed: 0.5 % of page reads need a retry with shifted read voltages on a drive within its life"},
    {"ctrl_jitter_us", "assumed: 2 us mean extra controller latency per command (firmware and interrupt scheduling)"},
    {"variation_seed", "a seed, not a property of the drive: 1 unless given, so a seeded run on a fresh drive repeats"},
    {"fail_after_writes", "fault injection, not a property of the drive: 0 (off) unless given"},
};

SimParams demo() {
  SimParams p = dc_tlc_2t();
  const uint32_t full_dies = p.dies;
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
  p.prog_ns /= 16;                             // 12 KiB per unit instead of 192 KiB: same MB/s
  p.ftl_page_ns *= full_dies;                  // one die's share of the controller's program rate
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
    d.insert(d.begin(), {"ftl_page_ns", "dc-tlc-2t's ftl_page_ns x 64: one die's share of the controller's page rate"});
    v.push_back({"demo",
                 "one die's share of dc-tlc-2t (32 GB, 1 channel, 1 die): parallelism scaled down with the capacity, "
                 "so a Round writes about the same fraction of the drive; the built-in target of `ptsuite run`",
                 demo(), demo_sources});
    v.push_back({"dc-tlc-2t",
                 "a 2 TB enterprise TLC NVMe drive of 2018, calibrated to its published 4 KiB random read/write "
                 "figures (bench/sim_bench.py calibration)",
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
