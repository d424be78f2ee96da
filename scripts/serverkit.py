"""What the server scripts share: a `kickoff serve` of its own, clients from their own loopback
addresses, and counters of what they saw. Used by `soak.py` and `server-limits.py`."""

import http.client
import json
import os
import resource
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def raise_file_limit():
    """Lets this process open as many files as it may (thousands of sockets)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Server:
    """A `kickoff serve` of its own folder (or `folder`), its memory sampled every half second;
    `extra` arguments, and a limit on its open files, if given."""

    def __init__(self, kickoff, *extra, files=None, folder=None):
        self.folder = folder or tempfile.mkdtemp(prefix="kickoff-server-")
        self.own_folder = folder is None

        def limit():
            if files:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.process = subprocess.Popen(
            [kickoff, "serve", "--port", "0", "--data", self.folder, "--games", self.folder,
             *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit)
        line = self.process.stdout.readline()
        self.port = int(line.split("127.0.0.1:")[1].split("/")[0])
        self.peak_kib = 0
        self.samples = []
        self.warnings = []
        self.running = True
        threading.Thread(target=self._sample, daemon=True).start()
        threading.Thread(target=self._warnings, daemon=True).start()

    def _status(self, field):
        try:
            with open(f"/proc/{self.process.pid}/status") as f:
                for line in f:
                    if line.startswith(field + ":"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def _sample(self):
        while self.running and self.process.poll() is None:
            rss = self._status("VmRSS")
            if rss:
                self.samples.append(rss)
            self.peak_kib = max(self.peak_kib, self._status("VmHWM") or 0)
            time.sleep(0.5)

    def _warnings(self):
        for line in self.process.stderr:
            self.warnings.append(line.rstrip())

    def cpu_seconds(self):
        """The processor time the server has used, in seconds."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            return None

    def stop(self):
        self.running = False
        self.peak_kib = max(self.peak_kib, self._status("VmHWM") or 0)
        self.cpu = self.cpu_seconds()
        alive = self.process.poll() is None
        # How a server that died went: its exit code, or minus the signal that killed it.
        self.exit = None if alive else self.process.returncode
        self.process.kill()
        self.process.wait()
        if self.own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)
        return alive

    def busy_threads(self, seconds, window=1.0):
        """The most threads that used the processor within one window, over `seconds`."""
        def ticks():
            out = {}
            for t in os.listdir(f"/proc/{self.process.pid}/task"):
                try:
                    with open(f"/proc/{self.process.pid}/task/{t}/stat") as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                    out[t] = int(fields[11]) + int(fields[12])
                except OSError:
                    pass
            return out
        most, before, start = 0, ticks(), time.monotonic()
        while time.monotonic() - start < seconds:
            time.sleep(window)
            now = ticks()
            most = max(most, sum(1 for t, v in now.items() if v > before.get(t, v)))
            before = now
        return most


class Stats:
    """Latencies by kind of request, and what went wrong, from every thread."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latency = defaultdict(list)
        self.errors = Counter()
        self.hostile = Counter()
        self.refusals = Counter()
        self.counts = Counter()

    def time(self, kind, seconds):
        with self.lock:
            self.latency[kind].append(seconds)

    def error(self, what):
        with self.lock:
            self.errors[what] += 1

    def refused(self, what):
        with self.lock:
            self.refusals[what] += 1

    def saw(self, what):
        with self.lock:
            self.hostile[what] += 1

    def count(self, what):
        with self.lock:
            self.counts[what] += 1


def address(group, n):
    """The loopback address of client `n` of a group (players 1, hostile 2)."""
    return f"127.{group}.{n // 250}.{n % 250 + 2}"


class Client:
    """An API client from its own address, on one kept-alive connection, asking again after a
    429 or 503 as the page does."""

    def __init__(self, ip, port, stats, hostile=False, token=None):
        self.ip, self.port, self.stats, self.hostile = ip, port, stats, hostile
        self.token = token
        self.conn = None

    def _connect(self):
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60,
                                               source_address=(self.ip, 0))

    def call(self, method, path, body=None, kind=None):
        """(status, decoded JSON); the time of the whole exchange recorded under `kind`."""
        start = time.monotonic()
        for attempt in range(4):
            if self.conn is None:
                self._connect()
            try:
                headers = {"Accept": "application/json"}
                if self.token:
                    headers["Authorization"] = f"Bearer {self.token}"
                data = None
                if body is not None:
                    data = json.dumps(body).encode()
                    headers["Content-Type"] = "application/json"
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException) as e:
                self.conn.close()
                self.conn = None
                if attempt == 3:
                    if self.hostile:
                        self.stats.saw(f"{kind}: {type(e).__name__}")
                    else:
                        self.stats.error(f"{kind}: {type(e).__name__}")
                    return None, None
                continue
            if response.status in (429, 503) and attempt < 3 and not self.hostile:
                self.stats.refused(f"{kind}: {response.status}")
                time.sleep(min(float(response.getheader("Retry-After") or 1), 10))
                continue
            break
        if kind and not self.hostile:
            self.stats.time(kind, time.monotonic() - start)
        try:
            return response.status, json.loads(raw) if raw else None
        except ValueError:
            return response.status, None


