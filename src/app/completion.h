// app/completion.h — bash completion for ptsuite, made from the same command definitions as
// `ptsuite --help` (app/command_args.h): commands, every command's options, the values of the
// flags that take a word from a list, the simulated drives' profiles. What changes at run time
// is asked at run time: the tests (`ptsuite list --names`, from the tests-pts definitions
// present), block devices and files. Written at build time by ptsuite-docgen (docgen.cpp),
// installed as share/bash-completion/completions/ptsuite. May use: CLI11, app/cli.h, sim.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace pts::app {

/// The bash completion script (bash-completion's _init_completion and _filedir).
std::string bash_completion(const CLI::App& root);

}  // namespace pts::app
