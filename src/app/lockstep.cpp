// app/lockstep.cpp — see lockstep.h.
#include "app/lockstep.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <latch>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>

#include "core/clock.h"

namespace pts::app {

struct Lockstep::Slot {
  enum class State { Working, Requesting, Running, Holding, Gone };
  State state = State::Working;
  model::AccessSpec spec;
  const std::atomic<bool>* abort = nullptr;
  uint64_t seq = 0;
  bool answered = false;
  std::optional<core::Result<model::CellResult>> result;
  std::optional<engine::IoPhase> phase;
  runner::CellPosition pos;         ///< the cell its state machine announced last
  uint64_t load_cells = 0;          ///< cells served as load since it began to hold
  std::set<std::string> waited_for; ///< the drives that ran meanwhile
  std::string load_failure;         ///< its cell as load failed: it serves no more, its record fails
  std::unique_ptr<DriveEngine> engine;
  std::unique_ptr<DriveGate> gate;
  std::unique_ptr<DriveObserver> observer;
};

/// What drive i's state machine sees as its engine: every run() meets the others' in Lockstep.
class Lockstep::DriveEngine final : public engine::IoEngine {
 public:
  DriveEngine(Lockstep& ls, size_t i) : ls_(ls), i_(i) {}
  core::Result<model::CellResult> run(const model::AccessSpec& spec, const std::atomic<bool>* abort,
                                      const engine::ProgressFn&) override {
    return ls_.request(i_, spec, abort);
  }
  core::Result<model::CellResult> run_jobs(const std::vector<model::JobSpec>&, bool, const std::atomic<bool>*,
                                           const engine::ProgressFn&) override {
    return core::bad_input("a drive of a multi-drive run runs one job per cell (its own in the lockstep cell)");
  }
  std::optional<engine::IoPhase> last_io_phase() const override {
    std::lock_guard<std::mutex> lk(ls_.mu_);
    return ls_.slots_[i_]->phase;
  }
  std::optional<engine::IoCounters> counters() override {
    // Only a drive's own engine counts its I/O alone (a simulated drive's controller); the
    // combined engine's counters are not one drive's.
    auto* own = ls_.members_[i_].own;
    return own ? own->counters() : std::nullopt;
  }
  std::string describe() const override {
    const auto& m = ls_.members_[i_];
    const std::string base = m.own ? m.own->describe() : ls_.combined_->describe();
    return base + "; lockstep with " + std::to_string(ls_.members_.size() - 1) + " other drive(s), job " + m.label;
  }

 private:
  Lockstep& ls_;
  size_t i_;
};

class Lockstep::DriveGate final : public runner::LockstepGate {
 public:
  DriveGate(Lockstep& ls, size_t i) : ls_(ls), i_(i) {}
  Held subtest_done(size_t) override { return ls_.hold(i_); }

 private:
  Lockstep& ls_;
  size_t i_;
};

/// Keeps the cell each drive is at (for the log) and prints a line per Round.
class Lockstep::DriveObserver final : public runner::RunObserver {
 public:
  DriveObserver(Lockstep& ls, size_t i) : ls_(ls), i_(i) {}
  void cell_started(const runner::CellPosition& pos) override {
    std::lock_guard<std::mutex> lk(ls_.mu_);
    ls_.slots_[i_]->pos = pos;
  }
  void round_finished(size_t, const model::RoundRecord& r) override {
    if (ls_.quiet_) return;
    std::fprintf(stderr, "ptsuite run: [%s] round %u done (%zu cells)\n", ls_.members_[i_].label.c_str(), r.round,
                 r.cells.size());
  }

