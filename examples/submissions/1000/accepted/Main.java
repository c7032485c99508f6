import java.util.Scanner;

// BOJ compiles every Java submission as Main.java and runs class Main.
public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.println(in.nextInt() + in.nextInt());
    }
}
