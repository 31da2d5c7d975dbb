import Foundation

/// The second pass of ``MessagesRun/read(_:path:)``: the stories, hooks
/// and rejected files, made from the envelopes filed by id.
struct MessagesRunBuilder {
    let index: MessagesIndex
    /// The stream's step definitions, in its order.
    private let definitions: [UnusedDefinition]
    /// Each story file's stories, by line, parsed from its `source` once.
    private var stories: [String: [Int: Story]] = [:]

    init(index: MessagesIndex) {
        self.index = index
        definitions = index.definitionOrder.compactMap { index.definitions[$0] }
    }

    mutating func build() throws(Diagnostic) -> MessagesRun {
        var run = MessagesRun()
        run.files = index.sourceOrder
        run.definitions = index.definitionOrder.compactMap { index.definitions[$0] }
        // The attempts of each test case, in the order they finished.
        var attempts: [String: [StoryAttempt]] = [:]
        var startedCases: Set<String> = []
        for (finished, line) in index.finished {
            guard let (started, _) = index.started[finished.testCaseStartedId] else {
                throw index.problem(line, "testCaseFinished names the testCaseStarted \"\(finished.testCaseStartedId)\", which the stream does not have")
            }
            guard let (testCase, _) = index.testCases[started.testCaseId] else {
                throw index.problem(line, "testCaseStarted \"\(started.id)\" names the testCase \"\(started.testCaseId)\", which the stream does not have")
            }
            startedCases.insert(testCase.id)
            let story = try story(of: testCase, line: line)
            let testSteps = try self.testSteps(testCase, attempt: started.id, story: story, run: &run)
            // The story's time is from its start to its end (its steps'
            // durations leave out what ran between them).
            var duration = testSteps.reduce(0) { $0 &+ $1.duration }
            if let start = started.timestamp?.nanoseconds, let end = finished.timestamp?.nanoseconds, end >= start { duration = end - start }
            let attempt = StoryAttempt(status: Self.status(of: testSteps), testSteps: testSteps, duration: duration)
            if finished.willBeRetried {
                attempts[testCase.id, default: []].append(attempt)
                continue
            }
            var result = StoryResult(story: story, status: attempt.status, testSteps: testSteps, duration: attempt.duration)
            result.earlierAttempts = attempts[testCase.id] ?? []
            run.results.append(result)
        }
        for id in index.testCaseOrder where !startedCases.contains(id) {
            let (testCase, line) = index.testCases[id]!
            run.notRunStories.append(try story(of: testCase, line: line).location)
        }
        // A pickle with no test case was selected and never run (Cucumber
        // gives the stories after a failed BeforeAll so).
        let planned = Set(index.testCases.values.map(\.testCase.pickleId))
        for id in index.pickleOrder where !planned.contains(id) {
            run.notRunStories.append(try story(ofPickle: id, line: index.pickles[id]!.line).location)
        }
        run.runHooks = try runHooks()
        run.rejectedFiles = rejectedFiles()
        if let (finished, line) = index.runFinished {
            run.success = finished.success
            if let exception = finished.exception {
                do {
                    run.note = try RunOutcomeNote(reading: exception) ?? RunOutcomeNote(otherFailures: 1)
                } catch {
                    throw index.problem(line, error.problem)
                }
            }
        }
        return run
    }

    /// A test case's story, parsed again from its file's `source`.
    private mutating func story(of testCase: MessagesEnvelope.TestCase, line: Int) throws(Diagnostic) -> Story {
        guard index.pickles[testCase.pickleId] != nil else {
            throw index.problem(line, "the testCase names the pickle \"\(testCase.pickleId)\", which the stream does not have")
        }
        return try story(ofPickle: testCase.pickleId, line: line)
    }

