import Foundation
import Testing
import StoryKit
@testable import StoryKitTesting

/// An after-run hook that never returns and blocks the thread it runs on.
final class EndlessAfterRunSteps: StepDefinitions {
    required init() {}

    static func define(_ step: StepMap<EndlessAfterRunSteps>) {
        step.afterRun { while true { sleep(3600) } }
    }
}

/// The after-run hooks a test process runs at exit are bounded in time: a
/// hook that never returns is named on standard error and the process ends.
@Suite(.timeLimit(.minutes(10))) struct ProcessRunHooksExitTests {
    static let childVariable = "STORYRUN_TEST_ENDLESS_AFTER_RUN"

    /// Run only as the child of ``endlessHook()``: begins a run whose
    /// after-run hook never returns, which the process runs when it exits.
    @Test("(child process) begin a run whose after-run hook never returns",
          .enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func child() async {
        let diagnostics = await ProcessRunHooks.shared.begin(steps: [EndlessAfterRunSteps.self])
        #expect(diagnostics.isEmpty)
    }

    @Test("A test process whose after-run hook never returns ends within the limit, naming the hook")
    func endlessHook() async throws {
        let outcome = try await ChildTestProcess.run(
            "ProcessRunHooksExitTests/child", variable: Self.childVariable, environment: ["STORYRUN_AFTER_RUN_TIMEOUT": "2"])
        #expect(!outcome.isTimedOut, "the test process hung at exit")
        #expect(outcome.seconds < 45)
        #expect(outcome.errorOutput.contains("ProcessRunHooksExitTests.swift:11"), "\(outcome.errorOutput)")
        #expect(outcome.errorOutput.contains("did not finish within 2 seconds"))
        // The child's test itself passed: the run hooks ran, then it exited.
        #expect(ChildTestProcess.onePassed(outcome), "\(outcome.output)\n\(outcome.errorOutput)")
    }
}
