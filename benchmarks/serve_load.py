"""`judge serve` under a class's load: 100 simulated students over loopback, 300 submissions within two minutes.

Each student signs in through the login form (a session cookie, as a browser), then at three random moments of
the two minutes pastes a solution (half of them wrong, each spending --burn CPU seconds on every test) through the
API the page uses, loads the page of the submission and the problem page, and polls the submission's JSON once a
second, as the page's script does, until its verdict is there. The judging runs on `-j 2` local workers, and the
solutions need more CPU time than they have, so the judging keeps both cores busy while the server answers.

Printed: p50/p95 of the time to store a submission (POST until 201) and to load a page (the HTML of a
submission and of a problem), each measured first on the idle server (the baseline, same run) and then under
load, with their ratio; the time from a verdict being decided (its judged_at in the database) to the student's
poll seeing it; and the check that every submission was stored and judged once: none lost, none duplicated.
The issue's target is p95 under 100 ms for storing and for a page, with judging at full load. Also printed: the
slowest test's wall time against its wall backstop (2 x the time limit + 1 s): the load stretches a test's wall
time while its CPU time stays put, and a stretch past the backstop would turn a fast program into a TLE.

The simulated students run in this process, on the same cores as the server and the judging: their threads'
CPU is part of the load, and part of each measured time is this client's own (a few ms at p95).

`--scenario lab` is a lab session instead (issue 41): --correct correct solutions (each spending --burn CPU seconds
on every test), one per student at random moments of --seconds, judged twice in the same run: first alone, then
at the same moments again (new submissions) with a class of slow ones among them: --endless endless loops (a TLE
on their first test, BOJ's order) and --slow accepted solutions spending --slow-burn CPU seconds on every test, at
random moments of the same window. Printed: p50 and p95 of the correct ones' time from submission to verdict
(submitted_at to judged_at in the database) without and with the slow class, and their ratio (the issue's target:
at most 1.5 with -j 2); each verdict as expected; and that every submission was stored and judged exactly once:
each id once, each done with one result, and the judging process never restarted (a restart judges what it held
again).

`--scenario counterexamples` is the same class with counterexample requests mixed in (issue 42): --correct first
submissions (half of them wrong on a hidden test), one per student at random moments of --seconds, judged twice in
the same run: first alone, then at the same moments again (new students) while --askers other students, whose WA
submissions were judged before, ask for a counterexample at random moments of the same window (the problem has a
generator.py and an accepted reference, and the teacher has turned counterexamples on). Printed: p50 and p95 of the
first submissions' time from submission to verdict without and with the requests, and their ratio (the issue's
target: unchanged); how many requests were searched and what they found; that every submission was judged once.

    python benchmarks/serve_load.py [--students 100] [--submissions 300] [--seconds 120] [--jobs 2] [--burn 0.3] [--keep]
    python benchmarks/serve_load.py --scenario lab [--correct 40] [--endless 3] [--slow 3] [--seconds 60] [--jobs 2]
    python benchmarks/serve_load.py --scenario counterexamples [--correct 40] [--askers 10] [--seconds 60] [--jobs 2]
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BURN = "import time\nend = time.process_time() + {seconds}\nwhile time.process_time() < end:\n    pass\n"
AC = "a, b = map(int, input().split())\nprint(a + b)\n"
WA = "a, b = map(int, input().split())\nprint(a + b or 1)\n"  # wrong on the last test only: all 3 run
ENDLESS = "while True:\n    pass\n"
POLL_SECONDS = 1.0  # static/app.js's POLL_MS
JUDGED_WAIT_SECONDS = 900.0
SEED = 24
SIGN_IN_THREADS = 4


@dataclass
class Timings:
    store: list[float] = field(default_factory=list)
    page: list[float] = field(default_factory=list)
    verdict_seen: list[float] = field(default_factory=list)
    stored_ids: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Student:
    """One simulated browser: a cookie jar, the session's CSRF token."""

    def __init__(self, url: str, student_id: str, password: str) -> None:
        self.url = url
        self.id = student_id
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        page = self.get("login")
        token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        self.post_form("login", {"csrf": token, "id": student_id, "password": password})
        self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', self.get("")).group(1)

    def get(self, path: str) -> str:
        with self.opener.open(self.url + path, timeout=60) as response:
            return response.read().decode()

    def post_form(self, path: str, fields: dict[str, str]) -> str:
        data = urllib.parse.urlencode(fields).encode()
        with self.opener.open(urllib.request.Request(self.url + path, data=data), timeout=60) as response:
            return response.read().decode()

    def submit(self, source: str) -> int:
        """POST `source` as the page does; the new submission's id."""
        boundary = "studentboundary"
        body = (f'--{boundary}\r\nContent-Disposition: form-data; name="problem"\r\n\r\nsum\r\n'
                f'--{boundary}\r\nContent-Disposition: form-data; name="language"\r\n\r\npython3\r\n'
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="sum.py"\r\n\r\n{source}\r\n'
                f"--{boundary}--\r\n").encode()
        request = urllib.request.Request(self.url + "api/submissions", data=body, method="POST", headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}", "X-CSRF-Token": self.csrf})
        with self.opener.open(request, timeout=60) as response:
            assert response.status == 201, response.status
            return int(json.loads(response.read())["id"])


