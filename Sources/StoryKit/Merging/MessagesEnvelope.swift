/// The parts of a Cucumber Messages envelope `storyrun merge` reads, as the
/// official schema (messages 27) names them. Keys it does not read are
/// ignored; a key it reads with a value of the wrong type is an error.
struct MessagesEnvelope {
    var meta: Meta?
    var source: Source?
    var pickle: Pickle?
    var stepDefinition: StepDefinition?
    var hook: Hook?
    var testRunHookStarted: TestRunHookStarted?
    var testRunHookFinished: TestRunHookFinished?
    var testCase: TestCase?
    var testCaseStarted: TestCaseStarted?
    var testStepFinished: TestStepFinished?
    var testCaseFinished: TestCaseFinished?
    var attachment: Attachment?
    var suggestion: Suggestion?
    var parseError: ParseError?
    var testRunFinished: TestRunFinished?

    struct Meta {
        var protocolVersion: String
    }

    struct Source {
        var uri: String
        var data: String
    }

    struct Location {
        var line: Int
        var column: Int?
    }

    struct Pickle {
        struct Step {
            var id: String
            var text: String
        }
        var id: String
        var uri: String
        var location: Location?
        var name: String
        var steps: [Step]
    }

    struct SourceReference {
        var uri: String?
        var location: Location?
    }

    struct StepDefinition {
        struct Pattern {
            var source: String
            var type: String
        }
        var id: String
        var pattern: Pattern
        var sourceReference: SourceReference
    }

    struct Hook {
        var id: String
        var type: String?
        var sourceReference: SourceReference
    }

    struct TestRunHookStarted {
        var id: String
        var hookId: String
    }

    struct TestRunHookFinished {
        var testRunHookStartedId: String
        var result: TestStepResult
    }

    /// A duration, or a timestamp (seconds since 1970): the schema's two
    /// have the same fields.
    struct Duration {
        var seconds: Int64
        var nanos: Int64

        /// In nanoseconds; nil when it is not a duration (seconds ≥ 0,
        /// 0 ≤ nanos < 10⁹, within 292 years).
        var nanoseconds: UInt64? {
            guard seconds >= 0, (0..<1_000_000_000).contains(nanos), seconds < Int64(UInt64.max / 1_000_000_000 / 2) else { return nil }
            return UInt64(seconds) * 1_000_000_000 + UInt64(nanos)
        }
    }

    struct Exception {
        var type: String
        var message: String?
        var stackTrace: String?
    }

    struct TestStepResult {
        var duration: Duration
        var status: String
        var message: String?
        var exception: Exception?
    }

    struct Group {
        var value: String?
        /// Where the group starts in the step text, in UTF-16 code units.
        var start: Int?
    }

    struct StepMatchArgument {
        var group: Group
    }

    struct StepMatchArgumentsList {
        var stepMatchArguments: [StepMatchArgument]
    }

    struct TestStep {
        var id: String
        var hookId: String?
        var pickleStepId: String?
        var stepDefinitionIds: [String]?
        var stepMatchArgumentsLists: [StepMatchArgumentsList]?
    }

    struct TestCase {
        var id: String
        var pickleId: String
        var testSteps: [TestStep]
    }

    struct TestCaseStarted {
        var id: String
        var testCaseId: String
        var attempt: Int
        var timestamp: Duration?
    }

    struct TestStepFinished {
        var testCaseStartedId: String
        var testStepId: String
        var testStepResult: TestStepResult
    }

    struct TestCaseFinished {
        var testCaseStartedId: String
        var willBeRetried: Bool
        var timestamp: Duration?
    }

    struct Attachment {
        var body: String
        var contentEncoding: String
        var mediaType: String
        var fileName: String?
        var testCaseStartedId: String?
        var testStepId: String?
        var testRunHookStartedId: String?
    }

    struct Suggestion {
        struct Snippet {
            var code: String
        }
        var pickleStepId: String
        var snippets: [Snippet]
    }

    struct ParseError {
        var source: SourceReference
        var message: String
    }

    struct TestRunFinished {
        var success: Bool
        var exception: Exception?
    }
}
