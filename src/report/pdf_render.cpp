// report/pdf_render.cpp — see pdf_render.h.
#include "report/pdf_render.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace pts::report {

namespace fs = std::filesystem;

namespace {

bool executable(const std::string& p) { return ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

std::string read_tail(const std::string& path, size_t max) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  if (s.size() > max) s = "…" + s.substr(s.size() - max);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

/// Runs argv with stdout/stderr into `log`; returns the exit status, -1 on timeout (killed).
int run_with_timeout(const std::vector<std::string>& argv, const std::string& log, int timeout_s, int& err) {
  std::vector<char*> cargs;
  for (const auto& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    err = errno;
    return -2;
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // its own process group: a timeout kills soffice and its children
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0) ::dup2(null, 0);
    ::execv(cargs[0], cargs.data());
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (r < 0 && errno != EINTR) {
      err = errno;
      return -2;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace

core::Result<std::string> find_soffice(const std::string& flag) {
  if (const char* env = std::getenv("PTSUITE_SOFFICE"); env && *env) {
    if (executable(env)) return std::string(env);
    return core::bad_input(flag + ": PTSUITE_SOFFICE=" + env + " is not an executable file");
  }
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      for (const char* name : {"soffice", "libreoffice"})
        if (!dir.empty() && executable(dir + "/" + name)) return dir + "/" + name;
  }
  return core::bad_input(flag + ": the PDF report is printed by LibreOffice, and soffice is not installed "
                                "(Debian: apt-get install libreoffice-calc-nogui fonts-crosextra-carlito); "
                                "or leave pdf out of --format");
}

core::Status xlsx_to_pdf(const std::string& soffice, const std::string& xlsx, const std::string& pdf_out,
                         int timeout_s) {
  const fs::path out(pdf_out);
  const std::string parent = out.parent_path().empty() ? "." : out.parent_path().string();
  std::string work = parent + "/.ptsuite-pdf-XXXXXX";
  if (!::mkdtemp(work.data()))
    return core::Error(core::ErrorKind::BadInput, "cannot write " + pdf_out + ": " + std::strerror(errno), errno);
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{work};
  const std::string book = work + "/report.xlsx";
  std::error_code ec;
  fs::copy_file(xlsx, book, ec);
  if (ec) return core::Error(core::ErrorKind::Internal, "PDF: cannot stage the workbook: " + ec.message());
  const std::string log = work + "/soffice.log";
  int err = 0;
  const int rc = run_with_timeout({soffice, "--headless", "--norestore", "--nologo", "--nolockcheck",
                                   "-env:UserInstallation=file://" + fs::absolute(work).string() + "/profile",
                                   "--convert-to", "pdf", "--outdir", work, book},
                                  log, timeout_s, err);
  const std::string produced = work + "/report.pdf";
  if (rc == -2) return core::Error(core::ErrorKind::Internal, std::string("PDF: cannot start soffice: ") + std::strerror(err));
  if (rc == -1)
    return core::Error(core::ErrorKind::Internal,
                       "PDF: LibreOffice did not finish within " + std::to_string(timeout_s) + " s (killed)");
  if (rc != 0 || !fs::is_regular_file(produced, ec) || fs::file_size(produced, ec) == 0)
    return core::Error(core::ErrorKind::Internal, "PDF: LibreOffice (" + soffice + ") exited " + std::to_string(rc) +
                                                      " without a PDF: " + read_tail(log, 400));
  fs::rename(produced, pdf_out, ec);
  if (ec) return core::Error(core::ErrorKind::BadInput, "cannot write " + pdf_out + ": " + ec.message());
  return core::ok_status();
}

}  // namespace pts::report
