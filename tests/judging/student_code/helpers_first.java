import java.io.*;
import java.util.*;

// The first sequence of N distinct numbers from 1..N in dictionary order, by backtracking that stops the whole
// program with System.exit(0) as soon as it prints it. The helper classes come first, and Main is not public.
class Sequence {
    final int[] values;
    final boolean[] used;
    int length = 0;

    Sequence(int n) {
        values = new int[n];
        used = new boolean[n + 1];
    }
}

class Printer {
    static void print(Sequence sequence) {
        StringBuilder sb = new StringBuilder();
        for (int value : sequence.values) {
            sb.append(value).append(' ');
        }
        System.out.println(sb.toString().trim());
    }
}

class Main {
    static int n;

    static void search(Sequence sequence) {
        if (sequence.length == n) {
            Printer.print(sequence);
            System.exit(0);
        }
        for (int value = 1; value <= n; value++) {
            if (!sequence.used[value]) {
                sequence.used[value] = true;
                sequence.values[sequence.length++] = value;
                search(sequence);
                sequence.length--;
                sequence.used[value] = false;
            }
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        n = Integer.parseInt(br.readLine().trim());
        search(new Sequence(n));
        System.out.println(-1);
    }
}
