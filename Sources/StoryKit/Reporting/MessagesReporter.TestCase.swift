import Foundation

extension MessagesReporter {
    /// Writes the test case of a story, its suggestions, and each attempt's
    /// envelopes: the bulk of the stream, so the envelopes of every step
    /// are written through ``JSONWriter`` (the same text ``JSONValue``
    /// makes); the rare ones (attachments, errors, arguments) are built as
    /// ``JSONValue``s.
    ///
    /// When no step of any attempt attached anything or failed with an
    /// error (nearly every story), the attempts' envelopes are not written
    /// now: their numbers go after the test case as a ``StepsRecord``,
    /// written out when the stream is assembled. Returns the length of
    /// that record (0 when there is none).
    /// The `testCase` envelope goes to `head`, apart: the stream gives
    /// every test case before the first story's attempts. A suggestion
    /// for an undefined step follows its `testStepStarted`, as Cucumber's.
    mutating func testCase(_ result: StoryResult, pickle: PickleIDs, head out: inout [UInt8], into attempts: inout [UInt8]) -> Int {
        // The test case: the last attempt's test steps.
        let caseID = runIDs.nextNumber()
        var stepIDs: [Int] = []
        stepIDs.reserveCapacity(result.testSteps.count)
        JSONWriter.write(into: &out) { json in
            json.beginObject()
            json.key("testCase")
            json.beginObject()
            json.key("id")
            json.string { marker.write(.run, caseID, into: &$0) }
            json.key("pickleId")
            pickle.writeID(into: &json)
            json.key("testSteps")
            json.beginArray()
            var stepIndex = 0
            // Test steps are read in place, by index: a `for` loop would
            // copy every step's result.
            for index in result.testSteps.indices {
                let id = runIDs.nextNumber()
                stepIDs.append(id)
                json.beginObject()
                json.key("id")
                json.string { marker.write(.run, id, into: &$0) }
                if let hook = result.testSteps[index].hookResult {
                    json.key("hookId")
                    json.string(hookID(hook))
                } else if let (firstMatch, others, text) = result.testSteps[index].matches {
                    json.key("pickleStepId")
                    pickle.writeStepID(stepIndex, into: &json)
                    stepIndex += 1
                    testStepMatches(firstMatch, others: others, text: text, into: &json)
                }
                json.endObject()
            }
            json.endArray()
            json.key("testRunStartedId")
            json.string { marker.write(.run, 1, into: &$0) }
            json.endObject()
            json.endObject()
        }
        out.append(UInt8(ascii: "\n"))
        return writeAttempts(result, pickle: pickle, caseID: caseID, stepIDs: stepIDs, into: &attempts)
    }

    /// A test step's `stepDefinitionIds` and `stepMatchArgumentsLists`:
    /// the match, then the others that matched (position -1, then from
    /// 0), no array of them made.
    private func testStepMatches(_ firstMatch: MatchInfo?, others: [MatchInfo], text: String, into json: inout JSONWriter) {
        json.key("stepDefinitionIds")
        json.beginArray()
        // The match's definition, looked up once for both lists (the
        // others matched only for an ambiguous step).
        let firstKnown = firstMatch.flatMap { known($0) }
        for position in -1..<others.count {
            guard let match = position < 0 ? firstMatch : others[position],
                let number = position < 0 ? firstKnown?.number ?? definitionNumbers[match.key] : definitionNumber(match)
            else { continue }
            json.string { marker.write(.definition, number, into: &$0) }
        }
        json.endArray()
        json.key("stepMatchArgumentsLists")
        json.beginArray()
        for position in -1..<others.count {
            guard let match = position < 0 ? firstMatch : others[position] else { continue }
            let known = position < 0 ? firstKnown : known(match)
            Self.writeMatchArguments(match, layout: known?.layout ?? GroupLayout(registered[match.key]), text: text, into: &json)
        }
        json.endArray()
    }

    /// A `suggestion` for the test step at `index` of an attempt when it is
    /// an undefined story step (`storyStep`: its place among the story's steps).
    private mutating func writeSuggestion(_ testStep: TestStepResult, storyStep: Int, pickle: PickleIDs, into json: inout JSONWriter) {
        guard testStep.stepStatus == .undefined, storyStep < pickle.stepCount, case .step(let step) = testStep else { return }
        json.value(Self.envelope("suggestion", .object([
            ("id", .string(marker.text(.run, runIDs.nextNumber()))), ("pickleStepId", .string(pickle.stepID(storyStep))),
            ("snippets", .array([.object([("language", .string("swift")), ("code", .string(step.snippet ?? Snippet(for: step.step).code()))])])),
        ])))
        json.lineEnd()
    }

