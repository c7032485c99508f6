input()
print(sum(int(x) % 2 == 1 for x in input().split()))
