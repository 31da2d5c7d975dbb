import Foundation
import Testing

@testable import StoryKit

/// Cucumber JSON of a pending step, as cucumber-ruby writes it.
@Suite(.timeLimit(.minutes(10))) struct CucumberJSONPendingTests {
    /// The Cucumber JSON of one story whose only step is pending with `error`.
    static func report(error: StepError?) throws -> [[String: Any]] {
        let folder = NSTemporaryDirectory() + "storyrun-pending-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/pending.feature"
        try "Feature: F\n  Scenario: S\n    Given a step to write\n".write(toFile: file, atomically: true, encoding: .utf8)
        let step = Step(keyword: "Given", kind: .context, text: "a step to write", location: StoryKit.SourceLocation(file: file, line: 3))
        let result = StepResult(step: step, status: .pending, duration: 0, error: error, match: nil, alsoMatched: [])
        let story = Story(name: "S", location: StoryKit.SourceLocation(file: file, line: 2), steps: [step])
        var reporter = CucumberJSONReporter(path: folder + "/r.json")
        reporter.handle(.runStarted(fileCount: 1))
        var summary = RunSummary()
        let storyResult = StoryResult(story: story, status: .pending, testSteps: [.step(result)], duration: 0)
        summary.add(storyResult)
        reporter.handle(.storyFinished(storyResult))
        reporter.handle(.runFinished(summary))
        try reporter.finish()
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/r.json"))
        let features = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let elements = try #require(features.first?["elements"] as? [[String: Any]])
        let steps = try #require(elements.first?["steps"] as? [[String: Any]])
        return steps.compactMap { $0["result"] as? [String: Any] }
    }

    @Test("A pending step without a reason says TODO (Cucumber::Pending), as cucumber-ruby does")
    func pendingWithoutReason() throws {
        let results = try Self.report(error: nil)
        #expect(results.first?["status"] as? String == "pending")
        // cucumber-ruby's message, then the places (its backtrace).
        #expect((results.first?["error_message"] as? String)?.hasPrefix("TODO (Cucumber::Pending)") == true)
    }

    @Test("A pending step with a reason keeps it")
    func pendingWithReason() throws {
        let results = try Self.report(error: StepError(message: "the payment page is not done"))
        #expect((results.first?["error_message"] as? String)?.hasPrefix("the payment page is not done") == true)
    }
}
