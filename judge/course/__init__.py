"""A course, not only a contest: problems grouped into assignments, each with an opening time, a due time and a
late policy; extensions per student; and the grades that follow from them, the same for `judge serve`'s pages,
its exports and `judge grade`.

    model.py          the records: LatePolicy, Assignment, Extension, Course, AssignmentGrade, CourseGrades
    roster.py         roster.csv (id, name, password, email, sis_id, section), read once for serve and grade
    times.py          local times as the teacher writes them (in a named zone), shown in UTC; serve's contest
                      window reads its times the same way
    assignments.py    assignments.yaml (beside the problems) read into a Course, validated like problem.yaml
    extensions.py     extensions.csv (student, assignment, due), and the check serve's teacher page shares
    files.py          reading an optional course file (absent: none; present: bounded UTF-8 text, or one line)
    late_policy.py    what a submission at a moment is worth: on time, a late factor and its rule in words, or
                      refused after the hard deadline
    state.py          an assignment's state for one student (not open yet, open, late, closed) and serve's submit
                      refusal, decided in one place
    grades.py         Attempt and course_grades: each problem's best credited fraction, 100 points an assignment,
                      and the rule that made each grade
"""
