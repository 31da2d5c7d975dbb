import StoryKit
import Testing

/// The step libraries' JSON checks (`JSONValue.matches(_:containing:)`) and
/// the text their messages print, through the public API only.
@Suite(.timeLimit(.minutes(10))) struct JSONValueMatchingTests {
    static func matches(_ actual: String, _ wanted: String, containing: Bool = false) throws -> Bool {
        try JSONValue(parsing: actual).matches(JSONValue(parsing: wanted), containing: containing)
    }

    @Test("Objects match by key in any order, numbers by value; containing allows more keys")
    func matching() throws {
        #expect(try Self.matches(#"{"speed":"fast","note":"ring twice","n":1.0}"#, #"{"note":"ring twice","n":1,"speed":"fast"}"#))
        #expect(try !Self.matches(#"{"note":"x","extra":[1]}"#, #"{"note":"x"}"#))
        #expect(try Self.matches(#"{"note":"x","extra":[1]}"#, #"{"note":"x"}"#, containing: true))
        #expect(try !Self.matches(#"{"note":"x"}"#, #"{"note":"x","extra":[1]}"#, containing: true))
        #expect(try !Self.matches(#"[1,2]"#, #"[2,1]"#))
        #expect(try !Self.matches(#"{"paid":1}"#, #"{"paid":true}"#))
        #expect(try !Self.matches(#"{"n":null}"#, #"{"n":0}"#))
        #expect(try Self.matches(#""text""#, #""text""#))
        #expect(try !Self.matches(#""1""#, "1") && !Self.matches("[]", "{}") && !Self.matches("null", "false"))
    }

    @Test("Numbers compare by value whatever their kind; whole numbers above 2^53 exactly")
    func numbers() throws {
        #expect(try Self.matches("1", "1.0") && Self.matches("1e0", "1") && Self.matches("-0", "0.0") && Self.matches("100", "1e2"))
        #expect(try Self.matches("2.5", "2.50") && !Self.matches("2.5", "2") && !Self.matches("2", "2.5"))
        // 2^53 + 1 is no double: as doubles, these three were one number.
        #expect(try Self.matches("9007199254740993", "9007199254740993"))
        #expect(try !Self.matches("9007199254740993", "9007199254740992"))
        #expect(try !Self.matches("9007199254740993", "9007199254740992.0"))
        #expect(try Self.matches("9007199254740992", "9007199254740992.0"))
        #expect(try Self.matches("9223372036854775807", "9223372036854775807") && !Self.matches("9223372036854775807", "9223372036854775806"))
        #expect(try !Self.matches("9223372036854775807", "9223372036854775808.0"))
        #expect(try Self.matches("-9223372036854775808", "-9223372036854775808.0"))
    }

    @Test("Containing: nested objects name only what they check; lists match element by element, equal in length")
    func nestedContaining() throws {
        let order = #"{"id":"o-7","lines":[{"sku":"apple","count":3,"price":1.5},{"sku":"pear","count":1}],"customer":{"name":"Ann","tier":"gold"}}"#
        #expect(try Self.matches(order, #"{"customer":{"tier":"gold"}}"#, containing: true))
        #expect(try Self.matches(order, #"{"lines":[{"sku":"apple"},{}]}"#, containing: true))
        #expect(try !Self.matches(order, #"{"lines":[{"sku":"apple"}]}"#, containing: true))
        #expect(try !Self.matches(order, #"{"lines":[{},{"sku":"apple"}]}"#, containing: true))
        #expect(try !Self.matches(order, #"{"customer":{"tier":"silver"}}"#, containing: true))
        #expect(try !Self.matches(order, #"{"customer":{"tier":"gold"}}"#))
        // Without containing, the nested objects must be whole too.
        #expect(try !Self.matches(#"{"a":{"b":1,"c":2}}"#, #"{"a":{"b":1}}"#))
        #expect(try Self.matches(#"{"a":{"c":2,"b":1}}"#, #"{"a":{"b":1,"c":2.0}}"#))
        #expect(try Self.matches("[[1,{\"x\":1,\"y\":2}]]", "[[1,{\"x\":1}]]", containing: true))
        #expect(try !Self.matches("[[1,{\"x\":1,\"y\":2}]]", "[[1,{\"x\":1}]]"))
    }

    @Test("A key that is null is not a key that is missing; a repeated key counts with its last value")
    func nullAndMissing() throws {
        #expect(try Self.matches(#"{"n":null,"a":1}"#, #"{"n":null}"#, containing: true))
        #expect(try !Self.matches(#"{"a":1}"#, #"{"n":null}"#, containing: true))
        #expect(try !Self.matches(#"{"a":1,"n":null}"#, #"{"a":1}"#))
        #expect(try !Self.matches(#"{"a":1}"#, #"{"a":1,"n":null}"#))
        #expect(try Self.matches(#"{"a":1,"a":2}"#, #"{"a":2}"#) && !Self.matches(#"{"a":1,"a":2}"#, #"{"a":1}"#))
        #expect(try Self.matches(#"{"a":2}"#, #"{"a":1,"a":2}"#))
    }

    @Test("Messages print keys sorted (each once, its last value) and diffs indent by two spaces")
    func printing() throws {
        let value = try JSONValue(parsing: #"{"b":[1,{"d":2.5,"c":[]}],"a":{},"b2":"x","b":[true,null,{"z":0,"y":1}]}"#)
        #expect(value.withSortedKeys.text == #"{"a":{},"b":[true,null,{"y":1,"z":0}],"b2":"x"}"#)
        #expect(value.withSortedKeys.indentedText == """
            {
              "a": {},
              "b": [
                true,
                null,
                {
                  "y": 1,
                  "z": 0
                }
              ],
              "b2": "x"
            }
            """)
        #expect(try JSONValue(parsing: #"{"k":"v","j":[]}"#).indentedText == "{\n  \"k\": \"v\",\n  \"j\": []\n}")
        #expect(JSONValue.string("a\"b").indentedText == #""a\"b""# && JSONValue.int(9007199254740993).withSortedKeys.text == "9007199254740993")
    }
}