    /// A pickle's story, parsed again from its file's `source`.
    private mutating func story(ofPickle id: String, line: Int) throws(Diagnostic) -> Story {
        let (pickle, pickleLine) = index.pickles[id]!
        if stories[pickle.uri] == nil {
            guard let text = index.sources[pickle.uri] else {
                throw index.problem(pickleLine, "the pickle's uri \(pickle.uri) has no source in the stream")
            }
            let parsed = StoryLoader.parse(text, path: pickle.uri).stories
            stories[pickle.uri] = Dictionary(parsed.map { ($0.location.line, $0) }) { first, _ in first }
        }
        guard let line = pickle.location?.line, let story = stories[pickle.uri]?[line] else {
            throw index.problem(pickleLine, "the pickle \"\(pickle.name)\" is at no story of its source \(pickle.uri)")
        }
        guard story.steps.count == pickle.steps.count else {
            throw index.problem(pickleLine, "the pickle \"\(pickle.name)\" has \(pickle.steps.count) steps; its story in \(pickle.uri) has \(story.steps.count)")
        }
        return story
    }

    /// An attempt's test steps, as far as they finished.
    private func testSteps(
        _ testCase: MessagesEnvelope.TestCase, attempt: String, story: Story, run: inout MessagesRun
    ) throws(Diagnostic) -> [TestStepResult] {
        let pickleSteps = index.pickles[testCase.pickleId]!.pickle.steps
        var results: [TestStepResult] = []
        let finished = index.stepsFinished[attempt] ?? [:]
        for testStep in testCase.testSteps {
            guard let (result, line) = finished[testStep.id] else { continue }
            var outcome = try Outcome(result, line: line, index: index)
            let attachments = index.attachments[attempt + " " + testStep.id] ?? []
            if let hookId = testStep.hookId {
                guard let hook = index.hooks[hookId] else { throw index.problem(line, "the test step's hook \"\(hookId)\" is not in the stream") }
                // Messages gives the hook's own message; the run words it
                // with the hook and its place first (StoryExecution).
                if var error = outcome.error, !error.message.hasPrefix("the \(hook.kind) hook") {
                    error.message = "the \(hook.kind) hook at \(hook.location.displayFileAndLine) failed: \(error.message)"
                    outcome.error = error
                }
                results.append(.hook(HookResult(
                    kind: hook.kind, location: hook.location, status: outcome.status, error: outcome.error, duration: outcome.duration,
                    attachments: attachments)))
                continue
            }
            guard let stepId = testStep.pickleStepId, let stepIndex = pickleSteps.firstIndex(where: { $0.id == stepId }) else {
                throw index.problem(line, "the test step \"\(testStep.id)\" names neither a hook nor a step of its pickle")
            }
            var matches: [MatchInfo] = []
            for (number, id) in (testStep.stepDefinitionIds ?? []).enumerated() {
                guard let definition = index.definitions[id] else {
                    throw index.problem(line, "the test step \"\(testStep.id)\" names the step definition \"\(id)\", which the stream does not have")
                }
                let arguments = testStep.stepMatchArgumentsLists.flatMap { number < $0.count ? $0[number] : nil }
                var match = MatchInfo(
                    pattern: definition.pattern, location: definition.location, arguments: arguments?.stepMatchArguments.map(\.group.value) ?? [])
                // Placed where the stream says (its top-level groups), checked against the text.
                match.spans = GroupSpans(
                    placing: match.arguments, starts: arguments?.stepMatchArguments.map(\.group.start) ?? [], in: story.steps[stepIndex].text,
                    countingUTF16: true)
                matches.append(match)
                run.used.insert(MatchInfo.Key(pattern: definition.pattern, location: definition.location))
            }
            var error = outcome.error
            if outcome.status == .ambiguous, error == nil {
                // Said as the run said it (the stream gives no message).
                error = StepError(message: "\(matches.count) step definitions match this step and --strict is on")
            }
            var step = StepResult(
                step: story.steps[stepIndex], status: outcome.status, duration: outcome.duration, error: error, match: matches.first,
                alsoMatched: Array(matches.dropFirst()), snippet: index.suggestions[stepId], attachments: attachments)
            step.snippet = outcome.status == .undefined ? index.suggestions[stepId] : nil
            if outcome.status == .undefined {
                // Found again as the run found it, among the same definitions.
                step.didYouMean = Suggestion.closest(to: step.step, in: definitions, pattern: \.pattern).map {
                    MatchInfo(pattern: $0.pattern, location: $0.location, arguments: [])
                }
            }
            results.append(.step(step))
        }
        return results
    }

