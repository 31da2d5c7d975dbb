import Foundation

/// A compiled step pattern: the only type that touches NSRegularExpression.
///
/// Regex patterns follow Simon: a case-insensitive, unanchored search.
struct Pattern: @unchecked Sendable {
    /// The pattern as the user wrote it.
    let source: String
    /// The number of capture groups.
    let groupCount: Int
    private let compiled: CompiledRegex
    /// For a pattern that starts with `^` and literal ASCII text, that text
    /// lowercased: a text that does not start with it cannot match.
    let anchoredPrefix: [UInt8]?
    /// The same pattern for the fast matcher, when it understands it.
    private let simple: SimpleRegex?
    /// The nesting of its capture groups (``GroupShape/parents``): empty
    /// when none nests, as in every pattern the fast matcher reads.
    let groupParents: [Int32]

    /// Compiles a regex pattern.
    /// - Throws: The compiler's message when the pattern is not a valid regex.
    init(regex source: String, caseInsensitive: Bool = true) throws(PatternError) {
        let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
        self.source = source
        anchoredPrefix = caseInsensitive ? Self.literalPrefix(ofAnchored: source) : nil
        if caseInsensitive, let simple = SimpleRegex(source) {
            // Every pattern the fast matcher reads is a valid regex, so
            // NSRegularExpression is compiled only if a text needs it.
            self.simple = simple
            groupCount = simple.groupCount
            groupParents = []
            compiled = CompiledRegex(source: source, options: options, regex: nil)
            return
        }
        let regex: NSRegularExpression
        do {
            regex = try NSRegularExpression(pattern: source, options: options)
        } catch {
            throw PatternError(message: Self.reason(for: error))
        }
        simple = nil
        groupCount = regex.numberOfCaptureGroups
        let parents = GroupShape(pattern: source).parents
        // A shape that disagrees with the compiler's count places nothing nested.
        groupParents = parents.count == groupCount ? parents : []
        compiled = CompiledRegex(source: source, options: options, regex: regex)
    }

    /// Returns the text of each capture group (nil for a group that took no
    /// part) when the pattern is found in `text`, or nil when it is not.
    func captures(in text: String) -> [String?]? {
        located(in: text)?.texts
    }

    /// ``captures(in:)`` with where each group lies in `text` (UTF-8
    /// offsets; ``GroupSpans``), found by the same match.
    func located(in text: String) -> (texts: [String?], spans: GroupSpans)? {
        var text = text
        // One look at the bytes answers most texts: the prefix, then the fast matcher.
        let answer: (texts: [String?], spans: GroupSpans)?? = text.withUTF8 { bytes in
            if let prefix = anchoredPrefix, !Self.hasASCIIPrefix(bytes, prefix) { return .some(nil) }
            guard let simple, SimpleRegex.canMatch(bytes) else { return nil }
            return .some(simple.located(in: bytes))
        }
        if let answer { return answer }
        return regexLocated(in: text)
    }

    /// The captures NSRegularExpression finds; tests compare the fast
    /// matcher with it.
    func regexCaptures(in text: String) -> [String?]? {
        regexLocated(in: text)?.texts
    }

    /// The captures NSRegularExpression finds, with where each lies.
    private func regexLocated(in text: String) -> (texts: [String?], spans: GroupSpans)? {
        let ns = text as NSString
        guard let result = compiled.regex.firstMatch(in: text, range: NSRange(location: 0, length: ns.length))
        else { return nil }
        var texts: [String?] = []
        var ranges: [Range<Int>?] = []
        texts.reserveCapacity(groupCount)
        ranges.reserveCapacity(groupCount)
        for index in 0..<groupCount {
            let range = result.range(at: index + 1)
            guard range.location != NSNotFound else {
                texts.append(nil)
                ranges.append(nil)
                continue
            }
            if let swiftRange = Range(range, in: text) {
                texts.append(String(text[swiftRange]))
                let start = text.utf8.distance(from: text.startIndex, to: swiftRange.lowerBound)
                ranges.append(start..<(start + text.utf8.distance(from: swiftRange.lowerBound, to: swiftRange.upperBound)))
            } else {
                // A group that splits a character: its text, unplaced.
                texts.append(ns.substring(with: range))
                ranges.append(nil)
            }
        }
        // A group that splits a character has no place: none are given.
        let placed = zip(texts, ranges).allSatisfy { ($0 == nil) == ($1 == nil) }
        return (texts, placed ? GroupSpans(ranges) : .none)
    }

    /// Whether the fast matcher answers for this pattern.
    var isSimple: Bool { simple != nil }

    /// Whether the text starts with the lowercase ASCII prefix, ignoring the
    /// case of ASCII letters. A non-ASCII character in the text's first
    /// bytes answers yes, since case folding may then equate characters.
    private static func hasASCIIPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        for (offset, expected) in prefix.enumerated() {
            guard offset < bytes.count else { return false }
            let byte = bytes[offset]
            if byte >= 0x80 { return true }
            let lowered = byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
            if lowered != expected { return false }
        }
        return true
    }

    /// The literal ASCII letters, digits and blanks right after a leading `^`.
    private static func literalPrefix(ofAnchored source: String) -> [UInt8]? {
        // On the bytes in place: every definition pays for this at registration.
        var source = source
        return source.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "^") else { return nil }
            var end = 1
            while end < bytes.count {
                let byte = bytes[end]
                let isLiteral = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x20
                guard isLiteral else { break }
                // A quantifier after the character makes it optional or repeated.
                if end + 1 < bytes.count, SimpleRegex.isQuantifier(bytes[end + 1]) { break }
                end += 1
            }
            guard end > 1 else { return nil }
            return bytes[1..<end].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        }
    }

    private static func reason(for error: any Error) -> String {
        let info = (error as NSError).userInfo
        if let reason = info["NSInvalidValue"] as? String { return "invalid regex \(reason)" }
        return "the pattern is not a valid regular expression"
    }
}

/// Why a pattern could not be compiled.
struct PatternError: Error {
    /// What the regex compiler said.
    var message: String
}

/// An NSRegularExpression compiled on first use.
private final class CompiledRegex: @unchecked Sendable {
    // Unchecked: `cached` is read and written only under `Self.lock`.
    private let source: String
    private let options: NSRegularExpression.Options
    /// The regex compiled when the pattern was registered, if it was.
    private let compiled: NSRegularExpression?
    /// One lock for every pattern's regex compiled later: a lock each cost
    /// every definition two allocations when it was registered, and such
    /// compiling is rare (the fast matcher answers most texts).
    private static let lock = NSLock()
    private var cached: NSRegularExpression?

    init(source: String, options: NSRegularExpression.Options, regex: NSRegularExpression?) {
        self.source = source
        self.options = options
        compiled = regex
    }

    var regex: NSRegularExpression {
        if let compiled { return compiled }
        Self.lock.lock()
        defer { Self.lock.unlock() }
        if let cached { return cached }
        // The pattern was checked when it was registered.
        let made = try! NSRegularExpression(pattern: source, options: options)
        cached = made
        return made
    }
}
