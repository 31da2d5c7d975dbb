import Foundation
import StoryKit

/// The steps of the random suites `Tests/Consistency/consistency.py` writes:
/// steps that pass, fail, pass on a later attempt, attach, or match twice;
/// hooks that fail for stories tagged to ask for it, and run hooks that fail
/// when `STORYRUN_CONSISTENCY_FAIL_RUN` says so (`before` or `after`).
final class ConsistencySteps: StepDefinitions {
    required init() {}

    static func define(_ step: StepMap<ConsistencySteps>) {
        step("^step (\\d+) passes$") { (_: ConsistencySteps, _: Int) in }
        step("^step (\\d+) fails$") { (_: ConsistencySteps, number: Int) in try fail("step \(number) was told to fail") }
        step("^step (\\d+) attaches$") { (_: ConsistencySteps, number: Int) in
            log("step \(number) logs")
            attach("{\"step\": \(number)}", mediaType: "application/json", name: "step\(number).json")
        }
        // A retry may run in another worker process: attempts are counted in
        // a file of the suite's folder (the current folder).
        step("^step (\\d+) passes on attempt (\\d+)$") { (steps: ConsistencySteps, number: Int, attempt: Int) in
            let file = ".attempts-" + steps.story.location.displayFileAndLine.replacingOccurrences(of: "/", with: "_") + "-\(number)"
            let count = (Int((try? String(contentsOfFile: file, encoding: .utf8)) ?? "") ?? 0) + 1
            FileManager.default.createFile(atPath: file, contents: Data("\(count)".utf8))
            if count < attempt { try fail("step \(number) passes on attempt \(attempt), this is attempt \(count)") }
        }
        step("^step (\\d+) is ambiguous$") { (_: ConsistencySteps, _: Int) in }
        step("^step (\\d+) is ambig\\w+$") { (_: ConsistencySteps, _: Int) in }
        step.before(tags: "@fail-before") { _ in try fail("the before hook was told to fail") }
        step.after(tags: "@fail-after") { _ in try fail("the after hook was told to fail") }
        step.afterStep(tags: "@fail-after-step") { _ in try fail("the after-step hook was told to fail") }
        step.beforeRun {
            if ProcessInfo.processInfo.environment["STORYRUN_CONSISTENCY_FAIL_RUN"] == "before" { try fail("the before-run hook was told to fail") }
        }
        step.afterRun {
            if ProcessInfo.processInfo.environment["STORYRUN_CONSISTENCY_FAIL_RUN"] == "after" { try fail("the after-run hook was told to fail") }
        }
    }
}
