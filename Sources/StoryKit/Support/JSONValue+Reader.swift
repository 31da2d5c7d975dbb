/// Reading a ``JSONValue`` straight from the bytes, without a located tree
/// in between: the same grammar and the same messages as ``LocatedJSON``,
/// and a number written as a short integer is read from its digits.
extension LocatedJSON.Reader {
    /// The value that starts here, as the one JSON value type.
    mutating func jsonValue(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        guard depth < 200 else { throw error("nested more than 200 deep") }
        guard index < bytes.count else { throw error("the text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try jsonObject(depth: depth)
        case UInt8(ascii: "["): return try jsonArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try jsonNumber()
        default:
            throw error("a value (a string in double quotes, a number, true, false, a list or an object) should be here")
        }
    }

    private mutating func jsonObject(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([])
        }
        while true {
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { throw error("JSON allows no comma before the }") }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("a key in double quotes should be here")
            }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("a colon should follow the key \"\(key)\"") }
            index += 1
            skipSpace()
            members.append((key, try jsonValue(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw error("the text ends inside an object (a } is missing)") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("a comma or } should be here")
        }
    }

    private mutating func jsonArray(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        while true {
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw error("JSON allows no comma before the ]") }
            elements.append(try jsonValue(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw error("the text ends inside a list (a ] is missing)") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("a comma or ] should be here")
        }
    }

    /// A number: up to 18 digits (with an optional minus) read as an integer
    /// from the bytes; anything else through the same text checks as before.
    private mutating func jsonNumber() throws(JSONValue.SyntaxError) -> JSONValue {
        let start = index
        while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
        let negative = bytes[start] == UInt8(ascii: "-")
        let digitsStart = negative ? start + 1 : start
        if index > digitsStart, index - digitsStart <= 18 {
            var value: Int64 = 0
            var position = digitsStart
            while position < index, bytes[position] &- UInt8(ascii: "0") < 10 {
                value = value &* 10 &+ Int64(bytes[position] &- UInt8(ascii: "0"))
                position += 1
            }
            if position == index { return .int(negative ? -value : value) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let double = Double(text) else { index = start; throw error("\(text) is not a number") }
        return Int64(text).map(JSONValue.int) ?? .double(double)
    }
}
