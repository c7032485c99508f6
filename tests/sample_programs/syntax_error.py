def broken(:
    return 1
