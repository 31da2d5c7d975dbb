#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A worker's instruments: the shared page where its parent sees each test
/// step begin (with its deadline), and the capture of what user code prints.
final class WorkerProbe {
    let position: SharedPosition
    private var capture: OutputCapture
    /// How long past a deadline the parent waits before ending the worker:
    /// a step that honours cancellation stops and fails by itself first.
    static let grace: Double = 2

    init(position: SharedPosition, capture: OutputCapture) {
        self.position = position
        self.capture = capture
    }

    /// Another attempt at the story begins (`--retry`), counting from 0.
    func beginAttempt(_ attempt: Int) {
        position.startAttempt(attempt)
    }

    /// A story step begins, with its time limit.
    func beginStep(index: Int, seconds: Double) {
        begin(.step, index: index, hookIndex: 0, seconds: seconds)
    }

    /// A hook begins (by its index in the registry), around step `index`.
    func beginHook(index: Int, around step: Int, seconds: Double) {
        begin(.hook, index: step, hookIndex: index, seconds: seconds)
    }

    private func begin(_ kind: SharedPosition.StepKind, index: Int, hookIndex: Int, seconds: Double) {
        Self.letSignalsThrough()
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64((seconds + Self.grace) * 1_000_000_000)
        position.startTestStep(kind, index: index, hookIndex: hookIndex, deadline: deadline, output: capture.start)
    }

    /// The test step has ended: what it printed. A signal its code raised
    /// on a thread that lets it through has ended the worker already (see
    /// ``letSignalsThrough()``); one that waits unseen (the code blocked it
    /// first) is delivered here, while the parent still sees the step.
    func end() -> [Attachment] {
        deliverPendingSignals()
        position.endTestStep()
        return capture.end()
    }

    /// Dispatch's threads, which run the steps, block signals: a signal a
    /// step raises (`raise(SIGTERM)`) would wait unseen. On each thread that
    /// runs a step, once, the signals that end a process are let through, so
    /// such a signal ends the worker in that step, where the parent sees it,
    /// and so does one raised on a thread the step starts (it inherits the
    /// mask). Step code that blocks a signal again is still caught: after
    /// each test step, ``deliverPendingSignals()``.
    private static func letSignalsThrough() {
        guard pthread_getspecific(reachedThreads) == nil else { return }
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in Int32(1)..<65 where !PendingSignals.isHarmless(signal) { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        pthread_setspecific(reachedThreads, UnsafeRawPointer(bitPattern: 1))
    }

    /// Set on each thread whose signals are let through: a key, not a list
    /// of thread ids, so a new thread that reuses an old one's id is not
    /// taken for it.
    private static let reachedThreads: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// A signal the code raised (`raise(SIGTERM)`) that waits unseen because
    /// its thread blocks it: delivered here, while the parent still sees the
    /// step or story, so it fails with it instead of passing.
    private func deliverPendingSignals() {
        var pending = sigset_t()
        guard sigpending(&pending) == 0 else { return }
        // Almost always none: the set's words are all zero (no set, no
        // hashing, per test step).
        guard !PendingSignals.isEmpty(&pending) else { return }
        // Every signal whose default action ends the process (SIGABRT,
        // SIGXCPU, the real-time ones…): not those ignored or stopping by
        // default.
        for signal in Int32(1)..<65 where sigismember(&pending, signal) == 1 && !PendingSignals.isHarmless(signal) {
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, signal)
            _ = Glibc.signal(signal, SIG_DFL)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(signal)
        }
    }

    /// Between stories: empties long capture files.
    func trim() {
        capture.trim()
    }
}
