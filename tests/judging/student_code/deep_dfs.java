import java.io.*;
import java.util.*;

// The depth of a tree from node 1, by a recursive DFS: on a path of 100,000 nodes the recursion is 100,000 deep.
// Reads input.txt when run at home: BOJ sets the property ONLINE_JUDGE.
public class Main {
    static ArrayList<Integer>[] graph;
    static boolean[] visited;
    static int deepest = 0;

    static void dfs(int node, int depth) {
        visited[node] = true;
        deepest = Math.max(deepest, depth);
        for (int next : graph[node]) {
            if (!visited[next]) {
                dfs(next, depth + 1);
            }
        }
    }

    public static void main(String[] args) throws IOException {
        if (System.getProperty("ONLINE_JUDGE") == null) {
            System.setIn(new FileInputStream("input.txt"));
        }
        BufferedReader br = new BufferedReader(new InputStreamReader(System.in));
        int n = Integer.parseInt(br.readLine().trim());
        graph = new ArrayList[n + 1];
        for (int i = 1; i <= n; i++) {
            graph[i] = new ArrayList<>();
        }
        for (int i = 0; i < n - 1; i++) {
            StringTokenizer st = new StringTokenizer(br.readLine());
            int u = Integer.parseInt(st.nextToken());
            int v = Integer.parseInt(st.nextToken());
            graph[u].add(v);
            graph[v].add(u);
        }
        visited = new boolean[n + 1];
        dfs(1, 0);
        System.out.println(deepest);
    }
}
