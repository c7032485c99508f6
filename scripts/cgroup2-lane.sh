#!/usr/bin/env bash
# CI's cgroup v2 lane (issue 23): boot Debian 12's kernel on a pure cgroup v2 hierarchy with systemd as PID 1, over
# this machine's root file system (read-only, under a tmpfs overlay), and run scripts/cgroup2-lane-guest.sh there
# as a systemd service: the containment, warm-box and hostile suites as root in a login session, and the judge as
# an ordinary user in a login session of its own. Prints the guest's output; exits with its status.
#
# The kernel and the initramfs come from the project's VM tool (CGROUP2_VM, default ../shared/tools/cgroup2-vm.sh
# beside the checkout), which boots the guest without systemd; this script boots the same kernel with a stage 2 of
# its own that hands the guest to systemd. The tool installs what it needs from Debian's packages (qemu among
# them). Where the lane cannot run (not root, no tool, no qemu to be had, no systemd to boot) it prints one line
# saying why and exits 0: the lane is skipped, not failed.
#
# Usage: scripts/cgroup2-lane.sh [--accel kvm|tcg] [--timeout SECONDS] [--suites ARGS] [--user-suites ARGS] [--venv DIR]
#                                [--doctor-layouts] [--overhead ARGS]
#   --timeout: the whole lane's budget, the tool's first run (apt, the kernel's extraction) included (default 3600);
#   past it the lane fails.
#   --suites, --user-suites: what pytest runs as root and as the ordinary user in their sessions (default: see
#   cgroup2-lane-guest.sh; "none" runs nothing); --venv: the venv
#   with the judge's packages (default: the checkout's .venv, as scripts/setup.sh makes it);
#   --doctor-layouts: instead of the suites, `judge doctor`'s memory row in each layout of README's cgroup v2 table;
#   --overhead ARGS: instead of the suites, benchmarks/overhead.py ARGS as root in a login session (issue 23's v2
#   figures: compare its judge/bare ratios with the same command's on a v1 machine, as emulation slows both sides).
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
TOOL=${CGROUP2_VM:-$REPO/../shared/tools/cgroup2-vm.sh}
WORK=${CGROUP2_VM_WORK:-/var/tmp/cgroup2-vm}
VENV=$REPO/.venv ACCEL=auto TIMEOUT=3600 SUITES="" USER_SUITES="" DOCTOR_LAYOUTS=0 OVERHEAD=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --accel) ACCEL="$2"; shift 2 ;;
        --timeout) TIMEOUT="$2"; shift 2 ;;
        --suites) SUITES="$2"; shift 2 ;;
        --user-suites) USER_SUITES="$2"; shift 2 ;;
        --venv) VENV="$2"; shift 2 ;;
        --doctor-layouts) DOCTOR_LAYOUTS=1; shift ;;
        --overhead) OVERHEAD="$2"; shift 2 ;;
        *) echo "cgroup2-lane: unknown argument $1" >&2; exit 2 ;;
    esac
done
skip() { echo "cgroup2 lane: skipped: $*"; exit 0; }
DEADLINE=$(( $(date +%s) + TIMEOUT ))
remaining() { echo $(( DEADLINE - $(date +%s) > 1 ? DEADLINE - $(date +%s) : 1 )); }
[[ $(id -u) -eq 0 ]] || skip "it needs root (the guest's root file system is this machine's, shared over 9p with owners kept)"
[[ -x "$TOOL" ]] || skip "the VM tool $TOOL is missing (set CGROUP2_VM)"
[[ -x "$VENV/bin/python" ]] || skip "no venv at $VENV (scripts/setup.sh --test makes it; or pass --venv)"
[[ -x /lib/systemd/systemd ]] || skip "this machine's root file system has no systemd to boot the guest with"

