import Foundation
import Testing
@testable import StoryKit

/// The step libraries' steps end when their step runs out of time.
@Suite(.timeLimit(.minutes(10))) struct StepLibraryTimeoutEndToEndTests {
    /// Before, `I run` waited for the command's own limit with a sleep that
    /// returns at once in a cancelled task: past --step-timeout it spun a
    /// core until its worker was stopped ("did not stop"), and the command
    /// ran on until then.
    @Test("A command past --step-timeout is stopped with its step, which fails with the time limit; its worker goes on")
    func commandPastStepTimeout() async throws {
        let folder = try Binary.temporaryFolder("steplib-timeout")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("Feature: slow\n  Scenario: past the limit\n    When I run `sleep 30`\n\n  Scenario: next\n    When I run `true`\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/s.feature"))
        let outcome = try await Binary.run(
            ["s.feature", "--step-timeout", "1"], in: folder, timeout: 60, environment: ["STORYRUN_FIXTURE_STEPS": "steplibs"])
        #expect(outcome.status == 1, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("ran longer than its 1 s limit (--step-timeout)"), "\(outcome.output)")
        #expect(outcome.output.contains("the step ran out of time; stopped"), "\(outcome.output)")
        #expect(!outcome.output.contains("did not stop"), "\(outcome.output)")
        #expect(outcome.output.contains("Stories: 1 passed, 1 failed"), "\(outcome.output)")
    }
}
