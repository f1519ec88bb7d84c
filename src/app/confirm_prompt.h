// app/confirm_prompt.h — the interactive half of device::check_confirmation(): asks on the
// terminal for the target's serial. May use: device.
#pragma once

#include "device/confirm.h"

namespace pts::app {

/// A prompt on stderr reading one line from stdin, or null when stdin is not a terminal
/// (then --confirm is the only way to consent).
device::AskSerialFn interactive_serial_prompt();

}  // namespace pts::app
