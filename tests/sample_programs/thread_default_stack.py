# Starts one thread with the default stack size, as plenty of submissions do.
import threading

thread = threading.Thread(target=print, args=("thread ok",))
thread.start()
thread.join()
