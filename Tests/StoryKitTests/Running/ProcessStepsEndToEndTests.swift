import Foundation
import Testing
@testable import StoryKit

/// `ProcessSteps` in a worker whose process step code changed.
@Suite(.timeLimit(.minutes(10))) struct ProcessStepsEndToEndTests {
    /// Runs one feature file with the step libraries and the steps that
    /// misbehave on purpose.
    static func run(_ feature: String, arguments: [String] = []) async throws -> Binary.Outcome {
        let folder = try Binary.temporaryFolder("process-steps")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(feature.utf8).write(to: URL(fileURLWithPath: folder + "/s.feature"))
        return try await Binary.run(
            ["s.feature"] + arguments, in: folder, timeout: 50, environment: ["STORYRUN_FIXTURE_STEPS": "steplib-faults"])
    }

    /// Before, the kernel reaped every command at once, `waitpid` never saw
    /// one end, and each `I run` said "did not finish within 10 s".
    @Test("A step that sets SIGCHLD to ignored does not stop later commands from being waited for", arguments: [[], ["--in-process"]])
    func ignoredSIGCHLD(arguments: [String]) async throws {
        let outcome = try await Self.run(
            """
            Feature: children
              Scenario: ignored
                Given the step sets signal \(SIGCHLD) to ignored
                When I run `sh -c 'exit 3'`
                Then the command exits with status 3

              Scenario: later
                When I successfully run `true`

            """, arguments: arguments)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("Stories: 2 passed"), "\(outcome.output)")
        #expect(outcome.seconds < 9, "\(outcome.seconds) s")
    }
}
