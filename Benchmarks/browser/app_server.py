"""The web example (Examples/WebApp/Site) with a real API, for the browser bench.

storyrun's example stories answer the page's API from the story itself (the
DevTools Fetch domain); Selenium has no such thing, so the bench serves one
app that both tools drive: the same pages, and an API that answers by itself
(a session for the password "correct horse", two to-dos, adding one).

    python3 app_server.py PORT   (prints "listening on http://127.0.0.1:PORT")
"""
import http.server
import json
import os
import sys

SITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Examples", "WebApp", "Site")
TODOS = [{"title": "Buy milk"}, {"title": "Call Bob"}]


class App(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=SITE, **kwargs)

    def log_message(self, *args):
        pass

    def answer(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/api/todos":
            return self.answer(200, json.dumps(TODOS).encode())
        return super().do_GET()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        sent = json.loads(self.rfile.read(length) or b"{}")
        if self.path == "/api/session":
            return self.answer(200 if sent.get("password") == "correct horse" else 401)
        if self.path == "/api/todos":
            return self.answer(201)
        return self.answer(404)


if __name__ == "__main__":
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), App)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
