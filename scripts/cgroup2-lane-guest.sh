#!/usr/bin/env bash
# The cgroup v2 lane's guest side (started by scripts/cgroup2-lane.sh as a systemd service in the guest, which is
# thrown away at power-off). Usage: cgroup2-lane-guest.sh REPO VENV OUT. Writes its output to OUT/lane.out and
# its status to OUT/lane.rc.
#
# 1. root in a login session (pam_systemd puts it in session-N.scope, shared with the login's shell): judge
#    doctor, then the layout, warm-box and hostile suites, every report required to say `cgroup v2`;
# 2. an ordinary user in a login session of its own (its systemd user manager delegates memory, pids and cpu, as
#    Debian 12's does): judge doctor, then the hostile suite's bombs, again `cgroup v2` required;
# 3. fail closed (issue 43): `judge run --require-containment cgroup` judges as root and refuses, one line, exit 2,
#    as a user with no delegated group; judge doctor's timing findings are printed.
# With LANE_BOOT=no-systemd (started by the VM tool's own boot, PID 1 a shell, as a container's entrypoint, WSL or
# OpenRC leave it; issue 44): root in a group shared with another process (judge doctor, the layouts that share a
# group, the bombs), then the Containerfile's root file system (LANE_IMAGE, scripts/image-rootfs.sh) started as a
# container runtime starts it, the judge its entrypoint.
REPO=$1 VENV=$2 OUT=$3
exec > "$OUT/lane.out" 2>&1
trap 'echo $? > "$OUT/lane.rc"' EXIT
set -u
LANE_USER=judgelane LANE_UID=60010
# The interpreter behind the venv, first on PATH: a pyenv shim asked under emulation can take longer than the
# judge waits for it.
PYBIN=$(dirname "$(readlink -f "$VENV/bin/python")")
# The bombs, the escaping daemon and memory exhaustion of the hostile suite, in the modes that use a control group
# (the -proc modes are the fallback, the same on v1 and v2 and run by the default suite).
BOMBS="(fork_bomb or thread_bomb or daemon or memory_huge) and not proc"
ROOT_SUITES=${LANE_SUITES:-"-m 'not slow' tests/runner/test_cgroup_v2_layouts.py tests/runner/test_warm_box.py tests/runner/test_hostile.py tests/runner/test_give_way.py -k 'layouts or warm_box or give_way or ($BOMBS)'"}
# As the ordinary user, also the box's own attacks: its PID 1 there is bwrap with the program's uid.
USER_SUITES=${LANE_USER_SUITES:-"-m 'not slow' tests/runner/test_hostile.py tests/runner/test_warm_box.py tests/runner/test_security.py -k '($BOMBS) or warm_box or security'"}
# Without systemd, only what differs there: the layouts that share a group, and the bombs and memory as root.
NO_SYSTEMD_SUITES=${LANE_SUITES:-"-m 'not slow' tests/runner/test_cgroup_v2_layouts.py tests/runner/test_hostile.py -k 'sharing or systemd or ((fork_bomb or memory_huge) and not proc)'"}
ENVIRONMENT="PATH=$PYBIN:/usr/bin:/bin PYTHONPATH=$REPO PYTHONDONTWRITEBYTECODE=1 JUDGE_EXPECT_CONTAINMENT='cgroup v2' JUDGE_TEST_TIME_SCALE=${LANE_TIME_SCALE:-1}"
status=0

step() { echo; echo "=== $*"; }
in_session() {  # in_session USER COMMAND: COMMAND in a login session of USER (PAM, pam_systemd)
    runuser -l "$1" -c "cd $REPO && export $ENVIRONMENT && $2"
}
check() {  # check WHAT COMMAND: run it, remember a failure
    in_session "$1" "$2" || { echo "cgroup2-lane: FAILED ($1): $2"; status=1; }
}

