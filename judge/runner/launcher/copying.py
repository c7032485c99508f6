"""A file copied in the kernel (sendfile), for both sides of the launcher: the launcher copies the program into a
warm box (box_init.py), the judge a test's input into its private copy (judge/runner/run_files.py). Standard
library only, like every module the launcher imports; the judge imports nothing else of the launcher's own."""

from __future__ import annotations

import os


def send_whole(writer: int, reader: int, size: int) -> None:
    """Copy the first `size` bytes of the file open as `reader` (its size, looked up by the caller) to `writer`."""
    offset = 0
    while offset < size:
        sent = os.sendfile(writer, reader, offset, size - offset)
        if sent == 0:
            break
        offset += sent
