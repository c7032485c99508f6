# Sudoku filler, homework 4.
# I go over the empty squares left to right, top to bottom, and keep three
# tables of which numbers are taken in each line, column and square.
import sys

numbers = sys.stdin.read().split()
grid = []
i = 0
while i < 9:
    line = []
    j = 0
    while j < 9:
        line.append(int(numbers[i * 9 + j]))
        j += 1
    grid.append(line)
    i += 1

in_row = []
in_col = []
in_sq = []
i = 0
while i < 9:
    in_row.append([False] * 10)
    in_col.append([False] * 10)
    in_sq.append([False] * 10)
    i += 1

empty = []
i = 0
while i < 81:
    y, x = i // 9, i % 9
    v = grid[y][x]
    sq = (y // 3) * 3 + x // 3
    if v == 0:
        empty.append((y, x, sq))
    else:
        in_row[y][v] = True
        in_col[x][v] = True
        in_sq[sq][v] = True
    i += 1


def fill(pos):
    if pos == len(empty):
        return True
    y, x, sq = empty[pos]
    v = 1
    while v <= 9:
        if not in_row[y][v] and not in_col[x][v] and not in_sq[sq][v]:
            in_row[y][v] = in_col[x][v] = in_sq[sq][v] = True
            grid[y][x] = v
            if fill(pos + 1):
                return True
            in_row[y][v] = in_col[x][v] = in_sq[sq][v] = False
        v += 1
    grid[y][x] = 0
    return False


fill(0)
out = []
for line in grid:
    out.append(" ".join(str(v) for v in line))
print("\n".join(out))
