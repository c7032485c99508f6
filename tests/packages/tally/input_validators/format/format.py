"""Tally's input: n (1 to 1000), then a line of n integers of at most 10^6 in absolute value. Exit 42 if so."""
import re
import sys

text = sys.stdin.read()
match = re.fullmatch(r"(\d+)\n(-?\d+(?: -?\d+)*)\n", text)
numbers = match.group(2).split() if match else []
ok = match is not None and 1 <= int(match.group(1)) <= 1000 and len(numbers) == int(match.group(1))
sys.exit(42 if ok and all(abs(int(number)) <= 10**6 for number in numbers) else 43)
