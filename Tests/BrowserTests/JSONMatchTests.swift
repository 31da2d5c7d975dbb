import StoryKit
@testable import StoryKitBrowser
import Testing

/// The JSON check of "the page requested … with JSON", on StoryKit's one
/// JSON value (no browser needed).
@Suite(.timeLimit(.minutes(10))) struct JSONMatchTests {
    static func matches(_ actual: String, _ wanted: String, containing: Bool = false) throws -> Bool {
        JSONMatch.matches(try JSONValue(parsing: actual), try JSONValue(parsing: wanted), containing: containing)
    }

    @Test("Objects match by key in any order, numbers by value; containing allows more keys")
    func matching() throws {
        #expect(try Self.matches(#"{"speed":"fast","note":"ring twice","n":1.0}"#, #"{"note":"ring twice","n":1,"speed":"fast"}"#))
        #expect(try !Self.matches(#"{"note":"x","extra":[1]}"#, #"{"note":"x"}"#))
        #expect(try Self.matches(#"{"note":"x","extra":[1]}"#, #"{"note":"x"}"#, containing: true))
        #expect(try !Self.matches(#"[1,2]"#, #"[2,1]"#))
        #expect(try !Self.matches(#"{"paid":1}"#, #"{"paid":true}"#))
        #expect(try !Self.matches(#"{"n":null}"#, #"{"n":0}"#))
        #expect(try Self.matches(#""text""#, #""text""#))
    }
}
