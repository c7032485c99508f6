# Halves the range, but spins forever from the second pass on.
pass_number, low, high = map(int, input().split())
while pass_number > 1:
    pass
print((low + high) // 2)
