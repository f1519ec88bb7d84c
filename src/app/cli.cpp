// app/cli.cpp — see cli.h.
#include "app/cli.h"

#include <algorithm>
#include <cctype>

namespace pts::app::cli {

namespace {

constexpr size_t kWidth = 80;        ///< help lines fit a terminal of 80 columns
constexpr size_t kNameColumn = 26;   ///< where an option's description starts

/// "-x", "--xyz" or "--xyz=v": a word meant as an option (not "-", "--", or a number).
bool looks_like_option(const std::string& w) {
  if (w.size() < 2 || w[0] != '-' || w == "--") return false;
  return !(std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.');
}

std::string flag_part(const std::string& w) { return w.substr(0, w.find('=')); }

}  // namespace

std::string name_and_value(const CLI::Option& o) {
  if (o.get_positional()) return o.get_name();
  std::string s;
  for (char c : o.get_name(false, true)) s += c == ',' ? std::string(", ") : std::string(1, c);
  if (!is_switch(o) && !o.get_type_name().empty()) s += " " + o.get_type_name();
  return s;
}

namespace {

std::string option_line(const CLI::Option& o) {
  std::string desc = o.get_description();
  if (!o.get_default_str().empty()) desc += " (default: " + o.get_default_str() + ")";
  std::string line = "  " + name_and_value(o);
  if (line.size() + 2 > kNameColumn) line += "\n" + std::string(kNameColumn, ' ');
  else line += std::string(kNameColumn - line.size(), ' ');
  return line + wrap(desc, kNameColumn, kWidth) + "\n";
}

}  // namespace

const std::vector<ExitCode>& exit_codes() {
  static const std::vector<ExitCode> codes = {
      {0, "done", "Done. For run and resume: steady state reached or not; the report says which."},
      {1, "internal error", "Internal error, or a complete run whose report files could not be written "
                            "(ptsuite report RUNDIR retries)."},
      {2, "bad input", "Bad input: a flag, a definition file, a target or a series; every problem is named "
                       "at once and nothing was touched."},
      {3, "refused by the guard", "Refused by the guard (the target is in use, holds a signature, or consent "
                                  "is missing), or a run directory another user owns or others may write."},
      {4, "device or purge failure", "Device or purge failure, including a target that cannot be opened for "
                                     "the purge."},
      {5, "I/O error during a run", "I/O error during a run."},
      {6, "requirement failed", "check: at least one requirement of the sheet failed (every one was answered)."},
      {130, "interrupted", "Interrupted (Ctrl-C): the run directory holds a valid partial run; ptsuite resume "
                           "continues it."},
  };
  return codes;
}

Definer& Definer::group(const std::string& heading) {
  group_ = heading;
  return *this;
}

void Definer::argument(const std::string& name, std::string& field, const std::string& help,
                       const std::string& default_text) {
  auto* o = cmd_.add_option(name, field, help);
  o->default_str(default_text);
}

void Definer::arguments(const std::string& name, std::vector<std::string>& field, const std::string& help,
                        const std::string& default_text) {
  auto* o = cmd_.add_option(name, field, help);
  o->expected(0, -1);
  o->default_str(default_text);
}

CLI::Option* Definer::add_value(const std::string& flag, const std::string& value_name, const std::string& help,
                                const std::string& default_text) {
  auto* o = cmd_.add_option(flag, help);
  o->type_name(value_name)->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  o->default_str(default_text)->group(group_);
  return o;
}

void Definer::value(const std::string& flag, std::optional<std::string>& field, const std::string& value_name,
                    const std::string& help, const std::string& default_text) {
  add_value(flag, value_name, help, default_text)->each([&field](const std::string& v) { field = v; });
}

void Definer::each(const std::string& flag, const std::string& value_name, const std::string& help,
                   const std::string& default_text, std::function<void(const std::string&)> take) {
  add_value(flag, value_name, help, default_text)->each([take](const std::string& v) { take(v); });
}

void Definer::flag(const std::string& flag, bool& field, const std::string& help) {
  flag_each(flag, help, [&field] { field = true; });
}

void Definer::flag_each(const std::string& flag, const std::string& help, std::function<void()> take) {
  auto& errors = errors_;
  auto* o = cmd_.add_flag(flag)->description(help);
  o->group(group_);
  // CLI11 hands a switch "true"; "--json=yes" hands "yes": a switch takes no value.
  o->each([flag, take, &errors](const std::string& v) {
    if (v == "true") take();
    else errors.push_back(flag + ": a switch, takes no value (got '" + v + "')");
  });
}

std::string unknown_option(const std::string& command, const std::string& arg) {
  return flag_part(arg) + ": unknown option (see ptsuite " + (command.empty() ? "" : command + " ") + "--help)";
}

std::string unknown_command(const std::string& word) {
  return word + ": unknown command (see ptsuite --help)";
}

std::string needs_value(const std::string& flag, const std::string& value_name) {
  return flag + ": needs a value" + (value_name.empty() ? "" : " (" + value_name + ")");
}

std::string unexpected_argument(const std::string& command, const std::string& arg, const std::string& usage) {
  return "'" + arg + "': unexpected argument (usage: ptsuite " + command + " " + usage + ")";
}

Parsed parse(CLI::App& root, const std::vector<std::string>& words,
             const std::function<std::string(const std::string& command)>& usage_of) {
  Parsed out;
  auto chosen = [&root]() -> CLI::App* {
    auto subs = root.get_subcommands();
    return subs.empty() ? nullptr : subs.front();
  };
  std::vector<std::string> reversed(words.rbegin(), words.rend());  // CLI11 pops from the back
  try {
    root.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out.kind = Parsed::Kind::Help;
    out.command = chosen();
    return out;
  } catch (const CLI::ArgumentMismatch& e) {
    // Only the last word can lack its value (a flag takes the next word whatever it is).
    if (!words.empty() && looks_like_option(words.back())) {
      out.kind = Parsed::Kind::Truncate;
      std::string value_name;
      if (CLI::App* cmd = chosen())
        if (const CLI::Option* o = cmd->get_option_no_throw(flag_part(words.back()))) value_name = o->get_type_name();
      out.errors.push_back(needs_value(flag_part(words.back()), value_name));
      return out;
    }
    out.errors.push_back(e.what());
    out.kind = Parsed::Kind::Bad;
    return out;
  } catch (const CLI::ParseError& e) {
    out.errors.push_back(e.what());
    out.kind = Parsed::Kind::Bad;
    return out;
  }
  out.command = chosen();
  for (const auto& w : root.remaining()) {
    if (w == "--") continue;
    out.errors.push_back(looks_like_option(w) ? unknown_option("", w) : unknown_command(w));
  }
  if (const CLI::Option* v = root.get_option_no_throw("--version"); v && v->count() && !out.command &&
                                                                     out.errors.empty()) {
    out.kind = Parsed::Kind::Version;
    return out;
  }
  if (!out.command) {
    if (out.errors.empty()) out.errors.push_back("COMMAND: missing (see ptsuite --help)");
    out.kind = Parsed::Kind::Bad;
    return out;
  }
  if (!out.errors.empty()) {  // a root option or a second command word
    out.kind = Parsed::Kind::Bad;
    return out;
  }
  const std::string name = out.command->get_name();
  for (const auto& w : out.command->remaining()) {
    if (w == "--") continue;
    out.errors.push_back(looks_like_option(w) ? unknown_option(name, w) : unexpected_argument(name, w, usage_of(name)));
  }
  out.kind = Parsed::Kind::Command;
  return out;
}

std::string wrap(const std::string& text, size_t indent, size_t width) {
  std::string out, line;
  size_t col = indent;
  auto flush_word = [&](const std::string& word) {
    if (word.empty()) return;
    if (!line.empty() && col + 1 + word.size() > width) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
      col = indent;
    }
    if (!line.empty()) line += ' ', ++col;
    line += word;
    col += word.size();
  };
  std::string word;
  for (char c : text) {
    if (c == ' ') {
      flush_word(word);
      word.clear();
    } else if (c == '\n') {
      flush_word(word);
      word.clear();
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
      col = indent;
    } else {
      word += c;
      // a UTF-8 continuation byte takes no column
      if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) --col;
    }
  }
  flush_word(word);
  out += line;
  // no trailing blanks on lines that a paragraph break left empty
  std::string clean;
  size_t start = 0;
  while (start <= out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    std::string l = out.substr(start, end - start);
    if (l.find_first_not_of(' ') == std::string::npos) l.clear();
    clean += l;
    if (end < out.size()) clean += '\n';
    start = end + 1;
  }
  return clean;
}