    /// Each attempt's envelopes, or their ``StepsRecord``; returns the
    /// record's length (0 when there is none).
    private mutating func writeAttempts(
        _ result: StoryResult, pickle: PickleIDs, caseID: Int, stepIDs: [Int], into out: inout [UInt8]
    ) -> Int {
        let attempts = result.allAttempts
        if StepsRecord.fits(attempts) {
            return StepsRecord.write(
                attempts, caseID: caseID, stepIDs: stepIDs, last: result.testSteps, ids: &runIDs, clock: &clock, into: &out)
        }
        let marker = marker
        let id = { (json: inout JSONWriter, number: Int) in json.string { marker.write(.run, number, into: &$0) } }
        JSONWriter.write(into: &out) { json in
            for (number, attempt) in attempts.enumerated() {
                let startedID = runIDs.nextNumber()
                let caseStart = clock.nanoseconds
                Self.writeTestCaseStarted(attempt: number, startedID: startedID, caseID: caseID, clock: clock, id: id, into: &json)
                var storyStep = -1
                for index in attempt.testSteps.indices {
                    if attempt.testSteps[index].stepStatus != nil { storyStep += 1 }
                    // An earlier attempt's test steps are the test case's
                    // when they have the same shape; else they are matched in order.
                    let isSameShape = attempt.testSteps.count == result.testSteps.count && index < stepIDs.count
                    guard let stepID = isSameShape
                        ? stepIDs[index] : Self.testStepID(attempt.testSteps[index], index: index, attempt: attempt.testSteps, last: result.testSteps, ids: stepIDs)
                    else { continue }
                    Self.writeTestStepStarted(startedID: startedID, stepID: stepID, clock: clock, id: id, into: &json)
                    if number == attempts.count - 1 {
                        writeSuggestion(attempt.testSteps[index], storyStep: storyStep, pickle: pickle, into: &json)
                    }
                    if !attempt.testSteps[index].attachments.isEmpty {
                        let references: [(String, JSONValue)] = [
                            ("testCaseStartedId", .string(marker.text(.run, startedID))), ("testStepId", .string(marker.text(.run, stepID))),
                        ]
                        for attachment in attempt.testSteps[index].attachments {
                            json.value(Self.envelope("attachment", Self.attachment(attachment, at: references, clock: clock)))
                            json.lineEnd()
                        }
                    }
                    clock.nanoseconds &+= attempt.testSteps[index].duration
                    Self.writeTestStepFinished(startedID: startedID, stepID: stepID, clock: clock, id: id, into: &json) { json in
                        if attempt.testSteps[index].error == nil {
                            Self.writePlainResult(duration: attempt.testSteps[index].duration, status: attempt.testSteps[index].status, into: &json)
                        } else {
                            json.value(Self.result(attempt.testSteps[index]))
                        }
                    }
                }
                clock.nanoseconds = max(clock.nanoseconds, caseStart &+ attempt.duration)
                Self.writeTestCaseFinished(startedID: startedID, willBeRetried: number < attempts.count - 1, clock: clock, id: id, into: &json)
            }
        }
        return 0
    }
}

/// The envelopes of an attempt, each a line: `id` writes an id of the
/// run's series (a marker as the run goes, a number when the stream is
/// assembled).
extension MessagesReporter {
    /// A `testCaseStarted` envelope.
    @inline(__always)
    static func writeTestCaseStarted(
        attempt: Int, startedID: Int, caseID: Int, clock: Clock, id: (inout JSONWriter, Int) -> Void, into json: inout JSONWriter
    ) {
        json.beginObject()
        json.key("testCaseStarted")
        json.beginObject()
        json.key("attempt")
        json.integer(attempt)
        json.key("id")
        id(&json, startedID)
        json.key("testCaseId")
        id(&json, caseID)
        json.key("timestamp")
        clock.writeTimestamp(into: &json)
        json.endObject()
        json.endObject()
        json.lineEnd()
    }

