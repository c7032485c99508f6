// BOJ 9663 N-Queen -- run-time error (Java).
// Both diagonal arrays are allocated with n entries instead of 2n - 1, so row + col (and row - col + n - 1)
// run past the end: an uncaught ArrayIndexOutOfBoundsException for every N >= 2 (N = 1 prints 1).
import java.util.Scanner;

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

    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        n = sc.nextInt();
        colUsed = new boolean[n];
        slashUsed = new boolean[n];      // BUG: needs 2 * n - 1
        backslashUsed = new boolean[n];  // BUG: needs 2 * n - 1
        place(0);
        System.out.println(count);
    }
}
