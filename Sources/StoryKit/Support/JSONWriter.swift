/// JSON text written as it is built, straight into bytes: the reports'
/// one way of writing JSON by hand (a report too large to build as a
/// ``JSONValue`` first). The writer places the commas: a value or key
/// after another in the same object or array is preceded by one. It does
/// not check that objects and arrays are closed, nor that a key comes
/// before each member's value: the caller's code says the shape.
///
/// Strings are escaped as ``JSONValue`` escapes them; in the script-safe
/// form, for JSON inside an HTML `<script>` element, as
/// `[UInt8].scriptJSON(_:)` does (`<`, `>`, `&`, U+2028 and U+2029 escaped
/// too).
///
/// As fast as bytes placed by hand: keys, brackets, quotes, commas,
/// numbers and short strings that need no escape wait in 64 bytes of the
/// writer's own (``pending``) and go into the bytes together before the
/// next longer text, in one append (each append checks the
/// array's capacity and ownership again, some hundred instructions; a
/// Messages report writes some thirty members per step).
struct JSONWriter {
    /// The text written so far, but for ``pending``.
    private var bytes: [UInt8] = []
    /// Keys and punctuation written but not yet appended to ``bytes``.
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// The number of bytes in ``pending``.
    private var pendingCount = 0
    private static var pendingCapacity: Int { 64 }
    /// Whether a comma goes before the next key or value: a value was
    /// written last, not a key or the start of an object or array.
    private var isCommaDue: Bool
    /// Whether strings are escaped for an HTML `<script>` element.
    let isScriptSafe: Bool

    private init(scriptSafe: Bool, afterElement: Bool) {
        isScriptSafe = scriptSafe
        isCommaDue = afterElement
    }

    /// Appends JSON to `out` through a writer: `out`'s bytes are moved into
    /// the writer and back, not copied. `afterElement` when the first value
    /// follows an element of an array (or a member of an object) written
    /// before, so it starts with a comma; `scriptSafe` for JSON inside an
    /// HTML `<script>` element.
    static func write<Result>(
        into out: inout [UInt8], scriptSafe: Bool = false, afterElement: Bool = false, _ body: (inout JSONWriter) throws -> Result
    ) rethrows -> Result {
        var writer = JSONWriter(scriptSafe: scriptSafe, afterElement: afterElement)
        swap(&writer.bytes, &out)
        defer {
            writer.flush()
            swap(&writer.bytes, &out)
        }
        return try body(&writer)
    }

    /// The JSON text that `body` writes.
    static func bytes(scriptSafe: Bool = false, afterElement: Bool = false, _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var out: [UInt8] = []
        write(into: &out, scriptSafe: scriptSafe, afterElement: afterElement, body)
        return out
    }

    mutating func beginObject() {
        separate()
        push(UInt8(ascii: "{"))
        isCommaDue = false
    }

    mutating func endObject() {
        push(UInt8(ascii: "}"))
        isCommaDue = true
    }

    mutating func beginArray() {
        separate()
        push(UInt8(ascii: "["))
        isCommaDue = false
    }

    mutating func endArray() {
        push(UInt8(ascii: "]"))
        isCommaDue = true
    }

