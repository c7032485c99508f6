# Reads address 0: the kernel sends SIGSEGV.
import ctypes

ctypes.string_at(0)