def timed(call, *args):
    start = time.perf_counter()
    value = call(*args)
    return value, time.perf_counter() - start


def student_life(student: Student, moments: list[float], start: float, timings: Timings, judged_at,
                 sources: tuple[str, str]) -> None:
    for moment in moments:
        time.sleep(max(0.0, start + moment - time.monotonic()))
        try:
            submission_id, seconds = timed(student.submit, random.Random(moment).choice(sources))
            with timings.lock:
                timings.store.append(seconds)
                timings.stored_ids.append(submission_id)
            for path in (f"submissions/{submission_id}", "problems/sum"):
                _, seconds = timed(student.get, path)
                with timings.lock:
                    timings.page.append(seconds)
            deadline = time.monotonic() + JUDGED_WAIT_SECONDS
            while time.monotonic() < deadline:
                document = json.loads(student.get(f"api/submissions/{submission_id}"))
                if document["status"] == "done":
                    seen = time.time()
                    with timings.lock:
                        timings.verdict_seen.append(seen - judged_at(submission_id))
                    break
                time.sleep(POLL_SECONDS)
        except Exception as error:  # noqa: BLE001 -- a benchmark reports every failure, it does not stop at one
            with timings.lock:
                timings.failures.append(f"{student.id}: {type(error).__name__}: {error}")


def percentiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"p50 {1000 * statistics.median(ordered):7.1f} ms  p95 {1000 * p95:7.1f} ms  (n={len(ordered)})"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else float("nan")


def write_problem(work: Path) -> None:
    problem = work / "problems" / "sum"
    (problem / "tests").mkdir(parents=True)
    (problem / "problem.yaml").write_text('id: sum\ntitle: A+B\ntime_limit: 1\nmemory_limit: 256\n')
    (problem / "statement.md").write_text("# A+B\n\nPrint the sum of two integers.\n")
    for name, given, answer in (("sample1", "1 2", "3"), ("2", "5 7", "12"), ("3", "-4 4", "0")):
        (problem / "tests" / f"{name}.in").write_text(given + "\n")
        (problem / "tests" / f"{name}.ans").write_text(answer + "\n")


