"""`judge serve`: a classroom online judge in one command (students submit from a browser, verdicts arrive live).

    store/            the data folder's SQLite database, a module per kind of row: students, submissions (source
                      stored before 201), settings, rejudges (the results a rejudge replaced), clarifications,
                      counterexample requests,
                      the fair order of pending submissions (everyone's first before anyone's second) and the cap,
                      browsers' sessions (idle and absolute lifetimes)
    roster.py         the roster's passwords: missing ones generated into passwords.csv; the teacher's id and secret
    auth.py           who is calling: argon2 password hashes, HTTP Basic or a session cookie (a random id), CSRF,
                      rate limits per (id, address)
    judge_process.py  the judging process: claims submissions, judges them on the batch executors, stores results;
                      counterexample requests are a job of its own kind, searched when no submission waits
    counterexamples.py  a student's counterexample: the teacher's switch per problem, who may ask (and how often),
                      what a page shows of what was found
    counterexample_search.py  the search behind it: `judge stress` on generated inputs only, never a test's input,
                      in a process of the judging process's own that gives its worker back to a submission
    progress.py       the worker's "compiling", "test k of n", written into the database while a submission is
                      judged (by a local worker itself; a Dask worker's arrive as Dask events, written by the
                      judging process)
    contest.py        the teacher's settings: contest window, scoreboard hidden or frozen, announcements
    rejudges.py       what a rejudge changed: the teacher's report (page and CSV, old and new verdict per student
                      and problem, pending until judged) and the line a student whose result changed reads
    clarifications.py students' questions about a problem and the teacher's answers (to the asker or to
                      everyone): who may read which, the questions' bounds and rate limit
    feedback.py       what a caller is shown of a submission (BOJ's policy for students, everything for the teacher)
    scoreboard.py     ICPC rows (solved, penalty, attempts) and points, with the freeze
    statement.py      statement.md (or a package's problem.en.md) rendered to sanitised HTML (no raw HTML, no remote
                      anything)
    mathml.py         a statement's LaTeX math as MathML (latex2mathml's tree written out: MathML elements and
                      presentation attributes only, every text escaped)
    exports.py        the gradebook and similarity report `judge grade` / `judge similarity` write, from the store
    drafts.py         a refused form's line and fields, kept for the page its browser is redirected to (every form
                      is POST-redirect-GET; a student's code stays in the box)
    forms.py          what a POST brings, for the API and the pages alike: the bounded form, a submission's
                      fields, the one CSRF check
    api.py            the JSON API (the pages' scripts use it too)
    pages.py          the HTML pages (Jinja2 templates/, static/ holds the one script and the style sheet)
    page_base.py      what every page shares: the template environment, rendering, cookies, the signed-in and
                      teacher-only wrappers
    desk_pages.py     the rejudge reports' and the questions' pages (a mixin of pages.py's Pages)
    counterexample_pages.py  the counterexample button, switch and log (a mixin of Pages)
    http_bounds.py    what one client can make the server hold: body sizes and time, header time, open connections
    app.py            the Starlette application: routes, security headers, bounded bodies
    server.py         one command: lock the data folder, start the judging process, serve HTTP(S) with uvicorn
    supervisor.py     keeps one judging process running, restarting it with backoff

Judging never runs in the web server's process: the judging process owns the executor (a local pool or Dask),
and both processes meet only in the database. A submission's result is written only by the judging process that
claimed it (its claim token), so a killed and restarted server judges every stored submission exactly once.
"""
