import Foundation

/// What a crashed worker printed, with its stack trace made readable, and
/// the place in the user's own code where it crashed.
///
/// The parent reads the worker's executable (its symbol table and line
/// tables) only here, once a worker has crashed: a frame that was a bare
/// offset (`storyrun(+0x4e8ded)`, `<unavailable> + 5148141`) comes to name
/// its function and, when the executable has debug info, its file:line.
struct CrashReport {
    /// The output, its stack trace lines rewritten.
    var printed: [Attachment]
    /// Where the crash was in the user's code: `at path:line (in function)`,
    /// or `in function` when the executable has no line tables; nil when
    /// no frame lies in the user's code.
    var site: String?

    /// Modules whose frames are not the user's code: StoryKit's runner
    /// and the toolchain's libraries, when linked into the executable.
    static let notUserCode: Set<String> = [
        "StoryKit", "Swift", "_Concurrency", "_StringProcessing", "Synchronization", "Dispatch", "Foundation",
        "FoundationEssentials", "FoundationInternationalization",
    ]

    /// Symbolizes the stack traces in `printed`, looking up the frames
    /// that lie in the symbolizer's executable.
    static func reading(_ printed: [Attachment], symbolizer: Symbolizer) -> CrashReport {
        let executableName = fileName(symbolizer.path)
        var texts = printed.map { $0.encoding == .identity ? $0.body.split(separator: "\n", omittingEmptySubsequences: false) : [] }
        let frames = texts.map(StackTrace.frames(in:))
        let inExecutable = frames.map { $0.filter { fileName($0.module) == executableName && $0.callOffset != nil } }
        let offsets = inExecutable.flatMap { $0.compactMap(\.callOffset) }
        let places = offsets.isEmpty ? [:] : symbolizer.places(atOffsets: offsets)

        var site: String?
        for index in texts.indices {
            for frame in frames[index] {
                if fileName(frame.module) == executableName, let offset = frame.callOffset, let place = places[offset] {
                    texts[index][frame.line] = Substring(rewritten(texts[index][frame.line], frame, place))
                    if site == nil, isUserCode(place.symbol) {
                        site = place.line.map { "at \(SourceLocation.relativePath($0.file)):\($0.line) (in \(place.function))" } ?? "in \(place.function)"
                    }
                } else if frame.form == .glibc, let symbol = frame.symbol, SwiftDemangler.isSwiftSymbol(symbol) {
                    texts[index][frame.line] = Substring(renamed(texts[index][frame.line], SwiftDemangler.shortName(symbol), offset: frame.offset))
                }
            }
        }
        var readable = printed
        for index in readable.indices where !frames[index].isEmpty {
            readable[index].body = texts[index].joined(separator: "\n")
        }
        return CrashReport(printed: readable, site: site)
    }

    /// Whether a function is the user's: a Swift function of a module
    /// other than StoryKit's and the toolchain's.
    static func isUserCode(_ symbol: String) -> Bool {
        guard let module = SwiftDemangler.module(of: symbol) else { return false }
        return !notUserCode.contains(module)
    }

    /// The frame's line naming its function, and its file:line if known.
    private static func rewritten(_ text: Substring, _ frame: StackTrace.Frame, _ place: Symbolizer.Place) -> String {
        // The offset printed is the return address's, one past the call.
        let offset = place.offsetInFunction + (frame.depth == 0 ? 0 : 1)
        let at = place.line.map { " at \(SourceLocation.relativePath($0.file)):\($0.line)" } ?? ""
        switch frame.form {
        case .glibc:
            return renamed(text, place.function, offset: offset) + at
        case .swiftRuntime:
            guard let unavailable = text.range(of: "<unavailable>") else { return String(text) + at }
            return text[..<unavailable.lowerBound] + "\(place.function) + \(offset)" + at
        }
    }

    /// A glibc frame's line with `name+0xoffset` in its parentheses.
    private static func renamed(_ text: Substring, _ name: String, offset: UInt64) -> String {
        guard let bracket = text.lastIndex(of: "["), let open = text[..<bracket].lastIndex(of: "(") else { return String(text) }
        return text[..<open] + "(\(name)+0x\(String(offset, radix: 16)))" + text[bracket...]
    }

    private static func fileName(_ path: String) -> Substring {
        path.split(separator: "/").last ?? Substring(path)
    }
}
