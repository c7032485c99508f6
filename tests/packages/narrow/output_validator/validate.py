"""Multi-pass protocol: validate.py input answer feedback_dir < the pass's output. The input is "pass low high"
(nextpass.in of the pass before, from the second pass on), the answer the hidden number. A right guess is
accepted; a guess outside low..high is rejected; any other is accepted with nextpass.in holding the narrowed range.
The pass number is also kept in the feedback folder, which the format keeps between passes: a validator that
finds it missing or out of step, or finds last pass's nextpass.in still there, fails (exit 1)."""
import os
import sys

pass_number, low, high = map(int, open(sys.argv[1]).read().split())
secret = int(open(sys.argv[2]).read())
feedback = sys.argv[3]
state = os.path.join(feedback, "pass.txt")
if os.path.exists(os.path.join(feedback, "nextpass.in")):
    sys.exit("nextpass.in of the pass before was not removed")
before = int(open(state).read()) if os.path.exists(state) else 0
if before != pass_number - 1:
    sys.exit(f"pass {pass_number}, but the feedback folder remembers pass {before}")
with open(state, "w") as kept:
    kept.write(str(pass_number))


def say(text: str) -> None:
    with open(os.path.join(feedback, "judgemessage.txt"), "a") as message:
        message.write(text + "\n")


words = sys.stdin.read().split()
if len(words) != 1 or not words[0].lstrip("-").isdigit():
    say(f"pass {pass_number}: expected one number")
    sys.exit(43)
guess = int(words[0])
if not low <= guess <= high:
    say(f"guess {guess} is outside {low}..{high}")
    sys.exit(43)
if guess != secret:
    low, high = (guess + 1, high) if guess < secret else (low, guess - 1)
    with open(os.path.join(feedback, "nextpass.in"), "w") as next_input:
        next_input.write(f"{pass_number + 1} {low} {high}\n")
sys.exit(42)
