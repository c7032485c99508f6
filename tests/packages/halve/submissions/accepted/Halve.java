import java.util.Scanner;

public class Halve {
    public static void main(String[] args) {
        long n = new Scanner(System.in).nextLong();
        System.out.println(n / 2.0);
    }
}
