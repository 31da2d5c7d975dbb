import Foundation
import Testing
@testable import StoryKit

/// `storyrun merge` believes nothing it reads (issue 28, "merge believes
/// anything"): a shard whose report is not the shape it claims is an input
/// error (exit 2) naming the file and the place, never an empty or green run.
@Suite(.timeLimit(.minutes(10))) struct MergeInputValidationTests {
    static func merge(_ text: String, name: String = "shard.json") async throws -> (StoryKit.ExitStatus, String) {
        let path = try MergeCommandTests.temporaryFile(text, name: name)
        var lines: [String] = []
        let status = await StoryRun.run(arguments: ["merge", path], steps: [], output: { lines.append($0) })
        return (status, lines.joined(separator: "\n"))
    }

    @Test("Cucumber JSON of the wrong shape is rejected with its place", arguments: [
        (#"[{"uri": "a.feature", "elements": "nope"}]"#, "feature 1: \"elements\" is not a list of objects"),
        (#"[{"uri": "a.feature", "elements": [{"steps": 3}]}]"#, "feature 1, element 1: \"steps\" is not a list of objects"),
        (#"[{"uri": 7, "elements": []}]"#, "feature 1: \"uri\" is not a string"),
        (#"[{"uri": "x", "storyrun_run_failed": {"failures": 0, "not_run": -1}}]"#, "\"not_run\": -1, not a count"),
        (#"[{"uri": "x", "storyrun_run_failed": {"failures": -3, "not_run": 1}}]"#, "\"failures\": -3, not a count"),
        (#"[{"uri": "x", "storyrun_run_failed": {"failures": "1"}}]"#, "not a count"),
        (#"[{"uri": "x", "storyrun_rejected": "yes"}]"#, "\"storyrun_rejected\" is not a list of objects"),
    ])
    func wrongShape(json: String, problem: String) async throws {
        let (status, output) = try await Self.merge(json)
        #expect(status == .inputError, "\(output)")
        #expect(output.contains("shard.json: " + problem) || output.contains(problem), "\(output)")
    }

    @Test("An interrupted shard's counts merge to a failed run")
    func interruptedShardFails() async throws {
        let (status, output) = try await Self.merge(#"[{"uri": "x", "elements": [], "storyrun_run_failed": {"failures": 0, "not_run": 2}}]"#)
        #expect(status == .storyFailed, "\(output)")
    }
}

/// A Messages stream merge reads is checked envelope by envelope: a wrong
/// type, a status or duration no run writes, a reference to what the stream
/// does not have, a run-failure note with a negative count: each an input
/// error (exit 2) at FILE:LINE.
@Suite(.timeLimit(.minutes(10))) struct MergeMessagesValidationTests {
    static let meta = #"{"meta":{"protocolVersion":"27.0.0","implementation":{"name":"storyrun"}}}"#
    static let head = [
        meta,
        #"{"source":{"uri":"a.stories","data":"Story: a\n  Given x\n","mediaType":"text/x.cucumber.gherkin+plain"}}"#,
        #"{"pickle":{"id":"4","uri":"a.stories","location":{"line":1,"column":1},"astNodeIds":["2"],"tags":[],"name":"a","language":"en","steps":[{"id":"3","text":"x","type":"Context","astNodeIds":["1"]}]}}"#,
        #"{"stepDefinition":{"id":"5","pattern":{"source":"^x$","type":"REGULAR_EXPRESSION"},"sourceReference":{"uri":"S.swift","location":{"line":3}}}}"#,
        #"{"testRunStarted":{"timestamp":{"seconds":0,"nanos":0},"id":"6"}}"#,
        #"{"testCase":{"id":"7","pickleId":"4","testSteps":[{"id":"8","pickleStepId":"3","stepDefinitionIds":["5"],"stepMatchArgumentsLists":[{"stepMatchArguments":[]}]}],"testRunStartedId":"6"}}"#,
        #"{"testCaseStarted":{"attempt":0,"id":"9","testCaseId":"7","timestamp":{"seconds":0,"nanos":0}}}"#,
    ]

    static func stream(step: String = #""duration":{"seconds":0,"nanos":5},"status":"PASSED""#, finished: String = #"{"testRunFinished":{"success":true,"timestamp":{"seconds":0,"nanos":9}}}"#) -> String {
        (head + [
            #"{"testStepFinished":{"testCaseStartedId":"9","testStepId":"8","testStepResult":{\#(step)},"timestamp":{"seconds":0,"nanos":5}}}"#,
            #"{"testCaseFinished":{"testCaseStartedId":"9","timestamp":{"seconds":0,"nanos":9},"willBeRetried":false}}"#,
            finished,
        ]).joined(separator: "\n") + "\n"
    }

    @Test("A well-formed stream merges (the baseline the cases below break)")
    func baseline() async throws {
        let (status, output) = try await MergeInputValidationTests.merge(Self.stream(), name: "shard.ndjson")
        #expect(status == .success, "\(output)")
        #expect(output.contains("Stories: 1 passed"), "\(output)")
    }

    @Test("A stream that is not what a run writes is an input error at its line", arguments: [
        (stream(step: #""duration":{"seconds":0,"nanos":5},"status":"EXPLODED""#), "shard.ndjson:8: ", "the status \"EXPLODED\""),
        (stream(step: #""duration":{"seconds":-4,"nanos":5},"status":"PASSED""#), "shard.ndjson:8: ", "is not a duration"),
        (stream(step: #""duration":"soon","status":"PASSED""#), "shard.ndjson:8: ", "is not an object"),
        (stream().replacingOccurrences(of: #""testSteps":[{"#, with: #""testSteps":"nope","x":[{"#), "shard.ndjson:6: ", "testCase.testSteps is not a list"),
        (stream().replacingOccurrences(of: #""testCaseId":"7""#, with: #""testCaseId":"70""#), "shard.ndjson:9: ", "the testCase \"70\""),
        (stream().replacingOccurrences(of: #""stepDefinitionIds":["5"]"#, with: #""stepDefinitionIds":["50"]"#), "shard.ndjson:8: ", "the step definition \"50\""),
        (stream().replacingOccurrences(of: #""attempt":0"#, with: #""attempt":-1"#), "shard.ndjson:7: ", "not 0 or more"),
        (stream(finished: #"{"testRunFinished":{"success":false,"exception":{"type":"storyrun.RunNotComplete","message":"m","stackTrace":"interrupted: true\nfailures: 0\nnot run: -2"}}}"#),
            "shard.ndjson:10: ", "\"not run: N\" (N ≥ 0)"),
        (stream() + "{not json\n", "shard.ndjson:11: ", "not a JSON object (column 2: a key in double quotes should be here)"),
        (stream() + "{\"a\":1} {\"b\":2}\n", "shard.ndjson:11: ", "(column 9: more text after the envelope on its line)"),
        (stream() + "{\"a\":\n1}\n", "shard.ndjson:11: ", "it goes on to line 12 (each envelope is one line)"),
        (stream() + "[1]\n", "shard.ndjson:11: ", "not a JSON object"),
        (stream().replacingOccurrences(of: #""attempt":0"#, with: #""attempt":0.5"#), "shard.ndjson:7: ", "testCaseStarted.attempt is not a whole number"),
        (stream().replacingOccurrences(of: #""pickleId":"4""#, with: #""pickleId":null"#), "shard.ndjson:6: ", "testCase.pickleId is null, not a string"),
        (stream().replacingOccurrences(of: #""pickleId":"4","#, with: ""), "shard.ndjson:6: ", "testCase has no \"pickleId\""),
        (stream().replacingOccurrences(of: #""stepDefinitionIds":["5"]"#, with: #""stepDefinitionIds":[5]"#), "shard.ndjson:6: ",
            "testCase.testSteps[0].stepDefinitionIds[0] is not a string (it is a number)"),
        (#"{"not": "a list"}"#, "shard.ndjson:1: ", "is not Cucumber JSON or a Cucumber Messages stream"),
    ])
    func rejected(text: String, place: String, problem: String) async throws {
        let (status, output) = try await MergeInputValidationTests.merge(text, name: "shard.ndjson")
        #expect(status == .inputError, "\(output)")
        #expect(output.contains(place) && output.contains(problem), "\(output)")
    }

    @Test("A run-failure note in the stream fails the merge as it failed the run")
    func noteFailsTheMerge() async throws {
        let note = #"{"testRunFinished":{"success":false,"exception":{"type":"storyrun.RunNotComplete","message":"m","stackTrace":"interrupted: false\nfailures: 1\nnot run: 0"}}}"#
        let (status, output) = try await MergeInputValidationTests.merge(Self.stream(finished: note), name: "shard.ndjson")
        #expect(status == .storyFailed, "\(output)")
        #expect(output.contains("1 problem outside the stories"), "\(output)")
    }
}
