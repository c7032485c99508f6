#include <stdio.h>

/* 두 정수 A와 B를 입력받은 다음, A+B를 출력하는 프로그램 */
int main(void) {
    long long a, b;
    scanf("%lld %lld", &a, &b);
    printf("%lld\n", a + b); // 합을 출력한다
    return 0;
}
