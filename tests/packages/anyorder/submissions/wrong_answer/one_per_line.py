input()
print(*input().split(), sep="\n")
