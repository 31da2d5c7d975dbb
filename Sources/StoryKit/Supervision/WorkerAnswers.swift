/// A worker's answers to its parent, from the events of the stories it
/// runs: a passing story as a compact line that waits for the next batch,
/// any other as its whole result, and its diagnostics and run hooks; the
/// rest of the stream stays in the worker (the parent replays a story's
/// progress from its result).
final class WorkerAnswers {
    let position: SharedPosition
    let outbox: WorkerOutbox
    private let registry: StepRegistry
    /// Whether a passing story's steps can go as definition ids (matching
    /// runs no user code, so the parent may trust the worker's matches).
    private let compact: Bool
    /// The story now running, as the parent numbered it.
    var sequence: UInt64 = 0
    /// A compact line's bytes, kept from story to story.
    private var line: [UInt8] = []

    init(registry: StepRegistry, position: SharedPosition, outbox: WorkerOutbox) {
        self.registry = registry
        self.position = position
        self.outbox = outbox
        compact = !registry.matchingRunsUserCode
    }

    private func hookIndex(_ hook: HookResult) -> Int? {
        registry.hooks.firstIndex { $0.kind.rawValue == hook.kind && $0.location == hook.location }
    }

    /// One event of the runner, to the parent if it is for the parent.
    func forward(_ event: RunEvent) {
        switch event {
        case .storyFinished(let result):
            // Before its line: the parent takes an answer only for a
            // story that got this far.
            position.finishStory(sequence)
            // A long story's answer goes in parts (`WorkerWire+Parts.swift`).
            if result.testSteps.count > WorkerWire.partSize {
                WorkerWire.sendInParts(
                    sequence: sequence, result: result, hookIndex: hookIndex, compact: compact, line: &line, send: outbox.send(bytes:))
            // A passing story's compact line waits for the next batch.
            } else if compact, WorkerWire.passedLine(sequence: sequence, result: result, hookIndex: hookIndex, into: &line) {
                outbox.add(line)
            } else {
                outbox.send(WorkerWire.line(sequence: sequence, result: result, hookIndex: hookIndex, compact: false))
            }
        case .diagnostic(let diagnostic): outbox.send(WorkerWire.line(.diagnostic(diagnostic)))
        case .runHookFinished(let hook): outbox.send(WorkerWire.line(.runHook(hook)))
        case .runStarted, .storyStarted, .stepStarted, .stepFinished, .runFinished, .storyFileRejected: break
        }
    }
}