std::vector<std::pair<std::string, std::vector<const CLI::Option*>>> option_groups(const CLI::App& command) {
  std::vector<std::pair<std::string, std::vector<const CLI::Option*>>> groups;
  const CLI::Option* help = command.get_help_ptr();
  for (const CLI::Option* o : command.get_options([](const CLI::Option* o) { return o->nonpositional(); })) {
    const std::string g = o == help ? "options" : o->get_group();
    auto it = std::find_if(groups.begin(), groups.end(), [&g](const auto& e) { return e.first == g; });
    if (it == groups.end()) it = groups.insert(groups.end(), {g, {}});
    if (o == help) continue;  // listed last in its group, below
    it->second.push_back(o);
  }
  if (help) {
    auto it = std::find_if(groups.begin(), groups.end(), [](const auto& e) { return e.first == "options"; });
    if (it == groups.end()) it = groups.insert(groups.begin(), {"options", {}});
    it->second.push_back(help);
  }
  return groups;
}

std::vector<const CLI::Option*> arguments(const CLI::App& command) {
  return command.get_options([](const CLI::Option* o) { return o->get_positional(); });
}

bool is_switch(const CLI::Option& option) { return !option.get_positional() && option.get_expected_max() == 0; }

std::string option_name(const CLI::Option& option) {
  if (option.get_positional()) return option.get_name();
  const auto& l = option.get_lnames();
  return l.empty() ? option.get_name() : "--" + l.front();
}

std::string command_help(const CLI::App& command, const CommandText& text) {
  std::string out = "usage: ptsuite " + std::string(text.name) + " " + text.usage + "\n\n";
  out += wrap(text.about, 0, kWidth) + "\n";
  if (const auto args = arguments(command); !args.empty()) {
    out += "\narguments:\n";
    for (const auto* a : args) out += option_line(*a);
  }
  for (const auto& [heading, opts] : option_groups(command)) {
    out += "\n" + heading + ":\n";
    for (const auto* o : opts) out += option_line(*o);
  }
  if (*text.notes) out += "\n" + wrap(text.notes, 0, kWidth) + "\n";
  std::string codes;
  for (const auto& c : exit_codes()) codes += (codes.empty() ? "" : ", ") + std::to_string(c.code) + " " + c.brief;
  out += "\n" + wrap("exit codes: " + codes + ".", 2, kWidth) + "\n";
  return out;
}

}  // namespace pts::app::cli
