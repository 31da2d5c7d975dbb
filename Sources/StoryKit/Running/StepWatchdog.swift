import Foundation
import Synchronization

/// Watches the running step and cancels its task when it overruns its time
/// limit, so a step that awaits (a sleep, a network call) stops and fails.
///
/// One watchdog serves a whole run. A story hands it its task once
/// (``watch(_:)``, under a lock); each step then only stores its deadline
/// in an atomic (``arm(seconds:)``, ``disarm()``), so watching costs a step
/// next to nothing. A step that ignores cancellation (say, one blocked in a
/// system call) runs to its end in this process; `--isolate` and `--jobs`
/// stop it by stopping its worker process.
final class StepWatchdog: @unchecked Sendable {
    // Unchecked: `task` and `ticker` are read and written only under `lock`;
    // the task handle is used only while its story runs (between watch and
    // unwatch). The atomics need no lock.
    private let lock = NSLock()
    private var task: UnsafeCurrentTask?
    private var ticker: Task<Void, Never>?
    /// The running step's deadline in uptime nanoseconds; `idle` between
    /// steps, `fired` once the ticker has claimed an overrun.
    private let deadline = Atomic<UInt64>(idle)
    private let firedEver = Atomic<Bool>(false)
    /// When the last overrun was claimed, for ``warnIfIgnored()``; under `lock`.
    private var firedAt: UInt64 = 0
    private static let idle = UInt64.max
    /// Whether steps run in the process that owns the run (`--in-process`),
    /// where nothing ends a step that ignores cancellation; in a worker,
    /// its parent ends the worker.
    private let isInProcess: Bool

    init(isInProcess: Bool = true) {
        self.isInProcess = isInProcess
    }
    private static let fired = UInt64.max - 1

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
                // A watchdog no one holds any more has nothing to watch.
                guard let self else { return }
                self.check()
                self.warnIfIgnored()
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

    /// Watches the current task, whose steps are armed one by one, until
    /// ``unwatch()``.
    func watch(_ current: UnsafeCurrentTask?) {
        lock.lock()
        startTicker()
        task = current
        lock.unlock()
    }

    /// Stops watching the task that ``watch(_:)`` gave.
    func unwatch() {
        lock.lock()
        task = nil
        lock.unlock()
    }

    /// Watches the step about to run, until ``disarm()``.
    func arm(seconds: Double) {
        let limit = DispatchTime.now().uptimeNanoseconds &+ UInt64(seconds * 1_000_000_000)
        deadline.store(min(limit, Self.fired - 1), ordering: .releasing)
    }

    /// Whether any step of the run has overrun its limit (its thread may
    /// still be held by a step that ignores cancellation).
    var hasFired: Bool { firedEver.load(ordering: .acquiring) }

    /// Stops watching the step; returns whether its time ran out.
    func disarm() -> Bool {
        deadline.exchange(Self.idle, ordering: .acquiringAndReleasing) == Self.fired
    }

    private func check() {
        let current = deadline.load(ordering: .acquiring)
        guard current < Self.fired, DispatchTime.now().uptimeNanoseconds > current else { return }
        // Under the lock, so the story cannot end (and the next one start
        // on the same task) between claiming the overrun and cancelling.
        lock.lock()
        defer { lock.unlock() }
        // The step may end at this moment: only the side that swaps the
        // deadline first decides whether it overran.
        guard deadline.compareExchange(expected: current, desired: Self.fired, ordering: .acquiringAndReleasing).exchanged
        else { return }
        firedEver.store(true, ordering: .releasing)
        firedAt = DispatchTime.now().uptimeNanoseconds
        task?.cancel()
    }

    /// Says once, on standard error, when a step that overran its limit
    /// still runs a while after it was cancelled: in process nothing can
    /// stop it, and silence would look like a hang.
    private func warnIfIgnored() {
        lock.lock()
        defer { lock.unlock() }
        guard firedAt != 0, deadline.load(ordering: .acquiring) == Self.fired,
            DispatchTime.now().uptimeNanoseconds &- firedAt > 2_000_000_000
        else { return }
        firedAt = 0
        let message = "storyrun: a step ran past its --step-timeout limit and does not stop when cancelled (a blocking call?); "
            + (isInProcess
                ? "in this process nothing can stop it: run without --in-process, and its worker is ended\n"
                : "its worker process is ended shortly, and the run goes on\n")
        FileHandle.standardError.write(Data(message.utf8))
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
