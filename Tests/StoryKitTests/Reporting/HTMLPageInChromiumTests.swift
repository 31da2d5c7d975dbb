import Foundation
import Testing
@testable import StoryKit

/// The HTML page of a 300-story run opened in headless Chromium: stories are
/// built from the page's data a chunk at a time, a story's steps when it is
/// opened, "Needs attention" lists the first failures and a count, logged
/// ANSI colours are colours, and a failed hook is named once.
@Suite(.timeLimit(.minutes(10)))
struct HTMLPageInChromiumTests {
    static let esc = "\u{1B}"

    /// Three files of 100 stories; every tenth fails (the first of them in
    /// an after hook with an absolute place), each logs a coloured line.
    static func document() -> [[String: Any]] {
        (0..<3).map { file in
            let elements: [[String: Any]] = (0..<100).map { index in
                let failing = index % 10 == 3
                let passed: [String: Any] = ["status": "passed", "duration": 1000]
                let first: [String: Any] = [
                    "keyword": "Given ", "name": "step one of story \(file)-\(index)", "line": 4 + index * 4,
                    "result": passed, "output": ["\(esc)[32mgreen text\(esc)[0m plain"]]
                let second: [String: Any] = [
                    "keyword": "Then ", "name": "step two of story \(file)-\(index)", "line": 5 + index * 4,
                    "result": failing && index != 3 ? ["status": "failed", "error_message": "wrong total"] as [String: Any] : passed]
                var element: [String: Any] = ["type": "scenario", "keyword": "Scenario", "name": "Story \(file)-\(index)", "line": 3 + index * 4]
                element["steps"] = [first, second]
                if failing && index == 3 {
                    element["after"] = [["match": ["location": "/elsewhere/Hooks.swift:12"],
                                         "result": ["status": "failed", "error_message": "the after story hook at /elsewhere/Hooks.swift:12 failed: the database is down"]]]
                }
                return element
            }
            return ["uri": "features/f\(file).feature", "name": "File \(file)", "keyword": "Feature", "elements": elements]
        }
    }

    /// Writes the page and hands back its path and its DOM in Chromium, opened at `hash`.
    static func page(_ folder: String, hash: String = "") throws -> (page: String, dom: String) {
        let json = folder + "in.json", html = folder + "out.html"
        try JSONSerialization.data(withJSONObject: document()).write(to: URL(fileURLWithPath: json))
        #expect(MergeCommand.run(arguments: [json, "--html", html], output: { _ in }) == .storyFailed)
        let dom = try HTMLHostileInputTests.dumpDOM(html + hash, folder: folder)
        return (try String(contentsOfFile: html, encoding: .utf8), try withoutData(dom))
    }

    /// The DOM without the data block (whose JSON holds every story's text).
    static func withoutData(_ dom: String) throws -> String {
        let data = try HTMLPageData.text(in: dom)
        return dom.replacingOccurrences(of: data, with: "")
    }

    static func withFolder<T>(_ body: (String) throws -> T) throws -> T {
        let folder = NSTemporaryDirectory() + "storyrun-html-page-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }

    @Test("Stories come from the data a chunk at a time, their steps only when opened",
          .enabled(if: HTMLHostileInputTests.chromium != nil, "chromium is not installed here (make test-tools installs it)"))
    func lazyStories() throws {
        let (page, dom) = try Self.withFolder { try Self.page($0) }
        #expect(try HTMLPageData.stories(in: page).count == 300)
        #expect(!page.contains("<details class=\"story"), "no story is written as markup")
        let built = dom.components(separatedBy: "<details class=\"story ").count - 1
        #expect(built == 100, "the first chunk of stories is built, not all 300: \(built)")
        #expect(dom.contains("Show more (200 more stories)"))
        // A passing story is closed, its steps not built; a failing one is open with its steps.
        #expect(!dom.contains("step one of story 0-0"))
        #expect(dom.contains("step two of story 0-13"))
    }

    @Test("A link to a story beyond the first chunk builds it, opens it and shows its steps",
          .enabled(if: HTMLHostileInputTests.chromium != nil, "chromium is not installed here (make test-tools installs it)"))
    func openedStoryShowsSteps() throws {
        let (_, dom) = try Self.withFolder { try Self.page($0, hash: "#s3-51") }
        let story = try #require(dom.range(of: "id=\"s3-51\""), "the story was not built")
        let rest = dom[story.lowerBound...]
        let details = String(rest[..<(rest.range(of: "</details>")?.lowerBound ?? rest.endIndex)])
        #expect(dom[..<story.lowerBound].hasSuffix("<details class=\"story passed\" "), "a passing story")
        #expect(details.contains("open=\"\""), "opened")
        #expect(details.contains("<ol class=\"steps\">"))
        #expect(details.contains("step one of story 2-50") && details.contains("step two of story 2-50"))
    }

    @Test("Needs attention lists 20 failures and a count; colours are colours; a hook is named once",
          .enabled(if: HTMLHostileInputTests.chromium != nil, "chromium is not installed here (make test-tools installs it)"))
    func attentionColoursAndHooks() throws {
        let (page, dom) = try Self.withFolder { try Self.page($0) }
        let attention = try #require(dom.components(separatedBy: "<section class=\"attention\">").dropFirst().first)
            .components(separatedBy: "</ul>")[0]
        #expect(attention.components(separatedBy: "<li ").count - 1 == 20)
        #expect(dom.contains("and 10 more stories"))
        #expect(dom.contains("Show all 30</button>"))
        // The logged line: coloured, no escape sequence left as text.
        #expect(dom.contains("<span style=\"color: rgb(26, 127, 55);\">green text</span> plain"))
        let markup = try Self.withoutData(page)
        #expect(!dom.contains("[32m") && !markup.contains("[32m"))
        // The hook's place once in its story, its message without the runner's preamble.
        let story = try #require(dom.components(separatedBy: "id=\"s1-4\"").dropFirst().first?.components(separatedBy: "</details>").first)
        #expect(story.components(separatedBy: "Hooks.swift:12").count - 1 == 1, "the hook's place once: \(story)")
        #expect(story.contains("<pre class=\"message\">the database is down</pre>"))
        #expect(attention.contains("after story hook — the database is down"))
    }
}
