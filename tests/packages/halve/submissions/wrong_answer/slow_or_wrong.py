# @EXPECTED_RESULTS@: WRONG_ANSWER, TIME_LIMIT_EXCEEDED
n = int(input())
if n > 1000:
    while True:
        pass
print(n // 2)
