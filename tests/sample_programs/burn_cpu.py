# A CPU burner with a fixed amount of work (about half a second of CPU on the dev machine), no I/O, no sleeps.
total = 0
for i in range(7_000_000):
    total += i
print(total)
