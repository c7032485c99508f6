"""A course, not only a contest: problems grouped into assignments, each with an opening time, a due time and a
late policy; extensions per student; and the grades that follow from them, the same for `judge serve`'s pages,
its exports and `judge grade`.

    model.py          the records: LatePolicy, Assignment, Extension, Course, AssignmentGrade, CourseGrades
    roster.py         roster.csv (id, name, password, email, sis_id, section), read once for serve and grade
"""