 private:
  Lockstep& ls_;
  size_t i_;
};

Lockstep::Lockstep(std::vector<LockstepMember> members, engine::IoEngine* combined, const std::string& log_path,
                   bool quiet)
    : members_(std::move(members)), combined_(combined), quiet_(quiet) {
  for (size_t i = 0; i < members_.size(); ++i) {
    auto s = std::make_unique<Slot>();
    s->engine = std::make_unique<DriveEngine>(*this, i);
    s->gate = std::make_unique<DriveGate>(*this, i);
    s->observer = std::make_unique<DriveObserver>(*this, i);
    slots_.push_back(std::move(s));
  }
  log_fd_ = ::open(log_path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd_ < 0) {
    log_problem_ = log_path + ": cannot open the lockstep log";
    return;
  }
  // A line torn by kill -9 ends here: the next interval starts a line of its own.
  const off_t end = ::lseek(log_fd_, 0, SEEK_END);
  char last = '\n';
  if (end > 0 && ::pread(log_fd_, &last, 1, end - 1) == 1 && last != '\n' && ::write(log_fd_, "\n", 1) != 1)
    log_problem_ = log_path + ": cannot end its torn last line";
}

Lockstep::~Lockstep() {
  if (log_fd_ >= 0) ::close(log_fd_);
}

engine::IoEngine& Lockstep::engine(size_t i) { return *slots_[i]->engine; }
runner::LockstepGate& Lockstep::gate(size_t i) { return *slots_[i]->gate; }
runner::RunObserver& Lockstep::observer(size_t i) { return *slots_[i]->observer; }

std::string Lockstep::log_problem() const {
  std::lock_guard<std::mutex> lk(mu_);
  return log_problem_;
}

void Lockstep::leave(size_t i) {
  std::lock_guard<std::mutex> lk(mu_);
  slots_[i]->state = Slot::State::Gone;
  cv_.notify_all();
}

bool Lockstep::interval_ready() const {
  bool any = false;
  for (const auto& s : slots_) {
    if (s->state == Slot::State::Working || s->state == Slot::State::Running) return false;
    any = any || s->state == Slot::State::Requesting;
  }
  return any;
}

bool Lockstep::release_ready() const {
  for (const auto& s : slots_)
    if (s->state != Slot::State::Holding && s->state != Slot::State::Gone) return false;
  return true;
}

template <class Done>
void Lockstep::pump(std::unique_lock<std::mutex>& lk, Done done) {
  while (!done()) {
    if (!busy_ && interval_ready()) {
      run_interval(lk);
      continue;
    }
    if (!busy_ && release_ready()) {  // every drive still here is done with the sub-test
      for (auto& s : slots_)
        if (s->state == Slot::State::Holding) s->state = Slot::State::Working;
      cv_.notify_all();
      continue;
    }
    cv_.wait(lk);
  }
}

core::Result<model::CellResult> Lockstep::request(size_t i, const model::AccessSpec& spec,
                                                  const std::atomic<bool>* abort) {
  std::unique_lock<std::mutex> lk(mu_);
  Slot& s = *slots_[i];
  s.state = Slot::State::Requesting;
  s.spec = spec;
  s.abort = abort;
  s.seq = ++request_seq_;
  s.answered = false;
  s.result.reset();
  cv_.notify_all();
  pump(lk, [&s] { return s.answered; });
  s.state = Slot::State::Working;
  auto out = std::move(*s.result);
  s.result.reset();
  return out;
}

runner::LockstepGate::Held Lockstep::hold(size_t i) {
  std::unique_lock<std::mutex> lk(mu_);
  Slot& s = *slots_[i];
  s.state = Slot::State::Holding;
  s.load_cells = 0;
  s.waited_for.clear();
  cv_.notify_all();
  pump(lk, [&s] { return s.state != Slot::State::Holding; });
  runner::LockstepGate::Held held;
  held.load_cells = s.load_cells;
  for (const auto& w : s.waited_for) held.waited_for += (held.waited_for.empty() ? "" : ", ") + w;
  if (held.waited_for.empty()) held.waited_for = "no other drive";
  held.failure = s.load_failure;
  return held;
}

void Lockstep::run_interval(std::unique_lock<std::mutex>& lk) {
  busy_ = true;
  // The oldest request decides what runs: every request of its kind (the same cell length,
  // or byte-limited fills, which each stop at their own budget) runs with it; a request of
  // another kind waits for the next interval (the drives of one test ask for the same kinds).
  size_t first = SIZE_MAX;
  for (size_t k = 0; k < slots_.size(); ++k)
    if (slots_[k]->state == Slot::State::Requesting && (first == SIZE_MAX || slots_[k]->seq < slots_[first]->seq))
      first = k;
  auto kind = [](const model::AccessSpec& s) { return s.bytes_limit ? -1.0 : s.seconds; };
  const model::AccessSpec lead = slots_[first]->spec;
  std::vector<size_t> group, load;
  for (size_t k = 0; k < slots_.size(); ++k) {
    if (slots_[k]->state == Slot::State::Requesting && kind(slots_[k]->spec) == kind(lead)) group.push_back(k);
    if (slots_[k]->state == Slot::State::Holding && slots_[k]->load_failure.empty() && !lead.bytes_limit)
      load.push_back(k);
  }
  for (size_t k : group) slots_[k]->state = Slot::State::Running;
  std::vector<size_t> all = group;
  all.insert(all.end(), load.begin(), load.end());
  std::vector<model::AccessSpec> specs;
  for (size_t k : group) specs.push_back(slots_[k]->spec);
  for (size_t k : load) {
    (void)k;
    model::AccessSpec m = lead;  // the cell the others run, on this drive, with its own seed
    m.seed = 0;
    m.stream_start_bytes.clear();
    specs.push_back(m);
  }
  const std::atomic<bool>* abort = slots_[first]->abort;
  lk.unlock();

  std::vector<std::optional<core::Result<model::CellResult>>> results(all.size());
  std::vector<std::optional<engine::IoPhase>> phases(all.size());
  if (combined_) {
    std::vector<model::JobSpec> jobs;
    for (size_t n = 0; n < all.size(); ++n)
      jobs.push_back({members_[all[n]].label, static_cast<uint32_t>(all[n]), 0, 0, specs[n]});
    auto r = combined_->run_jobs(jobs, false, abort, {});
    const auto phase = combined_->last_io_phase();
    for (size_t n = 0; n < all.size(); ++n) {
      phases[n] = phase;
      if (!r.ok()) results[n] = core::Result<model::CellResult>(r.error());
      else if (n < r->jobs.size()) results[n] = core::Result<model::CellResult>(std::move(r->jobs[n]));
      else results[n] = core::Result<model::CellResult>(core::Error(core::ErrorKind::Internal, "lockstep: a job lost"));
    }
  } else {
    // Each simulated drive in its own virtual time, all started at one barrier.
    std::latch start(static_cast<std::ptrdiff_t>(all.size()));
    std::vector<std::thread> threads;
    for (size_t n = 0; n < all.size(); ++n)
      threads.emplace_back([&, n] {
        engine::IoEngine& e = *members_[all[n]].own;
        start.arrive_and_wait();
        results[n] = e.run(specs[n], abort, {});
        phases[n] = e.last_io_phase();
      });
    for (auto& t : threads) t.join();
  }
  for (size_t n = 0; n < all.size(); ++n) {
    if (!results[n]->ok()) continue;
    model::CellResult& c = results[n]->value();
    const auto& m = members_[all[n]];
    c.cell_id.clear();
    if (!c.job) c.job = model::JobPlacement{m.label, m.target, static_cast<uint32_t>(all[n]), 0, m.size_bytes};
    c.job->id = m.label;
    c.job->target = m.target;
  }

  lk.lock();
  // The log first (the drives' journals come after their state machines see the results).
  std::vector<std::optional<core::Result<model::CellResult>>*> by_slot(slots_.size(), nullptr);
  for (size_t n = 0; n < all.size(); ++n) by_slot[all[n]] = &results[n];
  {
    nlohmann::json line;
    line["interval"] = ++interval_;
    line["wall_ns"] = core::wall_ns();
    line["kind"] = lead.bytes_limit ? "fill" : "timed";
    nlohmann::json drives = nlohmann::json::array();
    for (size_t k = 0; k < slots_.size(); ++k) {
      if (!by_slot[k]) continue;
      const bool measured = std::find(group.begin(), group.end(), k) != group.end();
      nlohmann::json d;
      d["label"] = members_[k].label;
      d["role"] = measured ? "measured" : "load";
      if (measured) {
        d["subtest"] = slots_[k]->pos.subtest_id;
        d["round"] = slots_[k]->pos.round;
        d["cell_id"] = slots_[k]->pos.cell_id;
      }
      const auto& r = **by_slot[k];
      if (r.ok()) {
        d["seconds"] = r->seconds;
        d["iops"] = r->iops;
        d["read_iops"] = r->read_iops;
        d["write_iops"] = r->write_iops;
        d["mbps"] = r->mbps;
        d["io_errors"] = r->io_errors;
        if (!r->error.empty()) d["error"] = r->error;
      } else {
        d["error"] = r.error().message();
      }
      drives.push_back(std::move(d));
    }
    line["drives"] = std::move(drives);
    const std::string text = line.dump() + "\n";
    if (log_fd_ >= 0 && (::write(log_fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size()) ||
                         ::fdatasync(log_fd_) != 0) && log_problem_.empty())
      log_problem_ = "the lockstep log could not be written (the aggregate will miss intervals)";
  }
  for (size_t n = 0; n < all.size(); ++n) {
    Slot& s = *slots_[all[n]];
    if (n < group.size()) {
      s.result = std::move(*results[n]);
      s.phase = phases[n];
      s.answered = true;
    } else {
      ++s.load_cells;
      for (size_t k : group) s.waited_for.insert(members_[k].label);
      // A drive failing as load serves no more; its record fails when it is released.
      if (!results[n]->ok()) s.load_failure = "as load in a lockstep cell: " + results[n]->error().message();
      else if ((*results[n])->io_errors)
        s.load_failure = "as load in a lockstep cell: " + std::to_string((*results[n])->io_errors) +
                         " I/O errors (first: " + (*results[n])->error + ")";
    }
  }
  busy_ = false;
  cv_.notify_all();
}

}  // namespace pts::app
