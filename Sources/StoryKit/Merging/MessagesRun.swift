import Foundation

/// One run as its Cucumber Messages stream tells it: its stories with every
/// attempt, its run hooks, the story files it rejected, its step
/// definitions (and which ones stories used), and what else failed it.
///
/// The stories are the run's own: each pickle's story is parsed again from
/// the `source` the stream holds, so steps, tables, doc strings, tags and
/// places are what the run had. Envelopes are read in any order the schema
/// allows; every reference between them is checked.
struct MessagesRun {
    /// The stories that ran, in the order they finished.
    var results: [StoryResult] = []
    /// The before-run and after-run hooks, in the order they finished.
    var runHooks: [HookResult] = []
    /// The story files the run rejected.
    var rejectedFiles: [RejectedFile] = []
    /// Every step definition the stream names, in its order.
    var definitions: [UnusedDefinition] = []
    /// The definitions a story used.
    var used: Set<MatchInfo.Key> = []
    /// The stories planned (a test case) that never started.
    var notRunStories: [SourceLocation] = []
    /// What else failed the run (``RunOutcomeNote``), if anything.
    var note = RunOutcomeNote()
    /// Whether the run said it succeeded (`testRunFinished.success`).
    var success = true
    /// The story files in the order their `source` came.
    var files: [String] = []

    /// Reads a stream's envelopes.
    /// - Throws: A ``Diagnostic`` at the line of an envelope that names
    ///   what the stream does not have, or has a value no run writes.
    static func read(_ lines: [MessagesReader.Line], path: String) throws(Diagnostic) -> MessagesRun {
        var index = MessagesIndex(path: path)
        for line in lines { try index.add(line) }
        var builder = MessagesRunBuilder(index: index)
        return try builder.build()
    }
}

/// A stream's envelopes by id: the first pass of ``MessagesRun/read(_:path:)``.
struct MessagesIndex {
    let path: String
    var sources: [String: String] = [:]
    var sourceOrder: [String] = []
    var pickles: [String: (pickle: MessagesEnvelope.Pickle, line: Int)] = [:]
    var pickleOrder: [String] = []
    var definitions: [String: UnusedDefinition] = [:]
    var definitionOrder: [String] = []
    var hooks: [String: (kind: String, location: SourceLocation)] = [:]
    var runHooksStarted: [String: (hookId: String, line: Int)] = [:]
    var runHooksFinished: [(finished: MessagesEnvelope.TestRunHookFinished, line: Int)] = []
    var testCases: [String: (testCase: MessagesEnvelope.TestCase, line: Int)] = [:]
    var testCaseOrder: [String] = []
    var started: [String: (started: MessagesEnvelope.TestCaseStarted, line: Int)] = [:]
    var stepsFinished: [String: [String: (result: MessagesEnvelope.TestStepResult, line: Int)]] = [:]
    var finished: [(finished: MessagesEnvelope.TestCaseFinished, line: Int)] = []
    /// Attachments by the test case attempt and test step, or run hook, they belong to.
    var attachments: [String: [Attachment]] = [:]
    var suggestions: [String: String] = [:]
    var parseErrors: [(error: MessagesEnvelope.ParseError, line: Int)] = []
    var runFinished: (finished: MessagesEnvelope.TestRunFinished, line: Int)?

    init(path: String) {
        self.path = path
    }

    /// Files an envelope by its ids.
    mutating func add(_ line: MessagesReader.Line) throws(Diagnostic) {
        let envelope = line.envelope
        if let source = envelope.source {
            if sources.updateValue(source.data, forKey: source.uri) == nil { sourceOrder.append(source.uri) }
        }
        if let pickle = envelope.pickle {
            if pickles.updateValue((pickle, line.number), forKey: pickle.id) == nil { pickleOrder.append(pickle.id) }
        }
        if let definition = envelope.stepDefinition {
            definitions[definition.id] = UnusedDefinition(
                pattern: definition.pattern.source, location: try place(definition.sourceReference, line: line.number))
            definitionOrder.append(definition.id)
        }
        if let hook = envelope.hook {
            hooks[hook.id] = (try Self.hookKind(hook.type, at: line.number, path: path), try place(hook.sourceReference, line: line.number))
        }
        if let started = envelope.testRunHookStarted { runHooksStarted[started.id] = (started.hookId, line.number) }
        if let finished = envelope.testRunHookFinished { runHooksFinished.append((finished, line.number)) }
        if let testCase = envelope.testCase {
            testCases[testCase.id] = (testCase, line.number)
            testCaseOrder.append(testCase.id)
        }
        if let started = envelope.testCaseStarted {
            guard started.attempt >= 0 else { throw problem(line.number, "testCaseStarted.attempt is \(started.attempt), not 0 or more") }
            self.started[started.id] = (started, line.number)
        }
        if let step = envelope.testStepFinished {
            stepsFinished[step.testCaseStartedId, default: [:]][step.testStepId] = (step.testStepResult, line.number)
        }
        if let finished = envelope.testCaseFinished { self.finished.append((finished, line.number)) }
        if let attachment = envelope.attachment { try add(attachment, line: line.number) }
        if let suggestion = envelope.suggestion, let snippet = suggestion.snippets.first { suggestions[suggestion.pickleStepId] = snippet.code }
        if let error = envelope.parseError { parseErrors.append((error, line.number)) }
        if let finished = envelope.testRunFinished { runFinished = (finished, line.number) }
    }

    private mutating func add(_ attachment: MessagesEnvelope.Attachment, line: Int) throws(Diagnostic) {
        guard let encoding = Attachment.Encoding(rawValue: attachment.contentEncoding) else {
            throw problem(line, "attachment.contentEncoding is \"\(attachment.contentEncoding)\", not IDENTITY or BASE64")
        }
        let read = Attachment(body: attachment.body, encoding: encoding, mediaType: attachment.mediaType, name: attachment.fileName)
        if let hook = attachment.testRunHookStartedId {
            attachments["run hook " + hook, default: []].append(read)
        } else if let attempt = attachment.testCaseStartedId, let step = attachment.testStepId {
            attachments[attempt + " " + step, default: []].append(read)
        }
    }

    /// A source reference's place: its file and line.
    private func place(_ reference: MessagesEnvelope.SourceReference, line: Int) throws(Diagnostic) -> SourceLocation {
        guard let uri = reference.uri, let location = reference.location, location.line >= 0 else {
            throw problem(line, "the sourceReference has no uri and line")
        }
        return SourceLocation(file: uri, line: location.line)
    }

    /// The hook kind storyrun names for a `hook`'s type.
    static func hookKind(_ type: String?, at line: Int, path: String) throws(Diagnostic) -> String {
        switch type {
        case "BEFORE_TEST_RUN": return "before run"
        case "AFTER_TEST_RUN": return "after run"
        case "BEFORE_TEST_CASE", nil: return "before story"
        case "AFTER_TEST_CASE": return "after story"
        case "BEFORE_TEST_STEP": return "before step"
        case "AFTER_TEST_STEP": return "after step"
        case let other?: throw MessagesReader.problem(path, line: line, "hook.type \"\(other)\" is not a hook type")
        }
    }

    func problem(_ line: Int, _ what: String) -> Diagnostic {
        MessagesReader.problem(path, line: line, what)
    }
}
