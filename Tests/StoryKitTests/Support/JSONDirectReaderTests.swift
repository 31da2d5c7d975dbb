import Foundation
import Testing
@testable import StoryKit

/// `JSONValue(parsing:)` reads straight from the bytes; the located reader
/// (config files) builds its own tree. Both must agree on every value and on
/// every message, and agree with Foundation on the numbers.
@Suite(.timeLimit(.minutes(10))) struct JSONDirectReaderTests {
    @Test("The direct reader gives the located reader's value for every line of the Cucumber compatibility kit",
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
                let located = try LocatedJSON.parse(String(line)).value.json
                #expect(direct.text == located.text, "\(file)")
                lines += 1
            }
        }
        #expect(lines > 100)
    }

    @Test("Numbers read from their bytes are the integers and doubles their text says", arguments: [
        "0", "-0", "7", "-42", "123456789012345678", "-123456789012345678", "9223372036854775807",
        "-9223372036854775808", "9223372036854775808", "1.5", "-2.5e3", "1E2", "0.1", "01", "1e400",
    ])
    func numbers(text: String) throws {
        let direct = try JSONValue(parsing: "[\(text)]")
        let located = try LocatedJSON.parse("[\(text)]").value.json
        #expect(direct.text == located.text)
        let expected: JSONValue = Int64(text).map(JSONValue.int) ?? .double(Double(text)!)
        #expect(direct == .array([expected]))
    }

    @Test("Bad text gets the located reader's line, column and message", arguments: [
        "{\"a\": }", "[1,\n  2,]", "{\"a\": 1} x", "\"tab\there\"", "\"\\q\"", "-", "1-2", "[1 2]", "{\"a\" 1}",
        "{,}", "[", "{\"a\":1", "tru", "\"abc", "\"\\u12\"", "{\"k\":[{}],}",
    ])
    func sameErrors(text: String) {
        var located: JSONValue.SyntaxError?
        do { _ = try LocatedJSON.parse(text) } catch { located = error }
        var direct: JSONValue.SyntaxError?
        do { _ = try JSONValue(parsing: text) } catch { direct = error }
        #expect(located != nil)
        #expect(direct == located)
    }
}