@contextmanager
def served(work: Path, students: list[tuple[str, str]], jobs: int, log: list[str]) -> Iterator[str]:
    """`judge serve` on the problem and roster written under `work`, with -j `jobs`; its URL. Its log lines after
    the URL go to `log`; it is stopped (SIGTERM, then SIGKILL) after the block."""
    write_problem(work)
    (work / "roster.csv").write_text("id,name,password\n" + "".join(f"{s},Student {s},{p}\n" for s, p in students))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    server = subprocess.Popen([sys.executable, "-m", "judge", "serve", str(work / "problems"), "--roster",
                               str(work / "roster.csv"), "--data", str(work / "data"), "--port", "0", "-j",
                               str(jobs), "--max-pending", "10"],
                              stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        url = ""
        while not url:
            line = server.stderr.readline()
            if not line:
                raise SystemExit(f"judge serve exited ({server.wait()})")
            if match := re.search(r"judge serve: (http://\S+/) ", line):
                url = match.group(1)
        threading.Thread(target=lambda: log.extend(server.stderr), daemon=True).start()
        yield url
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def sign_in(url: str, students: list[tuple[str, str]]) -> list[Student]:
    print(f"server {url}; signing in {len(students)} students (argon2id, once each)", flush=True)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=SIGN_IN_THREADS) as pool:  # the server checks two at once anyway
        browsers = list(pool.map(lambda pair: Student(url, *pair), students))
    print(f"  signed in in {time.monotonic() - started:.1f} s", flush=True)
    return browsers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", choices=("load", "lab", "counterexamples"), default="load")
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--submissions", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=None, help="the window of arrivals (load: 120, lab: 60)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the run's folder (problem, roster, database)")
    parser.add_argument("--burn", type=float, default=None,
                        help="CPU seconds each solution spends on each test (load: 0.3, so 300 submissions of 3 "
                             "tests are 270 CPU seconds, more than 2 workers have in 120 s and they never idle; "
                             "lab: 0.05)")
    parser.add_argument("--correct", type=int, default=40, help="lab: correct submissions in each half")
    parser.add_argument("--endless", type=int, default=3, help="lab: endless loops among the second half")
    parser.add_argument("--slow", type=int, default=3, help="lab: slow accepted solutions among the second half")
    parser.add_argument("--slow-burn", type=float, default=1.0, help="lab: CPU seconds a slow one spends per test")
    parser.add_argument("--askers", type=int, default=10, help="counterexamples: students asking for one")
    arguments = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="serve-load-"))
    try:
        if arguments.scenario == "counterexamples":
            return counterexamples(work, arguments)
        if arguments.scenario == "lab":
            return lab(work, arguments)
        return load(work, arguments)
    finally:
        if arguments.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def burning(seconds: float) -> str:
    return BURN.format(seconds=seconds) if seconds > 0 else ""


