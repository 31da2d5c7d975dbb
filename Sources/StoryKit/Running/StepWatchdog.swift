import Foundation

/// Watches the running step and cancels its task when it overruns its time
/// limit, so a step that awaits (a sleep, a network call) stops and fails.
///
/// One watchdog serves a whole run: arming it for a step costs a lock, not a
/// task. A step that ignores cancellation (say, one blocked in a system call)
/// runs to its end in this process; `--isolate` and `--jobs` stop it by
/// stopping its worker process.
final class StepWatchdog: @unchecked Sendable {
    // Unchecked: every field is read and written only under `lock`; the
    // task handle is used only while its step runs (between arm and disarm).
    private let lock = NSLock()
    private var deadline: UInt64 = .max
    private var task: UnsafeCurrentTask?
    private var didFire = false
    private var firedEver = false
    private var ticker: Task<Void, Never>?

    /// Starts watching, if it has not started; the ticker checks the
    /// deadline every 20 ms.
    func start() {
        lock.lock()
        defer { lock.unlock() }
        startTicker()
    }

    /// Starts the ticker if it is not running; call under `lock`.
    private func startTicker() {
        guard ticker == nil else { return }
        ticker = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 20_000_000)
                self?.check()
            }
        }
    }

    /// Stops watching.
    func stop() {
        lock.lock()
        ticker?.cancel()
        ticker = nil
        lock.unlock()
    }

    /// Watches the current task until ``disarm()``.
    func arm(seconds: Double) {
        withUnsafeCurrentTask { current in
            lock.lock()
            startTicker()
            task = current
            deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(seconds * 1_000_000_000)
            didFire = false
            lock.unlock()
        }
    }

    /// Whether any step of the run has overrun its limit (its thread may
    /// still be held by a step that ignores cancellation).
    var hasFired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return firedEver
    }

    /// Stops watching the current task; returns whether its time ran out.
    func disarm() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        task = nil
        deadline = .max
        return didFire
    }

    private func check() {
        lock.lock()
        defer { lock.unlock() }
        guard let task, DispatchTime.now().uptimeNanoseconds > deadline else { return }
        task.cancel()
        didFire = true
        firedEver = true
        self.task = nil
    }
}

/// A step that ran past its time limit.
public struct StepTimeoutError: LocatedError, CustomStringConvertible {
    /// The limit, in seconds.
    public var seconds: Double
    var step: Step

    /// Nil: the message names the step and its place already.
    public var location: SourceLocation? { nil }

    public var description: String {
        let limit = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        return "step \"\(step.line)\" (\(step.location.fileAndLine)) ran longer than its \(limit) s limit (--step-timeout)"
    }
}
