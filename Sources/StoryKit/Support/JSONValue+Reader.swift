/// Reading a ``JSONValue`` straight from the bytes (numbers as
/// `JSONReader+Number.swift` reads them), noting where each value and key
/// starts when ``JSONReader/places`` are asked for.
extension JSONReader {
    /// A whole document: one value, with nothing but space around it.
    mutating func document() throws(JSONValue.SyntaxError) -> JSONValue {
        skipSpace()
        let value = try jsonValue(depth: 0)
        skipSpace()
        guard index == bytes.count else { throw error("more text after the end of the JSON value") }
        return value
    }

    /// The value that starts here, its place noted if places are asked for.
    mutating func jsonValue(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        guard places != nil else { return try valueHere(depth: depth) }
        let (start, startLine, startColumn) = (index, line, column)
        let value = try valueHere(depth: depth)
        places?.values[path] = JSONPlaces.Place(line: startLine, column: startColumn, bytes: start..<index)
        return value
    }

    private mutating func valueHere(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
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
            let (keyStart, keyLine, keyColumn) = (index, line, column)
            let key = try string()
            let keyEnd = index
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("a colon should follow the key \"\(key)\"") }
            index += 1
            skipSpace()
            if places != nil {
                path.append(members.count)
                places?.keys[path] = JSONPlaces.Place(line: keyLine, column: keyColumn, bytes: keyStart..<keyEnd)
            }
            members.append((key, try jsonValue(depth: depth + 1)))
            if places != nil { path.removeLast() }
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
            if places != nil { path.append(elements.count) }
            elements.append(try jsonValue(depth: depth + 1))
            if places != nil { path.removeLast() }
            skipSpace()
            guard index < bytes.count else { throw error("the text ends inside a list (a ] is missing)") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("a comma or ] should be here")
        }
    }
}