# 1. qemu, the kernel and the initramfs, made (once) by the VM tool, whose own boot checks them.
mkdir -p "$WORK"
timeout "$(remaining)" "$TOOL" --work "$WORK" --exec true > "$WORK/tool.log" 2>&1
tool_status=$?
command -v qemu-system-x86_64 >/dev/null || skip "qemu could not be installed (Debian: apt-get install qemu-system-x86); see $WORK/tool.log"
if [[ $tool_status -ne 0 ]]; then
    echo "cgroup2-lane: the VM tool failed (status $tool_status); see $WORK/tool.log and $WORK/console.log" >&2
    tail -5 "$WORK/tool.log" >&2
    exit 1
fi
KDIR=$(ls -d "$WORK"/kernel/*/ | head -1); KVER=$(basename "$KDIR")
if [[ "$ACCEL" == auto ]]; then
    if [[ -w /dev/kvm && ! -d /sys/module/kvm_pvm ]]; then ACCEL=kvm; else ACCEL=tcg; fi
fi
if [[ "$ACCEL" == kvm ]]; then ACCEL_ARGS=(-accel kvm -cpu host); else ACCEL_ARGS=(-accel tcg,thread=multi -cpu max); fi
# QEMU's emulator runs the judge 10-30x slower: the tests' time limits are scaled (JUDGE_TEST_TIME_SCALE).
TIME_SCALE=1; [[ "$ACCEL" == tcg ]] && TIME_SCALE=10

# 2. A share of the lane's own: stage 2 prepares the overlay root and execs systemd, which runs the lane's unit.
SHARE=$WORK/lane-share
rm -rf "$SHARE"; mkdir -p "$SHARE"
cat > "$SHARE/stage2.sh" <<EOF
#!/bin/bash
# Run by the initramfs in the guest's root (tmpfs over this machine's root): make it a Debian 12 boot, then systemd.
# A link, not a bind mount: a bind would show this machine's path in every box's mount table.
mkdir -p /lib/modules && rm -rf /lib/modules/$KVER && ln -s $KDIR/lib/modules/$KVER /lib/modules/$KVER
mkdir -p /etc/systemd/system/cgroup2-lane.target.wants
cat > /etc/systemd/system/cgroup2-lane.service <<UNIT
[Unit]
Description=judge: the cgroup v2 lane (issue 23)
Wants=dbus.service systemd-logind.service
After=dbus.service systemd-logind.service systemd-user-sessions.service
SuccessAction=poweroff-force
FailureAction=poweroff-force
[Service]
Type=oneshot
Environment="LANE_SUITES=$SUITES" "LANE_USER_SUITES=$USER_SUITES" "LANE_TIME_SCALE=$TIME_SCALE" "LANE_DOCTOR_LAYOUTS=$DOCTOR_LAYOUTS" "LANE_OVERHEAD=$OVERHEAD"
ExecStart=/bin/bash $REPO/scripts/cgroup2-lane-guest.sh $REPO $VENV /mnt/share
UNIT
cat > /etc/systemd/system/cgroup2-lane.target <<UNIT
[Unit]
Description=judge: the cgroup v2 lane
Requires=basic.target cgroup2-lane.service
After=basic.target
UNIT
hostname cgroup2-lane
exec /lib/systemd/systemd --unit=cgroup2-lane.target --log-target=console --show-status=no
EOF

# 3. Boot, wait, report.
started=$(date +%s)
timeout "$(remaining)" qemu-system-x86_64 -machine q35 "${ACCEL_ARGS[@]}" -smp 2 -m 4G \
    -display none -monitor none -serial "file:$WORK/lane-console.log" -no-reboot \
    -kernel "$KDIR/boot/vmlinuz-$KVER" -initrd "$WORK/initramfs-$KVER.cpio.gz" \
    -append "console=ttyS0 rdinit=/init panic=-1 cgroup_no_v1=all loglevel=4" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs "local,path=$SHARE,mount_tag=share,security_model=none,multidevs=remap"
echo "cgroup2-lane: $ACCEL, kernel $KVER, $(( $(date +%s) - started )) s from boot to power-off" >&2
cat "$SHARE/lane.out" 2>/dev/null
[[ -f "$SHARE/lane.rc" ]] || { echo "cgroup2-lane: no status from the guest; see $WORK/lane-console.log" >&2; exit 1; }
exit "$(cat "$SHARE/lane.rc")"
