/* unit-tests/e2e/vm/fna_all_ns.c — an LD_PRELOAD shim for the QEMU guest only: it makes QEMU 7.2's
 * emulated controller behave like a drive whose Format NVM applies to every namespace (FNA
 * bit 0 set, as many multi-namespace drives report). QEMU has no option for FNA, so:
 *  - Identify Controller (CNS 01h) comes back with FNA bit 0 set;
 *  - a Format NVM is sent with NSID FFFFFFFFh through the controller node (PTSVM_CTRL,
 *    default /dev/nvme0; the kernel refuses a broadcast NSID on a namespace node), which QEMU
 *    carries out on every attached namespace — so a guard that let it through would really
 *    erase the other namespace, and the test's checksum of that namespace would show it.
 * Only guest-device.sh uses it, only around ptsuite. Built by run-nvme-vm.sh with the host's cc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

int ioctl(int fd, unsigned long request, ...) {
  static int (*real)(int, unsigned long, ...);
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  if (!real) real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
  if (request != NVME_IOCTL_ADMIN_CMD && request != NVME_IOCTL_ADMIN64_CMD) return real(fd, request, arg);
  /* nvme_passthru_cmd and nvme_passthru_cmd64 share the layout up to timeout_ms */
  struct nvme_passthru_cmd *cmd = arg;
  if (cmd->opcode == 0x80) { /* Format NVM: every namespace */
    const char *ctrl = getenv("PTSVM_CTRL");
    int cfd = open(ctrl ? ctrl : "/dev/nvme0", O_RDONLY | O_CLOEXEC);
    if (cfd < 0) return -1;
    cmd->nsid = 0xFFFFFFFFu;
    int rc = real(cfd, request, arg);
    close(cfd);
    return rc;
  }
  int rc = real(fd, request, arg);
  if (rc == 0 && cmd->opcode == 0x06 && (cmd->cdw10 & 0xFF) == 0x01 && cmd->addr && cmd->data_len > 524)
    ((uint8_t *)(uintptr_t)cmd->addr)[524] |= 0x01; /* FNA bit 0: Format applies to all namespaces */
  return rc;
}
