import sys

text = sys.stdin.read()
if "mixed" in text:  # the "search" explodes on this test
    steps = 0
    while True:
        steps += 1
print(text.upper(), end="")
