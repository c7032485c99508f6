// BOJ 9663 N-Queen -- compile error (Java).
// The input line is assigned straight to an int (readLine() returns a String, Integer.parseInt was
// forgotten): "incompatible types: String cannot be converted to int".
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
    static int n, count;
    static boolean[] colUsed, slashUsed, backslashUsed;

    static void place(int row) {
        if (row == n) {
            count++;
            return;
        }
        for (int col = 0; col < n; col++) {
            if (colUsed[col] || slashUsed[row + col] || backslashUsed[row - col + n - 1]) continue;
            colUsed[col] = slashUsed[row + col] = backslashUsed[row - col + n - 1] = true;
            place(row + 1);
            colUsed[col] = slashUsed[row + col] = backslashUsed[row - col + n - 1] = false;
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        n = br.readLine();  // BUG: String cannot be converted to int
        colUsed = new boolean[n];
        slashUsed = new boolean[2 * n - 1];
        backslashUsed = new boolean[2 * n - 1];
        place(0);
        System.out.println(count);
    }
}
