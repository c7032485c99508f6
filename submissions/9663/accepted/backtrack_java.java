// BOJ 9663 N-Queen -- accepted (Java).
// One queen per row, visited arrays for columns and both diagonals, recursive backtracking.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
    static int n;
    static int count = 0;
    static boolean[] colUsed;
    static boolean[] slashUsed;
    static boolean[] backslashUsed;

    static void place(int row) {
        if (row == n) {
            count++;
            return;
        }
        for (int col = 0; col < n; col++) {
            int s = row + col;
            int b = row - col + n - 1;
            if (colUsed[col] || slashUsed[s] || backslashUsed[b]) {
                continue;
            }
            colUsed[col] = slashUsed[s] = backslashUsed[b] = true;
            place(row + 1);
            colUsed[col] = slashUsed[s] = backslashUsed[b] = false;
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        n = Integer.parseInt(in.readLine().trim());
        colUsed = new boolean[n];
        slashUsed = new boolean[2 * n - 1];
        backslashUsed = new boolean[2 * n - 1];
        place(0);
        System.out.println(count);
    }
}
