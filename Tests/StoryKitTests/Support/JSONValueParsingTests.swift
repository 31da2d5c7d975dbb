import Testing
import StoryKit

/// The public JSON reader, through the public API only (as a step library
/// sees it).
@Suite(.timeLimit(.minutes(10))) struct JSONValueParsingTests {
    @Test("Parsed JSON keeps its key order, integers and doubles, and writes back the same compact text")
    func roundTrip() throws {
        let text = #"{"b":[1,-2,1.5,1e3,{"c":"xé\n\"q\""}],"a":true,"n":null,"big":12345678901234567890}"#
        let value = try JSONValue(parsing: text)
        guard case .object(let members) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(members.map(\.0) == ["b", "a", "n", "big"])
        #expect(members[0].1 == .array([.int(1), .int(-2), .double(1.5), .double(1000), .object([("c", .string("xé\n\"q\""))])]))
        #expect(members[3].1 == .double(12345678901234567890))
        #expect(try JSONValue(parsing: "  \"\\ud83d\\ude00\"\n") == .string("😀"))
        #expect(try JSONValue(parsing: #"{"b":[1,-2,1.5,1000,{"c":"xé\n\"q\""}],"a":true,"n":null}"#).text
            == #"{"b":[1,-2,1.5,1000,{"c":"xé\n\"q\""}],"a":true,"n":null}"#)
    }

    @Test("The accessors give a part of its kind, nil for another kind (a whole double is a whole number)")
    func accessors() throws {
        let value = try JSONValue(parsing: #"{"s":"x","i":7,"d":2.0,"f":2.5,"b":false,"a":[1],"o":{"k":null},"s":"second"}"#)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["i"]?.intValue == 7 && value["i"]?.stringValue == nil && value["i"]?.doubleValue == 7)
        #expect(value["d"]?.intValue == 2 && value["f"]?.intValue == nil && value["f"]?.doubleValue == 2.5)
        #expect(value["b"]?.boolValue == false && value["b"]?.intValue == nil)
        #expect(value["a"]?.arrayValue == [.int(1)] && value["a"]?.objectMembers == nil)
        #expect(value["o"]?["k"]?.isNull == true && value["o"]?.objectMembers?.map(\.0) == ["k"])
        #expect(value["missing"] == nil && JSONValue.array([])["s"] == nil)
        #expect(try JSONValue(parsing: "1e300").intValue == nil)
        #expect([value["s"]!, value["i"]!, value["b"]!, value["a"]!, value["o"]!, value["o"]!["k"]!].map(\.kind)
            == ["a string", "a number", "true or false", "a list", "an object", "null"])
    }

    @Test("Text that is not JSON names its line and column and what is wrong", arguments: [
        ("{\"a\": }", 1, 7, "a value"),
        ("[1,\n  2,]", 2, 5, "no comma before the ]"),
        ("{\"a\": 1} x", 1, 10, "more text after the end"),
        ("\"tab\there\"", 1, 5, "control character"),
        ("\"\\q\"", 1, 2, "not an escape"),
        (String(repeating: "[", count: 10_000), 1, 201, "nested more than 200 deep"),
    ])
    func syntaxErrors(text: String, line: Int, column: Int, problem: String) {
        do {
            _ = try JSONValue(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.problem.contains(problem), "\(error)")
            #expect(error.description.hasPrefix("\(line):\(column): "))
        }
    }
}
