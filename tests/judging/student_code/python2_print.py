# Written for Python 2: raw_input and the print statement. Python 3 cannot compile it.
a, b = map(int, raw_input().split())
print a + b
