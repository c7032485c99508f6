import java.util.Scanner;

// javac refuses a public class Solution in Main.java: BOJ needs class Main (judge run says so).
public class Solution {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.println(in.nextInt() + in.nextInt());
    }
}