memory_finding() {  # judge doctor's memory row, from its output on stdin
    sed -n '/^ memory/,/^ containment/p' | sed '$d'
}
no_systemd_boot() {  # root in a shared group, then the image (see the header)
    local env="PATH=$PYBIN:/usr/bin:/bin PYTHONPATH=$REPO PYTHONDONTWRITEBYTECODE=1"
    local shared=/sys/fs/cgroup/lane-shared
    step "guest: $(uname -r), PID 1 $(cat /proc/1/comm), no systemd; root in $shared with another process"
    chmod 755 /root  # the ordinary user of the layouts reaches the venv under /root
    mkdir "$shared" && echo $$ > "$shared/cgroup.procs"
    sleep 86400 & local other=$!
    (cd "$REPO" && env $env "$VENV/bin/python" -m judge doctor > /tmp/doctor.root 2>&1)
    memory_finding < /tmp/doctor.root
    grep -A1 '^ memory' /tmp/doctor.root | grep -q ' ok .*cgroup v2' || { echo "cgroup2-lane: FAILED: doctor"; status=1; }
    echo "the other process is now in $(cut -d: -f3 "/proc/$other/cgroup")"
    step "root in that group: pytest $NO_SYSTEMD_SUITES"
    (cd "$REPO" && eval "env $ENVIRONMENT $VENV/bin/python -m pytest -q -p no:cacheprovider -rs $NO_SYSTEMD_SUITES") \
        || { echo "cgroup2-lane: FAILED: pytest"; status=1; }
    kill "$other"
    if [[ -n ${LANE_IMAGE:-} ]]; then
        image_as_container "$LANE_IMAGE" || { echo "cgroup2-lane: FAILED: the image"; status=1; }
    fi
}

image_as_container() {  # image_as_container ROOTFS: the image started as runc starts a container with
    # --privileged --cgroupns=private (docs/operating.md's run line): a fresh group, its own PID, cgroup, mount, UTS
    # and IPC namespaces, the image's root, cgroup2 mounted read-write, /problems and /data as volumes, and the
    # judge, PID 1, its entrypoint: doctor, a memory hog, then `judge grade` of a class in C++ and Python. (Java
    # works there too, but javac under the emulator outlasts the judge's 60 s compile limit.)
    local rootfs=$1 data=/tmp/lane-image-data problems=$REPO/examples/problems
    local group=/sys/fs/cgroup/lane-container-$RANDOM
    step "the Containerfile's root file system ($(du -sh "$rootfs" | cut -f1)) as a container: $(tr '\n' ' ' < "$rootfs/.image-command")"
    grep -qx 'ENTRYPOINT \["judge"\]' "$rootfs/.image-command" || { echo "the entrypoint is not judge"; return 1; }
    mkdir -p "$group" "$data/class/alice" "$data/class/bob"
    cp "$REPO/examples/submissions/1000/accepted/add.cpp" "$data/class/alice/1000.cpp"
    cp "$REPO/examples/submissions/1008/accepted/divide.py" "$data/class/alice/1008.py"
    cp "$REPO/examples/submissions/1000/accepted/add.py" "$data/class/bob/1000.py"
    printf 'block = b"x" * (1 << 30)\nprint(len(block))\n' > "$data/class/bob/1008.py"  # filled by memset: fast
    cat > /tmp/container-root.sh <<'ROOT'
# In the container's cgroup and mount namespaces: the image's root and its volumes, then the entrypoint.
set -e
R=$ROOTFS
mount --bind "$R" "$R"
mount -t proc proc "$R/proc"; mount -t sysfs sysfs "$R/sys"; mount -t cgroup2 cgroup2 "$R/sys/fs/cgroup"
mount --rbind /dev "$R/dev"; mount -t tmpfs tmpfs "$R/tmp"
mkdir -p "$R/problems" "$R/data"; mount --bind "$PROBLEMS" "$R/problems"; mount --bind "$DATA" "$R/data"
image_env=$(cat "$R/.image-env"); workdir=$(sed -n 's/^WORKDIR //p' "$R/.image-command")
cd "$R"; pivot_root . .; umount -l .  # as runc does: / a mount of its own (bwrap makes it a slave), no way back
exec /usr/bin/env -i $image_env COLUMNS="$COLUMNS" /bin/sh -c "cd $workdir && exec judge \"\$@\"" judge "$@"
ROOT
    container() {  # container ARGS...: `judge ARGS`, the container's PID 1; its output on stdout
        unshare --pid --fork --kill-child env ROOTFS="$rootfs" PROBLEMS="$problems" DATA="$data" COLUMNS=1000 \
            /bin/sh -c 'echo $$ > "$0/cgroup.procs" && exec unshare --cgroup --mount --uts --ipc --propagation private /bin/sh /tmp/container-root.sh "$@"' \
            "$group" "$@"
    }
    local failed=0
    step "container: judge doctor"
    container doctor > /tmp/doctor.image 2>&1; cat /tmp/doctor.image
    grep -A1 '^ memory' /tmp/doctor.image | grep -q ' ok .*cgroup v2' || { echo "FAILED: doctor in the container"; failed=1; }
    step "container: judge run /problems/1008 (a 1 GiB hog) --json"
    container run /problems/1008 /data/class/bob/1008.py --json > /tmp/hog.json 2>/tmp/hog.err
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["verdict"], "|", r["memory_enforcement"], "|", r["isolation"]); sys.exit(0 if r["verdict"] == "MLE" and r["memory_enforcement"].startswith("cgroup v2") else 1)' /tmp/hog.json \
        || { echo "FAILED: the hog in the container"; tail -5 /tmp/hog.err; failed=1; }
    step "container: judge grade /problems /data/class --out /data/results"
    container grade /problems /data/class --out /data/results > /tmp/grade.out 2>&1 || { tail -20 /tmp/grade.out; failed=1; }
    cat "$data/results/grades.csv" || failed=1
    grep -q '^alice,AC,AC,2,2' "$data/results/grades.csv" && grep -q '^bob,AC,MLE,1,2' "$data/results/grades.csv" \
        || { echo "FAILED: the grades are not alice AC AC, bob AC MLE"; failed=1; }
    echo "left in the container's group: $(find "$group" -name cgroup.procs -exec cat {} + | wc -w) processes"
    return $failed
}

