public class Main {
    public static void main(String[] args) {
        int answer = "not a number";
        System.out.println(answer);
    }
}
