// results/run_json_writer.cpp — see run_json_writer.h.
#include "results/run_json_writer.h"

#include "results/run_store.h"

namespace pts::results {

RunJsonWriter::RunJsonWriter(std::string run_dir) : run_dir_(std::move(run_dir)) {
  thread_ = std::thread([this] { loop(); });
}

RunJsonWriter::~RunJsonWriter() {
  (void)flush();
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void RunJsonWriter::post(std::shared_ptr<const model::RunRecord> snapshot) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    pending_ = std::move(snapshot);
  }
  cv_.notify_all();
}

core::Status RunJsonWriter::flush() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return !pending_ && !busy_; });
  if (error_) {
    core::Error e = *error_;
    error_.reset();
    return e;
  }
  return core::ok_status();
}

void RunJsonWriter::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || pending_; });
    if (!pending_) return;  // stop_ and nothing left
    auto snapshot = std::move(pending_);
    pending_.reset();
    busy_ = true;
    lock.unlock();
    core::Status st = save_run_json(*snapshot, run_dir_);
    lock.lock();
    busy_ = false;
    if (!st.ok() && !error_) error_ = st.error();
    cv_.notify_all();
  }
}

}  // namespace pts::results
