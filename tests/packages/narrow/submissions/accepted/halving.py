pass_number, low, high = map(int, input().split())
print((low + high) // 2)