    /// A `testStepStarted` envelope.
    @inline(__always)
    static func writeTestStepStarted(startedID: Int, stepID: Int, clock: Clock, id: (inout JSONWriter, Int) -> Void, into json: inout JSONWriter) {
        json.beginObject()
        json.key("testStepStarted")
        json.beginObject()
        json.key("testCaseStartedId")
        id(&json, startedID)
        json.key("testStepId")
        id(&json, stepID)
        json.key("timestamp")
        clock.writeTimestamp(into: &json)
        json.endObject()
        json.endObject()
        json.lineEnd()
    }

    /// A `testStepFinished` envelope, its `testStepResult` written by `result`.
    @inline(__always)
    static func writeTestStepFinished(
        startedID: Int, stepID: Int, clock: Clock, id: (inout JSONWriter, Int) -> Void, into json: inout JSONWriter,
        result: (inout JSONWriter) -> Void
    ) {
        json.beginObject()
        json.key("testStepFinished")
        json.beginObject()
        json.key("testCaseStartedId")
        id(&json, startedID)
        json.key("testStepId")
        id(&json, stepID)
        json.key("testStepResult")
        result(&json)
        json.key("timestamp")
        clock.writeTimestamp(into: &json)
        json.endObject()
        json.endObject()
        json.lineEnd()
    }

    /// A `testCaseFinished` envelope.
    @inline(__always)
    static func writeTestCaseFinished(
        startedID: Int, willBeRetried: Bool, clock: Clock, id: (inout JSONWriter, Int) -> Void, into json: inout JSONWriter
    ) {
        json.beginObject()
        json.key("testCaseFinished")
        json.beginObject()
        json.key("testCaseStartedId")
        id(&json, startedID)
        json.key("timestamp")
        clock.writeTimestamp(into: &json)
        json.key("willBeRetried")
        json.bool(willBeRetried)
        json.endObject()
        json.endObject()
        json.lineEnd()
    }

    /// The `testStepResult` of a test step without an error.
    @inline(__always)
    static func writePlainResult(duration: UInt64, status: StepStatus, into json: inout JSONWriter) {
        json.beginObject()
        json.key("duration")
        Clock.writeDuration(duration, into: &json)
        json.key("status")
        json.string(status.messagesName)
        json.endObject()
    }
}

extension TestStepResult {
    /// A story step's match, the others that matched, and its text; nil
    /// for a hook. (Taken alone: a `switch` on a test step in an array
    /// copies the step's whole result.)
    var matches: (match: MatchInfo?, others: [MatchInfo], text: String)? {
        if case .step(let step) = self { (step.match, step.alsoMatched, step.step.text) } else { nil }
    }
}

extension MessagesReporter.IDMarker {
    /// Appends the marker of an id as the JSON writer escapes it, without
    /// its quotes: what ``MessagesReporter/resolving(_:marker:bases:into:)`` finds.
    func write(_ series: Series, _ number: Int, file: Int = 0, into out: inout [UInt8]) {
        out.literal("\\u0001#")
        appendRest(series, number, file: file, into: &out)
    }
}

extension MessagesReporter.Clock {
    /// ``timestamp`` as JSON text.
    @inline(__always)
    func writeTimestamp(into json: inout JSONWriter) {
        let total = startNanos &+ Int64(clamping: nanoseconds)
        json.beginObject()
        json.key("seconds")
        json.integer(total / 1_000_000_000)
        json.key("nanos")
        json.integer(total % 1_000_000_000)
        json.endObject()
    }

    /// ``json(_:)`` as JSON text.
    @inline(__always)
    static func writeDuration(_ duration: UInt64, into json: inout JSONWriter) {
        json.beginObject()
        json.key("seconds")
        json.integer(Int64(duration / 1_000_000_000))
        json.key("nanos")
        json.integer(Int64(duration % 1_000_000_000))
        json.endObject()
    }
}

extension StepStatus {
    /// The status as Messages name it: `PASSED`, `UNDEFINED`…
    var messagesName: StaticString {
        switch self {
        case .passed: "PASSED"
        case .failed: "FAILED"
        case .undefined: "UNDEFINED"
        case .skipped: "SKIPPED"
        case .ambiguous: "AMBIGUOUS"
        case .pending: "PENDING"
        }
    }
}

extension [UInt8] {
    /// Appends text known when storyrun was built.
    mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }
}
