// BOJ 2580 Sudoku -- compile error (Java).
// A type error: the line read from the input (a String) is assigned to an int without parsing it
// ("incompatible types: String cannot be converted to int"), so javac rejects the file.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Main {
    static int[][] board = new int[9][9];

    static boolean ok(int r, int c, int d) {
        for (int i = 0; i < 9; i++) {
            if (board[r][i] == d || board[i][c] == d) return false;
        }
        int top = r / 3 * 3, left = c / 3 * 3;
        for (int i = top; i < top + 3; i++)
            for (int j = left; j < left + 3; j++)
                if (board[i][j] == d) return false;
        return true;
    }

    static boolean solve(int pos) {
        if (pos == 81) return true;
        int r = pos / 9, c = pos % 9;
        if (board[r][c] != 0) return solve(pos + 1);
        for (int d = 1; d <= 9; d++) {
            if (ok(r, c, d)) {
                board[r][c] = d;
                if (solve(pos + 1)) return true;
            }
        }
        board[r][c] = 0;
        return false;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (int r = 0; r < 9; r++) {
            String[] parts = in.readLine().trim().split(" ");
            for (int c = 0; c < 9; c++) {
                int value = parts[c];  // BUG: String assigned to int, needs Integer.parseInt
                board[r][c] = value;
            }
        }
        solve(0);
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < 9; r++) {
            for (int c = 0; c < 9; c++) sb.append(board[r][c]).append(c == 8 ? "\n" : " ");
        }
        System.out.print(sb);
    }
}
