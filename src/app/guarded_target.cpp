// app/guarded_target.cpp — see guarded_target.h.
#include "app/guarded_target.h"

#include <cstdlib>

#include "app/confirm_prompt.h"
#include "engine/block_io.h"

namespace pts::app {

std::string demo_target_path() {
  const char* env = std::getenv("PTSUITE_DEMO_TARGET");
  return env && *env ? env : "/var/tmp/ptsuite-demo-target.img";
}

device::AcquireOptions writing_options(const std::optional<std::string>& confirm, bool force_signatures,
                                       bool created_by_ptsuite) {
  device::AcquireOptions o;
  o.confirm = confirm;
  if (!confirm) o.ask = interactive_serial_prompt();
  o.force_signatures = force_signatures;
  o.created_by_ptsuite = created_by_ptsuite;
  o.demo_path = demo_target_path();
  o.block_access = engine::block_io_factory();
  return o;
}

engine::IoTarget engine_target(const device::HeldTarget& held, const std::string& path, uint64_t size_bytes,
                               uint32_t logical_block_bytes) {
  engine::IoTarget t;
  t.path = path;
  t.size_bytes = size_bytes;
  t.logical_block_bytes = logical_block_bytes;
  t.fd = held.fd();
  return t;
}

std::string consent_line(const device::HeldTarget& held) {
  const auto& c = held.consent();
  std::string what = c.method == "created-by-ptsuite" ? "no confirmation needed (a file this command created)"
                                                      : "confirmed with " + c.method + " '" + c.value + "'";
  return held.identity().path + ": " + what + "; " + c.exclusivity;
}

}  // namespace pts::app