    /// A member's key, `"name":`; its value comes next. The name is
    /// written as it is: plain ASCII that needs no escape (it is known
    /// when storyrun is built).
    mutating func key(_ name: StaticString) {
        assert(name.withUTF8Buffer { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } }, "a key that needs escaping")
        separate()
        push(UInt8(ascii: "\""))
        // A string literal's bytes, read in place (no closure).
        let count = name.hasPointerRepresentation ? name.utf8CodeUnitCount : Self.pendingCapacity
        if pendingCount + count + 2 > Self.pendingCapacity {
            flush()
            guard count + 2 <= Self.pendingCapacity else {
                name.withUTF8Buffer { bytes.append(contentsOf: $0) }
                bytes.literal("\":")
                isCommaDue = false
                return
            }
        }
        let start = pendingCount
        withUnsafeMutableBytes(of: &pending) { pending in
            // Byte by byte through pointers: a name is too short for a call
            // to memcpy, and the room for it is checked above.
            let target = pending.baseAddress!.advanced(by: start)
            let source = UnsafeRawPointer(name.utf8Start)
            for index in 0..<count { target.storeBytes(of: source.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self) }
            target.storeBytes(of: UInt8(ascii: "\""), toByteOffset: count, as: UInt8.self)
            target.storeBytes(of: UInt8(ascii: ":"), toByteOffset: count + 1, as: UInt8.self)
        }
        pendingCount = start + count + 2
        isCommaDue = false
    }

    /// A string, escaped.
    @inline(__always)
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string($0) }
    }

    /// A string known when storyrun was built, escaped.
    mutating func string(_ text: StaticString) {
        text.withUTF8Buffer { string($0) }
    }

    /// A string in UTF-8, escaped. A short one that needs no escape (a
    /// name, a keyword, a status) waits in ``pending`` too.
    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        push(UInt8(ascii: "\""))
        if !pushPlain(utf8) {
            flush()
            if isScriptSafe {
                bytes.scriptEscaped(utf8)
            } else {
                JSONValue.writeEscaped(utf8, into: &bytes)
            }
        }
        push(UInt8(ascii: "\""))
        isCommaDue = true
    }

    /// Puts `utf8` in ``pending`` when it is short and needs no escape;
    /// false, with ``pending`` as it was, when it does not fit or needs one.
    @inline(__always)
    private mutating func pushPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = utf8.count
        // Room for the closing quote after it.
        guard count < Self.pendingCapacity / 2 else { return false }
        if pendingCount + count + 1 > Self.pendingCapacity { flush() }
        let start = pendingCount
        let isPlain = withUnsafeMutableBytes(of: &pending) { pending in
            let target = pending.baseAddress!.advanced(by: start)
            for index in 0..<count {
                let byte = utf8[index]
                guard byte >= 0x20, byte != 0x22, byte != 0x5C else { return false }
                // In a script element, `<`, `>`, `&`, and (for U+2028 and
                // U+2029) all but ASCII are escaped.
                if isScriptSafe, byte >= 0x80 || byte == 0x3C || byte == 0x3E || byte == 0x26 { return false }
                target.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
            }
            return true
        }
        if isPlain { pendingCount = start + count }
        return isPlain
    }

    /// A string whose text `write` appends, already escaped (or text that
    /// needs no escape: digits, ids, words known when storyrun was built).
    @inline(__always)
    mutating func string(writing write: (inout [UInt8]) -> Void) {
        separate()
        push(UInt8(ascii: "\""))
        flush()
        write(&bytes)
        push(UInt8(ascii: "\""))
        isCommaDue = true
    }

    mutating func integer(_ value: Int) {
        integer(Int64(value))
    }

    /// An integer: its digits wait in ``pending`` with the keys and
    /// punctuation around them, not appended on their own.
    @inline(__always)
    mutating func integer(_ value: Int64) {
        separate()
        if pendingCount + JSONValue.maxDecimalCount > Self.pendingCapacity { flush() }
        let start = pendingCount
        let count = JSONValue.withDecimal(value) { digits in
            withUnsafeMutableBytes(of: &pending) { pending in
                let target = pending.baseAddress!.advanced(by: start)
                for index in 0..<digits.count { target.storeBytes(of: digits[index], toByteOffset: index, as: UInt8.self) }
            }
            return digits.count
        }
        pendingCount = start + count
        isCommaDue = true
    }

    /// A string of an integer's digits, `"42"` (an id that is a number).
    @inline(__always)
    mutating func integerString(_ value: Int64) {
        separate()
        push(UInt8(ascii: "\""))
        isCommaDue = false
        integer(value)
        push(UInt8(ascii: "\""))
    }

    mutating func bool(_ value: Bool) {
        separate()
        pushWord(value ? "true" : "false")
        isCommaDue = true
    }

    mutating func null() {
        separate()
        pushWord("null")
        isCommaDue = true
    }

    /// A value built as a ``JSONValue``.
    mutating func value(_ value: JSONValue) {
        raw { value.write(into: &$0) }
    }

    /// Members of an object built as ``JSONValue``s, keys and all (keys
    /// that are not known when storyrun is built are escaped).
    mutating func members(_ members: [(String, JSONValue)]) {
        for (key, value) in members {
            separate()
            flush()
            JSONValue.writeString(key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            value.write(into: &bytes)
            isCommaDue = true
        }
    }

    /// A value that `write` appends, already JSON (a fragment made once
    /// and kept, say).
    @inline(__always)
    mutating func raw(_ write: (inout [UInt8]) -> Void) {
        separate()
        flush()
        write(&bytes)
        isCommaDue = true
    }

    /// The comma due, if any, then a line end: whitespace between values,
    /// for text that people read too.
    mutating func lineBreak() {
        separate()
        push(UInt8(ascii: "\n"))
        isCommaDue = false
    }

    /// A line end after a whole JSON text, before the next one (one JSON
    /// text a line, NDJSON): no comma.
    mutating func lineEnd() {
        push(UInt8(ascii: "\n"))
        isCommaDue = false
    }

    /// The comma before a value or key, when one is due.
    @inline(__always)
    private mutating func separate() {
        if isCommaDue { push(UInt8(ascii: ",")) }
    }

    /// Punctuation, kept in ``pending`` until the next text.
    @inline(__always)
    private mutating func push(_ byte: UInt8) {
        if pendingCount == Self.pendingCapacity { flush() }
        let count = pendingCount
        withUnsafeMutableBytes(of: &pending) { $0.baseAddress!.storeBytes(of: byte, toByteOffset: count, as: UInt8.self) }
        pendingCount = count + 1
    }

    /// A word of a few bytes (`true`, `false`, `null`), kept in ``pending``.
    @inline(__always)
    private mutating func pushWord(_ word: StaticString) {
        word.withUTF8Buffer { word in
            for byte in word { push(byte) }
        }
    }

    /// Appends ``pending`` to the bytes.
    private mutating func flush() {
        let count = pendingCount
        switch count {
        case 0: return
        case 1...3:
            // A byte at a time: cheaper than an append of a few bytes.
            withUnsafeBytes(of: &pending) { pending in
                for index in 0..<count { bytes.append(pending[index]) }
            }
        default:
            withUnsafeBytes(of: &pending) { pending in
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: pending[..<count]).assumingMemoryBound(to: UInt8.self))
            }
        }
        pendingCount = 0
    }
}