    /// The before-run and after-run hooks, in the order they finished.
    private func runHooks() throws(Diagnostic) -> [HookResult] {
        var hooks: [HookResult] = []
        for (finished, line) in index.runHooksFinished {
            guard let started = index.runHooksStarted[finished.testRunHookStartedId], let hook = index.hooks[started.hookId] else {
                throw index.problem(line, "testRunHookFinished names a testRunHookStarted (or hook) the stream does not have")
            }
            var outcome = try Outcome(finished.result, line: line, index: index)
            // Messages gives a failed hook's own message; the run's other
            // reports say which hook failed first, as the runner words it.
            if var error = outcome.error, !error.message.hasPrefix("the \(hook.kind) hook") {
                error.message = "the \(hook.kind) hook failed: \(error.message)"
                outcome.error = error
            }
            hooks.append(HookResult(
                kind: hook.kind, location: hook.location, status: outcome.status, error: outcome.error, duration: outcome.duration,
                attachments: index.attachments["run hook " + finished.testRunHookStartedId] ?? []))
        }
        return hooks
    }

    /// The rejected story files: their problems as the run gave them,
    /// found again by parsing the file's `source` (else from the stream's
    /// messages).
    private func rejectedFiles() -> [RejectedFile] {
        var files: [RejectedFile] = []
        for (error, _) in index.parseErrors {
            let uri = error.source.uri ?? ""
            if files.contains(where: { $0.path == uri }) { continue }
            if let text = index.sources[uri] {
                let problems = StoryLoader.parse(text, path: uri).diagnostics.filter { $0.severity == .error }
                if !problems.isEmpty {
                    files.append(RejectedFile(path: uri, problems: problems))
                    continue
                }
            }
            let problems = index.parseErrors.filter { ($0.error.source.uri ?? "") == uri }.map { error, _ in
                Diagnostic(
                    at: error.source.location.map { SourceLocation(file: uri, line: $0.line, column: $0.column ?? 0) },
                    problem: Self.withoutPlace(error.message))
            }
            files.append(RejectedFile(path: uri, problems: problems))
        }
        return files
    }

    /// A parse error's message without the `(line:column): ` Cucumber puts first.
    private static func withoutPlace(_ message: String) -> String {
        guard message.hasPrefix("("), let end = message.range(of: "): ") else { return message }
        return String(message[end.upperBound...])
    }

    /// A story's status from its test steps, as the run decides it.
    static func status(of testSteps: [TestStepResult]) -> StoryStatus {
        if testSteps.contains(where: \.isFailure) { return .failed }
        if testSteps.contains(where: { $0.stepStatus == .undefined }) { return .undefined }
        if testSteps.contains(where: { $0.status == .pending }) { return .pending }
        // Only a dry run or skip(_:) skips a step of a story that did not
        // fail, and was neither undefined nor pending.
        if testSteps.contains(where: { $0.status == .skipped }) { return .skipped }
        return .passed
    }
}

/// A test step's result as the stream gives it, checked.
private struct Outcome {
    var status: StepStatus
    var duration: UInt64
    var error: StepError?

    init(_ result: MessagesEnvelope.TestStepResult, line: Int, index: MessagesIndex) throws(Diagnostic) {
        guard let status = StepStatus(rawValue: result.status.lowercased()), result.status == result.status.uppercased() else {
            throw index.problem(line, "the status \"\(result.status)\" is not one of PASSED, FAILED, SKIPPED, PENDING, UNDEFINED, AMBIGUOUS")
        }
        let duration = result.duration
        guard let nanoseconds = duration.nanoseconds else {
            throw index.problem(line, "the duration \(duration.seconds) s \(duration.nanos) ns is not a duration (seconds ≥ 0, 0 ≤ nanos < 10⁹)")
        }
        self.status = status
        self.duration = nanoseconds
        if let exception = result.exception {
            let message = exception.message ?? ""
            var location: SourceLocation?
            if let full = result.message, full.hasPrefix(message) {
                let rest = full.dropFirst(message.count)
                if rest.hasPrefix("\nat "), let line = rest.dropFirst(4).split(separator: "\n").first {
                    location = CucumberJSONDecoder.place(String(line))
                }
            }
            error = StepError(message: message, location: location)
        } else if let message = result.message {
            error = StepError(message: message)
        }
    }
}
