/// Reading each part of an envelope from its JSON object, with the
/// schema's types (``EnvelopeFields`` names the path of a wrong member).
extension MessagesEnvelope {
    typealias Problem = EnvelopeFields.Problem

    /// The envelope in a line's JSON value.
    init(_ value: JSONValue) throws(Problem) {
        let f = try EnvelopeFields(value, at: "")
        meta = try f.optionalObject("meta", Meta.init)
        source = try f.optionalObject("source", Source.init)
        pickle = try f.optionalObject("pickle", Pickle.init)
        stepDefinition = try f.optionalObject("stepDefinition", StepDefinition.init)
        hook = try f.optionalObject("hook", Hook.init)
        testRunHookStarted = try f.optionalObject("testRunHookStarted", TestRunHookStarted.init)
        testRunHookFinished = try f.optionalObject("testRunHookFinished", TestRunHookFinished.init)
        testCase = try f.optionalObject("testCase", TestCase.init)
        testCaseStarted = try f.optionalObject("testCaseStarted", TestCaseStarted.init)
        testStepFinished = try f.optionalObject("testStepFinished", TestStepFinished.init)
        testCaseFinished = try f.optionalObject("testCaseFinished", TestCaseFinished.init)
        attachment = try f.optionalObject("attachment", Attachment.init)
        suggestion = try f.optionalObject("suggestion", Suggestion.init)
        parseError = try f.optionalObject("parseError", ParseError.init)
        testRunFinished = try f.optionalObject("testRunFinished", TestRunFinished.init)
    }
}

extension MessagesEnvelope.Meta {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        protocolVersion = try f.string("protocolVersion")
    }
}

extension MessagesEnvelope.Source {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        uri = try f.string("uri")
        data = try f.string("data")
    }
}

extension MessagesEnvelope.Location {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        line = Int(try f.integer("line"))
        column = try f.optionalInteger("column").map { Int($0) }
    }
}

extension MessagesEnvelope.Pickle {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        id = try f.string("id")
        uri = try f.string("uri")
        location = try f.optionalObject("location", MessagesEnvelope.Location.init)
        name = try f.string("name")
        steps = try f.objects("steps") { (s: EnvelopeFields) throws(MessagesEnvelope.Problem) in
            Step(id: try s.string("id"), text: try s.string("text"))
        }
    }
}

extension MessagesEnvelope.SourceReference {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        uri = try f.optionalString("uri")
        location = try f.optionalObject("location", MessagesEnvelope.Location.init)
    }
}

extension MessagesEnvelope.StepDefinition {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        id = try f.string("id")
        pattern = try f.object("pattern") { (p: EnvelopeFields) throws(MessagesEnvelope.Problem) in
            Pattern(source: try p.string("source"), type: try p.string("type"))
        }
        sourceReference = try f.object("sourceReference", MessagesEnvelope.SourceReference.init)
    }
}

extension MessagesEnvelope.Hook {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        id = try f.string("id")
        type = try f.optionalString("type")
        sourceReference = try f.object("sourceReference", MessagesEnvelope.SourceReference.init)
    }
}

extension MessagesEnvelope.TestRunHookStarted {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        id = try f.string("id")
        hookId = try f.string("hookId")
    }
}

extension MessagesEnvelope.TestRunHookFinished {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        testRunHookStartedId = try f.string("testRunHookStartedId")
        result = try f.object("result", MessagesEnvelope.TestStepResult.init)
    }
}

extension MessagesEnvelope.Duration {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        seconds = try f.integer("seconds")
        nanos = try f.integer("nanos")
    }
}

extension MessagesEnvelope.Exception {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        type = try f.string("type")
        message = try f.optionalString("message")
        stackTrace = try f.optionalString("stackTrace")
    }
}

extension MessagesEnvelope.TestStepResult {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        duration = try f.object("duration", MessagesEnvelope.Duration.init)
        status = try f.string("status")
        message = try f.optionalString("message")
        exception = try f.optionalObject("exception", MessagesEnvelope.Exception.init)
    }
}

extension MessagesEnvelope.TestStep {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        id = try f.string("id")
        hookId = try f.optionalString("hookId")
        pickleStepId = try f.optionalString("pickleStepId")
        stepDefinitionIds = try f.optionalStrings("stepDefinitionIds")
        stepMatchArgumentsLists = try f.optionalObjects("stepMatchArgumentsLists") { (list: EnvelopeFields) throws(MessagesEnvelope.Problem) in
            MessagesEnvelope.StepMatchArgumentsList(
                stepMatchArguments: try list.objects("stepMatchArguments") { (argument: EnvelopeFields) throws(MessagesEnvelope.Problem) in
                    MessagesEnvelope.StepMatchArgument(
                        group: try argument.object("group") { (group: EnvelopeFields) throws(MessagesEnvelope.Problem) in
                            MessagesEnvelope.Group(value: try group.optionalString("value"), start: try group.optionalInteger("start").map { Int(clamping: $0) })
                        })
                })
        }
    }
}

extension MessagesEnvelope.TestCase {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        id = try f.string("id")
        pickleId = try f.string("pickleId")
        testSteps = try f.objects("testSteps", MessagesEnvelope.TestStep.init)
    }
}

extension MessagesEnvelope.TestCaseStarted {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        id = try f.string("id")
        testCaseId = try f.string("testCaseId")
        attempt = Int(try f.integer("attempt"))
        timestamp = try f.optionalObject("timestamp", MessagesEnvelope.Duration.init)
    }
}

extension MessagesEnvelope.TestStepFinished {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        testCaseStartedId = try f.string("testCaseStartedId")
        testStepId = try f.string("testStepId")
        testStepResult = try f.object("testStepResult", MessagesEnvelope.TestStepResult.init)
    }
}

extension MessagesEnvelope.TestCaseFinished {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        testCaseStartedId = try f.string("testCaseStartedId")
        willBeRetried = try f.bool("willBeRetried")
        timestamp = try f.optionalObject("timestamp", MessagesEnvelope.Duration.init)
    }
}

extension MessagesEnvelope.Attachment {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        body = try f.string("body")
        contentEncoding = try f.string("contentEncoding")
        mediaType = try f.string("mediaType")
        fileName = try f.optionalString("fileName")
        testCaseStartedId = try f.optionalString("testCaseStartedId")
        testStepId = try f.optionalString("testStepId")
        testRunHookStartedId = try f.optionalString("testRunHookStartedId")
    }
}

extension MessagesEnvelope.Suggestion {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        pickleStepId = try f.string("pickleStepId")
        snippets = try f.objects("snippets") { (s: EnvelopeFields) throws(MessagesEnvelope.Problem) in
            Snippet(code: try s.string("code"))
        }
    }
}

extension MessagesEnvelope.ParseError {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        source = try f.object("source", MessagesEnvelope.SourceReference.init)
        message = try f.string("message")
    }
}

extension MessagesEnvelope.TestRunFinished {
    init(_ f: EnvelopeFields) throws(MessagesEnvelope.Problem) {
        success = try f.bool("success")
        exception = try f.optionalObject("exception", MessagesEnvelope.Exception.init)
    }
}
