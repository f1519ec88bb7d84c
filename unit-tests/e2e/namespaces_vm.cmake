# unit-tests/e2e/namespaces_vm.cmake — namespaces and multi-job cells against a real NVMe driver
# (issue #26; owner: device): unit-tests/e2e/vm/run-nvme-vm.sh boots a Linux guest under QEMU
# (TCG) whose emulated controller has two namespaces, and runs unit-tests/e2e/vm/guest-namespaces.sh
# there: `namespaces` against nvme-cli and the kernel (attached or not, in use while mounted), a
# two-namespace reading cell and a write/read neighbour cell with every job's I/Os against the
# kernel's counters (1 %), and `namespaces --create` on a controller without Namespace Management
# (exit 4, the list and every namespace's checksum unchanged). Skips (77) only when
# qemu-system-x86_64 is missing, as device_nvme_vm does.
add_test(NAME namespaces_nvme_vm
         COMMAND bash ${PROJECT_SOURCE_DIR}/unit-tests/e2e/vm/run-nvme-vm.sh $<TARGET_FILE:ptsuite>
                 ${PROJECT_SOURCE_DIR}/unit-tests/e2e/vm/guest-namespaces.sh)
set_tests_properties(namespaces_nvme_vm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 400 RUN_SERIAL TRUE
                     ENVIRONMENT "PTS_VM_TIMEOUT=340;PTS_VM_SIZE=64M")
