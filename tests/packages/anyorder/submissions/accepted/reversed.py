input()
print(*reversed(input().split()))
