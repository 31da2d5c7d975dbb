/// A long story's answer in parts (issue 29, "Long stories").
///
/// A story of more than ``WorkerWire/partSize`` test steps is answered in
/// lines of at most that many: while it runs, a part as soon as enough of
/// its steps have passed plainly (``StreamedParts``), so the parent reads
/// them while the worker runs the rest; once it has run, the parts left,
/// then a last line with what is left of the result:
/// - `T SEQ COUNT TESTSTEP…`: COUNT plain test steps (passed, skipped,
///   undefined), written as a compact `P` line writes them;
/// - `K SEQ {json}`: one test step that did not pass plainly (it failed,
///   was undefined, attached something…), whole;
/// - then `P SEQ DURATION` (every part was plain and the story passed),
///   `C STATUS SEQ DURATION` (every part was plain and the story did not
///   pass: undefined, skipped) or `J SEQ {json}` (its status and times,
///   with no test steps).
///
/// Before, such a story went as one line: a million passing steps were a
/// 30 MB line the worker built and the parent held whole, and a story that
/// did not pass went as one JSON document through Foundation's encoder and
/// decoder (50,000 steps took 24 s, a million did not end in 900 s at 4
/// GB). In parts, no line is longer than a part, the JSON is a step's, and
/// the parent rebuilds each part while the worker writes the next. The
/// parent checks each part as it comes (``PartialAnswer``), as it checks a
/// whole answer.
extension WorkerWire {
    /// The most test steps in one part, and the fewest a story has before
    /// it is answered in parts.
    static let partSize = 512

    /// Writes the answer of a story of more than ``partSize`` test steps
    /// through `send`, in parts, from its test step `start` (those before
    /// it went while it ran); `compact`: whether plainly passed steps may
    /// go as definition ids (see ``WorkerAnswers``).
    static func sendInParts(
        sequence: UInt64, result: StoryResult, from start: Int = 0, hookIndex: (HookResult) -> Int?, compact: Bool,
        line: inout [UInt8], send: ([UInt8]) -> Void
    ) {
        var isPlain = compact
        var index = start
        let count = result.testSteps.count
        while index < count {
            var taken = 0
            if compact {
                taken = partLine(sequence: sequence, result.testSteps, from: index, hookIndex: hookIndex, into: &line)
                index += taken
                if taken > 0 { send(line) }
            }
            guard index < count, taken < partSize else { continue }
            // A test step that did not pass plainly: whole.
            isPlain = false
            send(jsonLine(UInt8(ascii: "K"), sequence: sequence, result.testSteps[index]))
            index += 1
        }
        if isPlain && result.earlierAttempts.isEmpty && !result.wasInterrupted {
            line.removeAll(keepingCapacity: true)
            appendStart(status: result.status, into: &line)
            appendDecimal(sequence, to: &line)
            line.append(0x20)
            appendDecimal(result.duration, to: &line)
            line.append(0x0A)
            send(line)
        } else {
            var rest = WireResult(result)
            rest.testSteps = []
            send(jsonLine(UInt8(ascii: "J"), sequence: sequence, rest))
        }
    }

    /// Writes into `line` a `T` line of the plain test steps from `start`
    /// on (with `passedOnly`, of those that passed), at most ``partSize``,
    /// up to the first that is not; returns how many it holds (0: none,
    /// and no line).
    static func partLine(
        sequence: UInt64, _ testSteps: [TestStepResult], from start: Int, hookIndex: (HookResult) -> Int?, passedOnly: Bool = false,
        into line: inout [UInt8]
    ) -> Int {
        line.removeAll(keepingCapacity: true)
        // The count goes first: its digits are written once the part is whole.
        var items: [UInt8] = []
        var index = start
        while index < testSteps.count, index - start < partSize, appendPlain(testSteps[index], hookIndex: hookIndex, passedOnly: passedOnly, into: &items) {
            index += 1
        }
        let taken = index - start
        guard taken > 0 else { return 0 }
        line.append(contentsOf: "T ".utf8)
        appendDecimal(sequence, to: &line)
        line.append(0x20)
        appendDecimal(UInt64(taken), to: &line)
        line.append(contentsOf: items)
        line.append(0x0A)
        return taken
    }

