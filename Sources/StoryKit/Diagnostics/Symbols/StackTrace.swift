/// The frames of a stack trace as a crashed process printed it, under a
/// `Current stack trace:` line, in either of the two forms a worker
/// prints:
///
/// - glibc's `backtrace_symbols_fd` (a forked worker, see `CrashTrace`):
///   `/path/storyrun(+0x4e8ded)[0x55e4…]`, or `libc.so.6(name+0x95)[…]`;
/// - the Swift runtime's (a worker started again):
///   `4    storyrun    0x0000556232ae6ded <unavailable> + 5148141`.
///
/// Both give a frame with no symbol as an offset from the module's load
/// base, which is what ``Symbolizer`` reads.
struct StackTrace {
    /// One frame, innermost first.
    struct Frame: Equatable {
        /// Which line of the text it is on.
        var line: Int
        /// Its place in the trace, from 0 (where the crash was).
        var depth: Int
        /// The module's path (glibc) or file name (the runtime).
        var module: String
        /// The symbol printed, if any; the offset is then from it.
        var symbol: String?
        /// The offset from the symbol, or else from the module's base.
        var offset: UInt64
        var form: Form

        /// The offset of the code it was in from the module's base, when
        /// printed that way: for a frame that called on (every one but the
        /// first), a byte before its return address, which may be the next
        /// line's code.
        var callOffset: UInt64? {
            guard symbol == nil else { return nil }
            return depth == 0 ? offset : offset &- 1
        }
    }

    /// Which program printed the trace.
    enum Form: Equatable {
        case glibc
        case swiftRuntime
    }

    /// The line that starts a trace.
    static let header = "Current stack trace:"
    /// The most frames read of one trace.
    static let depthLimit = 64

    /// The frames of every trace in `lines`.
    static func frames(in lines: [Substring]) -> [Frame] {
        var frames: [Frame] = []
        var depth: Int?
        for (index, text) in lines.enumerated() {
            if text.hasSuffix(header) {
                depth = 0
            } else if let at = depth, at < depthLimit, var frame = glibcFrame(text) ?? runtimeFrame(text) {
                frame.line = index
                frame.depth = at
                frames.append(frame)
                depth = at + 1
            } else {
                depth = nil
            }
        }
        return frames
    }

    /// `module(symbol+0xoffset)[0xaddress]`, the symbol often empty; or
    /// `[0xaddress]` alone, where glibc knew no module.
    static func glibcFrame(_ text: Substring) -> Frame? {
        if text.hasPrefix("[0x"), text.hasSuffix("]"), UInt64(text.dropFirst(3).dropLast(), radix: 16) != nil {
            return Frame(line: 0, depth: 0, module: "", symbol: "", offset: 0, form: .glibc)
        }
        guard text.hasSuffix("]"), let bracket = text.lastIndex(of: "["), bracket > text.startIndex,
            text[text.index(before: bracket)] == ")",
            let open = text[..<bracket].lastIndex(of: "(")
        else { return nil }
        let inside = text[text.index(after: open)..<text.index(before: bracket)]
        guard let sign = inside.lastIndex(where: { $0 == "+" || $0 == "-" }),
            inside[sign...].dropFirst().hasPrefix("0x"),
            let offset = UInt64(inside[sign...].dropFirst(3), radix: 16)
        else { return nil }
        let symbol = inside[..<sign]
        return Frame(
            line: 0, depth: 0, module: String(text[..<open]), symbol: symbol.isEmpty ? nil : String(symbol), offset: offset,
            form: .glibc)
    }

    /// `depth  module  0xaddress symbol + offset`, the symbol
    /// `<unavailable>` when the runtime knew none.
    static func runtimeFrame(_ text: Substring) -> Frame? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 6, Int(words[0]) != nil, words[2].hasPrefix("0x"),
            words[words.count - 2] == "+", let offset = UInt64(words[words.count - 1])
        else { return nil }
        let symbol = words[3..<(words.count - 2)].joined(separator: " ")
        return Frame(
            line: 0, depth: 0, module: String(words[1]), symbol: symbol == "<unavailable>" ? nil : symbol, offset: offset,
            form: .swiftRuntime)
    }
}
