// results/run_json_writer.h — rewrites run.json from a background thread, so serialising a
// large record at a round end does not lengthen the gap between two cells. Only the newest
// pending snapshot is written; flush() waits until it is on disk. May use: core, model,
// results/run_store.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/result.h"
#include "model/run_record.h"

namespace pts::results {

class RunJsonWriter {
 public:
  explicit RunJsonWriter(std::string run_dir);
  ~RunJsonWriter();  ///< flushes
  RunJsonWriter(const RunJsonWriter&) = delete;
  RunJsonWriter& operator=(const RunJsonWriter&) = delete;

  /// Queues a snapshot (replacing one not yet started).
  void post(std::shared_ptr<const model::RunRecord> snapshot);
  /// Waits for the queue to drain; returns the first write error since the last flush.
  core::Status flush();

 private:
  void loop();

  std::string run_dir_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::shared_ptr<const model::RunRecord> pending_;
  bool busy_ = false;
  bool stop_ = false;
  std::optional<core::Error> error_;
  std::thread thread_;
};

}  // namespace pts::results
