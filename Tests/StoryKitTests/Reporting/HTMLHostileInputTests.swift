import Foundation
import Testing
@testable import StoryKit

/// The HTML page of a merge whose every string is hostile markup, opened in
/// headless Chromium: no script of the input runs, and the text shows as text.
@Suite(.timeLimit(.minutes(10)))
struct HTMLHostileInputTests {
    /// Debian's chromium (the Makefile's test-tools installs it), when this machine has it.
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Markup that marks the page when it runs, in each of the places markup can break out of.
    static func hostile(_ n: Int) -> String {
        let mark = "document.documentElement.setAttribute('data-pwned','\(n)')"
        // `<!--<script>` in a script element's data would keep its end tag from ending it.
        return "x<img src=x onerror=\"\(mark)\">\"'><script>\(mark)</script></script><script>\(mark)</script>]]>--><!--<script>\u{2028}"
    }

    /// A Cucumber JSON document with a hostile string in every field merge reads.
    static func document() -> [[String: Any]] {
        var n = 0
        func h() -> String { n += 1; return hostile(n) }
        func embeddings() -> [[String: Any]] {
            [["mime_type": "text/plain\"><script>x</script>", "data": Data(h().utf8).base64EncodedString(), "name": h()],
             ["mime_type": "image/png\" onerror=\"\(hostile(99))", "data": "AAAA", "name": h()],
             ["mime_type": "application/x-\(h())", "data": "AAAA", "name": h()]]
        }
        let hook: [String: Any] = [
            "match": ["location": "Hooks.swift:3"], "result": ["status": "failed", "error_message": h() + "\n" + h()],
            "embeddings": embeddings(), "output": [h()]]
        let steps: [[String: Any]] = [
            ["keyword": h(), "name": h(), "line": 4, "result": ["status": "passed", "duration": 1],
             "match": ["location": "S.swift:1", "pattern": h(), "arguments": [["val": h()]]],
             "rows": [["cells": [h(), h()]]], "output": [h()], "embeddings": embeddings()],
            ["keyword": "When ", "name": h(), "line": 5, "result": ["status": "failed", "error_message": h()],
             "doc_string": ["value": h(), "content_type": h()], "match": ["location": "S.swift:2", "pattern": h()]],
            ["keyword": "Then ", "name": h(), "line": 6, "result": ["status": "undefined"], "storyrun_snippet": h()],
        ]
        let scenario: [String: Any] = [
            "type": "scenario", "name": h(), "line": 3, "keyword": h(), "description": h(), "tags": [["name": h()]],
            "before": [hook], "after": [hook], "steps": steps, "storyrun_attempts": 2]
        return [
            ["uri": "hostile\(h()).feature", "name": h(), "description": h(), "keyword": h(), "elements": [scenario]],
            ["uri": "run", "name": h(), "storyrun_run_hooks": true,
             "elements": [["storyrun_hook": h(), "before": [hook]], ["storyrun_hook": h(), "after": [hook]]]],
        ]
    }

    @Test("No script of a merged report runs in Chromium, and its text shows as text",
          .enabled(if: chromium != nil, "chromium is not installed here (make test-tools installs it): the hostile-input HTML test is skipped"))
    func noScriptRuns() async throws {
        let folder = NSTemporaryDirectory() + "storyrun-hostile-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let json = folder + "in.json", html = folder + "out.html"
        try JSONSerialization.data(withJSONObject: Self.document()).write(to: URL(fileURLWithPath: json))
        let status = MergeCommand.run(arguments: [json, "--html", html], output: { _ in })
        #expect(status == .storyFailed)
        let dom = try Self.dumpDOM(html, folder: folder)
        #expect(dom.contains("</html>"), "Chromium did not render the page")
        // A script that ran marks the root element (the payloads' own text is on the page, escaped).
        let root = dom.components(separatedBy: "<html").dropFirst().first.map { String($0.prefix { $0 != ">" }) } ?? ""
        #expect(!root.contains("data-pwned"), "a script from the input ran: <html\(root)>")
        // The hostile text is on the page as text (escaped again by the DOM dump).
        #expect(dom.contains("x&lt;img src=x onerror="))
        // The stories' data is JSON inside its script element, which ended where it should.
        let page = try String(contentsOfFile: html, encoding: .utf8)
        let stories = try HTMLPageData.stories(in: page)
        #expect(stories.count == 1)
        #expect((stories.first?["n"] as? String)?.hasSuffix("<!--<script>\u{2028}") == true, "the name read back whole")
        #expect(dom.contains("&lt;!--&lt;script&gt;"), "the story's text shows as text")
    }

    /// The page's DOM after its scripts ran (and its images failed), as Chromium serialises it.
    /// Within a time limit.
    static func dumpDOM(_ html: String, folder: String) throws -> String {
        let outcome = try Binary.tool(
            try #require(chromium),
            ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder)profile",
             "--virtual-time-budget=3000", "--dump-dom", "file://\(html)"], timeout: 120)
        try #require(!outcome.isTimedOut, "Chromium did not finish within 120 seconds")
        return outcome.output
    }
}
