import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Tally {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int n = Integer.parseInt(in.readLine().trim());
        StringTokenizer numbers = new StringTokenizer(in.readLine());
        Adder adder = new Adder();
        for (int i = 0; i < n; i++) {
            adder.add(Long.parseLong(numbers.nextToken()));
        }
        System.out.println(adder.total());
    }
}
