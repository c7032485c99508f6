"""Interactive package protocol: validate.py input answer feedback_dir < submission's output > its input.
Sends the input's numbers, one a line, closes its output (the submission's end of input), then reads one line:
exit 42 when it is their sum, 43 otherwise (the reason in judgemessage.txt)."""
import os
import sys

numbers = open(sys.argv[1]).read().split()
try:
    for number in numbers:
        print(number)
    sys.stdout.flush()
except BrokenPipeError:  # the submission went before reading it all; its reply decides below
    pass
sys.stdout = None
os.close(1)
reply = sys.stdin.readline().strip()
if reply != str(sum(int(number) for number in numbers)):
    with open(sys.argv[3] + "/judgemessage.txt", "w") as message:
        message.write(f"expected the sum, got {reply[:20]!r}\n" if reply else "no reply after the end of input\n")
    sys.exit(43)
sys.exit(42)
