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
    var sequence: UInt64 = 0 {
        didSet { streamed = (0, false) }
    }
    /// A compact line's bytes, kept from story to story.
    private var line: [UInt8] = []
    /// Whether a long story's parts go while it runs (see
    /// ``stepEnded(_:)``): not under --retry, where a failed attempt's
    /// steps give way to the next attempt's.
    private let streamsParts: Bool
    /// How many of the running story's test steps went as parts while it
    /// ran, and whether one that did not pass plainly ended that.
    private var streamed: (count: Int, isStopped: Bool) = (0, false)
    /// A part's bytes, kept from part to part.
    private var part: [UInt8] = []

    init(registry: StepRegistry, position: SharedPosition, outbox: WorkerOutbox, streamsParts: Bool) {
        self.registry = registry
        self.position = position
        self.outbox = outbox
        compact = !registry.matchingRunsUserCode
        self.streamsParts = streamsParts && compact
    }

    /// A step of the running story has ended; `testSteps`: the story's
    /// test steps so far. Once more than a part's worth (``WorkerWire/partSize``)
    /// wait unsent, the oldest part goes (`T`), so the parent rebuilds a
    /// long story while it runs rather than after. The step just ended is
    /// never in it: output found at the story's end goes with the last
    /// step that ran (see ``StoryExecution``), which is never one sent.
    /// The first step that did not pass plainly stops this for the story:
    /// the rest go once it has run.
    func stepEnded(_ testSteps: [TestStepResult]) {
        guard streamsParts, !streamed.isStopped, testSteps.count - streamed.count > WorkerWire.partSize else { return }
        // Passed steps only: output found at the story's end goes to the
        // last step that ran, which must not have gone yet.
        let taken = WorkerWire.partLine(sequence: sequence, testSteps, from: streamed.count, hookIndex: hookIndex, passedOnly: true, into: &part)
        guard taken == WorkerWire.partSize else {
            streamed.isStopped = true
            return
        }
        outbox.send(bytes: part)
        streamed.count += taken
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
                    sequence: sequence, result: result, from: streamed.count, hookIndex: hookIndex, compact: compact, line: &line,
                    send: outbox.send(bytes:))
            // A passing story's compact line waits for the next batch; any
            // other (undefined, skipped) goes at once, compact when it can.
            } else if compact, WorkerWire.compactLine(sequence: sequence, result: result, hookIndex: hookIndex, into: &line) {
                if result.status == .passed { outbox.add(line) } else { outbox.send(bytes: line) }
            } else {
                outbox.send(bytes: WorkerWire.line(sequence: sequence, result: result, hookIndex: hookIndex, compact: false))
            }
        case .diagnostic(let diagnostic): outbox.send(WorkerWire.line(.diagnostic(diagnostic)))
        case .runHookFinished(let hook): outbox.send(WorkerWire.line(.runHook(hook)))
        case .runStarted, .storyStarted, .stepStarted, .stepFinished, .runFinished, .storyFileRejected: break
        }
    }
}
