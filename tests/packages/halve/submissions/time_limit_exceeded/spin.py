n = int(input())
while True:
    n += 1
