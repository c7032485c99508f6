/** A running total, kept in its own file so that the submission is a folder of classes. */
public class Adder {
    private long total;

    public void add(long number) {
        total += number;
    }

    public long total() {
        return total;
    }
}
