"""Interactive package protocol: validate.py input answer feedback_dir < submission's output > its input.
Exit 42 when the submission names the number within 10 guesses, 43 otherwise (the reason in judgemessage.txt)."""
import sys

secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]


def reject(why: str) -> None:
    with open(feedback + "/judgemessage.txt", "w") as message:
        message.write(why + "\n")
    sys.exit(43)


for guess_number in range(1, 11):
    line = sys.stdin.readline()
    if not line:
        reject(f"no guess {guess_number}: the submission stopped")
    try:
        guess = int(line)
    except ValueError:
        reject(f"guess {guess_number} is not a number: {line.strip()[:20]!r}")
    reply = "correct" if guess == secret else "lower" if secret < guess else "higher"
    try:
        print(reply, flush=True)
    except BrokenPipeError:  # the submission has gone; keep Python from failing at exit over stdout
        sys.stdout = None
        if guess != secret:
            reject(f"the submission stopped listening after guess {guess_number}")
    if guess == secret:
        sys.exit(42)
reject("no right guess in 10 tries")
