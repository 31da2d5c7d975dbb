import Foundation
import StoryKit
import Synchronization

/// Runs the before-run and after-run hooks once per test process, as one
/// command-line run does: the before-run hooks before the first story of a
/// list of step classes, the after-run hooks when the test process exits.
final class ProcessRunHooks: Sendable {
    static let shared = ProcessRunHooks()

    /// The lists of step classes whose before-run hooks have started, by
    /// their names, and what those hooks said.
    private let started = Mutex<[String: Task<[Diagnostic], Never>]>([:])
    /// The same lists, in order, for the after-run hooks at exit.
    private let lists = Mutex<[[any StepDefinitions.Type]]>([])

    /// Runs the before-run hooks of the step classes if no story has yet,
    /// and waits for them. Returns their failures to the first caller only,
    /// so a failing hook is one issue, not one per story.
    func begin(steps: [any StepDefinitions.Type]) async -> [Diagnostic] {
        let key = steps.map { String(reflecting: $0) }.joined(separator: ",")
        let (task, isFirst) = started.withLock { started -> (Task<[Diagnostic], Never>, Bool) in
            if let task = started[key] { return (task, false) }
            let task = Task { await StoryRun.runBeforeRunHooks(steps: steps) }
            started[key] = task
            return (task, true)
        }
        if isFirst {
            let isFirstList = lists.withLock { lists in
                lists.append(steps)
                return lists.count == 1
            }
            if isFirstList { atexit { ProcessRunHooks.shared.end() } }
        }
        let diagnostics = await task.value
        return isFirst ? diagnostics : []
    }

    /// Runs the after-run hooks of every list begun (at process exit).
    private func end() {
        let lists = lists.withLock { $0 }
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            for steps in lists {
                for diagnostic in await StoryRun.runAfterRunHooks(steps: steps) {
                    FileHandle.standardError.write(Data((diagnostic.rendered() + "\n").utf8))
                }
            }
            done.signal()
        }
        done.wait()
    }
}
