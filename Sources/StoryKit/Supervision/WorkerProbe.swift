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
    /// Told each time a story step ends, with the story's test steps so
    /// far (its answer's parts go while it runs: ``WorkerAnswers/stepEnded(_:)``).
    var stepEnded: (([TestStepResult]) -> Void)?

    init(position: SharedPosition, capture: OutputCapture) {
        self.position = position
        self.capture = capture
    }

    /// Another attempt at the story begins (`--retry`), counting from 0.
    func beginAttempt(_ attempt: Int) {
        position.startAttempt(attempt, at: DispatchTime.now().uptimeNanoseconds)
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
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64((seconds + Self.grace) * 1_000_000_000)
        position.startTestStep(kind, index: index, hookIndex: hookIndex, deadline: deadline, output: capture.start)
    }

    /// The test step has ended: what it printed.
    func end() -> [Attachment] {
        deliverPendingSignals()
        position.endTestStep()
        return capture.end()
    }

    /// A signal the step raised (`raise(SIGTERM)`) waits unseen when the
    /// step's thread blocks it, as Dispatch's threads do: it is delivered
    /// here, while the parent still sees the step, so the step fails with it
    /// instead of passing. (The threads' masks are left as they are: code
    /// that waits for a signal on a thread of its own, `sigwait`, relies on
    /// every other thread blocking it.)
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

    /// The story has ended: what its test steps printed that they missed
    /// (see ``OutputCapture``).
    func endStory() -> [Attachment] {
        capture.endStory()
    }

    /// Between stories: empties long capture files.
    func trim() {
        capture.trim()
    }
}
