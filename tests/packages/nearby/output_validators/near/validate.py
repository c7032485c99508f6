"""Package protocol with a score: validate.py input answer feedback_dir < team_output; exit 42 or 43.

An exact answer is accepted with no score.txt (the test scores accept_score); one 1 to 9 away is accepted
with score.txt holding 10 minus the distance; anything else is rejected."""
import sys

input_path, answer_path, feedback_dir = sys.argv[1:4]
team = sys.stdin.read().split()


def reject(why: str) -> None:
    with open(feedback_dir + "/teammessage.txt", "w") as feedback:
        feedback.write(why + "\n")
    sys.exit(43)


with open(answer_path) as answer:
    expected = int(answer.read())
if len(team) != 1 or not team[0].lstrip("-").isdigit():
    reject("print one integer")
distance = abs(int(team[0]) - expected)
if distance >= 10:
    reject(f"{team[0]} is too far off")
if distance > 0:
    with open(feedback_dir + "/score.txt", "w") as score:
        score.write(f"{10 - distance}\n")
sys.exit(42)
