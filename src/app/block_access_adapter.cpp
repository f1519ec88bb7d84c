// app/block_access_adapter.cpp — device::BlockAccess over engine::BlockIo. May use: device,
// engine.
#include "app/block_access_adapter.h"

#include "engine/block_io.h"

namespace pts::app {

namespace {

class Adapter final : public device::BlockAccess {
 public:
  explicit Adapter(std::unique_ptr<engine::BlockIo> io) : io_(std::move(io)) {}
  core::Status write_at(uint64_t offset, std::span<const uint8_t> data) override { return io_->write_at(offset, data); }
  core::Status read_at(uint64_t offset, std::span<uint8_t> data) override { return io_->read_at(offset, data); }
  core::Status flush() override { return io_->flush(); }

 private:
  std::unique_ptr<engine::BlockIo> io_;
};

class Factory final : public device::BlockAccessFactory {
 public:
  core::Result<std::unique_ptr<device::BlockAccess>> open(int fd, const std::string& name) override {
    auto io = engine::borrow_block_io(fd, name);
    if (!io.ok()) return io.error();
    return std::unique_ptr<device::BlockAccess>(new Adapter(std::move(io.value())));
  }
};

}  // namespace

std::shared_ptr<device::BlockAccessFactory> make_block_access_factory() { return std::make_shared<Factory>(); }

}  // namespace pts::app
