# concatenates the digits instead of adding them
a, b = input().split()
print(a + b)
