"""judge: grade programs the way Baekjoon Online Judge does, on your own machine.

The map, bottom to top: a package imports only those listed before it (tests/test_import_graph.py), and each
package's own docstring maps its files.

    shared modules   errors, verdicts, options, inert (hostile text made inert), intake (reading files someone else
                     put there, listing their folders), private_folder (a folder only the judge's account may
                     touch), output_folder (a folder the judge writes results into: its lock, whole-file writes,
                     a full disk told in the caller's words), lazy, suggest, schema_errors, tool_cache: imported
                     by every layer, importing none
    runner/          run one command under limits, contained and boxed, and report the facts (RunStats)
    languages/       the language table, the toolchains found on this machine, interpreter shims, a submission's
                     files (one record, read once and carried to a batch's workers)
    problems/        a problem folder or package read into a `Problem`; the scanner of a problems folder; its
                     reference submissions and scoring
    programs/        one path that builds, starts, boxes and limits every program a problem brings (checker.py,
                     validators, generators, output validators, testlib checkers) and a submission's `Program`
    checkers/        whether an output is right: built-ins by name, checker.py, checker programs
    judging/         one submission on one problem, source to `SubmissionResult`; the one place a failure is JE
    cluster/         the judge's own Dask cluster: its address and mutual-TLS files
    batch/           many judgings at once (verify, grade, serve): tasks, packing, executors, engine, order,
                     status bar
    class_folder.py  a class folder read into (student, problem, source) pairs, for grade and similarity
    features         one per command, peers that do not import each other (grading uses stress's package API):
                     grading/ (judge grade), verify/, stress/, similarity/, answers.py, doctor/
    reporters/       the views of finished records (run, verify, stress, gradebook, similarity); never a verdict
    serve/           `judge serve`, the classroom web judge: a front end like cli/, over the batch engine,
                     grading's results database, similarity and the gradebook views
    cli/             the commands: options in, a feature run, a view chosen and written, one exit status out
"""

__version__ = "0.1.0"
