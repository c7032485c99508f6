# Guesses the middle of the first range on every pass: right only when that is the number, else out of range
# on the second pass.
pass_number, low, high = map(int, input().split())
print(50 if high > 10 else 5)