    /// Reads a `T` line; nil for a line that is not one, or whose count is
    /// not the number of its test steps (a line cut short).
    static func parsePart(_ line: UnsafeBufferPointer<UInt8>) -> Message? {
        // Its body reads as a compact `P` line's, with the count where the
        // duration is (escaped arguments through the general reader).
        let body = UnsafeBufferPointer(rebasing: line[2...])
        let passed = parsePassed(body) ?? parse(Substring("P " + String(decoding: body, as: UTF8.self)))
        guard case .passed(let sequence, let count, let testSteps)? = passed, count == UInt64(testSteps.count), count > 0 else { return nil }
        return .part(sequence: sequence, testSteps: testSteps)
    }
}

/// What a parent has of a long story's answer so far (see
/// `WorkerWire+Parts.swift`): the test steps of its parts, each checked
/// against the story it planned as it came, as a whole answer is.
struct PartialAnswer {
    let sequence: UInt64
    private(set) var testSteps: [TestStepResult] = []
    /// How many of the story's steps the parts have answered.
    private(set) var stepCount = 0
    /// Whether every part was plain (a `P` or `C` line may end it).
    private(set) var isPlain = true
    /// What the plain parts allow the story's status to be.
    private var verdict = WorkerWire.CompactVerdict()

    init(sequence: UInt64) {
        self.sequence = sequence
    }

    /// Adds a part of plain test steps; false when it does not fit `story`
    /// (a step past its last, a hook or definition out of range, a step
    /// said undefined that is not).
    mutating func add(_ part: [WorkerWire.PassedTestStep], story: Story, registry: StepRegistry, style: Snippet.Style) -> Bool {
        // No reserveCapacity(count + part.count): reserving exactly, part
        // by part, copied the steps so far at each part (quadratic).
        verdict.note(part)
        for testStep in part {
            guard let result = Supervisor.rebuild(testStep, stepIndex: &stepCount, story: story, registry: registry, style: style)
            else { return false }
            testSteps.append(result)
        }
        return true
    }

    /// Adds a test step sent whole; false when it is not the story's next
    /// step (by its line), or a hook.
    mutating func add(_ testStep: TestStepResult, story: Story) -> Bool {
        isPlain = false
        if case .step(let step) = testStep {
            guard stepCount < story.steps.count, step.step.location == story.steps[stepCount].location else { return false }
            stepCount += 1
        }
        testSteps.append(testStep)
        return true
    }

    /// The story's whole result, from the parts and the last line's `P` or
    /// `C` (its status, duration and any test steps it holds); nil when
    /// they do not account for the story's steps, a part was not plain, or
    /// the steps do not allow the status (``WorkerWire/CompactVerdict``).
    /// (Mutating: the parts' steps move into the result, not copied.)
    mutating func compact(
        _ planned: PlannedStory, status: StoryStatus, duration: UInt64, rest: [WorkerWire.PassedTestStep], registry: StepRegistry,
        style: Snippet.Style
    ) -> StoryResult? {
        guard isPlain, add(rest, story: planned.story, registry: registry, style: style), stepCount == planned.story.steps.count,
            verdict.fits(status)
        else { return nil }
        let steps = testSteps
        testSteps = []
        return StoryResult(story: planned.story, status: status, testSteps: steps, duration: duration)
    }

    /// The last line's `J` result with the parts' test steps before its own.
    mutating func whole(_ wire: consuming WorkerWire.WireResult) -> WorkerWire.WireResult {
        testSteps.append(contentsOf: wire.testSteps)
        wire.testSteps = testSteps
        testSteps = []
        return wire
    }
}
