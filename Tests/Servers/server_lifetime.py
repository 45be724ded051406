"""What every test server started by a Swift test does first (stdlib only)."""

import os
import signal
import threading
import time


def exit_with_parent():
    """Ends the server when the test process that started it is gone, even if it crashed."""
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def tie_to_parent():
    """Lets SIGTERM and SIGINT end the server (a child of a Swift test inherits a signal mask that
    blocks them) and ends it when its parent is gone."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    threading.Thread(target=exit_with_parent, daemon=True).start()
