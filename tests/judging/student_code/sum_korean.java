import java.io.*;
import java.util.*;

// 두 정수 A와 B를 입력받은 다음, A+B를 출력하는 프로그램
public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer st = new StringTokenizer(br.readLine());
        long a = Long.parseLong(st.nextToken());
        long b = Long.parseLong(st.nextToken());
        System.out.println(a + b); // 합을 출력한다
    }
}
