# Input validator: exit 42 when stdin is one integer 0 <= n <= 10^6 on its own line, 43 otherwise.
import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"(0|[1-9][0-9]{0,6})\n", text) or int(text) > 10**6:
    print("not one integer 0..10^6 on one line", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
