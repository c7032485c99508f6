"""Every view of the judge's results: they present finished results and never decide a verdict.

Three families, each with its registry (the whole list of its formats):

    submission/   REPORTERS          `judge run --format text|json|junit`: one SubmissionResult to a stream
    verify/       VERIFY_REPORTERS   `judge verify --format text|json|junit`: one VerifyReport to a stream
    gradebook/    GRADEBOOK_VIEWS    `judge grade`: grades.csv, grades.json and report.html (with its plots)

Everything a submission prints or names is hostile text: every view passes it through judge/inert.py. Every
HTML page the judge writes (report.html and its plots, similarity.html, `judge serve`'s pages) is a Jinja2
template rendered by `html.py`'s `environment`, the one HTML engine, which passes every printed value through
`inert.html_text`.
"""
