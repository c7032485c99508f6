# BOJ 9663 N-Queen -- wrong answer.
# Prints the input N unchanged instead of the number of placements (the counting was never written).
# Happens to be right for N = 1 only.
n = int(input())
print(n)
