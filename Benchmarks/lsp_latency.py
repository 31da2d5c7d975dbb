#!/usr/bin/env python3
"""The language server's latency (not a test; `make bench` runs it): the time
from a textDocument/didChange of a 2,000-line feature file to the
publishDiagnostics for that version, at D = BENCH_DEFINITIONS (default 1000)
step definitions, median and 90th percentile of BENCH_EDITS (default 30) edits.
"""
import json, os, random, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.environ.get("BENCH_BINARY", os.path.join(os.path.dirname(HERE), ".build", "release", "storyrun-bench"))
D = int(os.environ.get("BENCH_DEFINITIONS", "1000"))
EDITS = int(os.environ.get("BENCH_EDITS", "30"))
LINES = 2000


def feature(seed):
    rng = random.Random(seed)
    lines = ["Feature: latency", ""]
    story = 0
    while len(lines) < LINES:
        lines.append(f"  Scenario: story {story}")
        for keyword in ["Given", "And", "When", "Then"]:
            lines.append(f"    {keyword} the widget{rng.randrange(D)} has {rng.randrange(100)} parts and {rng.randrange(100)} bolts")
        story += 1
    return "\n".join(lines[:LINES]) + "\n"


def main():
    server = subprocess.Popen([BINARY, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              env={**os.environ, "BENCH_DEFINITIONS": str(D)})

    def send(message):
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    def receive():
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            header += server.stdout.read(1)
        length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
        return json.loads(server.stdout.read(length))

    def diagnostics_for(version):
        while True:
            message = receive()
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"].get("version") == version:
                return message["params"]["diagnostics"]

    send({"id": 1, "method": "initialize", "params": {"rootUri": None, "capabilities": {}}})
    receive()
    uri = "file:///tmp/storyrun-lsp-bench/latency.feature"
    send({"method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "gherkin", "version": 1, "text": feature(0)}}})
    problems = diagnostics_for(1)
    times = []
    for edit in range(EDITS):
        text = feature(edit + 1)
        version = edit + 2
        start = time.perf_counter()
        send({"method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}})
        diagnostics_for(version)
        times.append((time.perf_counter() - start) * 1000)
    send({"id": 2, "method": "shutdown"})
    receive()
    send({"method": "exit"})
    server.wait(timeout=10)
    times.sort()
    print(f"lsp didChange → publishDiagnostics, {LINES}-line feature, D={D}, {EDITS} edits: "
          f"median {statistics.median(times):.1f} ms, p90 {times[int(len(times) * 0.9) - 1]:.1f} ms, "
          f"max {times[-1]:.1f} ms ({len(problems)} diagnostics on open)")


if __name__ == "__main__":
    main()