def load(work: Path, arguments: argparse.Namespace) -> int:
    """The class's load (the module's docstring)."""
    burn = burning(0.3 if arguments.burn is None else arguments.burn)
    window = 120.0 if arguments.seconds is None else arguments.seconds
    students = [(f"s{number:03d}", f"pw-{number:03d}-{SEED}") for number in range(arguments.students)]
    baseline_student = ("baseline", f"pw-baseline-{SEED}")  # the idle baseline's 5 submissions: not a loaded
    # student's, whose minute's allowance (6) they would use up
    with served(work, [*students, baseline_student], arguments.jobs, []) as url:
        signed_in = sign_in(url, students)

        database = work / "data" / "serve.sqlite"

        def judged_at(submission_id: int) -> float:
            with sqlite3.connect(database, timeout=30) as connection:
                return connection.execute("SELECT judged_at FROM submissions WHERE id = ?",
                                          (submission_id,)).fetchone()[0]

        idle = Timings()
        probe = Student(url, *baseline_student)
        for _ in range(20):  # the baseline: the idle server, one request at a time, nothing judged yet
            _, seconds = timed(probe.get, "problems/sum")
            idle.page.append(seconds)
        for _ in range(5):
            submission_id, seconds = timed(probe.submit, AC)
            idle.store.append(seconds)
            _, seconds = timed(probe.get, f"submissions/{submission_id}")
            idle.page.append(seconds)
            while json.loads(probe.get(f"api/submissions/{submission_id}"))["status"] != "done":
                time.sleep(0.2)

        rng = random.Random(SEED)
        plan: dict[str, list[float]] = {student.id: [] for student in signed_in}
        for number in range(arguments.submissions):
            plan[signed_in[number % len(signed_in)].id].append(rng.uniform(0, window))
        loaded = Timings()
        start = time.monotonic()
        threads = [threading.Thread(target=student_life, args=(student, sorted(plan[student.id]), start, loaded,
                                                                 judged_at, (burn + AC, burn + WA)))
                   for student in signed_in]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - start

        with sqlite3.connect(database) as connection:
            rows = connection.execute("SELECT id, status, verdict FROM submissions").fetchall()
            results = [json.loads(text) for (text,) in
                       connection.execute("SELECT result_json FROM submissions WHERE result_json IS NOT NULL")]
        loaded_ids = set(loaded.stored_ids)
        in_db = {row[0]: row for row in rows}
        lost = [i for i in loaded_ids if i not in in_db or in_db[i][1] != "done"]
        print(f"\n{len(loaded.stored_ids)} submissions stored in {window:g} s of arrivals by "
              f"{len(signed_in)} students; all judged {elapsed:.1f} s after the first arrival could be made")
        print(f"  stored and judged: {len(loaded_ids) - len(lost)} of {len(loaded.stored_ids)}; lost {len(lost)}; "
              f"duplicated ids {len(loaded.stored_ids) - len(loaded_ids)}; failures {len(loaded.failures)}")
        for failure in loaded.failures[:5]:
            print(f"    {failure}")
        print(f"  verdicts: {sorted({row[2] for row in rows})}")
        slowest = max(((case["wall_seconds"], case["cpu_seconds"], result["limits"]["wall_seconds"])
                       for result in results for case in result["cases"]), default=None)
        if slowest is not None:  # the load stretches wall time, not CPU time: how close to the backstop
            print(f"  slowest test by wall time: {slowest[0]:.3f} s (CPU {slowest[1]:.3f} s) of the "
                  f"{slowest[2]:g} s wall backstop")
        print(f"\nstore a submission  idle:   {percentiles(idle.store)}")
        print(f"                    loaded: {percentiles(loaded.store)}   p95 ratio {p95(loaded.store) / p95(idle.store):.2f}")
        print(f"load a page         idle:   {percentiles(idle.page)}")
        print(f"                    loaded: {percentiles(loaded.page)}   p95 ratio {p95(loaded.page) / p95(idle.page):.2f}")
        print(f"verdict decided -> seen by the student's poll ({POLL_SECONDS:g} s, as the page): "
              f"{percentiles(loaded.verdict_seen)}")
        print(f"target p95 < 100 ms: store {'met' if p95(loaded.store) < 0.1 else 'NOT met'}, "
              f"page {'met' if p95(loaded.page) < 0.1 else 'NOT met'}; load average {os.getloadavg()[0]:.2f}")
        return 0 if not lost and not loaded.failures else 1


@dataclass(frozen=True)
class Planned:
    """One submission of the lab session: who sends what, when (seconds into the half), and the verdict it earns."""

    student: Student
    moment: float
    source: str
    expected: str
    correct: bool


def send_all(planned: list[Planned]) -> dict[int, Planned]:
    """Each submission sent at its moment (one thread per student); the ids stored, with what was sent."""
    stored: dict[int, Planned] = {}
    lock = threading.Lock()
    start = time.monotonic()

    def send(each: Planned) -> None:
        time.sleep(max(0.0, start + each.moment - time.monotonic()))
        submission_id = each.student.submit(each.source)
        with lock:
            if submission_id in stored:
                raise SystemExit(f"submission id {submission_id} given twice")
            stored[submission_id] = each

    threads = [threading.Thread(target=send, args=(each,)) for each in planned]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if len(stored) != len(planned):
        raise SystemExit(f"{len(planned) - len(stored)} submission(s) not stored")
    return stored


