import Foundation
import Testing
@testable import StoryKit
import StoryrunSteps

/// Runs each fixture story file through the command line and compares every
/// report with its golden file in `Fixtures/reporting/`.
@Suite(.timeLimit(.minutes(10))) struct ReportGoldenTests {
    static let inputs = Golden.files(in: "stories/good", withExtension: "stories")

    /// Every report of one run, read back, with paths made relative.
    struct Reports {
        var text: String
        var files: [String: String]
        var status: StoryKit.ExitStatus

        subscript(_ name: String) -> String { files[name] ?? "" }
    }

    /// The file reports each run writes, by the extension of their goldens.
    static let fileReports = ["html": "--html", "json": "--json", "junit.xml": "--junit", "ndjson": "--messages", "rerun": "--rerun"]

    /// Runs story files with every file report and the given options.
    static func run(_ paths: [String], options: [String] = [], isGitHubActions: Bool = false) async throws -> Reports {
        let folder = NSTemporaryDirectory() + "storyrun-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var lines: [String] = []
        let reportArguments = fileReports.sorted { $0.key < $1.key }.flatMap { [$0.value, "\(folder)/r.\($0.key)"] }
        let status = await StoryRun.run(
            arguments: options + reportArguments
                + paths.map { Golden.fixture($0.hasPrefix("../") ? "stories/" + $0.dropFirst(3) : "stories/good/" + $0) },
            steps: StoryrunSteps.fixtures, style: .tags, isGitHubActions: isGitHubActions,
            clock: { 0 }, startTime: Date(timeIntervalSince1970: 0), output: { lines.append($0) })
        var files: [String: String] = [:]
        for ext in fileReports.keys {
            files[ext] = Golden.relativize(try String(contentsOfFile: "\(folder)/r.\(ext)", encoding: .utf8))
        }
        files["ndjson"] = hostIndependent(files["ndjson"] ?? "")
        return Reports(text: Golden.relativize(lines.joined(separator: "\n") + "\n"), files: files, status: status)
    }

    static func run(_ name: String, options: [String] = []) async throws -> Reports {
        try await run([name], options: options)
    }

    /// The messages with the host's system and processor replaced by `HOST`.
    static func hostIndependent(_ messages: String) -> String {
        messages
            .replacingOccurrences(of: #""os":{"name":"\#(MessagesReporter.hostSystem)"}"#, with: #""os":{"name":"HOST"}"#)
            .replacingOccurrences(of: #""cpu":{"name":"\#(MessagesReporter.hostProcessor)"}"#, with: #""cpu":{"name":"HOST"}"#)
    }

    @Test("Every file report and the summary match their goldens", arguments: inputs)
    func reports(name: String) async throws {
        let run = try await Self.run(name)
        Golden.check(run.text, against: "reporting/\(name).txt")
        for ext in Self.fileReports.keys.sorted() {
            Golden.check(ext == "html" ? Self.withoutAssets(run[ext]) : run[ext], against: "reporting/\(name).\(ext)")
        }
    }

    /// The page with its inline style sheet and script (the same on every
    /// page, and checked whole here) left out of the golden.
    static func withoutAssets(_ page: String) -> String {
        #expect(page.contains("<style>\(HTMLReporter.css)</style>"), "the style sheet is inline")
        #expect(page.contains("<script>\(HTMLReporter.script)</script>"), "the script is inline")
        return page
            .replacingOccurrences(of: "<style>\(HTMLReporter.css)</style>", with: "<style>/* HTMLReporter.css */</style>")
            .replacingOccurrences(of: "<script>\(HTMLReporter.script)</script>", with: "<script>/* HTMLReporter.script */</script>")
    }

    @Test("The progress, pretty and github terminal reports match their goldens", arguments: inputs)
    func terminalReports(name: String) async throws {
        for format in ["progress", "pretty", "github"] {
            let options = format == "pretty" ? ["--format", format, "--verbose"] : ["--format", format]
            let run = try await Self.run(name, options: options)
            Golden.check(run.text, against: "reporting/\(name).\(format).txt")
        }
    }

    @Test("A dry run reports every story as skipped, in JUnit too")
    func dryRun() async throws {
        let run = try await Self.run("failing.stories", options: ["--dry-run", "--format", "progress"])
        Golden.check(run.text, against: "reporting/dry-run.progress.txt")
        Golden.check(run["junit.xml"], against: "reporting/dry-run.junit.xml")
        #expect(run["rerun"].isEmpty)
    }

    /// Before, a rejected file was only on the terminal, in the HTML notes
    /// and in the rerun file: JUnit said `failures="0"` without it, Messages
    /// had no `parseError` and `success: true`. Cucumber JSON leaves it out,
    /// as Cucumber's own formatter does (it has no place for it).
    /// (The JUnit and Messages goldens are checked against their schemas.)
    @Test("A rejected story file is an error in JUnit, a parseError in Messages, and not in Cucumber JSON")
    func rejectedFile() async throws {
        let run = try await Self.run(["basket.stories", "../bad/out-of-order.stories"])
        #expect(run.status == .inputError)
        Golden.check(run["junit.xml"], against: "reporting/rejected-file.junit.xml")
        Golden.check(run["ndjson"], against: "reporting/rejected-file.ndjson")
        // Cucumber JSON: the stories of the file that was read, as a run of it alone writes them.
        Golden.check(run["json"], against: "reporting/basket.stories.json")
        #expect(run["junit.xml"].contains(#"<error message="Fixtures/stories/bad/out-of-order.stories:4:1: "#))
        #expect(run["ndjson"].contains(#"{"parseError":{"source":{"uri":"Fixtures/stories/bad/out-of-order.stories","location":{"line":4"#))
        #expect(run["ndjson"].contains(#""testRunFinished":{"success":false"#))
        #expect(!run["json"].contains("out-of-order") && !run["json"].contains("storyrun_rejected"))
        #expect(run["rerun"].contains("Fixtures/stories/bad/out-of-order.stories\n"))
    }

    @Test("Several reports in one run each get the whole run")
    func severalReports() async throws {
        let run = try await Self.run(["failing.stories", "undefined.stories"], options: ["--format", "progress", "--format", "github"])
        #expect(run.text.contains("<red>F</red>"))
        #expect(run.text.components(separatedBy: "::error ").count - 1 == 4)
        #expect(run.text.components(separatedBy: "::warning ").count - 1 == 2)
        #expect(run["rerun"] == """
            Fixtures/stories/good/failing.stories:1:6:12:17
            Fixtures/stories/good/undefined.stories:1

            """)
        #expect(run["junit.xml"].components(separatedBy: "<testsuite ").count - 1 == 2)
        #expect(run["ndjson"].split(separator: "\n").filter { $0.hasPrefix(#"{"testCaseStarted""#) }.count == 5)
    }

    @Test("On GitHub Actions the annotations come with the normal report")
    func gitHubActions() async throws {
        var lines: [String] = []
        let status = await StoryRun.run(
            arguments: [Golden.fixture("stories/good/failing.stories")], steps: StoryrunSteps.fixtures,
            isGitHubActions: true, clock: { 0 }, output: { lines.append($0) })
        #expect(status == .storyFailed)
        #expect(lines.contains { $0.hasPrefix("FAILED  Counting wrong") })
        let annotation = try #require(lines.map(Golden.relativize).first { $0.contains("line=9,") })
        #expect(annotation.hasPrefix("::error file=Fixtures/stories/good/failing.stories,line=9,col=1,title=Counting wrong%3A step failed::Then the basket holds 3 apples%0Anumber of apples: expected 3, got 2%0Aat Sources/StoryrunSteps/BasketSteps.swift:"))
        lines = []
        _ = await StoryRun.run(
            arguments: [Golden.fixture("stories/good/failing.stories")], steps: StoryrunSteps.fixtures,
            clock: { 0 }, output: { lines.append($0) })
        #expect(!lines.contains { $0.hasPrefix("::") })
    }

    @Test("Cucumber JSON has the shape Cucumber tools read")
    func cucumberShape() async throws {
        let run = try await Self.run("failing.stories")
        let features = try #require(try JSONSerialization.jsonObject(with: Data(run["json"].utf8)) as? [[String: Any]])
        #expect(features.count == 1)
        let elements = features[0]["elements"] as? [[String: Any]] ?? []
        try #require(elements.count == 4)
        let steps = elements[1]["steps"] as? [[String: Any]] ?? []
        try #require(steps.count == 4)
        let statuses = steps.compactMap { ($0["result"] as? [String: Any])?["status"] as? String }
        #expect(statuses == ["passed", "passed", "failed", "skipped"])
        let failed = steps[2]["result"] as? [String: Any] ?? [:]
        #expect((failed["error_message"] as? String)?.contains("expected 3, got 2") == true)
        #expect(failed["duration"] as? Int == 0)
        #expect(steps[2]["keyword"] as? String == "Then ")
        #expect(((steps[2]["match"] as? [String: Any])?["location"] as? String)?.hasPrefix("Sources/StoryrunSteps/BasketSteps.swift:") == true)
        #expect(run.status == .storyFailed)
    }
}
