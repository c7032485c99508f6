# 두 정수 A와 B를 입력받은 다음, A+B를 출력하는 프로그램
a, b = map(int, input().split())

# 합을 출력한다
print(a + b)
