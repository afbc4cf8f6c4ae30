"""Asks a server's health URL every EVERY seconds until its standard input closes, printing each
answer's time in seconds, then a space and what went wrong if it did (tests/browser/hostile_visit.py
runs it as a process of its own, so the test's own work is not counted against the server).

    python health_probe.py URL EVERY TIMEOUT
"""

from __future__ import annotations

import sys
import threading
import time
import urllib.request


def main(url: str, every: float, timeout: float) -> None:
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    while not stop.is_set():
        start = time.monotonic()
        failure = ""
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                if response.read().decode().strip() != "ok":
                    failure = "not ok"
        except OSError as error:
            failure = str(error).replace("\n", " ") or type(error).__name__
        print(f"{time.monotonic() - start:.4f}" + (f" {failure}" if failure else ""), flush=True)
        stop.wait(max(every - (time.monotonic() - start), 0))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]))
