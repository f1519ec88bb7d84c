// app/confirm_prompt.cpp — see confirm_prompt.h. May use: device, POSIX isatty.
#include "app/confirm_prompt.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

namespace pts::app {

device::AskSerialFn interactive_serial_prompt() {
  if (!::isatty(STDIN_FILENO)) return nullptr;
  return [](const std::string& question) -> std::optional<std::string> {
    std::fprintf(stderr, "%s", question.c_str());
    std::fflush(stderr);
    std::string line;
    if (!std::getline(std::cin, line)) return std::nullopt;
    return line;
  };
}

}  // namespace pts::app
