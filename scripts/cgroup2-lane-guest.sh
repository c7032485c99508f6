#!/usr/bin/env bash
# The cgroup v2 lane's guest side (started by scripts/cgroup2-lane.sh as a systemd service in the guest, which is
# thrown away at power-off). Usage: cgroup2-lane-guest.sh REPO VENV OUT. Writes its output to OUT/lane.out and
# its status to OUT/lane.rc.
#
# 1. root in a login session (pam_systemd puts it in session-N.scope, shared with the login's shell): judge
#    doctor, then the layout, warm-box and hostile suites, every report required to say `cgroup v2`;
# 2. an ordinary user in a login session of its own (its systemd user manager delegates memory, pids and cpu, as
#    Debian 12's does): judge doctor, then the hostile suite's bombs, again `cgroup v2` required.
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
ROOT_SUITES=${LANE_SUITES:-"-m 'not slow' tests/runner/test_cgroup_v2_layouts.py tests/runner/test_warm_box.py tests/runner/test_hostile.py -k 'layouts or warm_box or ($BOMBS)'"}
USER_SUITES=${LANE_USER_SUITES:-"-m 'not slow' tests/runner/test_hostile.py -k '$BOMBS'"}
ENVIRONMENT="PATH=$PYBIN:/usr/bin:/bin PYTHONPATH=$REPO PYTHONDONTWRITEBYTECODE=1 JUDGE_EXPECT_CONTAINMENT='cgroup v2' JUDGE_TEST_TIME_SCALE=${LANE_TIME_SCALE:-1}"
status=0

step() { echo; echo "=== $*"; }
in_session() {  # in_session USER COMMAND: COMMAND in a login session of USER (PAM, pam_systemd)
    runuser -l "$1" -c "cd $REPO && export $ENVIRONMENT && $2"
}
check() {  # check WHAT COMMAND: run it, remember a failure
    in_session "$1" "$2" || { echo "cgroup2-lane: FAILED ($1): $2"; status=1; }
}

step "guest: $(uname -r), PID 1 $(cat /proc/1/comm), $(systemctl is-system-running 2>&1)"
find "$REPO" -name __pycache__ -not -path "*/.venv/*" -exec rm -rf {} + 2>/dev/null
# The guest is thrown away: let the ordinary user reach the venv under /root.
chmod 755 /root
useradd -m -u "$LANE_UID" -s /bin/bash "$LANE_USER"
loginctl enable-linger "$LANE_USER"  # its user manager up before its first login, as after a desktop login

for who in root "$LANE_USER"; do
    step "$who in a login session"
    check "$who" "cat /proc/self/cgroup; $VENV/bin/python -m judge doctor > /tmp/doctor.\$USER; \
        sed -n '/^ memory/,/^ containment/p' /tmp/doctor.\$USER; grep -A1 '^ memory' /tmp/doctor.\$USER | grep -q ' ok .*cgroup v2'"
done
for who in "$LANE_USER" root; do  # the user first: the case most likely to fall back
    suites=$ROOT_SUITES; [[ $who == root ]] || suites=$USER_SUITES
    [[ $suites == none ]] && continue
    step "$who in a login session: pytest $suites"
    check "$who" "$VENV/bin/python -m pytest -q -p no:cacheprovider -rs $suites"
done
step "left behind: $(ps -eo comm= | grep -c '^hx' || true) hostile processes"
exit $status
