import Foundation

extension MessagesReporter {
    /// Writes the test case of a story, its suggestions, and each attempt's
    /// envelopes: the bulk of the stream, so the envelopes of every step
    /// are written straight as bytes (the same text ``JSONValue`` makes);
    /// the rare ones (attachments, errors, arguments) go through it.
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
        out.literal(#"{"testCase":{"id":""#)
        marker.write(.run, caseID, into: &out)
        out.literal(#"","pickleId":"#)
        pickle.writeID(into: &out)
        out.literal(#","testSteps":["#)
        var stepIndex = 0
        // Test steps are read in place, by index, here and below: a `for`
        // loop would copy every step's result.
        for index in result.testSteps.indices {
            let id = runIDs.nextNumber()
            stepIDs.append(id)
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.literal(#"{"id":""#)
            marker.write(.run, id, into: &out)
            if let hook = result.testSteps[index].hookResult {
                out.literal(#"","hookId":"#)
                JSONValue.writeString(hookID(hook), into: &out)
                out.literal("}")
            } else if let (firstMatch, others, text) = result.testSteps[index].matches {
                out.literal(#"","pickleStepId":"#)
                pickle.writeStepID(stepIndex, into: &out)
                stepIndex += 1
                // The match, then the others that matched (position -1, then
                // from 0): no array of them made, and no nested function,
                // which would copy the whole reporter for each call.
                out.literal(#","stepDefinitionIds":["#)
                // The match's definition, looked up once for both lists
                // (the others matched only for an ambiguous step).
                let firstKnown = firstMatch.flatMap { known($0) }
                var isFirst = true
                for position in -1..<others.count {
                    guard let match = position < 0 ? firstMatch : others[position],
                        let number = position < 0 ? firstKnown?.number ?? definitionNumbers[match.key] : definitionNumber(match)
                    else { continue }
                    if !isFirst { out.append(UInt8(ascii: ",")) }
                    isFirst = false
                    out.append(UInt8(ascii: "\""))
                    marker.write(.definition, number, into: &out)
                    out.append(UInt8(ascii: "\""))
                }
                out.literal(#"],"stepMatchArgumentsLists":["#)
                isFirst = true
                for position in -1..<others.count {
                    guard let match = position < 0 ? firstMatch : others[position] else { continue }
                    if !isFirst { out.append(UInt8(ascii: ",")) }
                    isFirst = false
                    let known = position < 0 ? firstKnown : known(match)
                    Self.writeMatchArguments(match, layout: known?.layout ?? GroupLayout(registered[match.key]), text: text, into: &out)
                }
                out.literal("]}")
            }
        }
        out.literal(#"],"testRunStartedId":""#)
        marker.write(.run, 1, into: &out)
        out.literal("\"}}\n")
        return writeAttempts(result, pickle: pickle, caseID: caseID, stepIDs: stepIDs, into: &attempts)
    }

    /// A `suggestion` for the test step at `index` of an attempt when it is
    /// an undefined story step (`storyStep`: its place among the story's steps).
    private mutating func writeSuggestion(_ testStep: TestStepResult, storyStep: Int, pickle: PickleIDs, into out: inout [UInt8]) {
        guard testStep.stepStatus == .undefined, storyStep < pickle.stepCount, case .step(let step) = testStep else { return }
        Self.line(Self.envelope("suggestion", .object([
            ("id", .string(marker.text(.run, runIDs.nextNumber()))), ("pickleStepId", .string(pickle.stepID(storyStep))),
            ("snippets", .array([.object([("language", .string("swift")), ("code", .string(step.snippet ?? Snippet(for: step.step).code()))])])),
        ])), into: &out)
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
        var reference: [UInt8] = []
        reference.reserveCapacity(96)
        for (number, attempt) in attempts.enumerated() {
            let startedID = runIDs.nextNumber()
            let caseStart = clock.nanoseconds
            out.literal(#"{"testCaseStarted":{"attempt":"#)
            JSONValue.writeInteger(Int64(number), into: &out)
            out.literal(#","id":""#)
            marker.write(.run, startedID, into: &out)
            out.literal(#"","testCaseId":""#)
            marker.write(.run, caseID, into: &out)
            out.literal(#"","timestamp":"#)
            clock.writeTimestamp(into: &out)
            out.literal("}}\n")
            var storyStep = -1
            for index in attempt.testSteps.indices {
                if attempt.testSteps[index].stepStatus != nil { storyStep += 1 }
                // An earlier attempt's test steps are the test case's
                // when they have the same shape; else they are matched in order.
                let isSameShape = attempt.testSteps.count == result.testSteps.count && index < stepIDs.count
                guard let stepID = isSameShape
                    ? stepIDs[index] : Self.testStepID(attempt.testSteps[index], index: index, attempt: attempt.testSteps, last: result.testSteps, ids: stepIDs)
                else { continue }
                // `"testCaseStartedId":"…","testStepId":"…"`
                reference.removeAll(keepingCapacity: true)
                reference.literal(#""testCaseStartedId":""#)
                marker.write(.run, startedID, into: &reference)
                reference.literal(#"","testStepId":""#)
                marker.write(.run, stepID, into: &reference)
                reference.append(UInt8(ascii: "\""))
                Self.writeTestStepStarted(reference, clock: clock, into: &out)
                if number == attempts.count - 1 {
                    writeSuggestion(attempt.testSteps[index], storyStep: storyStep, pickle: pickle, into: &out)
                }
                if !attempt.testSteps[index].attachments.isEmpty {
                    let references: [(String, JSONValue)] = [
                        ("testCaseStartedId", .string(marker.text(.run, startedID))), ("testStepId", .string(marker.text(.run, stepID))),
                    ]
                    for attachment in attempt.testSteps[index].attachments {
                        Self.line(Self.envelope("attachment", Self.attachment(attachment, at: references, clock: clock)), into: &out)
                    }
                }
                clock.nanoseconds &+= attempt.testSteps[index].duration
                Self.writeTestStepFinished(reference, clock: clock, into: &out) { out in
                    if attempt.testSteps[index].error == nil {
                        Self.writePlainResult(duration: attempt.testSteps[index].duration, status: attempt.testSteps[index].status, into: &out)
                    } else {
                        Self.result(attempt.testSteps[index]).write(into: &out)
                    }
                }
            }
            clock.nanoseconds = max(clock.nanoseconds, caseStart &+ attempt.duration)
            out.literal(#"{"testCaseFinished":{"testCaseStartedId":""#)
            marker.write(.run, startedID, into: &out)
            out.literal(#"","timestamp":"#)
            clock.writeTimestamp(into: &out)
            out.literal(number < attempts.count - 1 ? #","willBeRetried":true}}"# : #","willBeRetried":false}}"#)
            out.append(UInt8(ascii: "\n"))
        }
        return 0
    }
}

extension MessagesReporter {
    /// A `testStepStarted` envelope; `reference` is the step's
    /// `"testCaseStartedId":"…","testStepId":"…"`.
    static func writeTestStepStarted(_ reference: [UInt8], clock: Clock, into out: inout [UInt8]) {
        out.literal(#"{"testStepStarted":{"#)
        out += reference
        out.literal(#","timestamp":"#)
        clock.writeTimestamp(into: &out)
        out.literal("}}\n")
    }

    /// A `testStepFinished` envelope, its `testStepResult` written by `result`.
    static func writeTestStepFinished(
        _ reference: [UInt8], clock: Clock, into out: inout [UInt8], result: (inout [UInt8]) -> Void
    ) {
        out.literal(#"{"testStepFinished":{"#)
        out += reference
        out.literal(#","testStepResult":"#)
        result(&out)
        out.literal(#","timestamp":"#)
        clock.writeTimestamp(into: &out)
        out.literal("}}\n")
    }

    /// The `testStepResult` of a test step without an error.
    static func writePlainResult(duration: UInt64, status: StepStatus, into out: inout [UInt8]) {
        out.literal(#"{"duration":"#)
        Clock.writeDuration(duration, into: &out)
        out.literal(#","status":""#)
        out.literal(status.messagesName)
        out.literal("\"}")
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
    func writeTimestamp(into out: inout [UInt8]) {
        let total = startNanos &+ Int64(clamping: nanoseconds)
        out.literal(#"{"seconds":"#)
        JSONValue.writeInteger(total / 1_000_000_000, into: &out)
        out.literal(#","nanos":"#)
        JSONValue.writeInteger(total % 1_000_000_000, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// ``json(_:)`` as JSON text.
    static func writeDuration(_ duration: UInt64, into out: inout [UInt8]) {
        out.literal(#"{"seconds":"#)
        JSONValue.writeInteger(Int64(duration / 1_000_000_000), into: &out)
        out.literal(#","nanos":"#)
        JSONValue.writeInteger(Int64(duration % 1_000_000_000), into: &out)
        out.append(UInt8(ascii: "}"))
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
