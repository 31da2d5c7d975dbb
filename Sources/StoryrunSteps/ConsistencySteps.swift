import Foundation
import StoryKit

/// The steps of the random suites `Tests/Consistency/consistency.py` writes:
/// steps that pass, fail, pass on a later attempt, attach, print, match
/// twice, hang past the time limit, or crash their worker (every time, or
/// until a later attempt), write a stray line to the worker's channel, or
/// zero its time limit on the shared page;
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
            let count = steps.countAttempt(number)
            if count < attempt { try fail("step \(number) passes on attempt \(attempt), this is attempt \(count)") }
        }
        // A crash ends the worker process: the parent fails the story (and
        // runs it again in a new worker under --retry).
        step("^step (\\d+) crashes$") { (_: ConsistencySteps, _: Int) in _exit(3) }
        step("^step (\\d+) crashes until attempt (\\d+)$") { (steps: ConsistencySteps, number: Int, attempt: Int) in
            if steps.countAttempt(number) < attempt { _exit(3) }
        }
        // Past any --step-timeout the suites give: the parent ends the worker.
        step("^step (\\d+) hangs$") { (_: ConsistencySteps, _: Int) in usleep(60_000_000) }
        // Accidents a step's code may cause the worker protocol: a stray
        // line on the worker's channel (descriptor 4), which the parent
        // rejects (it ends the worker, failing the story it is in), and a
        // time limit zeroed on the shared page (slot 5), which the parent's
        // own clock ignores. Supervised suites only.
        step("^step (\\d+) strays$") { (_: ConsistencySteps, _: Int) in
            _ = "U -1\n".withCString { write(4, $0, 5) }
            usleep(10_000_000)
        }
        step("^step (\\d+) stalls its clock$") { (_: ConsistencySteps, _: Int) in
            for _ in 0..<60_000 {
                FaultSteps.writeSharedSlot(5, 0)
                usleep(1_000)
            }
        }
        step("^step (\\d+) prints$") { (_: ConsistencySteps, number: Int) in print("step \(number) prints to standard output") }
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

    /// Counts a run of the story's step `number` (this one included) in a
    /// file of the suite's folder (the current folder): a retry may run in
    /// another worker process.
    private func countAttempt(_ number: Int) -> Int {
        let file = ".attempts-" + story.location.displayFileAndLine.replacingOccurrences(of: "/", with: "_") + "-\(number)"
        let count = (Int((try? String(contentsOfFile: file, encoding: .utf8)) ?? "") ?? 0) + 1
        _ = FileManager.default.createFile(atPath: file, contents: Data("\(count)".utf8))
        return count
    }
}