def wait_judged(database: Path, ids: set[int]) -> dict[int, tuple[str, str | None, float, float, str | None]]:
    """(status, verdict, submitted_at, judged_at, result_json) of each id, once all are done."""
    marks = ",".join("?" * len(ids))
    deadline = time.monotonic() + JUDGED_WAIT_SECONDS
    while True:
        with sqlite3.connect(database, timeout=30) as connection:
            rows = {row[0]: row[1:] for row in connection.execute(
                f"SELECT id, status, verdict, submitted_at, judged_at, result_json FROM submissions"
                f" WHERE id IN ({marks})", sorted(ids))}
        if len(rows) == len(ids) and all(row[0] == "done" for row in rows.values()):
            return rows
        if time.monotonic() > deadline:
            raise SystemExit(f"not judged in {JUDGED_WAIT_SECONDS:g} s")
        time.sleep(0.2)


def crowded_out(moment: float, slow: list[tuple[float, float]], jobs: int) -> bool:
    """Whether `jobs` or more of the slow class were between submission and verdict at `moment`: then every worker
    may be held by one, and a correct submission waits for the first to end."""
    return sum(begin <= moment < end for begin, end in slow) >= jobs


def lab(work: Path, arguments: argparse.Namespace) -> int:
    """A lab session with and without slow submissions (the module's docstring)."""
    window = 60.0 if arguments.seconds is None else arguments.seconds
    burn = burning(0.05 if arguments.burn is None else arguments.burn)
    rng = random.Random(SEED)
    correct_moments = sorted(rng.uniform(0, window) for _ in range(arguments.correct))
    slow_class = [(ENDLESS, "TLE")] * arguments.endless + [(burning(arguments.slow_burn) + AC, "AC")] * arguments.slow
    slow_moments = [rng.uniform(0, window) for _ in slow_class]
    roster = [(f"c{number:03d}", f"pw-c{number:03d}-{SEED}") for number in range(2 * arguments.correct)]
    roster += [(f"x{number:03d}", f"pw-x{number:03d}-{SEED}") for number in range(len(slow_class))]
    roster += [(f"w{number}", f"pw-w{number}-{SEED}") for number in range(arguments.jobs)]
    log: list[str] = []
    with served(work, roster, arguments.jobs, log) as url:
        students = sign_in(url, roster)
        halves = {
            "no slow submissions": [Planned(students[n], moment, burn + AC, "AC", True)
                                    for n, moment in enumerate(correct_moments)],
            f"{arguments.endless} endless, {arguments.slow} slow": [
                *(Planned(students[arguments.correct + n], moment, burn + AC, "AC", True)
                  for n, moment in enumerate(correct_moments)),
                *(Planned(students[2 * arguments.correct + n], moment, source, expected, False)
                  for n, ((source, expected), moment) in enumerate(zip(slow_class, slow_moments, strict=True))),
            ],
        }
        database = work / "data" / "serve.sqlite"
        warm = send_all([Planned(student, 0.0, burn + AC, "AC", True) for student in students[-arguments.jobs:]])
        wait_judged(database, set(warm))  # every worker started and warm before the first half is measured
        figures: dict[str, list[float]] = {}
        every_id: list[int] = list(warm)
        wrong: list[str] = []
        for name, planned in halves.items():
            print(f"{name}: {len(planned)} submissions over {window:g} s (load average {os.getloadavg()[0]:.2f})",
                  flush=True)
            stored = send_all(planned)
            every_id += stored
            rows = wait_judged(database, set(stored))
            print(f"  judged (load average {os.getloadavg()[0]:.2f})", flush=True)
            figures[name] = [rows[i][3] - rows[i][2] for i, each in stored.items() if each.correct]
            wrong += [f"#{i}: {rows[i][1]}, not {each.expected}" for i, each in stored.items()
                      if rows[i][1] != each.expected or rows[i][4] is None]
            slow = [(rows[i][2], rows[i][3]) for i, each in stored.items() if not each.correct]
            if slow:
                print(f"  the slow class: {max(end - begin for begin, end in slow):.1f} s at most to a verdict")
                crowded = [i for i, each in stored.items() if each.correct and crowded_out(rows[i][2], slow, arguments.jobs)]
                others = [rows[i][3] - rows[i][2] for i, each in stored.items() if each.correct and i not in crowded]
                print(f"  correct ones sent while {arguments.jobs} or more of the slow class were waiting or judged: "
                      f"{len(crowded)}; the others: {percentiles(others)}")
        with sqlite3.connect(database) as connection:
            in_db = connection.execute("SELECT COUNT(*), COUNT(DISTINCT id) FROM submissions").fetchone()
    restarts = [line.strip() for line in log if "judging process ended" in line]
    quiet, busy = figures.values()
    print(f"\nsubmission -> verdict of the correct ones, -j {arguments.jobs}:")
    for name, values in figures.items():
        print(f"  {name:>28}: {percentiles(values)}")
    ratio_p50 = statistics.median(busy) / statistics.median(quiet)
    ratio_p95 = p95(busy) / p95(quiet)
    print(f"  ratio with / without: p50 {ratio_p50:.2f}, p95 {ratio_p95:.2f} (target at most 1.5: "
          f"{'met' if max(ratio_p50, ratio_p95) <= 1.5 else 'NOT met'})")
    print(f"stored {len(every_id)} of {sum(map(len, halves.values())) + len(warm)} sent, {in_db[0]} rows, {in_db[1]} distinct ids; "
          f"verdicts not as expected: {len(wrong)}; judging process restarts: {len(restarts)}; "
          f"load average {os.getloadavg()[0]:.2f}")
    for line in [*wrong, *restarts][:5]:
        print(f"    {line}")
    once = len(every_id) == in_db[0] == in_db[1] and not restarts
    return 0 if once and not wrong else 1


