import Foundation

/// Runs a step's body under a time limit.
enum StepTimeout {
    /// Runs `body`; throws ``StepTimeoutError`` when it has not finished
    /// after `seconds`. A body that ignores cancellation keeps running in the
    /// background (only `--isolate` can stop it), but the story moves on.
    static func run(
        seconds: Double, step: Step,
        _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        let gate = Gate()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let work = Task {
                do {
                    try await body()
                    gate.finish(continuation, with: .success(()))
                } catch {
                    gate.finish(continuation, with: .failure(error))
                }
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                if gate.finish(continuation, with: .failure(StepTimeoutError(seconds: seconds, step: step))) {
                    work.cancel()
                }
            }
        }
    }

    /// Resumes a continuation once, whichever side comes first.
    private final class Gate: @unchecked Sendable {
        // Unchecked: `isFinished` is read and written only under `lock`.
        private let lock = NSLock()
        private var isFinished = false

        @discardableResult
        func finish(_ continuation: CheckedContinuation<Void, any Error>, with result: Result<Void, any Error>) -> Bool {
            lock.lock()
            let first = !isFinished
            isFinished = true
            lock.unlock()
            if first { continuation.resume(with: result) }
            return first
        }
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
