import Foundation
import Testing
@testable import StoryKit

/// `storyrun merge` believes nothing it reads (issue 28, "merge believes
/// anything"): a shard whose report is not the shape it claims is an input
/// error (exit 2) naming the file and the place, never an empty or green run.
@Suite(.timeLimit(.minutes(1))) struct MergeInputValidationTests {
    static func merge(_ text: String, name: String = "shard.json") async throws -> (StoryKit.ExitStatus, String) {
        let path = try MergeCommandTests.temporaryFile(text, name: name)
        var lines: [String] = []
        let status = await StoryRun.run(arguments: ["merge", path], steps: [], output: { lines.append($0) })
        return (status, lines.joined(separator: "\n"))
    }

    @Test("Cucumber JSON of the wrong shape is rejected with its place", arguments: [
        (#"[{"uri": "a.feature", "elements": "nope"}]"#, "feature 1: \"elements\" is not a list of objects"),
        (#"[{"uri": "a.feature", "elements": [{"steps": 3}]}]"#, "feature 1, element 1: \"steps\" is not a list of objects"),
        (#"[{"uri": 7, "elements": []}]"#, "feature 1: \"uri\" is not a string"),
        (#"[{"uri": "x", "storyrun_run_failed": {"failures": 0, "not_run": -1}}]"#, "\"not_run\": -1, not a count"),
        (#"[{"uri": "x", "storyrun_run_failed": {"failures": -3, "not_run": 1}}]"#, "\"failures\": -3, not a count"),
        (#"[{"uri": "x", "storyrun_run_failed": {"failures": "1"}}]"#, "not a count"),
        (#"[{"uri": "x", "storyrun_rejected": "yes"}]"#, "\"storyrun_rejected\" is not a list of objects"),
    ])
    func wrongShape(json: String, problem: String) async throws {
        let (status, output) = try await Self.merge(json)
        #expect(status == .inputError, "\(output)")
        #expect(output.contains("shard.json: " + problem) || output.contains(problem), "\(output)")
    }

    @Test("An interrupted shard's counts merge to a failed run")
    func interruptedShardFails() async throws {
        let (status, output) = try await Self.merge(#"[{"uri": "x", "elements": [], "storyrun_run_failed": {"failures": 0, "not_run": 2}}]"#)
        #expect(status == .storyFailed, "\(output)")
    }
}
