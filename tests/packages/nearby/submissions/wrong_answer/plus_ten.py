print(2 * int(input()) + 10)  # too far off everywhere
