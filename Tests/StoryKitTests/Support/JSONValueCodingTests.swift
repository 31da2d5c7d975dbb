import Foundation
import Testing
@testable import StoryKit

/// The Codable bridge onto StoryKit's JSON layer (``JSONValueEncoder``,
/// ``JSONValueDecoder``): the worker wire's one JSON road. Its text is
/// Foundation's `JSONEncoder`'s (read back, member for member), it reads
/// back to the same values, and damaged text is an error, never a crash.
@Suite(.timeLimit(.minutes(10))) struct JSONValueCodingTests {
    private static let place = SourceLocation(file: "Stories/shop.feature", line: 7, column: 5)
    private static let code = SourceLocation(file: "Sources/Steps/Shop.swift", line: 42)

    /// Every byte, then text no JSON string may hold raw: line ends, NUL,
    /// quotes, a backslash, an emoji, the Unicode line separators.
    private static let binary = Data((0...255).map { UInt8($0) })
    private static let oddText = "line 1\nline 2\r\n\u{0}nul \"quoted\" back\\slash 😀 é \u{2028}\u{2029}\t\u{1B}[31m /"

    private static func step(_ text: String, line: Int, attachment: StepAttachment? = nil) -> Step {
        Step(keyword: "Given", kind: .context, text: text, location: SourceLocation(file: place.file, line: line, column: 5), attachment: attachment)
    }

    private static func match(_ pattern: String, _ arguments: [String?], id: Int?, spans: [Int32] = []) -> MatchInfo {
        var match = MatchInfo(pattern: pattern, location: code, arguments: arguments)
        match.definitionID = id
        match.spans = GroupSpans(bounds: spans) ?? .none
        return match
    }

    /// A story result with one of everything a worker sends whole.
    static func result() -> StoryResult {
        let table = DataTable(rows: [["a", "b|c"], ["1", oddText]], location: SourceLocation(file: place.file, line: 9))
        let doc = DocString(content: oddText, mediaType: "json", delimiter: "```", location: SourceLocation(file: place.file, line: 11))
        let attachments = [
            Attachment(body: binary.base64EncodedString(), encoding: .base64, mediaType: "application/octet-stream", name: "all bytes.bin"),
            Attachment(body: oddText, encoding: .identity, mediaType: Attachment.logMediaType),
        ]
        let failed = StepResult(
            step: step("a basket with \"3\" apples", line: 8, attachment: .dataTable(table)), status: .failed, duration: 1_234_567_890,
            error: StepError(message: "expected 3, got 4\n  at \(oddText)", location: code, kind: "StoryKit.ExpectationFailure"),
            match: match(#"^a basket with "(\d+)" apples$"#, ["3", nil], id: 4, spans: [15, 16, -1, -1]), alsoMatched: [match("a (.*)", [""], id: nil)],
            attachments: attachments)
        let pending = StepResult(
            step: step("a doc", line: 10, attachment: .docString(doc)), status: .pending, duration: 0,
            error: StepError(message: "TODO"), match: match("a doc", [], id: 0), alsoMatched: [])
        let undefined = StepResult(
            step: step("an apple", line: 12), status: .undefined, duration: 0, error: nil, match: nil, alsoMatched: [],
            didYouMean: match("a basket", [], id: 2), snippet: "@Step(\"an apple\")\nfunc anApple() {}\n")
        let hook = HookResult(
            kind: "after story", location: code, status: .failed,
            error: StepError(message: "teardown failed: \(oddText)", location: code, kind: nil), duration: UInt64(Int64.max), attachments: attachments)
        let passedHook = HookResult(kind: "before story", location: code, status: .passed, error: nil, duration: 5)
        let attempt = StoryAttempt(status: .failed, testSteps: [.hook(passedHook), .step(failed)], duration: 99)
        let story = Story(name: "Buying", tags: ["@shop"], location: place, steps: [failed.step, pending.step, undefined.step])
        var result = StoryResult(
            story: story, status: .failed, testSteps: [.hook(passedHook), .step(failed), .step(pending), .step(undefined), .hook(hook)],
            duration: 1_500_000_000, earlierAttempts: [attempt, attempt])
        result.wasInterrupted = true
        return result
    }

    private func message(_ bytes: [UInt8]) -> WorkerWire.Message? {
        #expect(bytes.last == 0x0A && bytes.dropLast().allSatisfy { $0 != 0x0A && $0 != 0x0D }, "one line")
        return bytes.dropLast().withUnsafeBufferPointer { WorkerWire.parse(bytes: $0) }
    }

    /// The value with every object's members in key order and every
    /// number a double: JSON as `JSONEncoder` and this encoder write it,
    /// compared member for member (`1e+15` and `1000000000000000` are one
    /// number).
    private static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): .object(members.map { ($0.0, sorted($0.1)) }.sorted { $0.0 < $1.0 })
        case .array(let elements): .array(elements.map(sorted))
        case .int(let number): .double(Double(number))
        default: value
        }
    }

    /// Our text and Foundation's, each read back: the same JSON.
    private func expectFoundationForm(_ value: some Codable, _ name: String) throws {
        let ours = try JSONValueEncoder.bytes(value)
        let theirs = try JSONEncoder().encode(value)
        #expect(Self.sorted(try JSONValue(parsingUTF8: ours)) == Self.sorted(try JSONValue(parsingUTF8: Array(theirs))), "\(name)")
        // Each reads the other's.
        let fromTheirs = try JSONValueDecoder.decode(type(of: value), fromUTF8: Array(theirs))
        #expect(try JSONValueEncoder.bytes(fromTheirs) == ours, "\(name)")
        let fromOurs = try JSONDecoder().decode(type(of: value), from: Data(ours))
        #expect(try JSONValueEncoder.bytes(fromOurs) == ours, "\(name)")
    }

    @Test("Every wire type is written as Foundation's JSONEncoder wrote it, and each reads the other's")
    func foundationForm() throws {
        let result = Self.result()
        try expectFoundationForm(WorkerWire.WireResult(result), "result")
        for (index, testStep) in result.testSteps.enumerated() { try expectFoundationForm(testStep, "test step \(index)") }
        try expectFoundationForm(result.earlierAttempts[0], "attempt")
        try expectFoundationForm(result.story, "story")
        let diagnostic = Diagnostic(
            .warning, at: Self.place, problem: "ambiguous: \(Self.oddText)", help: "rename one",
            notes: [Diagnostic.Note(location: Self.code, message: "one"), Diagnostic.Note(location: nil, message: "two")], sourceLine: "Given x")
        try expectFoundationForm(diagnostic, "diagnostic")
        try expectFoundationForm(Diagnostic(at: nil, problem: "bare"), "bare diagnostic")
    }

    @Test("A failed story's J line reads back to the same result: errors, places, pending and undefined steps, hooks, attachments, attempts")
    func resultRoundTrip() throws {
        let result = Self.result()
        let line = WorkerWire.line(sequence: 12_345_678_901, result: result, hookIndex: { _ in nil }, compact: true)
        #expect(line.starts(with: Array("J 12345678901 {".utf8)))
        guard case .result(let sequence, let wire)? = message(line) else {
            Issue.record("not read back: \(String(decoding: line, as: UTF8.self))")
            return
        }
        #expect(sequence == 12_345_678_901)
        #expect(WorkerWire.jsonLine(UInt8(ascii: "J"), sequence: sequence, wire) == line, "written again, the same bytes")
        let back = try #require(wire.result(for: result.story))
        #expect(back.status == .failed && back.duration == 1_500_000_000 && back.wasInterrupted)
        #expect(back.earlierAttempts.count == 2 && back.earlierAttempts[1].testSteps.count == 2 && back.earlierAttempts[1].duration == 99)
        let steps = back.steps
        #expect(steps.map(\.status) == [.failed, .pending, .undefined])
        #expect(steps[0].step == result.steps[0].step && steps[1].step == result.steps[1].step)
        #expect(steps[0].error == result.steps[0].error && steps[0].error?.location == Self.code)
        #expect(steps[0].match == result.steps[0].match && steps[0].match?.definitionID == 4)
        #expect(steps[0].match?.spans.bounds == [15, 16, -1, -1] && steps[0].alsoMatched.first?.arguments == [""])
        #expect(steps[0].attachments == result.steps[0].attachments && steps[0].attachments[0].data == Self.binary)
        #expect(steps[0].attachments[1].body == Self.oddText)
        #expect(steps[1].error?.message == "TODO" && steps[1].error?.location == nil)
        #expect(steps[2].snippet == result.steps[2].snippet && steps[2].didYouMean == result.steps[2].didYouMean)
        let hook = try #require(back.hooks.last)
        #expect(hook == result.hooks.last && hook.duration == UInt64(Int64.max))
    }

    @Test("K, H, D and X lines read back: a test step, a run hook, a diagnostic, a stopped worker's text")
    func otherLinesRoundTrip() throws {
        let result = Self.result()
        guard case .wholeStep(7, .hook(let hook))? = message(WorkerWire.jsonLine(UInt8(ascii: "K"), sequence: 7, result.testSteps[4])) else {
            Issue.record("K not read back")
            return
        }
        #expect(hook == result.hooks.last)
        guard case .runHook(let runHook)? = message(Array(WorkerWire.line(.runHook(hook)).utf8)) else {
            Issue.record("H not read back")
            return
        }
        #expect(runHook == hook)
        let diagnostic = Diagnostic(at: Self.place, problem: Self.oddText, notes: [Diagnostic.Note(location: nil, message: "n")])
        guard case .diagnostic(let read)? = message(Array(WorkerWire.line(.diagnostic(diagnostic)).utf8)) else {
            Issue.record("D not read back")
            return
        }
        #expect(read == diagnostic)
        guard case .stopped(3, let text)? = message(Array(WorkerWire.line(.stopped(sequence: 3, Self.oddText)).utf8)) else {
            Issue.record("X not read back")
            return
        }
        #expect(text == Self.oddText)
    }

    /// Values the wire does not carry today, in the forms JSONEncoder gives them.
    private struct Odd: Codable, Equatable {
        var doubles: [Double]
        var float: Float
        var integers: [Int64]
        var small: [Int8]
        var unsigned: UInt64
        var data: Data
        var url: URL
        var date: Date
        var optionals: [String?]
        var missing: Int?
        var nested: [[String: [Bool]]]
        var empty: [String: Int]
    }

    private static let odd = Odd(
        doubles: [0.1, -2.5, 1e300, 5e-324, .pi, 1e15, 123_456_789_012_345, 0.1 + 0.2, -1e-7, 3],
        float: 0.1, integers: [.min, .max, 0, -1], small: [-128, 127], unsigned: UInt64(Int64.max), data: binary,
        url: URL(string: "https://example.com/a%20b?q=x#y")!, date: Date(timeIntervalSinceReferenceDate: 12.5),
        optionals: [nil, "", "x", nil], missing: nil, nested: [["k": [true, false]], [:]], empty: [:])

    @Test("Numbers, data, dates, URLs and optionals round-trip exactly, in JSONEncoder's forms")
    func oddValues() throws {
        let bytes = try JSONValueEncoder.bytes(Self.odd)
        let read = try JSONValueDecoder.decode(Odd.self, fromUTF8: bytes)
        #expect(read == Self.odd)
        #expect(read.doubles.map(\.bitPattern) == Self.odd.doubles.map(\.bitPattern))
        try expectFoundationForm(Self.odd, "odd values")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""optionals":[null,"","x",null]"#) && !text.contains("missing"))
        #expect(text.contains(#""data":"\#(Self.binary.base64EncodedString())""#))
        #expect(try JSONValueEncoder.encode(Self.odd)["date"] == .double(12.5))
        // Past what a signed number holds: the nearest double, still read as an unsigned number.
        #expect(try JSONValueEncoder.encode(UInt64.max - 1023) == .double(Double(UInt64.max - 1023)))
        #expect(try JSONValueDecoder.decode(UInt64.self, fromUTF8: Array("18446744073709549568".utf8)) == 18_446_744_073_709_549_568)
    }

    @Test("A number that is not finite cannot be written; one that does not fit its type is not read")
    func numbersOutOfRange() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder.bytes([1, Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder.bytes(Float.infinity) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(UInt64.self, fromUTF8: Array("-1".utf8)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Int8.self, fromUTF8: Array("128".utf8)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Int.self, fromUTF8: Array("1.5".utf8)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Float.self, fromUTF8: Array("1e300".utf8)) }
        #expect((try? JSONValueDecoder.decode(Int.self, fromUTF8: Array("3.0".utf8))) == 3)
    }

    /// A type whose encoding uses the containers out of order: a nested
    /// container filled after the member that follows it, and super encoders.
    private struct Unusual: Codable, Equatable {
        var name: String
        var parts: [Int]

        enum CodingKeys: String, CodingKey { case name, parts, later, base }

        init(name: String, parts: [Int]) {
            self.name = name
            self.parts = parts
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var later = container.nestedUnkeyedContainer(forKey: .later)
            try container.encode(name, forKey: .name)
            try later.encode(parts.count)
            let base = container.superEncoder(forKey: .base)
            var single = base.singleValueContainer()
            try single.encode(parts)
            var list = container.superEncoder().unkeyedContainer()
            try list.encode("s")
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            parts = try container.superDecoder(forKey: .base).singleValueContainer().decode([Int].self)
            var later = try container.nestedUnkeyedContainer(forKey: .later)
            guard try later.decode(Int.self) == parts.count, try container.superDecoder().unkeyedContainer().count == 1 else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "counts differ"))
            }
        }
    }

    @Test("Containers filled out of order and super encoders write what JSONEncoder writes")
    func unusualContainers() throws {
        let value = Unusual(name: "n", parts: [1, 2])
        #expect(String(decoding: try JSONValueEncoder.bytes(value), as: UTF8.self) == #"{"later":[2],"name":"n","base":[1,2],"super":["s"]}"#)
        try expectFoundationForm(value, "unusual")
    }

    @Test("A wrong kind of value is a DecodingError that names its place")
    func wrongTypesNamePlaces() throws {
        var json = try JSONValueEncoder.encode(WorkerWire.WireResult(Self.result()))
        guard case .object(var members) = json, case .array(var steps) = members[1].1, case .object(var step) = steps[1],
            case .object(var wrapped) = step[0].1, case .object(var fields) = wrapped[0].1
        else {
            Issue.record("not the shape expected: \(json.text.prefix(200))")
            return
        }
        #expect(members[1].0 == "testSteps" && step[0].0 == "step" && wrapped[0].0 == "_0")
        let index = try #require(fields.firstIndex { $0.0 == "duration" })
        fields[index].1 = .string("12")
        wrapped[0].1 = .object(fields)
        step[0].1 = .object(wrapped)
        steps[1] = .object(step)
        members[1].1 = .array(steps)
        json = .object(members)
        do {
            _ = try JSONValueDecoder.decode(WorkerWire.WireResult.self, from: json)
            Issue.record("a string read as a duration")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(UInt64.self))
            #expect(context.codingPath.map(\.stringValue) == ["testSteps", "Index 1", "step", "_0", "duration"])
        }
    }

    @Test("Damaged lines are refused, not read and not a crash: cut short, wrong kinds, missing members, deep nesting; bytes that are not UTF-8 read as U+FFFD")
    func damagedLines() throws {
        let line = WorkerWire.line(sequence: 5, result: Self.result(), hookIndex: { _ in nil }, compact: false).dropLast()
        // Every line cut short (the sequence kept): no JSON value is a prefix of another.
        let start = try #require(line.firstIndex(of: UInt8(ascii: "{")))
        for end in stride(from: start, to: line.count, by: 7) {
            #expect(Array(line[..<end]).withUnsafeBufferPointer { WorkerWire.parse(bytes: $0) } == nil, "cut at \(end)")
        }
        let text = String(decoding: line, as: UTF8.self)
        for (from, to) in [
            (#""status":"failed""#, #""status":"bogus""#), (#""duration":1500000000"#, #""duration":-1"#),
            (#""duration":1500000000"#, #""duration":1.5"#), (#""duration":1500000000"#, #""duration":null"#),
            (#""wasInterrupted":true"#, #""wasInterrupted":1"#), (#""testSteps":["#, #""testSteps":{"a":["#),
            (#""pattern":"#, #""patterns":"#), (#""hook":{"_0""#, #""hook":{"_1""#), (#""kind":"context""#, #""kind":7"#),
        ] {
            let damaged = text.replacingOccurrences(of: from, with: to)
            #expect(damaged != text, "\(from) not in the line")
            #expect(WorkerWire.parse(damaged[...]) == nil, "\(to)")
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        for damaged in [
            "J 5 " + deep, "J 5 {\"status\":" + deep + "}", "K 5 " + deep, "H " + deep, "D " + deep, "X 5 " + deep,
            "J 5 null", "J 5 []", "J 5 \"x\"", "J 5", "J  {}", "J x {}", "K 5 {}", "K 5 {\"step\":{}}", "H [1]", "D null", "X 5 5", "X 5 \"a",
        ] {
            #expect(WorkerWire.parse(damaged[...]) == nil, "\(damaged.prefix(40))")
        }
        // Bytes that are not UTF-8 inside a string are not refused: each bad sequence is read as U+FFFD.
        var bad = Array(WorkerWire.line(.stopped(sequence: 1, "ab")).utf8.dropLast())
        bad.insert(contentsOf: [0xFF, 0xC3], at: bad.count - 2)
        guard case .stopped(1, let stopped)? = bad.withUnsafeBufferPointer({ WorkerWire.parse(bytes: $0) }) else {
            Issue.record("a line with bytes that are not UTF-8 refused")
            return
        }
        #expect(stopped == "a\u{FFFD}\u{FFFD}b", "\(stopped.unicodeScalars.map(\.value))")
    }
}
