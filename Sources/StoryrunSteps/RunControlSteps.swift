import Foundation
import StoryKit

/// Fixture steps for hooks, retries and time limits.
final class RunControlSteps: StepDefinitions {
    /// How often each flaky story has run, by name; shared across attempts.
    nonisolated(unsafe) static var attempts: [String: Int] = [:]
    static let lock = NSLock()
    var events: [String] = []
    var isAfterHookSabotaged = false

    required init() {}

    static func define(_ step: StepMap<RunControlSteps>) {
        step.before { steps in steps.events.append("before") }
        step.beforeStep { steps in steps.events.append("before step") }
        step.afterStep { steps in steps.events.append("after step") }
        step.after { steps in
            if steps.isAfterHookSabotaged { throw HookSabotage() }
        }
        step.before(tags: "@broken and not @mended") { _ in throw HookSabotage() }
        step("^the hooks have run (\\d+) times? around steps$") { (steps: RunControlSteps, count: Int) in
            // This step's own before-step hook has run; its after-step hook has not yet.
            try expectEqual(steps.events.filter { $0 == "before step" }.count, count)
            try expectEqual(steps.events.first, "before")
        }
        step("^the after hook will fail$") { steps in steps.isAfterHookSabotaged = true }
        step("^a step that fails the first (\\d+) times? for \"(.*)\"$") { (_: RunControlSteps, failures: Int, key: String) in
            let attempt = lock.withLock { () -> Int in
                attempts[key, default: 0] += 1
                return attempts[key]!
            }
            if attempt <= failures { try fail("attempt \(attempt) fails") }
        }
        step("^a step that sleeps for (\\d+) ms$") { (_: RunControlSteps, milliseconds: Int) in
            try await Task.sleep(nanoseconds: UInt64(milliseconds) * 1_000_000)
        }
        step("^a flag is raised after (\\d+) ms$") { (steps: RunControlSteps, milliseconds: Int) in
            let start = Date()
            try await waitUntil(timeout: 2, interval: 0.01) { Date().timeIntervalSince(start) * 1000 >= Double(milliseconds) }
        }
        step("^the process crashes$") { _ in
            fatalError("a fixture step crashed the process on purpose")
        }
        step("^a step that blocks for (\\d+) s$") { (_: RunControlSteps, seconds: Int) in
            usleep(UInt32(seconds) * 1_000_000)  // blocks the thread: ignores cancellation
        }
        step("^the flag never rises$") { _ in
            try await waitUntil(timeout: 0.05, interval: 0.01, "the flag") { false }
        }
    }
}

struct HookSabotage: Error, CustomStringConvertible {
    var description: String { "the after hook was told to fail" }
}
