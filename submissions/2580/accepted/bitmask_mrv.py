# BOJ 2580 Sudoku -- accepted (the fast Python one).
# Bitmasks per row, column and box (bit d set = digit d is used), and at every step the blank cell
# with the fewest candidates is filled first ("most constrained first"). A cell with no candidate
# ends the branch at once; a cell with one candidate is taken without looking further.
import sys

ALL_DIGITS = 0b1111111110  # bits 1..9


def main():
    values = list(map(int, sys.stdin.read().split()[:81]))
    row_of = [i // 9 for i in range(81)]
    col_of = [i % 9 for i in range(81)]
    box_of = [(i // 27) * 3 + (i % 9) // 3 for i in range(81)]
    rows = [0] * 9
    cols = [0] * 9
    boxes = [0] * 9
    todo = []
    for i, v in enumerate(values):
        if v:
            bit = 1 << v
            rows[row_of[i]] |= bit
            cols[col_of[i]] |= bit
            boxes[box_of[i]] |= bit
        else:
            todo.append(i)
    total = len(todo)

    def search(k):
        if k == total:
            return True
        # Pick the most constrained blank among todo[k:], and move it to position k.
        best_pos = -1
        best_free = 0
        best_count = 10
        for pos in range(k, total):
            cell = todo[pos]
            free = ALL_DIGITS & ~(rows[row_of[cell]] | cols[col_of[cell]] | boxes[box_of[cell]])
            count = free.bit_count()
            if count < best_count:
                if count == 0:
                    return False
                best_pos, best_free, best_count = pos, free, count
                if count == 1:
                    break
        todo[k], todo[best_pos] = todo[best_pos], todo[k]
        cell = todo[k]
        r, c, b = row_of[cell], col_of[cell], box_of[cell]
        free = best_free
        while free:
            bit = free & -free
            free ^= bit
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            values[cell] = bit.bit_length() - 1
            if search(k + 1):
                return True
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
        values[cell] = 0
        return False

    search(0)
    lines = []
    for r in range(9):
        lines.append(" ".join(map(str, values[r * 9:r * 9 + 9])))
    sys.stdout.write("\n".join(lines) + "\n")


main()