# ---------------------------------------------------------------- --scenario counterexamples (issue 42)

SUM_GENERATOR = (  # small sums, so a WA on a zero sum (the WA source) is found in a few seeds
    "import random, sys\n"
    "rng = random.Random(int(sys.argv[sys.argv.index('--seed') + 1]))\n"
    "print(rng.randint(-3, 3), rng.randint(-3, 3))\n"
)


def ask_counterexample(student: Student, submission_id: int) -> None:
    """The button on the submission's page, as the API takes it."""
    request = urllib.request.Request(f"{student.url}api/submissions/{submission_id}/counterexample", data=b"",
                                     method="POST", headers={"X-CSRF-Token": student.csrf})
    with student.opener.open(request, timeout=60) as response:
        assert response.status == 202, response.status


def ask_at(student: Student, submission_id: int, moment: float) -> None:
    """Ask at `moment` (time.monotonic()'s clock)."""
    time.sleep(max(0.0, moment - time.monotonic()))
    ask_counterexample(student, submission_id)


def counterexamples(work: Path, arguments: argparse.Namespace) -> int:
    """The class with and without counterexample requests mixed in (the module's docstring)."""
    window = 60.0 if arguments.seconds is None else arguments.seconds
    burn = burning(0.05 if arguments.burn is None else arguments.burn)
    rng = random.Random(SEED)
    moments = sorted(rng.uniform(0, window) for _ in range(arguments.correct))
    sources = [(burn + AC, "AC") if n % 2 else (burn + WA, "WA") for n in range(arguments.correct)]
    ask_moments = sorted(rng.uniform(0, window) for _ in range(arguments.askers))
    roster = [(f"f{number:03d}", f"pw-f{number:03d}-{SEED}") for number in range(2 * arguments.correct)]
    roster += [(f"a{number:03d}", f"pw-a{number:03d}-{SEED}") for number in range(arguments.askers)]
    with served(work, roster, arguments.jobs, []) as url:
        (work / "problems" / "sum" / "generator.py").write_text(SUM_GENERATOR)  # the teacher adds a generator
        accepted = work / "submissions" / "sum" / "accepted"
        accepted.mkdir(parents=True)
        (accepted / "sum.py").write_text(AC)
        teacher = Student(url, "teacher", (work / "data" / "teacher-secret.txt").read_text().strip())
        teacher.post_form("teacher/counterexamples", {"csrf": teacher.csrf, "problem": "sum"})
        students = sign_in(url, roster)
        askers = students[2 * arguments.correct:]
        database = work / "data" / "serve.sqlite"
        asked_about = send_all([Planned(student, 0.0, burn + WA, "WA", False) for student in askers])
        wait_judged(database, set(asked_about))  # their WAs, judged before the measured halves (warm workers too)
        halves = {
            "without requests": [Planned(students[n], moment, source, expected, True)
                                 for n, (moment, (source, expected)) in enumerate(zip(moments, sources, strict=True))],
            f"with {arguments.askers} requests": [
                Planned(students[arguments.correct + n], moment, source, expected, True)
                for n, (moment, (source, expected)) in enumerate(zip(moments, sources, strict=True))],
        }
        figures: dict[str, list[float]] = {}
        wrong: list[str] = []
        every_id = list(asked_about)
        for name, planned in halves.items():
            print(f"{name}: {len(planned)} first submissions over {window:g} s", flush=True)
            asking = []
            if name != "without requests":
                start = time.monotonic()
                asking = [threading.Thread(target=ask_at, args=(asked_about[submission_id].student, submission_id,
                                                                 start + moment))
                          for moment, submission_id in zip(ask_moments, sorted(asked_about), strict=True)]
                for thread in asking:
                    thread.start()
            stored = send_all(planned)
            for thread in asking:
                thread.join()
            every_id += stored
            rows = wait_judged(database, set(stored))
            figures[name] = [rows[i][3] - rows[i][2] for i in stored]
            wrong += [f"#{i}: {rows[i][1]}, not {each.expected}" for i, each in stored.items()
                      if rows[i][1] != each.expected]
        deadline = time.monotonic() + JUDGED_WAIT_SECONDS
        while True:
            with sqlite3.connect(database, timeout=30) as connection:
                searched = connection.execute(
                    "SELECT status, found, finished_at - requested_at FROM counterexamples").fetchall()
                in_db = connection.execute("SELECT COUNT(*), COUNT(DISTINCT id) FROM submissions").fetchone()
            if all(row[0] == "done" for row in searched) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
    quiet, busy = figures.values()
    print(f"\nsubmission -> verdict of the first submissions, -j {arguments.jobs}:")
    for name, values in figures.items():
        print(f"  {name:>20}: {percentiles(values)}")
    ratio_p50 = statistics.median(busy) / statistics.median(quiet)
    ratio_p95 = p95(busy) / p95(quiet)
    print(f"  ratio with / without: p50 {ratio_p50:.2f}, p95 {ratio_p95:.2f}")
    found = [row[1] for row in searched]
    print(f"counterexample requests: {len(searched)} asked, {sum(row[0] == 'done' for row in searched)} done "
          f"({', '.join(f'{found.count(kind)} {kind}' for kind in sorted(set(found), key=str))}); request -> result: "
          f"{percentiles([row[2] for row in searched if row[2] is not None])}")
    print(f"stored {len(every_id)} submissions, {in_db[0]} rows, {in_db[1]} distinct ids; verdicts not as expected: "
          f"{len(wrong)}; load average {os.getloadavg()[0]:.2f}")
    for line in wrong[:5]:
        print(f"    {line}")
    done = len(searched) == arguments.askers and all(row[0] == "done" for row in searched)
    return 0 if done and not wrong and len(every_id) == in_db[0] == in_db[1] else 1


if __name__ == "__main__":
    sys.exit(main())