if [[ ${LANE_BOOT:-} == no-systemd ]]; then
    no_systemd_boot
    exit $status
fi

step "guest: $(uname -r), PID 1 $(cat /proc/1/comm), $(systemctl is-system-running 2>&1)"
find "$REPO" -name __pycache__ -not -path "*/.venv/*" -exec rm -rf {} + 2>/dev/null
# The guest is thrown away: let the ordinary user reach the venv under /root.
chmod 755 /root
useradd -m -u "$LANE_UID" -s /bin/bash "$LANE_USER"
loginctl enable-linger "$LANE_USER"  # its user manager up before its first login, as after a desktop login

doctor_in() {  # doctor_in TITLE COMMAND...: judge doctor started by COMMAND (as root), its memory row
    step "$1"; shift
    "$@" 2>&1 | memory_finding
}
doctor_layouts() {  # judge doctor in each layout of README's cgroup v2 table that systemd's presence allows
    local py="$VENV/bin/python" env="PATH=$PYBIN:/usr/bin:/bin PYTHONPATH=$REPO PYTHONDONTWRITEBYTECODE=1"
    local doctor="cd $REPO && export $env && exec $py -m judge doctor"  # exec: a shell waiting for it would share its group
    local layouts=/sys/fs/cgroup/judge-lane-layouts
    mkdir "$layouts" "$layouts/session" "$layouts/named" "$layouts/service" "$layouts/container" "$layouts/nocpu"
    echo "+memory +pids +cpu" > "$layouts/cgroup.subtree_control"
    echo "+memory +pids" > "$layouts/nocpu/cgroup.subtree_control"
    mkdir "$layouts/nocpu/service"
    in_group() { local group=$1; shift; sh -c "echo \$\$ > $group/cgroup.procs && exec \"\$@\"" sh "$@"; }
    doctor_in "root in a login session" runuser -l root -c "$doctor"
    doctor_in "root, a systemd service with Delegate=yes" systemd-run --quiet --wait --pipe -p Delegate=yes \
        --working-directory="$REPO" -E PATH="$PYBIN:/usr/bin:/bin" -E PYTHONPATH="$REPO" -E PYTHONDONTWRITEBYTECODE=1 \
        "$py" -m judge doctor
    doctor_in "root, alone in a group (a service, a container's group)" in_group "$layouts/service" sh -c "$doctor"
    doctor_in "root, alone in a container's group, seen as the root of its cgroup namespace" \
        in_group "$layouts/container" unshare --cgroup --mount --propagation private sh -c \
        "umount -l /sys/fs/cgroup && mount -t cgroup2 cgroup2 /sys/fs/cgroup && $doctor"
    doctor_in "root, alone in a group whose parent delegates memory and pids, not cpu" \
        in_group "$layouts/nocpu/service" sh -c "$doctor"
    in_group "$layouts/session" sleep 600 & local shell=$!
    doctor_in "root, in a group shared with a shell, JUDGE_CGROUP naming an empty group" \
        in_group "$layouts/session" sh -c "export JUDGE_CGROUP=${layouts#/sys/fs/cgroup}/named && $doctor"
    kill "$shell"
    doctor_in "$LANE_USER in a login session" runuser -l "$LANE_USER" -c "$doctor"
    doctor_in "$LANE_USER, started in a scope delegated to it (systemd-run --user --scope -p Delegate=yes)" \
        runuser -l "$LANE_USER" -c "cd $REPO && export $env && exec systemd-run --user --quiet --scope -p Delegate=yes $py -m judge doctor"
    doctor_in "$LANE_USER with no login session (setpriv from a root service: no user manager reached)" \
        setpriv --reuid="$LANE_UID" --regid="$LANE_UID" --clear-groups --reset-env sh -c "$doctor"
    # A user manager delegating pids only (a distribution's user@.service without Delegate=memory).
    local other=${LANE_USER}2 other_uid=$((LANE_UID + 1))
    mkdir -p "/etc/systemd/system/user@$other_uid.service.d"
    printf '[Service]\nDelegate=no\nDelegate=pids\n' > "/etc/systemd/system/user@$other_uid.service.d/lane.conf"
    systemctl daemon-reload
    useradd -m -u "$other_uid" -s /bin/bash "$other"
    loginctl enable-linger "$other"
    doctor_in "$other in a login session, its user manager delegating pids only" runuser -l "$other" -c "$doctor"
}

