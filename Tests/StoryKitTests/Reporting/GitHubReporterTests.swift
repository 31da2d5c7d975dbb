import Foundation
import Testing
@testable import StoryKit

/// GitHub reads workflow commands only when their values are escaped.
@Suite(.timeLimit(.minutes(10))) struct GitHubReporterTests {
    @Test("Messages escape %, CR and LF; properties also escape : and ,", arguments: [
        ("100% done", "100%25 done", "100%25 done"),
        ("a\nb\r\nc", "a%0Ab%0D%0Ac", "a%0Ab%0D%0Ac"),
        ("key: a, b", "key: a, b", "key%3A a%2C b"),
        ("%0A", "%250A", "%250A"),
        ("Zoë 🍎", "Zoë 🍎", "Zoë 🍎"),
    ])
    func escapes(text: String, data: String, property: String) {
        #expect(GitHubReporter.escapeData(text) == data)
        #expect(GitHubReporter.escapeProperty(text) == property)
    }

    @Test("A failing step becomes one ::error with its place and story")
    func command() {
        let location = SourceLocation(file: "a,b:c.stories", line: 7, column: 1)
        #expect(GitHubReporter.command("error", at: location, title: "Pay: 1, 2", message: "x\ny")
            == "::error file=a%2Cb%3Ac.stories,line=7,col=1,title=Pay%3A 1%2C 2::x%0Ay")
    }

    @Test("The terminal formats include progress, pretty and github; the file reports junit, messages and rerun")
    func formats() throws {
        let options = try Options(arguments: ["--format", "progress", "--junit", "j.xml", "--messages", "m.ndjson", "--rerun", "r.txt", "x"])
        #expect(options.reports.map(\.format) == [.progress, .junit, .messages, .rerun])
        #expect(try Options(arguments: ["-f", "github", "x"]).reports.map(\.format) == [.github])
        #expect(throws: Diagnostic.self) { try Options(arguments: ["--format", "junit", "x"]) }
    }
}

/// GitHub shows 10 error annotations of a step and drops the rest
/// silently; the job summary holds every failure.
@Suite(.timeLimit(.minutes(10))) struct GitHubAnnotationLimitTests {
    @Test("A table cell escapes | and line breaks, and a message keeps its first line")
    func cells() {
        #expect(GitHubSummary.cell("a | b\nc") == "a \\| b c")
        #expect(GitHubSummary.cell("<b> & \\") == "&lt;b> &amp; \\\\")
        #expect(GitHubSummary.cell("") == "—")
        #expect(GitHubSummary.oneLine("expected 1\n  got 2\n") == "expected 1 …")
        #expect(GitHubSummary.oneLine(String(repeating: "x", count: 400)).count == GitHubSummary.messageLimit + 1)
    }

    @Test("Twelve failures: ten ::error lines, one ::notice counting two more, and all twelve in the job summary")
    func capped() async throws {
        var stories = ""
        for index in 1...12 {
            let name = index == 12 ? "fails | piped" : "fails \(index)"
            stories += "Story: \(name)\n  Given an empty basket\n  When I add 1 apples to the basket\n  Then the basket is empty\n\n"
        }
        stories += "Story: passes\n  Given an empty basket\n"
        let folder = try SelectionEndToEndTests.folder(["st/many.stories": stories])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "# Earlier step\n\n".write(toFile: folder + "/summary.md", atomically: true, encoding: .utf8)
        let ran = try await Binary.run(
            ["-f", "github", "st"], in: folder, timeout: 60,
            environment: ["STORYRUN_FIXTURE_STEPS": "1", "GITHUB_STEP_SUMMARY": folder + "/summary.md"])
        #expect(ran.status == 1, "\(ran.output)")
        let lines = ran.output.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("::error ") }.count == 10, "\(ran.output)")
        let notices = lines.filter { $0.hasPrefix("::notice ") }
        #expect(notices.count == 1, "\(ran.output)")
        #expect(notices.first?.contains("2 more failures not annotated: GitHub shows 10 annotations of a kind per step; every failure is in the job summary") == true, "\(notices)")

        let summary = try String(contentsOfFile: folder + "/summary.md", encoding: .utf8)
        #expect(summary.hasPrefix("# Earlier step\n\n### storyrun: 12 failures\n"), "\(summary)")
        let rows = summary.split(separator: "\n").filter { $0.hasPrefix("| fails") }
        #expect(rows.count == 12, "\(summary)")
        #expect(rows.contains { $0.hasPrefix("| fails \\| piped | st/many.stories:") && $0.hasSuffix(" |") }, "\(summary)")
        // Every row has the table's four cells: no unescaped | or line break split one.
        for row in rows {
            #expect(row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 5, "\(row)")
        }
    }

    @Test("Without a job summary the notice says where else to look, and ten failures need no notice")
    func withoutSummary() async throws {
        var stories = ""
        for index in 1...10 {
            stories += "Story: fails \(index)\n  Given an empty basket\n  When I add 1 apples to the basket\n  Then the basket is empty\n\n"
        }
        let folder = try SelectionEndToEndTests.folder(["st/ten.stories": stories])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ten = try await Binary.run(["-f", "github", "st"], in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "1", "GITHUB_STEP_SUMMARY": ""])
        #expect(ten.output.split(separator: "\n").filter { $0.hasPrefix("::error ") }.count == 10, "\(ten.output)")
        #expect(!ten.output.contains("::notice"), "\(ten.output)")
        try (stories + stories.replacingOccurrences(of: "fails", with: "also fails")).write(
            toFile: folder + "/st/ten.stories", atomically: true, encoding: .utf8)
        let twenty = try await Binary.run(["-f", "github", "st"], in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "1", "GITHUB_STEP_SUMMARY": ""])
        #expect(twenty.output.contains("::notice title=storyrun::10 more failures not annotated"), "\(twenty.output)")
        #expect(twenty.output.contains("see them in this step's log or the run's --junit or --html report"), "\(twenty.output)")
    }
}
