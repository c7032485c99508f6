"""Package protocol: validate.py input answer feedback_dir [one_line] < team_output; exit 42 or 43."""
import sys

input_path, answer_path, feedback_dir, *flags = sys.argv[1:]
team = sys.stdin.read()


def reject(why: str) -> None:
    with open(feedback_dir + "/teammessage.txt", "w") as feedback:
        feedback.write(why + "\n")
    sys.exit(43)


with open(answer_path) as answer:
    expected = sorted(answer.read().split())
if "one_line" in flags and team.strip().count("\n") > 0:
    reject("print the numbers on one line")
if sorted(team.split()) != expected:
    reject("not the same numbers")
sys.exit(42)
