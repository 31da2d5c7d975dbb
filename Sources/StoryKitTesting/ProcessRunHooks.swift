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

    /// How long the after-run hooks may take at process exit, in seconds:
    /// the command line's default step timeout (60), or the number in
    /// `STORYRUN_AFTER_RUN_TIMEOUT`.
    static var exitLimit: Double {
        let text = ProcessInfo.processInfo.environment["STORYRUN_AFTER_RUN_TIMEOUT"] ?? ""
        guard let seconds = Double(text), seconds > 0 else { return 60 }
        return seconds
    }

    /// Runs the after-run hooks of every list begun (at process exit), for
    /// at most ``exitLimit`` seconds: a hook still running then is named on
    /// standard error and left behind, and the process exits anyway.
    private func end() {
        let lists = lists.withLock { $0 }
        if let overran = Self.runAfterRunHooks(of: lists, limit: Self.exitLimit) {
            let diagnostic = Diagnostic(
                at: overran,
                problem: "the after run hook did not finish within \(Self.exitLimit.formatted()) seconds at the end of the test process; the process exits without waiting for it",
                help: "make the hook return, or give it more time with STORYRUN_AFTER_RUN_TIMEOUT=<seconds>")
            FileHandle.standardError.write(Data((diagnostic.rendered() + "\n").utf8))
        }
    }

    /// Runs the after-run hooks of the lists in order, writing their
    /// failures to standard error; waits `limit` seconds at most. Returns where the hook still running then was
    /// registered, or nil when every hook finished in time.
    static func runAfterRunHooks(of lists: [[any StepDefinitions.Type]], limit: Double) -> SourceLocation? {
        let running = Mutex<SourceLocation?>(nil)
        let done = DispatchSemaphore(value: 0)
        // The caller (at exit, the thread that called exit) waits with a
        // deadline: a hook that blocks the thread it runs on for ever is
        // left behind, not waited for.
        Task.detached {
            for steps in lists {
                for diagnostic in await StoryRun.runAfterRunHooks(steps: steps, willRun: { location in running.withLock { $0 = location } }) {
                    FileHandle.standardError.write(Data((diagnostic.rendered() + "\n").utf8))
                }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + limit) == .timedOut else { return nil }
        return running.withLock { $0 }
    }
}
