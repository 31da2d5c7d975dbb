import Foundation
import Testing
@testable import StoryKit

/// `JSONValue(parsing:places:)`, the one reader asked to note where each
/// value and key was written (config files): it must give the value and
/// every message that `JSONValue(parsing:)` gives, and the right places.
@Suite(.timeLimit(.minutes(10))) struct JSONPlacesTests {
    static func withPlaces(_ text: String) throws(JSONValue.SyntaxError) -> (JSONValue, JSONPlaces) {
        var places = JSONPlaces()
        let value = try JSONValue(parsing: text, places: &places)
        return (value, places)
    }

    @Test("Noting places gives the value read without them for every line of the Cucumber compatibility kit",
        .conformance("compatibility-kit"))
    func sameValueOnTheKit() throws {
        let folder = Conformance.path("compatibility-kit/samples")
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".ndjson") } ?? []
        #expect(files.count > 10)
        var lines = 0
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let direct = try JSONValue(parsing: String(line))
                let (located, places) = try Self.withPlaces(String(line))
                #expect(direct.text == located.text, "\(file)")
                #expect(places.value([]) == JSONPlaces.Place(line: 1, column: 1, bytes: 0..<line.utf8.count))
                lines += 1
            }
        }
        #expect(lines > 100)
    }

    @Test("Numbers are the integers and doubles their text says (a whole number within Int64 an integer however written), and their places hold that text", arguments: [
        ("0", JSONValue.int(0)), ("-0", .int(0)), ("7", .int(7)), ("-42", .int(-42)),
        ("123456789012345678", .int(123_456_789_012_345_678)), ("-123456789012345678", .int(-123_456_789_012_345_678)),
        ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)), ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("1.5", .double(1.5)), ("-2.5e3", .int(-2500)), ("1E2", .int(100)), ("0.1", .double(0.1)), ("2.5e-1", .double(0.25)),
        ("7.000", .int(7)), ("1e19", .double(1e19)), ("-0.0", .int(0)),
    ])
    func numbers(text: String, expected: JSONValue) throws {
        let direct = try JSONValue(parsing: "[\(text)]")
        let (located, places) = try Self.withPlaces("[\(text)]")
        #expect(direct.text == located.text)
        // By case and value: JSONValue's == compares text, which .int(100) and .double(100) share.
        switch (direct.arrayValue?.first, expected) {
        case (.int(let read)?, .int(let wanted)): #expect(read == wanted)
        case (.double(let read)?, .double(let wanted)): #expect(read == wanted)
        default: Issue.record("\(text) read as \(direct), not \(expected)")
        }
        #expect(places.value([0]) == JSONPlaces.Place(line: 1, column: 2, bytes: 1..<1 + text.utf8.count))
    }

    @Test("Bad text gets the same line, column and message with places as without", arguments: [
        "{\"a\": }", "[1,\n  2,]", "{\"a\": 1} x", "\"tab\there\"", "\"\\q\"", "-", "1-2", "[1 2]", "{\"a\" 1}",
        "{,}", "[", "{\"a\":1", "tru", "\"abc", "\"\\u12\"", "{\"k\":[{}],}", "[01]", "{\"a\": 1e400}",
    ])
    func sameErrors(text: String) {
        var located: JSONValue.SyntaxError?
        do { _ = try Self.withPlaces(text) } catch { located = error }
        var direct: JSONValue.SyntaxError?
        do { _ = try JSONValue(parsing: text) } catch { direct = error }
        #expect(located != nil)
        #expect(direct == located)
    }

    @Test("Each value and key has its place by path: positions in lists and objects, a repeated key each time")
    func paths() throws {
        let text = "{\"a\": [true, {\"b\": \"x\\u00e9\"}],\n  \"a\": -1.50 }"
        let (value, places) = try Self.withPlaces(text)
        #expect(value.text == #"{"a":[true,{"b":"xé"}],"a":-1.5}"#)
        let utf8 = Array(text.utf8)
        func written(_ place: JSONPlaces.Place) -> String { String(decoding: utf8[place.bytes], as: UTF8.self) }
        #expect(places.key([0]).line == 1 && places.key([0]).column == 2 && written(places.key([0])) == "\"a\"")
        #expect(written(places.value([0])) == #"[true, {"b": "x\u00e9"}]"#)
        #expect(places.value([0, 1, 0]).column == 20 && written(places.value([0, 1, 0])) == #""x\u00e9""#)
        #expect(written(places.key([0, 1, 0])) == "\"b\"")
        #expect(places.key([1]) == JSONPlaces.Place(line: 2, column: 3, bytes: 34..<37))
        #expect(written(places.value([1])) == "-1.50" && places.value([1]).line == 2 && places.value([1]).column == 8)
        #expect(places.values.count == 6 && places.keys.count == 3)
    }
}
