# unit-tests/e2e/device_vm.cmake — the device layer against a real NVMe driver (owner:
# device): unit-tests/e2e/vm/run-nvme-vm.sh boots a Linux guest under QEMU (TCG) with an emulated NVMe
# controller and runs unit-tests/e2e/vm/guest-device.sh there (info vs nvme-cli, guard, purge with
# verification, spec through io_uring). Skips (77) only when qemu-system-x86_64 is missing.
# The first run fetches the guest kernel once into /var/tmp/ptsuite-vm. Namespace 1 is 64 MiB
# here: the guard checks read the whole namespace several times, which costs seconds per
# 64 MiB under software emulation.
add_test(NAME device_nvme_vm
         COMMAND bash ${PROJECT_SOURCE_DIR}/unit-tests/e2e/vm/run-nvme-vm.sh $<TARGET_FILE:ptsuite>
                 ${PROJECT_SOURCE_DIR}/unit-tests/e2e/vm/guest-device.sh)
set_tests_properties(device_nvme_vm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 560 RUN_SERIAL TRUE
                     ENVIRONMENT "PTS_VM_TIMEOUT=500;PTS_VM_SIZE=64M")
