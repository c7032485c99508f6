#!/usr/bin/env bash
# CI's cgroup v2 lane (issue 23): boot Debian 12's kernel on a pure cgroup v2 hierarchy with systemd as PID 1, over
# this machine's root file system (read-only, under a tmpfs overlay), and run scripts/cgroup2-lane-guest.sh there
# as a systemd service: the containment, warm-box and hostile suites as root in a login session, and the judge as
# an ordinary user in a login session of its own. Then (issue 44) it boots the same kernel without systemd, PID 1 a
# shell, as a container's entrypoint, WSL or OpenRC leave a machine: root in a group shared with another process
# (doctor, the layouts that share a group, the bombs), and the Containerfile's root file system, built without a
# container engine (scripts/image-rootfs.sh; rebuilt only when the Containerfile or the judge changed), started as
# a container with the judge its entrypoint. Prints the guests' output; exits non-zero if either boot failed.
#
# The kernel and the initramfs come from the project's VM tool (CGROUP2_VM, default ../shared/tools/cgroup2-vm.sh
# beside the checkout), which boots the guest without systemd; this script boots the same kernel with a stage 2 of
# its own that hands the guest to systemd. The tool installs what it needs from Debian's packages (qemu among
# them). Where the lane cannot run (not root, no tool, no qemu to be had, no systemd to boot) it prints one line
# saying why and exits 0: the lane is skipped, not failed.
#
# Usage: scripts/cgroup2-lane.sh [--accel kvm|tcg] [--timeout SECONDS] [--suites ARGS] [--user-suites ARGS] [--venv DIR]
#                                [--doctor-layouts] [--overhead ARGS] [--boots systemd,no-systemd] [--no-image]
#   --timeout: the whole lane's budget, the tool's first run (apt, the kernel's extraction) included (default 3600);
#   past it the lane fails.
#   --suites, --user-suites: what pytest runs as root and as the ordinary user in their sessions (default: see
#   cgroup2-lane-guest.sh; "none" runs nothing); --venv: the venv
#   with the judge's packages (default: the checkout's .venv, as scripts/setup.sh makes it);
#   --doctor-layouts: instead of the suites, `judge doctor`'s memory row in each layout of README's cgroup v2 table;
#   --overhead ARGS: instead of the suites, benchmarks/overhead.py ARGS as root in a login session (issue 23's v2
#   figures: compare its judge/bare ratios with the same command's on a v1 machine, as emulation slows both sides).
#   --boots: which boots run (default both; --suites applies to both, --user-suites, --doctor-layouts and
#   --overhead to the one with systemd);
#   --no-image: no image in the boot without systemd.
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
TOOL=${CGROUP2_VM:-$REPO/../shared/tools/cgroup2-vm.sh}
WORK=${CGROUP2_VM_WORK:-/var/tmp/cgroup2-vm}
VENV=$REPO/.venv ACCEL=auto TIMEOUT=3600 SUITES="" USER_SUITES="" DOCTOR_LAYOUTS=0 OVERHEAD="" BOOTS=systemd,no-systemd IMAGE=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --accel) ACCEL="$2"; shift 2 ;;
        --timeout) TIMEOUT="$2"; shift 2 ;;
        --suites) SUITES="$2"; shift 2 ;;
        --user-suites) USER_SUITES="$2"; shift 2 ;;
        --venv) VENV="$2"; shift 2 ;;
        --doctor-layouts) DOCTOR_LAYOUTS=1; shift ;;
        --overhead) OVERHEAD="$2"; shift 2 ;;
        --boots) BOOTS="$2"; shift 2 ;;
        --no-image) IMAGE=0; shift ;;
        *) echo "cgroup2-lane: unknown argument $1" >&2; exit 2 ;;
    esac
