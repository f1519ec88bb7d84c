// app/cli.h — the command line's machinery on CLI11. A command defines each option once (flag,
// value name, help, default) bound to a field of its own options struct; CLI11 parses and
// takes every value as typed, and the command checks the values afterwards, so every problem
// of a command line is reported at once (CLI11 alone stops at the first). The parser's own
// problems (an unknown command or option, an argument too many, a missing value, a switch
// given a value) are worded here, once, naming the flag. Also the help layout every command
// shares, in the manner of fio and nvme-cli: usage line, what it does, arguments, options
// with their defaults, notes, exit codes. May use: CLI11, std.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace pts::app::cli {

/// What `ptsuite COMMAND --help` and the man page say about a command besides its options.
struct CommandText {
  const char* name;
  const char* summary;  ///< one line, for `ptsuite --help` and the man page's list
  const char* usage;    ///< the synopsis after "ptsuite NAME "
  const char* about;    ///< what it does (paragraphs separated by "\n\n")
  const char* notes;    ///< printed after the options ("" for none)
};

/// The exit codes, as every help and the man page state them.
struct ExitCode {
  int code;
  const char* brief;    ///< for help: "bad input"
  const char* meaning;  ///< for the man page
};
const std::vector<ExitCode>& exit_codes();

/// Defines a command's options on its CLI11 subcommand, bound to fields of the command's
/// struct. Values arrive as typed; `errors` receives the problems the binding itself sees
/// (a switch given a value).
class Definer {
 public:
  Definer(CLI::App& command, std::vector<std::string>& errors) : cmd_(command), errors_(errors) {}

  /// The heading of the options defined next ("options" until called).
  Definer& group(const std::string& heading);
  /// A positional argument that takes every remaining word (NAME as help shows it, e.g.
  /// "RUNDIR..."), after the single ones; empty when none is given.
  void arguments(const std::string& name, std::vector<std::string>& field, const std::string& help,
                 const std::string& default_text = "");
  /// A positional argument (NAME as help shows it, e.g. "TEST"); "" stays when not given.
  void argument(const std::string& name, std::string& field, const std::string& help,
                const std::string& default_text = "");
  /// --flag VALUE; the last one given wins.
  void value(const std::string& flag, std::optional<std::string>& field, const std::string& value_name,
             const std::string& help, const std::string& default_text);
  /// --flag VALUE, each value handed to `take` in the order given (repeatable).
  void each(const std::string& flag, const std::string& value_name, const std::string& help,
            const std::string& default_text, std::function<void(const std::string&)> take);
  /// --flag, a switch.
  void flag(const std::string& flag, bool& field, const std::string& help);
  /// --flag, a switch whose every use calls `take`.
  void flag_each(const std::string& flag, const std::string& help, std::function<void()> take);

 private:
  CLI::Option* add_value(const std::string& flag, const std::string& value_name, const std::string& help,
                         const std::string& default_text);
  CLI::App& cmd_;
  std::vector<std::string>& errors_;
  std::string group_ = "options";
};

/// The parser's messages, in the one wording.
std::string unknown_option(const std::string& command, const std::string& arg);
std::string unknown_command(const std::string& word);
std::string needs_value(const std::string& flag, const std::string& value_name);
std::string unexpected_argument(const std::string& command, const std::string& arg, const std::string& usage);

/// What parse() made of a command line.
struct Parsed {
  enum class Kind {
    Command,   ///< `command` chosen; its struct holds the options, `errors` the parser's problems
    Help,      ///< --help for `command` (null: the whole tool)
    Version,   ///< --version
    Bad,       ///< no command, or one the tool does not have: `errors`
    Truncate,  ///< the last word is a flag without its value: parse again without it
  };
  Kind kind = Kind::Bad;
  CLI::App* command = nullptr;
  std::vector<std::string> errors;  ///< the parser's problems, in the one wording
};

/// Parses `words` (the arguments after the program name) with `root`, whose subcommands are
/// the commands. Never throws for bad input: an unknown command, unknown options and extra
/// arguments come back as messages. `usage_of` gives a command's usage line for them.
Parsed parse(CLI::App& root, const std::vector<std::string>& words,
             const std::function<std::string(const std::string& command)>& usage_of);

/// `text` wrapped at `width` columns, every line after the first indented by `indent`.
std::string wrap(const std::string& text, size_t indent, size_t width);

/// A command's help: usage, what it does, its arguments and options with their defaults (by
/// group, in the order defined), its notes and the exit codes.
std::string command_help(const CLI::App& command, const CommandText& text);

/// The options of `command` by group, in the order defined (positionals excluded).
std::vector<std::pair<std::string, std::vector<const CLI::Option*>>> option_groups(const CLI::App& command);
/// The positional arguments of `command`, in order.
std::vector<const CLI::Option*> arguments(const CLI::App& command);
/// The option's names and value as help shows them: "--out RUNDIR", "-h, --help", "TEST".
std::string name_and_value(const CLI::Option& option);
/// A switch (--json): takes no value.
bool is_switch(const CLI::Option& option);
/// "--out" of an option (its first long name), or its positional name.
std::string option_name(const CLI::Option& option);

}  // namespace pts::app::cli
