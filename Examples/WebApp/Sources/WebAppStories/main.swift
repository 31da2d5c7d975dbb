import Foundation
import StoryKit
import StoryKitBrowser
import StoryKitHTTP

// The app under test: the pages in Site/, served on 127.0.0.1 by the
// project's stub server; its API (/api/…) is answered by each story.
let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Site").standardized
let server = try StubServer(name: "webapp")
for file in try FileManager.default.contentsOfDirectory(atPath: site.path) {
    let body = try String(contentsOf: site.appendingPathComponent(file), encoding: .utf8)
    let type = file.hasSuffix(".js") ? "text/javascript" : file.hasSuffix(".css") ? "text/css" : "text/html; charset=utf-8"
    server.answer(StubRule(method: "GET", path: file == "index.html" ? "/" : "/" + file, status: 200, headers: [("Content-Type", type)], body: body))
}
// STORYKIT_BASE_URL points the stories at an app already running elsewhere
// (Benchmarks/browser_bench.py serves one app to storyrun and to behave).
if ProcessInfo.processInfo.environment["STORYKIT_BASE_URL"] == nil { BrowserSteps.defaultBaseURL = server.url }
await StoryRun.main(steps: [BrowserSteps.self])