done
skip() { echo "cgroup2 lane: skipped: $*"; exit 0; }
DEADLINE=$(( $(date +%s) + TIMEOUT ))
remaining() { echo $(( DEADLINE - $(date +%s) > 1 ? DEADLINE - $(date +%s) : 1 )); }
[[ $(id -u) -eq 0 ]] || skip "it needs root (the guest's root file system is this machine's, shared over 9p with owners kept)"
[[ -x "$TOOL" ]] || skip "the VM tool $TOOL is missing (set CGROUP2_VM)"
[[ -x "$VENV/bin/python" ]] || skip "no venv at $VENV (scripts/setup.sh --test makes it; or pass --venv)"
booting() { [[ ",$BOOTS," == *",$1,"* ]]; }
if booting systemd && [[ ! -x /lib/systemd/systemd ]]; then
    echo "cgroup2 lane: the boot with systemd skipped: this machine's root file system has no systemd to boot with"
    BOOTS=${BOOTS//systemd,/}; [[ $BOOTS == systemd ]] && BOOTS=""
fi
[[ -n "$BOOTS" ]] || skip "no boot to run"

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

# 2. The boot with systemd. A share of the lane's own: stage 2 prepares the overlay root and execs systemd, which runs the lane's unit.
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

status=0
if booting systemd; then
started=$(date +%s)
timeout "$(remaining)" qemu-system-x86_64 -machine q35 "${ACCEL_ARGS[@]}" -smp 2 -m 4G \
    -display none -monitor none -serial "file:$WORK/lane-console.log" -no-reboot \
    -kernel "$KDIR/boot/vmlinuz-$KVER" -initrd "$WORK/initramfs-$KVER.cpio.gz" \
    -append "console=ttyS0 rdinit=/init panic=-1 cgroup_no_v1=all loglevel=4" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs "local,path=$SHARE,mount_tag=share,security_model=none,multidevs=remap"
echo "cgroup2-lane: with systemd: $ACCEL, kernel $KVER, $(( $(date +%s) - started )) s from boot to power-off" >&2
cat "$SHARE/lane.out" 2>/dev/null
if [[ ! -f "$SHARE/lane.rc" ]]; then echo "cgroup2-lane: no status from the guest; see $WORK/lane-console.log" >&2; status=1
elif [[ $(cat "$SHARE/lane.rc") != 0 ]]; then status=1; fi
fi

# 3. The boot without systemd (the VM tool's own), with the Containerfile's root file system when it is wanted.
if booting no-systemd; then
image=""
if [[ $IMAGE == 1 ]]; then
    image=$WORK/image-rootfs
    built_from=$(cd "$REPO" && find Containerfile pyproject.toml README.md judge scripts/image-rootfs.sh -type f \
        -not -path '*__pycache__*' -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
    if [[ $(cat "$image.from" 2>/dev/null) != "$built_from" ]]; then
        started=$(date +%s)
        if timeout "$(remaining)" "$REPO/scripts/image-rootfs.sh" "$image" > "$WORK/image-rootfs.log" 2>&1; then
            echo "$built_from" > "$image.from"
            echo "cgroup2-lane: the image's root file system built in $(( $(date +%s) - started )) s" >&2
        else
            echo "cgroup2-lane: building the image's root file system failed; see $WORK/image-rootfs.log" >&2
            tail -5 "$WORK/image-rootfs.log" >&2; rm -f "$image.from"; status=1; image=""
        fi
    fi
fi
rm -f "$WORK/share/lane.out" "$WORK/share/lane.rc"
started=$(date +%s)
timeout "$(remaining)" "$TOOL" --work "$WORK" --accel "$ACCEL" --exec "LANE_BOOT=no-systemd LANE_IMAGE='$image' \
    LANE_SUITES=\"$SUITES\" LANE_TIME_SCALE=$TIME_SCALE bash $REPO/scripts/cgroup2-lane-guest.sh $REPO $VENV /mnt/share" \
    > "$WORK/tool.log" 2>&1
echo "cgroup2-lane: without systemd: $ACCEL, kernel $KVER, $(( $(date +%s) - started )) s from boot to power-off" >&2
cat "$WORK/share/lane.out" 2>/dev/null
if [[ ! -f "$WORK/share/lane.rc" ]]; then echo "cgroup2-lane: no status from the guest; see $WORK/tool.log" >&2; status=1
elif [[ $(cat "$WORK/share/lane.rc") != 0 ]]; then status=1; fi
fi
exit $status
