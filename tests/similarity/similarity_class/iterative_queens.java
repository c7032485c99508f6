// N-Queen without recursion: queenAt[r] is the column of row r's queen, -1 while the row is being searched.
// A row moves to the next free column; with none left it is cleared and the search backs up a row.
import java.util.Scanner;

class Main {
    public static void main(String[] args) {
        Scanner scanner = new Scanner(System.in);
        int size = scanner.nextInt();
        int[] queenAt = new int[size];
        java.util.Arrays.fill(queenAt, -1);
        long solutions = 0;
        int row = 0;
        while (row >= 0) {
            int column = queenAt[row] + 1;
            while (column < size && attacked(queenAt, row, column)) {
                column++;
            }
            if (column == size) {
                queenAt[row] = -1;
                row--;
            } else if (row == size - 1) {
                queenAt[row] = column;
                solutions++;
            } else {
                queenAt[row] = column;
                row++;
            }
        }
        System.out.println(solutions);
    }

    static boolean attacked(int[] queenAt, int row, int column) {
        for (int above = 0; above < row; above++) {
            int distance = row - above;
            if (queenAt[above] == column || Math.abs(queenAt[above] - column) == distance) {
                return true;
            }
        }
        return false;
    }
}
