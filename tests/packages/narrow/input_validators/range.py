"""Input validator: "1 1 high" with 1 <= high <= the --max its test group gives (the argument is required, so a
judge that drops a group's input_validator_args fails every test)."""
import sys

if sys.argv[1:2] != ["--max"] or len(sys.argv) != 3:
    sys.exit("usage: range.py --max N")
most = int(sys.argv[2])
text = sys.stdin.read()
words = text.split()
if text != " ".join(words) + "\n" or len(words) != 3 or not all(word.isdigit() for word in words):
    print("expected three numbers on one line", file=sys.stderr)
    sys.exit(43)
first, low, high = map(int, words)
if (first, low) != (1, 1) or not 1 <= high <= most:
    print(f"expected 1 1 high with high at most {most}, got {text.strip()}", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
