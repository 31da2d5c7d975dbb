import Testing
@testable import StoryKit

/// The reports' streaming JSON writer against ``JSONValue``'s writer: the
/// same bytes for the same values, escapes and all.
@Suite(.timeLimit(.minutes(10))) struct JSONWriterTests {
    /// Keys as the reports name them, a long one past the writer's 64
    /// bytes kept aside among them.
    static let keys: [StaticString] = [
        "id", "a", "astNodeIds", "keywordType", "x",
        "a key longer than sixty-four bytes, which no report has, but which must still be written whole",
    ]

    /// Strings that need every kind of escape.
    static let strings: [String] = [
        "", "plain", "quote \" and backslash \\", "line\nfeed\r\ttab", "\u{8}\u{C}", "\u{0}\u{1}\u{1F}\u{7F}",
        "</script><!-- & >", "é 😀 \u{2028} \u{2029}", String(repeating: "long text ", count: 40),
    ]

    @Test("Values written through the writer are the bytes JSONValue writes for them, in nested objects and arrays")
    func sameAsJSONValue() {
        var random = SplitMix64(seed: 29)
        for _ in 0..<500 {
            var expected = JSONValue.null
            let bytes = JSONWriter.bytes { writer in expected = Self.randomValue(&random, depth: 0, writer: &writer) }
            #expect(String(decoding: bytes, as: UTF8.self) == expected.text)
        }
    }

    @Test("Strings, integers, booleans and null each, as JSONValue writes them")
    func scalars() {
        for string in Self.strings {
            #expect(JSONWriter.bytes { $0.string(string) } == Array(JSONValue.string(string).text.utf8))
        }
        for number: Int64 in [0, 7, -7, 10, 99, 100, -100, 1_234_567_890, .max, .min] {
            #expect(JSONWriter.bytes { $0.integer(number) } == Array(JSONValue.int(number).text.utf8))
        }
        #expect(JSONWriter.bytes { $0.beginArray(); $0.bool(true); $0.bool(false); $0.null(); $0.string("s" as StaticString); $0.endArray() }
            == Array(#"[true,false,null,"s"]"#.utf8))
        #expect(JSONWriter.bytes { $0.beginObject(); $0.endObject(); $0.beginArray(); $0.endArray() } == Array("{},[]".utf8))
    }

    @Test("The script-safe form writes strings as the HTML page's data escapes them, and they read back the same")
    func scriptSafe() throws {
        for string in Self.strings {
            var expected: [UInt8] = []
            expected.scriptJSON(string)
            let bytes = JSONWriter.bytes(scriptSafe: true) { $0.string(string) }
            #expect(bytes == expected)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("<") && !text.contains(">") && !text.contains("&") && !text.contains("\u{2028}"))
            #expect(try JSONValue(parsing: text) == .string(string))
        }
        // Keys, numbers and structure are the same in both forms.
        let page = JSONWriter.bytes(scriptSafe: true) { json in
            json.beginObject()
            json.key("n")
            json.string("a <b>")
            json.key("c")
            json.beginArray()
            json.integer(1)
            json.integer(2)
            json.endArray()
            json.endObject()
        }
        #expect(String(decoding: page, as: UTF8.self) == #"{"n":"a \u003cb\u003e","c":[1,2]}"#)
    }

    @Test("Appending to bytes written before keeps them; a value after an element starts with a comma; a line break follows the comma")
    func continuing() {
        var out = Array("[1".utf8)
        JSONWriter.write(into: &out, afterElement: true) { json in
            json.lineBreak()
            json.beginObject()
            json.key("id")
            json.string { $0.append(contentsOf: "7".utf8) }
            json.key("v")
            json.raw { $0.append(contentsOf: "[true]".utf8) }
            json.key("w")
            json.value(.object([("q", .string("\""))]))
            json.endObject()
        }
        out.append(UInt8(ascii: "]"))
        #expect(String(decoding: out, as: UTF8.self) == "[1,\n{\"id\":\"7\",\"v\":[true],\"w\":{\"q\":\"\\\"\"}}]")
        // More brackets than the writer keeps at once.
        let deep = JSONWriter.bytes { json in
            for _ in 0..<100 { json.beginArray() }
            for _ in 0..<100 { json.endArray() }
        }
        #expect(deep == Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8))
    }

    @Test("Short strings and numbers kept with the punctuation are the same bytes at every offset of the writer's buffer, in both forms")
    func keptWithPunctuation() throws {
        // Each prefix puts the next value at another offset of the 64
        // bytes kept aside, so every value is written across its end too.
        let texts = ["", "PASSED", "a <b> & c", "é", "\u{2028}", "quote \"", String(repeating: "x", count: 31), String(repeating: "y", count: 33)]
        for offset in 0..<70 {
            let pad = String(repeating: "p", count: offset)
            for text in texts {
                for number: Int64 in [0, -1, 42, .min, .max] {
                    let value = JSONValue.array([.string(pad), .string(text), .int(number), .string(text), .bool(offset % 2 == 0), .null])
                    let written = { (scriptSafe: Bool) in
                        JSONWriter.bytes(scriptSafe: scriptSafe) { json in
                            json.beginArray()
                            json.string(pad)
                            json.string(text)
                            json.integer(number)
                            json.string(text)
                            json.bool(offset % 2 == 0)
                            json.null()
                            json.endArray()
                        }
                    }
                    #expect(String(decoding: written(false), as: UTF8.self) == value.text)
                    // The script-safe form: the page's own escapes, read back the same.
                    var expected = Array("[".utf8)
                    expected.scriptJSON(pad)
                    expected.append(UInt8(ascii: ","))
                    expected.scriptJSON(text)
                    expected += Array(",\(number),".utf8)
                    expected.scriptJSON(text)
                    expected += Array((offset % 2 == 0 ? ",true,null]" : ",false,null]").utf8)
                    #expect(written(true) == expected)
                    #expect(try JSONValue(parsing: String(decoding: written(true), as: UTF8.self)) == value)
                }
            }
        }
    }

    @Test("An integer as a string, members built as values, and lines of one JSON text each (NDJSON)")
    func linesAndMembers() {
        let bytes = JSONWriter.bytes { json in
            for line in 0..<3 {
                json.beginObject()
                json.key("id")
                json.integerString(Int64(line) - 1)
                json.members([("k\"ey", .string("v")), ("n", .array([.int(1)]))])
                json.key("t")
                json.bool(true)
                json.endObject()
                json.lineEnd()
            }
        }
        let line = { (id: Int) in #"{"id":"\#(id)","k\"ey":"v","n":[1],"t":true}"# + "\n" }
        #expect(String(decoding: bytes, as: UTF8.self) == line(-1) + line(0) + line(1))
    }

    /// Writes a random value through `writer` and returns it as a ``JSONValue``.
    static func randomValue(_ random: inout SplitMix64, depth: Int, writer: inout JSONWriter) -> JSONValue {
        switch random.next() % (depth > 4 ? 4 : 6) {
        case 0:
            let string = strings[Int(random.next() % UInt64(strings.count))]
            writer.string(string)
            return .string(string)
        case 1:
            let number = Int64(bitPattern: random.next()) >> (random.next() % 64)
            writer.integer(number)
            return .int(number)
        case 2:
            let flag = random.next() % 2 == 0
            writer.bool(flag)
            return .bool(flag)
        case 3:
            writer.null()
            return .null
        case 4:
            writer.beginArray()
            let values = (0..<random.next() % 5).map { _ in randomValue(&random, depth: depth + 1, writer: &writer) }
            writer.endArray()
            return .array(values)
        default:
            writer.beginObject()
            var members: [(String, JSONValue)] = []
            for _ in 0..<random.next() % 5 {
                let key = keys[Int(random.next() % UInt64(keys.count))]
                writer.key(key)
                members.append((key.description, randomValue(&random, depth: depth + 1, writer: &writer)))
            }
            writer.endObject()
            return .object(members)
        }
    }
}
