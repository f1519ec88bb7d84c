// app/man_page.h — ptsuite(1), the manual page, made from the same command definitions as
// `ptsuite --help` (app/command_args.h): a page written by hand beside the options would drift
// from them. Written at build time by ptsuite-docgen (docgen.cpp). May use: CLI11, app/cli.h.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace pts::app {

/// The page in man(7) roff; `date` (YYYY-MM-DD) and `version` go into its header line.
std::string man_page(const CLI::App& root, const std::string& date, const std::string& version);

}  // namespace pts::app