if [[ -n ${LANE_OVERHEAD:-} ]]; then
    step "root in a login session: benchmarks/overhead.py $LANE_OVERHEAD"
    check root "$VENV/bin/python benchmarks/overhead.py $LANE_OVERHEAD"
    exit $status
fi
if [[ ${LANE_DOCTOR_LAYOUTS:-} == 1 ]]; then
    doctor_layouts
    exit $status
fi

for who in root "$LANE_USER"; do
    step "$who in a login session"
    check "$who" "cat /proc/self/cgroup; $VENV/bin/python -m judge doctor > /tmp/doctor.\$USER; \
        sed -n '/^ memory/,/^ containment/p' /tmp/doctor.\$USER; grep -A1 '^ memory' /tmp/doctor.\$USER | grep -q ' ok .*cgroup v2'"
done
fail_closed() {  # issue 43: --require-containment cgroup judges where the cgroup holds, refuses (exit 2) where not
    local run="$VENV/bin/python -m judge run --fail-fast --require-containment cgroup problems/9663 $(ls "$REPO"/submissions/9663/accepted/*.py | head -1)"
    step "root in a login session: judge run --require-containment cgroup (must judge: a verdict, exit 0 or 1)"
    check root "$run > /tmp/required.out 2>&1; rc=\$?; tail -2 /tmp/required.out; test \$rc -le 1"
    step "$LANE_USER with no user manager (no delegated group): the same (must refuse in one line: exit 2)"
    setpriv --reuid="$LANE_UID" --regid="$LANE_UID" --clear-groups --reset-env \
        sh -c "cd $REPO && export $ENVIRONMENT && $run" > /tmp/refused.out 2>&1
    local rc=$?; cat /tmp/refused.out
    [[ $rc -eq 2 && $(wc -l < /tmp/refused.out) -eq 1 ]] || { echo "cgroup2-lane: FAILED: not refused in one line (exit $rc)"; status=1; }
    step "judge doctor's timing findings here"
    in_session root "$VENV/bin/python -m judge doctor" 2>&1 | sed -n '/^ timing/,$p'
}
fail_closed
for who in "$LANE_USER" root; do  # the user first: the case most likely to fall back
    suites=$ROOT_SUITES; [[ $who == root ]] || suites=$USER_SUITES
    [[ $suites == none ]] && continue
    step "$who in a login session: pytest $suites"
    check "$who" "$VENV/bin/python -m pytest -q -p no:cacheprovider -rs $suites"
done
step "left behind: $(ps -eo comm= | grep -c '^hx' || true) hostile processes"
exit $status
