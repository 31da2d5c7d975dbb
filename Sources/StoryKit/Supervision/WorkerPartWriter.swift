import Dispatch

/// Writes a long story's parts (`WorkerWire+Parts.swift`) on a thread of
/// their own while the story runs.
///
/// The step thread checks that a part's test steps all passed plainly,
/// hands them over (a copy of a part's worth, not of the story's), and goes
/// on with the next step; this thread writes the part's `T` line and sends
/// it. Before anything else of the story goes, the step thread waits for
/// the parts it handed over (``drain()``), so the parent reads them in
/// order. Writing a part was the step thread's: at a million steps, moving it
/// here took about 0.4 s off the worker's running phase.
final class WorkerPartWriter: Sendable {
    private let queue = DispatchQueue(label: "storyrun.worker.parts")
    private let outbox: WorkerOutbox
    private let registry: StepRegistry

    init(outbox: WorkerOutbox, registry: StepRegistry) {
        self.outbox = outbox
        self.registry = registry
    }

    /// Writes and sends the part of story `sequence` holding `testSteps`,
    /// each of which passed plainly (``WorkerWire/plainForm(_:hookIndex:passedOnly:)``).
    func write(sequence: UInt64, _ testSteps: [TestStepResult]) {
        queue.async { [outbox, registry] in
            var line: [UInt8] = []
            let taken = WorkerWire.partLine(
                sequence: sequence, testSteps, from: 0, hookIndex: registry.hookIndex, passedOnly: true, into: &line)
            guard taken == testSteps.count else {
                preconditionFailure("a part handed over holds only test steps that passed plainly")
            }
            outbox.send(bytes: line)
        }
    }

    /// Waits until every part handed over has been sent.
    func drain() {
        queue.sync {}
    }
}
