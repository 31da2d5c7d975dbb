import Foundation
import Testing
@testable import StoryKit
import StoryrunSteps

/// The HTML page a product owner reads.
@Suite(.timeLimit(.minutes(10))) struct HTMLReporterTests {
    /// Where to write the demo page, when asked.
    static let screenshotPath = ProcessInfo.processInfo.environment["STORYRUN_SCREENSHOT_HTML"]

    @Test("Writes the page of a run of every fixture file to STORYRUN_SCREENSHOT_HTML",
          .enabled(if: screenshotPath != nil, "set STORYRUN_SCREENSHOT_HTML=path to write the demo page"))
    func demoPage() async throws {
        // The shop features (a Background with a price table, a doc string,
        // an outline, failing hooks and a failing step) and stories with a
        // failed hook, a retry and attachments.
        let json = NSTemporaryDirectory() + "storyrun-demo-\(UUID().uuidString).json"
        let previous = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(Golden.fixture("cucumber-json"))
        _ = await StoryRun.run(
            arguments: ["--json", json, "features/shop.feature", "features/hooks.feature"],
            steps: StoryrunSteps.shop, clock: { 0 }, output: { _ in })
        let shop = try CucumberJSONDecoder.decode(Data(contentsOf: URL(fileURLWithPath: json)), path: json)
        let path = try #require(Self.screenshotPath)
        var reporter = HTMLReporter(path: path)
        _ = MergeCommand.replay(shop + TestStepReportingTests.results) { reporter.handle($0) }
        try reporter.finish()
        FileManager.default.changeCurrentDirectoryPath(previous)
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try HTMLPageData.stories(in: page).count == 14)
    }
}

extension HTMLReporterTests {
    @Test("The page opens with one sentence on the run", arguments: [
        ([StoryStatus.passed: 3], "All 3 stories pass"),
        ([.passed: 1], "The story passes"),
        ([.passed: 2, .failed: 1, .undefined: 1], "2 of 4 stories need attention"),
        ([.skipped: 4], "0 of 4 stories pass; the rest did not run"),
        ([:], "No stories ran"),
    ])
    func verdict(stories: [StoryStatus: Int], expected: String) {
        var reporter = HTMLReporter(path: "/dev/null")
        var summary = RunSummary()
        summary.stories = stories
        reporter.handle(.runFinished(summary))
        #expect(reporter.verdict == expected)
        #expect(reporter.page.contains("<p class=\"verdict \(reporter.hasProblems ? "bad" : "good")\">\(expected)</p>"))
    }

    @Test("Failed and undefined stories are linked from the top, and the links lead to them")
    func attention() async throws {
        let page = try await ReportGoldenTests.run(["basket.stories", "failing.stories"])["html"]
        let links = page.components(separatedBy: "<a href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(links == ["s2-1", "s2-2", "s2-3", "s2-4"])
        // The page's script gives story n of file f the id s<f>-<n>.
        let files = try HTMLPageData.files(in: page)
        for link in links {
            let numbers = link.dropFirst().split(separator: "-").compactMap { Int($0) }
            let story = (files[numbers[0] - 1]["s"] as? [[String: Any]])?[numbers[1] - 1]
            #expect(["failed", "undefined", "pending"].contains(story?["st"] as? String ?? ""), "\(link) leads to a story that needs attention")
        }
    }
}

extension HTMLReporterTests {
    @Test("A failed run hook is said once, in Needs attention, not again in the notes for developers")
    func runHookOnce() {
        var reporter = HTMLReporter(path: "/dev/null")
        let place = SourceLocation(file: "/elsewhere/Hooks.swift", line: 4)
        let message = "the before run hook failed: the server did not start"
        reporter.handle(.runHookFinished(HookResult(kind: "before run", location: place, status: .failed, error: StepError(message: message), duration: 0)))
        reporter.handle(.diagnostic(Diagnostic(at: place, problem: message)))
        reporter.handle(.diagnostic(Diagnostic(at: SourceLocation(file: "other.stories", line: 1), problem: "another note")))
        let page = reporter.page
        #expect(page.components(separatedBy: "Hooks.swift:4").count - 1 == 1, "the hook's place once")
        #expect(page.components(separatedBy: "the server did not start").count - 1 == 1, "its message once")
        #expect(page.contains("another note"), "other notes stay")
    }
}
