import Foundation
import Testing
@testable import StoryKit

/// A reviewer's attacks on the one JSON layer as the httpjson and wire
/// branches use it: forged or damaged worker lines reaching the parent's
/// decoder (refused, never a crash or a hang), the step libraries' JSON
/// comparison on odd numbers, and config files with odd numbers and keys
/// written twice.
@Suite(.timeLimit(.minutes(10))) struct JSONReviewAttackTests {
    // MARK: The worker wire

    /// A real J line of a failed story, without its line end.
    static func jLine() -> String {
        let bytes = WorkerWire.line(sequence: 5, result: JSONValueCodingTests.result(), hookIndex: { _ in nil }, compact: false)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    static func parsed(_ line: String) -> WorkerWire.Message? {
        Array(line.utf8).withUnsafeBufferPointer { WorkerWire.parse(bytes: $0) }
    }

    /// The story's duration as a forged J line says it, or nil when refused.
    static func duration(_ written: String) -> UInt64? {
        let line = jLine().replacingOccurrences(of: #""duration":1500000000,"#, with: #""duration":\#(written),"#)
        guard case .result(_, let wire)? = parsed(line) else { return nil }
        return wire.duration
    }

    @Test("Forged durations: out of range, not finite, negative zero, fractions, exponents — refused or read, never a crash (above Int64.max through the nearest double)")
    func forgedDurations() {
        #expect(Self.duration("1500000000") == 1_500_000_000)
        #expect(Self.duration("18446744073709551616") == nil)  // 2^64
        #expect(Self.duration("1e400") == nil)
        #expect(Self.duration("-1e400") == nil)
        #expect(Self.duration("-1") == nil)
        #expect(Self.duration("0.5") == nil)
        #expect(Self.duration("-0") == 0)
        #expect(Self.duration("1E2") == 100)
        #expect(Self.duration("9223372036854775807") == UInt64(Int64.max))
        #expect(Self.duration("9223372036854775808") == 9_223_372_036_854_775_808)  // 2^63: exact as a double
        // A UInt64 above Int64.max, which Foundation's decoder reads exactly, is read
        // through the nearest double, as JSONValueDecoder's doc says: refused when
        // that double is 2^64 ...
        #expect(Self.duration("18446744073709551615") == nil)
        // ... otherwise rounded to it.
        #expect(Self.duration("10000000000000000001") == 10_000_000_000_000_000_000)
    }

    @Test("A result whose duration is above Int64.max goes over the wire as the nearest double (as the encoder's doc says): exact at 2^63, rounded, or refused at 2^64")
    func bigDurationRoundTrip() throws {
        var result = JSONValueCodingTests.result()
        let cases: [(UInt64, UInt64?)] = [
            (UInt64(Int64.max) + 1, UInt64(Int64.max) + 1), (10_000_000_000_000_000_001, 10_000_000_000_000_000_000),
            (UInt64.max - 1, nil), (UInt64.max, nil),
        ]
        for (duration, expected) in cases {
            result.duration = duration
            let line = WorkerWire.line(sequence: 1, result: result, hookIndex: { _ in nil }, compact: false)
            let read = line.dropLast().withUnsafeBufferPointer { WorkerWire.parse(bytes: $0) }
            if case .result(_, let wire)? = read {
                #expect(wire.duration == expected, "duration \(duration) read as \(wire.duration)")
            } else {
                #expect(expected == nil, "duration \(duration): line refused: \(String(decoding: line.prefix(80), as: UTF8.self))")
            }
        }
    }

    @Test("Forged strings: lone and reversed surrogates, NUL, bytes that are not UTF-8 — read or refused, never a crash")
    func forgedStrings() {
        for forged in [#"\ud800"#, #"\udc00\ud800"#, #"\ud800\u0041"#, #"\ud83d"#, #"\u0000"#, #"\uDFFF\uDBFF"#] {
            let line = #"X 3 "a\#(forged)b""#
            guard case .stopped(3, let text)? = Self.parsed(line) else {
                Issue.record("refused: \(line)")
                continue
            }
            #expect(text.hasPrefix("a") && text.hasSuffix("b"))
        }
        #expect(Self.parsed(#"X 3 "\ud800\u0041""#).map { "\($0)" }?.contains("A") == true)
        #expect(Self.parsed(#"X 3 "\u00"#) == nil && Self.parsed(#"X 3 "\uZZZZ""#) == nil && Self.parsed("X 3 \"a\u{1}b\"") == nil)
    }

    @Test("Forged shapes: keys twice, an enum with two cases, wide lists, 199 levels in a string's place — refused or read, quickly")
    func forgedShapes() {
        let line = Self.jLine()
        // A key twice: one of the two is read, whichever, and the result is still checked by the parent.
        let twice = line.replacingOccurrences(of: #"{"status":"failed","#, with: #"{"status":"passed","status":"failed","#)
        #expect(twice != line)
        if case .result(_, let wire)? = Self.parsed(twice) {
            #expect(wire.status == .failed || wire.status == .passed)
        }
        // A test step that is both a hook and a step: refused (the enum's decoding sees two keys).
        let both = line.replacingOccurrences(of: #"[{"hook":{"_0":"#, with: #"[{"step":{"_0":{}},"hook":{"_0":"#)
        #expect(both != line)
        #expect(Self.parsed(both) == nil)
        // 200,000 empty objects as test steps: refused, and in bounded time (the suite's limit).
        let wide = "J 5 {\"status\":\"failed\",\"testSteps\":[" + Array(repeating: "{}", count: 200_000).joined(separator: ",") + "],\"duration\":1,\"earlierAttempts\":[],\"wasInterrupted\":false}"
        #expect(Self.parsed(wide) == nil)
        let deep = String(repeating: "[", count: 199) + String(repeating: "]", count: 199)
        #expect(Self.parsed("X 3 " + deep) == nil)
        #expect(Self.parsed("J 5 " + line.dropFirst(4) + " trailing") == nil)
        #expect(Self.parsed("J 18446744073709551616 {}") == nil)
    }

    @Test("The bridge against Foundation's encoder on values the wire does not carry: negative zero, Decimal")
    func bridgeOddValues() throws {
        let zero = try JSONValueEncoder.bytes([-0.0])
        let foundationZero = String(decoding: try JSONEncoder().encode([-0.0]), as: UTF8.self)
        let readZero = try JSONValueDecoder.decode([Double].self, fromUTF8: zero)[0]
        // As the encoder's doc says: -0.0 is written 0 where Foundation's writes -0, so it reads back as +0.0 ...
        #expect(String(decoding: zero, as: UTF8.self) == "[0]" && foundationZero == "[-0]")
        #expect(readZero == 0 && readZero.sign == .plus)
        // ... and a Decimal is written in its own Codable form, an object, where Foundation's writes the number.
        let decimal = try JSONValueEncoder.bytes([Decimal(string: "1.5")!])
        let decimalText = String(decoding: decimal, as: UTF8.self)
        #expect(decimalText.hasPrefix(#"[{"exponent":-1,"length":1,"#), "\(decimalText)")
        #expect(String(decoding: try JSONEncoder().encode([Decimal(string: "1.5")!]), as: UTF8.self) == "[1.5]")
        // Each reads back what it wrote, at least.
        #expect(try JSONValueDecoder.decode([Decimal].self, fromUTF8: decimal) == [Decimal(string: "1.5")!])
        // A Double too large for a double is refused, by both decoders.
        #expect(throws: JSONValue.SyntaxError.self) { try JSONValueDecoder.decode([Double].self, fromUTF8: Array("[1e400]".utf8)) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode([Double].self, from: Data("[1e400]".utf8)) }
    }

    @Test("Numbers RFC 8259 refuses (leading zeros, a bare point, no digits after a point) are a syntax error at their place")
    func lenientNumbers() throws {
        for text in ["01", "-01", "1.", "1.e5", "00.5", "-", "1e", "1e+", "-.5", "1.5.2", "1e5e5", "--1"] {
            do {
                let read = try JSONValue(parsing: "[true,\n  \(text)]")
                Issue.record("\(text) read as \(read.text)")
            } catch {
                #expect(error.line == 2 && error.column == 3, "\(text): \(error)")
                #expect(error.problem == "\(text) is not a JSON number (JSON writes no leading zero, and digits after a point and in an exponent)")
            }
        }
        #expect((try? JSONValue(parsing: ".5")) == nil && (try? JSONValue(parsing: "+1")) == nil)
        // What the grammar allows is read, the smallest and largest doubles included.
        for text in ["0", "-0", "0.5", "-0.0e-0", "1E+2", "1e-400", "5e-324", "1.7976931348623157e308", "10", "-10.01e1"] {
            #expect((try? JSONValue(parsing: text)) != nil, "\(text)")
        }
    }

    // MARK: The step libraries' JSON checks

    static func matches(_ actual: String, _ wanted: String, containing: Bool = false) throws -> Bool {
        try JSONValue(parsing: actual).matches(JSONValue(parsing: wanted), containing: containing)
    }

    @Test("Numbers that are one number whatever their writing, big ones too")
    func sameNumberWrittenTwoWays() throws {
        #expect(try Self.matches("100", "1e2") && Self.matches("-0", "0") && Self.matches("[[1,2],[3]]", "[[1.0,2e0],[3.00]]"))
        #expect(try Self.matches("9007199254740992", "9.007199254740992e15"))
        // The old HTTP JSON (doubles) matched these; StepLibraries.md says numbers match by value.
        // A whole number written with a fraction of zeros or an exponent is read from its digits.
        #expect(try Self.matches("9007199254740993", "9007199254740993.0"))
        #expect(try Self.matches("9007199254740993", "9.007199254740993e15"))
        #expect(try Self.matches("9007199254740993", "900719925474099300e-2"))
        #expect(try !Self.matches("9007199254740993", "9.007199254740992e15"))
        #expect(try Self.matches("-9223372036854775808", "-9.223372036854775808e18"))
        // Read as the integer, not as the double 2^53, so it prints as written.
        #expect(try JSONValue(parsing: "9.007199254740993e15").intValue == 9_007_199_254_740_993)
        #expect(try JSONValue(parsing: "9007199254740993.000").text == "9007199254740993")
        // Not whole, or beyond Int64: a double, as before.
        for text in ["9007199254740993.5", "9.3e18", "-9223372036854775809.0", "1e-2", "1.5"] {
            guard case .double = try JSONValue(parsing: text) else {
                Issue.record("\(text) read as \(try JSONValue(parsing: text))")
                continue
            }
        }
        for text in ["7.0", "7e0", "70e-1", "0.0", "-0.0", "0e5", "1E2", "9223372036854775807.0"] {
            guard case .int = try JSONValue(parsing: text) else {
                Issue.record("\(text) read as \(try JSONValue(parsing: text))")
                continue
            }
        }
    }

    @Test("Whole numbers compare exactly up to Int64.max; past it they are doubles and compare rounded, as the docs say")
    func bigDifferentNumbers() throws {
        #expect(try !Self.matches("9223372036854775807", "9223372036854775806"))
        // Beyond Int64 a whole number is a double, as StepLibraries.md and JSONValue.matches say:
        // neighbours compare equal, and print rounded, in an exponent form.
        #expect(try Self.matches("18446744073709551615", "18446744073709551614"))
        #expect(try Self.matches("12345678901234567890", "12345678901234567891"))
        #expect(try !Self.matches("12345678901234567890", "12345678901234569999"))
        #expect(try JSONValue(parsing: "12345678901234567890").withSortedKeys.text == "1.2345678901234567e+19")
    }

    @Test("Numbers too large for a double are refused where they are written, not read as infinity")
    func infiniteNumbers() throws {
        for text in ["1e400", "-1e400", "1e999", "1.8e308", "100000000000000000000e300"] {
            do {
                let read = try JSONValue(parsing: #"{"a": "# + text + "}")
                Issue.record("\(text) read as \(read.text)")
            } catch {
                #expect(error.line == 1 && error.column == 7 && error.problem == "\(text) is too large a number (beyond a 64-bit double)", "\(error)")
            }
        }
        #expect(throws: JSONValue.SyntaxError.self) { try Self.matches("1e400", "1e999") }
        #expect(try JSONValue(parsing: "1.7976931348623157e308").doubleValue == .greatestFiniteMagnitude)
        #expect(try JSONValue(parsing: "1e-400").doubleValue == 0)
    }

    @Test("Containing, with lists in lists and objects in lists, and keys given twice")
    func containingNested() throws {
        let actual = #"{"a":[[{"x":1,"y":2}],[]],"b":{"c":[1,2.5,{"d":null}]}}"#
        #expect(try Self.matches(actual, #"{"a":[[{"x":1.0}],[]]}"#, containing: true))
        #expect(try !Self.matches(actual, #"{"a":[[{"x":1}]]}"#, containing: true))
        #expect(try Self.matches(actual, #"{"b":{"c":[1,2.5,{}]}}"#, containing: true))
        #expect(try !Self.matches(actual, #"{"b":{"c":[1,2.5,{"e":null}]}}"#, containing: true))
        #expect(try Self.matches(#"{"a":1,"a":2}"#, #"{"a":2,"a":2}"#) && !Self.matches(#"{"a":1,"a":2}"#, #"{"a":1,"b":2}"#))
    }

    // MARK: Config files

    @Test("Config numbers reach their options as written, odd ones included; ones JSON refuses are refused")
    func configNumbers() throws {
        let options = try ConfigFileTests.load(["x.stories"], json: #"{"parameters": {"big": 18446744073709551616, "tiny": 5e-324, "whole": 7.0e0, "neg": -0.0}}"#)
        #expect(options.parameters == ["big": "18446744073709551616", "tiny": "5e-324", "whole": "7.0e0", "neg": "-0.0"])
        // Numbers JSON does not allow, or too large for a double, are refused, at their place (ConfigFileTests.problems).
        #expect(throws: Diagnostic.self) { try ConfigFileTests.load(["x.stories"], json: #"{"parameters": {"lead": 007}}"#) }
        #expect(throws: Diagnostic.self) { try ConfigFileTests.load(["x.stories"], json: #"{"parameters": {"huge": 1e400}}"#) }
    }

    @Test("A profile's numbers reach their options as written too (their places are found by the profile's path)")
    func configProfileNumbers() throws {
        let json = #"{"jobs": 1, "parameters": {"a": 1.0}, "profiles": {"x": {"jobs": 3}, "ci": {"jobs": 2, "parameters": {"ratio": 1.50, "ids": [1]}}}}"#
        do {
            _ = try ConfigFileTests.load(["x.stories", "--profile", "ci"], json: json)
            Issue.record("a list read as a parameter")
        } catch {
            #expect(error.problem.contains("the parameter \"ids\" is a list") && error.location?.column == 125, "\(error)")
        }
        let options = try ConfigFileTests.load(["x.stories", "--profile", "ci"], json: json.replacingOccurrences(of: #", "ids": [1]"#, with: ""))
        #expect(options.jobs == 2 && options.parameters == ["a": "1.0", "ratio": "1.50"])
    }

    @Test("A parameter named twice in one object is said at the second, with the first's line; across default and profile it is no repetition")
    func configParameterTwice() throws {
        do {
            let options = try ConfigFileTests.load(["x.stories"], json: "{\"parameters\": {\"a\": \"1\",\n \"a\": \"2\"}}")
            Issue.record("a parameter named twice was read: a = \(options.parameters["a"] ?? "nil")")
        } catch {
            #expect(error.location?.line == 2 && error.location?.column == 2, "\(error)")
            #expect(error.problem == "the parameter \"a\" is given twice, first on line 1", "\(error)")
        }
        let options = try ConfigFileTests.load(
            ["x.stories", "--profile", "ci"], json: #"{"parameters": {"a": "1", "b": 2}, "profiles": {"ci": {"parameters": {"a": "3"}}}}"#)
        #expect(options.parameters == ["a": "3", "b": "2"])
    }

    @Test("A config file's key written twice is said at the second, with the first's line; in a profile too")
    func configKeysTwice() throws {
        do {
            _ = try ConfigFileTests.load(["x.stories"], json: "{\"jobs\": 2,\n \"strict\": true,\n  \"jobs\": 3}")
            Issue.record("a key twice read")
        } catch {
            #expect(error.location?.line == 3 && error.location?.column == 3 && error.problem.contains("first on line 1"), "\(error)")
        }
        do {
            _ = try ConfigFileTests.load(["x.stories", "--profile", "ci"], json: "{\"profiles\": {\"ci\": {\"jobs\": 2,\n \"jobs\": 3}}}")
            Issue.record("a key twice in a profile read")
        } catch {
            #expect(error.location?.line == 2 && error.location?.column == 2 && error.problem.contains("in the profile \"ci\""), "\(error)")
        }
    }

    @Test("A profile written twice is said at the second, with the first's line, as a key written twice is (not guessed)")
    func configProfileTwice() throws {
        do {
            let options = try ConfigFileTests.load(
                ["x.stories", "--profile", "ci"], json: "{\"profiles\": {\"ci\": {\"jobs\": 2},\n  \"ci\": {\"jobs\": 4}}}")
            Issue.record("a profile named twice was read: jobs \(options.jobs)")
        } catch {
            #expect(error.location?.line == 2 && error.location?.column == 3, "\(error)")
            #expect(error.problem == "the profile \"ci\" is given twice, first on line 1", "\(error)")
        }
        // Profiles of other names are no repetition: the last one given wins.
        let options = try ConfigFileTests.load(
            ["x.stories", "--profile", "ci", "--profile", "b"], json: #"{"profiles": {"ci": {"jobs": 2}, "b": {"jobs": 3}}}"#)
        #expect(options.jobs == 3)
    }
}
