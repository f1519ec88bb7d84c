// device/libnvme_transport.h — the real AdminTransport over libnvme 1.3 (the only code that
// includes <libnvme.h> is libnvme_transport.cpp, so a libnvme 3 migration touches one file).
// May use: core, admin_transport.
#pragma once

#include <memory>
#include <string>

#include "core/result.h"
#include "device/admin_transport.h"

namespace pts::device {

/// Opens `node` (controller /dev/nvmeX, namespace /dev/nvmeXnY or generic /dev/ngXnY) for
/// admin passthrough. Fails with BadInput when it cannot be opened.
core::Result<std::unique_ptr<AdminTransport>> open_libnvme_transport(const std::string& node);

/// Namespace id of a namespace or generic node (NVME_IOCTL_ID).
core::Result<uint32_t> namespace_id_of(const std::string& node);

}  // namespace pts::device
