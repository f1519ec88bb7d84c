// app/command_args.cpp — see command_args.h.
#include "app/command_args.h"

#include "config/run_options.h"

namespace pts::app {

namespace {

constexpr const char* kTargetHelp =
    "an NVMe namespace (/dev/nvme0n1), its controller or generic node (/dev/nvme0, /dev/ng0n1), "
    "another block device, a regular file, or a simulated drive sim:PROFILE[,name=value...][@STATE_FILE]";

const std::vector<cli::CommandText> kTexts = {
    {"list", "the tests defined in tests-pts/, with their editions and classes", "[--names]",
     "Lists the PTS tests defined in tests-pts/: their names (and aliases), titles, the editions and "
     "classes each supports, and their sub-tests. The directory: $PTSUITE_TESTS_DIR, else tests-pts "
     "beside the executable (../tests-pts, ../share/ptsuite/tests-pts), else the source tree's.",
     ""},
    {"info", "identity, capabilities, purge methods, write cache and health of a target",
     "TARGET [--json] [--sources]",
     "Shows model, serial, firmware, capacity, LBA format, NVMe version, the capabilities that decide "
     "purge and write cache, the purge methods available, the write cache state and a health summary. "
     "Read-only: sends Identify, Get Log Page and Get Features only.\n\n"
     "Serials of non-NVMe targets: a block device's is its sysfs serial, SCSI serial VPD page or wwid "
     "(else BLOCK-<major>:<minor>); a loop device's LOOP-<st_dev>:<inode> of its backing file; a "
     "regular file's FILE-<st_dev>:<inode>. Those made-up serials identify nothing and never confirm a "
     "destructive command: \"Confirm with\" (JSON: confirm_with, confirm_accepts) names what --confirm "
     "takes instead (the WWID, a /dev/disk/by-id/ name, a loop device's backing file, a file's own "
     "path). A simulated drive shows its parameters, geometry, memory, write amplification and free "
     "space too; its serial (SIM-...) is made with its state file and confirms it.",
     ""},
    {"spec", "one access spec on a target, like fio", "TARGET [access-spec options] [--confirm WHAT] [--json]",
     "Runs one access spec on TARGET with io_uring and O_DIRECT and prints IOPS, MB/s (10^6 B), latency "
     "percentiles, CPU and the Little's-law check (--json: the same as JSON). A spec that writes "
     "destroys data: it goes through the guard and needs --confirm for an existing target (what "
     "`ptsuite info TARGET` shows under \"Confirm with\"); a file the spec creates (--size) needs none "
     "and is filled with incompressible data before it is measured. On a simulated drive the cell runs "
     "in its virtual time (--seconds are virtual) and a read-only spec leaves the state file as it "
     "was.",
     ""},
    {"purge", "purge a target and verify the erase", "TARGET --confirm WHAT [--purge METHOD] [--json]",
     "Purges TARGET and verifies it: a pattern written at sampled blocks before the purge must read back "
     "erased afterwards. The guard refuses a target that is in use or holds a signature (file system, "
     "LVM, RAID, partition table). A failed or unverified purge exits 4 unless --accept-purge-failure "
     "is given (then it is recorded as accepted).",
     ""},
    {"namespaces", "list a controller's namespaces; --create: delete them all and create new ones",
     "TARGET [--create N --size SIZE --confirm WHAT] [--json]",
     "Lists the namespaces of TARGET's NVMe controller: NSID, size, LBA format, data in use, attached or not, "
     "its block device and whether the guard finds it in use. With --create N --size SIZE it deletes every "
     "namespace and creates N of SIZE each, attached to the controller (NVMe Namespace Management and "
     "Attachment), guarded like a purge: consent names the drive, every namespace is examined first and any "
     "one in use or holding a signature refuses it (exit 3, nothing changed); a controller without Namespace "
     "Management says so (exit 4, nothing changed). The change is printed as a record (--json: as JSON).",
     ""},
    {"run", "run a PTS test: purge, preconditioning, Rounds to steady state, report",
     "TEST [TARGET [TARGET...]] [--out RUNDIR] [--confirm WHAT]... [options]",
     "Resolves the plan of TEST for TARGET, asks for consent on anything ptsuite did not create itself, "
     "then runs the PTS state machine (purge, WIPC, Rounds until steady state or the maximum) with a "
     "journal in RUNDIR, and writes the report files at the end (also for a partial run). Every input "
     "problem that needs no device is named at once (exit 2), then the guard and consent (exit 3), then "
     "the plan against the device's capacity and the engine's limits (exit 2), and only then anything "
     "that writes. Every departure from the spec is recorded as a deviation and printed. With several "
     "TARGETs the test runs on every drive in lockstep (each cell on every drive in the same interval), each "
     "drive with its own --confirm (once per TARGET, in order), record and report in RUNDIR/LABEL, and the "
     "aggregate (summed IOPS and MB/s, spread across drives) in RUNDIR; a drive done first serves as load, a "
     "drive that fails stops only its own record (docs/multi-drive.md).",
     "Ctrl-C stops after the current cell (twice: aborts it); `ptsuite resume RUNDIR` continues."},
    {"resume", "continue an interrupted or killed run", "RUNDIR [--confirm WHAT] [options]",
     "Continues an interrupted or killed run from RUNDIR/journal.jsonl. The target goes through the "
     "guard again and the confirmation is asked again (--confirm, or typed at a prompt; a file the run "
     "created needs none). It must be the same drive: serial, firmware, model, NSID, NGUID/EUI-64/WWID, "
     "capacity and LBA format are checked again, and a path that now names another device is refused "
     "(exit 3). The run continues at the next cell of the Round in flight and the time lost is "
     "recorded as a deviation (resume-gap). A complete run is left alone, except that missing report "
     "files are written. The root of a multi-drive run resumes every unfinished drive in lockstep "
     "(--confirm A,B,...: one value per drive of the run, in its order).",
     ""},
    {"report", "render a run's report files again, offline",
     "RUNDIR [--format LIST] [--pdf-raw] [--out DIR] [--meta KEY=VALUE]... [--lab FILE.toml]",
     "Renders the run record RUNDIR/run.json as a SNIA-format report: <test>.xlsx, <test>.json (the "
     "record), csv/<test>.csv (one row per Round x cell) and <test>.pdf (the report pages printed by "
     "LibreOffice; the Raw sheet too with --pdf-raw). Never touches a device. When the journal is ahead of run.json (killed between the "
     "two) run.json is rebuilt from the journal first. --meta and --lab add or replace the operator's "
     "header fields in this report and its JSON; run.json is left as it is. An interrupted run gives a "
     "partial report marked INCOMPLETE.",
     ""},
    {"analyze", "steady state over any series of Round values", "SERIES.csv [--window N] [--json]",
     "Assesses steady state over every window of a series (one value per Round), so a lab can audit a "
     "vendor's data. SERIES.csv: one value per line (Round 1, 2, ...), or a CSV with a header row "
     "holding a column named 'value'; blank lines and '#' lines are skipped.",
     "Steady when max - min <= 20 % of the window average and |least-squares slope| x (Rounds in "
     "window - 1) <= 10 % of it, compared inclusively at full precision."},
    {"compare", "several drives' runs of one test side by side, in one workbook",
     "RUNDIR... [--baseline RUNDIR] [--out FILE.xlsx] [--allow-mismatch]",
     "Puts complete runs of the same test on several drives side by side in one workbook: the "
     "headline figures, every cell's Measurement Window result, each Tracking Variable's Rounds "
     "overlaid (one line per drive) with its steady-state window, and every figure's delta against "
     "the baseline. First it checks that the runs can be compared: test and edition, access "
     "pattern, block sizes, read shares, total outstanding I/O and its TC x QD split, targets per "
     "run, purge and preconditioning, ActiveRange, write cache, data pattern, cell length, "
     "steady-state rules, ptsuite version, simulated or real. A mismatch is refused (exit 2) naming "
     "each difference, unless --allow-mismatch, which prints every difference on the first page. "
     "Reads run.json only; never touches a device.",
     "Each RUNDIR must hold a complete run of this ptsuite's run.json format version."},
    {"check", "hold runs against a requirement sheet: pass or fail per requirement",
     "RUNDIR... --spec REQUIREMENTS.toml [--out DIR] [--json]",
     "Holds each drive's runs (grouped by model and serial) against a requirement sheet: a floor on "
     "a figure or a ceiling on a latency percentile at a named test point (a cell of a test, a "
     "QoS point under a named load). Prints each requirement with the measured value, the limit and "
     "the margin, and writes check.xlsx (one page per drive) and check.json into DIR. Shipped "
     "sheets: tests-pts/requirements/ (share/ptsuite/tests-pts/requirements when installed). "
     "Reads run.json only; never touches a device.",
     "Exit 0 when every requirement passes, 6 when any fails, 2 when the sheet is bad or the runs "
     "cannot answer a requirement (a test point no run holds)."},
    {"plan", "the resolved plan of a test and its worst-case duration", "TEST [TARGET] [run options] [--json]",
     "Prints the resolved plan of TEST (edition, class, cells in Round order, Tracking Variables, WIPC "
     "bytes, TC/QD, Measurement Window, maximum Rounds, deviations) and its worst-case duration. With "
     "TARGET it reads the target's identity (read-only); without, a nominal one (--capacity, "
     "--lba-size). Never writes to a device.",
     ""},
};

void define_session(cli::Definer& d, SessionArgs& s) {
  d.group("report");
  d.value("--format", s.format, "LIST", "report files: xlsx,json,csv,pdf (pdf needs LibreOffice)", "xlsx,json,csv");
  d.flag("--no-report", s.no_report, "write run.json and the journal only");
  d.flag("--quiet", s.quiet, "no progress output");
}

void define_operator_fields(cli::Definer& d, config::OperatorFieldArgs& f, std::vector<std::string>& errors) {
  d.group("operator fields");
  d.each("--meta", "KEY=VALUE",
         "an operator header field (repeatable): tested_by, test_sponsor, nand_type, form_factor, notes "
         "or any other key; stored in run.json, printed on every report page",
         "none", [&f](const std::string& v) { f.take("--meta", v); });
  d.each("--lab", "FILE.toml", "operator header fields from a file (key = \"value\" lines); --meta wins", "none",
         [&f, &errors](const std::string& v) {
           if (auto m = f.take("--lab", v); !m.empty()) errors.push_back(m);
         });
}

void define_run_options(cli::Definer& d, RunOptionArgs& given) {
  d.group("run options");
  for (const auto& f : config::run_option_flags()) {
    const std::string flag = f.flag;
    if (*f.value)
      d.each(flag, f.value, f.help, f.default_text, [&given, flag](const std::string& v) { given.push_back({flag, v}); });
    else
      d.flag_each(flag, f.help, [&given, flag] { given.push_back({flag, ""}); });
  }
}

void define_confirm(cli::Definer& d, std::optional<std::string>& confirm, bool& force_signatures, const char* what) {
  d.value("--confirm", confirm, "WHAT",
          std::string("consent to ") + what + ": what `ptsuite info TARGET` shows under \"Confirm with\" (the "
              "serial; for a made-up serial the WWID, a /dev/disk/by-id/ name, a loop device's backing file "
              "or a file's path)",
          "asked at a terminal; a target this command creates needs none");
  d.flag("--force-signatures", force_signatures,
         "overwrite a target that holds a file system, LVM, RAID or partition-table signature (recorded as a "
         "deviation)");
}

void define_list(CLI::App& c, ListArgs& a) {
  cli::Definer d(c, a.errors);
  d.flag("--names", a.names, "only the test names and aliases, one per line (for scripts and completion)");
}

void define_info(CLI::App& c, InfoArgs& a) {
  cli::Definer d(c, a.errors);
  d.argument("TARGET", a.target, kTargetHelp);
  d.flag("--json", a.json, "print as JSON");
  d.flag("--sources", a.sources, "a simulated drive: where each parameter's value comes from");
}

void define_spec(CLI::App& c, SpecArgs& a) {
  cli::Definer d(c, a.errors);
  d.argument("TARGET", a.target, std::string(kTargetHelp) + "; a missing file is created at --size");
  d.arguments("MORE", a.more_targets,
              "further targets: one job each with the same access spec, all started together and measured over one "
              "interval (a multi-job cell; sim: targets are namespaces #NSID of one simulated drive)",
              "none");
  define_confirm(d, a.confirm, a.force_signatures,
                 "overwrite TARGET (a spec that writes; several targets: --confirm A,B, one serial per drive)");
  d.flag("--allow-overlap", a.allow_overlap, "let jobs share the LBAs of a target where one of them writes");
  d.flag("--json", a.json, "print the result as JSON");
  d.group("access-spec options");
  for (const auto& f : access_option_flags()) {
    const std::string flag = f.flag;
    d.each(flag, f.value, f.help, f.default_text, [&a, flag](const std::string& v) { a.access.push_back({flag, v}); });
  }
}

void define_namespaces(CLI::App& c, NamespacesArgs& a) {
  cli::Definer d(c, a.errors);
  d.argument("TARGET", a.target, std::string(kTargetHelp) + " (a namespace of the controller)");
  d.value("--create", a.create, "N", "delete every namespace of the controller and create N new ones, attached",
          "list only");
  d.value("--size", a.size, "SIZE", "each new namespace's size (e.g. 16GiB; with --create)", "none");
  define_confirm(d, a.confirm, a.force_signatures, "delete every namespace of the drive (with --create)");
  d.flag("--json", a.json, "print as JSON");
}

void define_purge(CLI::App& c, PurgeArgs& a) {
  cli::Definer d(c, a.errors);
  d.argument("TARGET", a.target, kTargetHelp);
  define_confirm(d, a.confirm, a.force_signatures, "destroy TARGET's data");
  d.value("--purge", a.purge, "METHOD",
          "auto (the strongest the drive supports), sanitize-crypto, sanitize-block, format-crypto, format-user, "
          "discard (block devices and simulated drives: Dataset Management deallocate; not a SNIA purge), recreate (files) or none",
          "auto");
  d.flag("--accept-purge-failure", a.accept_purge_failure,
         "exit 0 after a failed or unverified purge (recorded as accepted)");
  d.flag("--json", a.json, "print the purge record as JSON");
}

void define_run(CLI::App& c, RunArgs& a) {
  cli::Definer d(c, a.errors);
  d.argument("TEST", a.test, "a test of `ptsuite list` (iops, tp, lat, wsat, hir, xsr, dirth, ecw) or a definition file");
  d.argument("TARGET", a.target, std::string(kTargetHelp) + "; a missing file is created at --size",
             std::string(kDemoTarget) + ", in virtual time; PTSUITE_DEMO_TARGET=FILE: a 256 MiB demo file with "
                                        "0.1 s cells");
  d.arguments("MORE", a.more_targets,
              "further targets: the test runs on every drive in lockstep, each cell on every drive in the same "
              "interval (one multi-job cell, one job per drive); each drive its own record and report in RUNDIR/LABEL, "
              "the aggregate in RUNDIR (docs/multi-drive.md)",
              "none");
  d.value("--out", a.out, "RUNDIR", "a new or empty run directory (several targets: the run root)",
          "reports/TEST-YYYYMMDD-HHMMSS");
  d.each("--confirm", "WHAT",
         "consent to destroy TARGET's data: what `ptsuite info TARGET` shows under \"Confirm with\" (the serial; for "
         "a made-up serial the WWID, a /dev/disk/by-id/ name, a loop device's backing file or a file's path); "
         "several targets: once per TARGET, in the order given (or A,B,...)",
         "asked at a terminal; a target this command creates needs none", [&a](const std::string& v) {
           a.confirms.push_back(v);
           a.confirm = v;
         });
  d.flag("--force-signatures", a.force_signatures,
         "overwrite a target that holds a file system, LVM, RAID or partition-table signature (recorded as a "
         "deviation)");
  d.value("--size", a.size, "SIZE", "create a missing file TARGET of this size (e.g. 256m)", "none");
  define_run_options(d, a.run_options);
  define_operator_fields(d, a.operator_fields, a.errors);
  define_session(d, a.session);
}

void define_resume(CLI::App& c, ResumeArgs& a) {
  cli::Definer d(c, a.errors);
  d.argument("RUNDIR", a.run_dir, "the run directory of an interrupted or killed run");
  define_confirm(d, a.confirm, a.force_signatures, "continue writing the run's target");
  define_session(d, a.session);
}

void define_report(CLI::App& c, ReportArgs& a) {
  cli::Definer d(c, a.errors);
  d.argument("RUNDIR", a.run_dir, "a run directory (holds run.json)");
  d.value("--format", a.format, "LIST", "report files: xlsx,json,csv,pdf (pdf needs LibreOffice)", "xlsx,json,csv");
  d.value("--out", a.out, "DIR", "write the report files here", "RUNDIR");
  d.flag("--pdf-raw", a.pdf_raw,
         "the PDF prints the Raw sheet too (every Round's every cell, landscape, fit to the page width); "
         "without it the PDF holds the report pages and the raw rows stay in the xlsx and CSV");
  define_operator_fields(d, a.operator_fields, a.errors);
}

void define_analyze(CLI::App& c, AnalyzeArgs& a) {
  cli::Definer d(c, a.errors);
  d.argument("SERIES.csv", a.series, "the series: one value per Round");
  d.value("--window", a.window, "N", "Measurement Window length in Rounds", "5, the spec's");
  d.flag("--json", a.json, "machine-readable output");
}

void define_compare(CLI::App& c, CompareArgs& a) {
  cli::Definer d(c, a.errors);
  d.arguments("RUNDIR...", a.run_dirs, "run directories of complete runs of one test, one per drive");
  d.value("--baseline", a.baseline, "RUNDIR", "the run the deltas are taken against (added if not among RUNDIR...)",
          "the first RUNDIR");
  d.value("--out", a.out, "FILE.xlsx", "the workbook to write", "compare-TEST.xlsx in the current directory");
  d.flag("--allow-mismatch", a.allow_mismatch,
         "compare runs that differ in an aspect a comparison must match; every difference is printed on the "
         "first page");
}

void define_check(CLI::App& c, CheckArgs& a) {
  cli::Definer d(c, a.errors);
  d.arguments("RUNDIR...", a.run_dirs, "run directories of complete runs (any tests, any drives)");
  d.value("--spec", a.spec, "FILE.toml", "the requirement sheet (tests-pts/requirements/*.toml)", "none (required)");
  d.value("--out", a.out, "DIR", "write check.xlsx and check.json here", "the current directory");
  d.flag("--json", a.json, "print the result as JSON instead of the table");
}

void define_plan(CLI::App& c, PlanArgs& a) {
  cli::Definer d(c, a.errors);
  d.argument("TEST", a.test, "a test of `ptsuite list` (iops, tp, lat, wsat, hir, xsr, dirth, ecw) or a definition file");
  d.argument("TARGET", a.target, "read the identity (capacity, LBA size) of this target; read-only",
             "a nominal identity (--capacity, --lba-size)");
  d.value("--wipc-mbps", a.wipc_mbps, "MBPS", "sequential write rate (10^6 B/s) assumed for WIPC's estimated time",
          "1000");
  d.value("--capacity", a.capacity, "SIZE", "without TARGET: the nominal capacity", "1t (1 TiB)");
  d.value("--lba-size", a.lba_size, "BYTES", "without TARGET: the nominal LBA size (4096 for a 4Kn namespace)",
          "512");
  d.flag("--json", a.json, "machine-readable plan");
  define_run_options(d, a.run_options);
}

}  // namespace

const char* const kToolAbout =
    "ptsuite certifies SSDs to the SNIA Solid State Storage Performance Test Specification (PTS-E 1.1 and "
    "PTS 2.0.2): it identifies the drive, refuses to touch the wrong one, purges it, preconditions it, "
    "runs Rounds of the test stimulus until steady state and writes a SNIA-format report (xlsx, PDF, "
    "JSON, CSV).";

const char* const kToolNotes =
    "`ptsuite COMMAND --help` lists the command's options with their defaults; `man ptsuite` has them "
    "all.";

std::vector<std::string>& CommandArgs::problems(const std::string& name) {
  if (name == "list") return list.errors;
  if (name == "info") return info.errors;
  if (name == "spec") return spec.errors;
  if (name == "purge") return purge.errors;
  if (name == "namespaces") return namespaces.errors;
  if (name == "run") return run.errors;
  if (name == "resume") return resume.errors;
  if (name == "report") return report.errors;
  if (name == "analyze") return analyze.errors;
  if (name == "compare") return compare.errors;
  if (name == "check") return check.errors;
  return plan.errors;
}

const std::vector<cli::CommandText>& command_texts() { return kTexts; }

const cli::CommandText* command_text(const std::string& name) {
  for (const auto& t : kTexts)
    if (name == t.name) return &t;
  return nullptr;
}

void define_commands(CLI::App& root, CommandArgs& a) {
  root.name("ptsuite");
  root.description(kToolAbout);
  root.set_help_flag("-h,--help", "this help");
  root.add_flag("--version")->description("the version and git revision");
  root.require_subcommand(0, 1);
  root.allow_extras();
  for (const auto& t : kTexts) {
    CLI::App* c = root.add_subcommand(t.name, t.summary);
    c->allow_extras();
    const std::string name = t.name;
    if (name == "list") define_list(*c, a.list);
    else if (name == "info") define_info(*c, a.info);
    else if (name == "spec") define_spec(*c, a.spec);
    else if (name == "purge") define_purge(*c, a.purge);
    else if (name == "namespaces") define_namespaces(*c, a.namespaces);
    else if (name == "run") define_run(*c, a.run);
    else if (name == "resume") define_resume(*c, a.resume);
    else if (name == "report") define_report(*c, a.report);
    else if (name == "analyze") define_analyze(*c, a.analyze);
    else if (name == "compare") define_compare(*c, a.compare);
    else if (name == "check") define_check(*c, a.check);
    else define_plan(*c, a.plan);
  }
}

std::string tool_help(const CLI::App& root) {
  std::string out = "usage: ptsuite COMMAND [options]\n       ptsuite --help | --version\n\n";
  out += cli::wrap(kToolAbout, 0, 80) + "\n\ncommands:\n";
  for (const auto& t : kTexts) {
    std::string line = "  " + std::string(t.name);
    line += std::string(line.size() < 12 ? 12 - line.size() : 1, ' ');
    out += line + cli::wrap(t.summary, 12, 80) + "\n";
  }
  out += "\noptions:\n";
  for (const auto& [heading, opts] : cli::option_groups(root))
    for (const auto* o : opts) {
      std::string line = "  " + cli::name_and_value(*o);
      line += std::string(line.size() < 26 ? 26 - line.size() : 1, ' ');
      out += line + o->get_description() + "\n";
    }
  out += "\n" + cli::wrap(kToolNotes, 0, 80) + "\n";
  std::string codes;
  for (const auto& c : cli::exit_codes()) codes += (codes.empty() ? "" : ", ") + std::to_string(c.code) + " " + c.brief;
  out += "\n" + cli::wrap("exit codes: " + codes + ".", 2, 80) + "\n";
  return out;
}

std::unique_ptr<CommandLine> parse_command_line(std::vector<std::string> words) {
  const std::vector<std::string> given = words;
  std::vector<std::string> dropped;  // "--out: needs a value" for a last flag without its value
  for (;;) {
    auto line = std::make_unique<CommandLine>();
    define_commands(line->root, line->args);
    line->parsed = cli::parse(line->root, words, [](const std::string& name) {
      const auto* t = command_text(name);
      return std::string(t ? t->usage : "");
    });
    if (line->parsed.kind == cli::Parsed::Kind::Truncate) {
      dropped.insert(dropped.end(), line->parsed.errors.begin(), line->parsed.errors.end());
      words.pop_back();
      continue;
    }
    if (line->parsed.kind == cli::Parsed::Kind::Command) {
      auto& problems = line->args.problems(line->parsed.command->get_name());
      problems.insert(problems.end(), line->parsed.errors.begin(), line->parsed.errors.end());
      problems.insert(problems.end(), dropped.begin(), dropped.end());
      line->parsed.errors.clear();
      line->args.run.words = given;
    } else {
      line->parsed.errors.insert(line->parsed.errors.end(), dropped.begin(), dropped.end());
    }
    return line;
  }
}

}  // namespace pts::app
