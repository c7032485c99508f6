// BOJ 2580 Sudoku -- accepted (Java). [slow]: about 4 s to judge here (9663/accepted/backtrack_java.java is not)
// Blank cells in reading order, used-digit flags per row, column and box, recursive backtracking
// that stops at the first full board. Output built in a StringBuilder and printed once.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Main {
    static int[][] board = new int[9][9];
    static boolean[][] rowUsed = new boolean[9][10];
    static boolean[][] colUsed = new boolean[9][10];
    static boolean[][] boxUsed = new boolean[9][10];
    static int[] blankRow = new int[81];
    static int[] blankCol = new int[81];
    static int blankCount = 0;

    static int boxOf(int r, int c) {
        return (r / 3) * 3 + c / 3;
    }

    static boolean solve(int k) {
        if (k == blankCount) {
            return true;
        }
        int r = blankRow[k];
        int c = blankCol[k];
        int b = boxOf(r, c);
        for (int d = 1; d <= 9; d++) {
            if (rowUsed[r][d] || colUsed[c][d] || boxUsed[b][d]) {
                continue;
            }
            rowUsed[r][d] = colUsed[c][d] = boxUsed[b][d] = true;
            board[r][c] = d;
            if (solve(k + 1)) {
                return true;
            }
            rowUsed[r][d] = colUsed[c][d] = boxUsed[b][d] = false;
        }
        board[r][c] = 0;
        return false;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer st = null;
        for (int r = 0; r < 9; r++) {
            for (int c = 0; c < 9; c++) {
                while (st == null || !st.hasMoreTokens()) {
                    st = new StringTokenizer(in.readLine());
                }
                int d = Integer.parseInt(st.nextToken());
                board[r][c] = d;
                if (d == 0) {
                    blankRow[blankCount] = r;
                    blankCol[blankCount] = c;
                    blankCount++;
                } else {
                    rowUsed[r][d] = colUsed[c][d] = boxUsed[boxOf(r, c)][d] = true;
                }
            }
        }
        solve(0);
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < 9; r++) {
            for (int c = 0; c < 9; c++) {
                if (c > 0) {
                    out.append(' ');
                }
                out.append(board[r][c]);
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
