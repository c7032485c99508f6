# Right for numbers below 1000 only: scores group1 (40) and group2/2 (20).
input()
print(sum(int(x) % 2 == 0 and int(x) < 1000 for x in input().split()))
