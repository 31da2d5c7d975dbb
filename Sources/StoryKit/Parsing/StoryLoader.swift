import Foundation

/// Finds story files under the paths a user names, reads and parses them.
enum StoryLoader {
    /// The file extensions storyrun reads from folders.
    static let extensions = ["stories", "feature"]

    /// Loads every story under the paths: files as named, folders recursively
    /// (`*.stories` and `*.feature`, in sorted order).
    static func load(paths: [String]) -> (stories: [Story], diagnostics: [Diagnostic]) {
        var (files, diagnostics) = files(at: paths)
        var stories: [Story] = []
        for file in files {
            let parsed = parseFile(at: file)
            // The first file's stories are taken as they are, not copied
            // one by one: most calls load a single file.
            if stories.isEmpty { stories = parsed.stories } else { stories += parsed.stories }
            diagnostics += parsed.diagnostics
        }
        return (stories, diagnostics)
    }

    /// Reads and parses one file, choosing the format by its extension.
    static func parseFile(at path: String) -> (stories: [Story], diagnostics: [Diagnostic]) {
        switch readText(at: path) {
        case .success(let text): parse(text, path: path)
        case .failure(let diagnostic): ([], [diagnostic])
        }
    }

    /// Reads and parses one file, as ``parseFile(at:)`` does, and keeps
    /// its text and syntax tree in `parses`, for the reports.
    static func parseFile(at path: String, keepingIn parses: RecentParses) -> (stories: [Story], diagnostics: [Diagnostic]) {
        let text: String
        switch readText(at: path) {
        case .success(let read): text = read
        case .failure(let diagnostic): return ([], [diagnostic])
        }
        guard FeatureFile.isFeature(path) else {
            let parsed = StoriesParser.parse(text, path: path)
            if !parses.keepsOnlyRowFiles { parses.keep(RecentParses.Parse(text: text, document: nil, nextID: 0), for: path) }
            return parsed
        }
        let parsed = FeatureFile.parseKeepingTree(text, path: path)
        if parses.wants(parsed.stories) {
            parses.keep(RecentParses.Parse(text: text, document: parsed.document, nextID: parsed.nextID), for: path)
        }
        return (parsed.stories, parsed.diagnostics)
    }

    /// Parses the text of a story file, choosing the format by the path's extension.
    static func parse(_ text: String, path: String) -> (stories: [Story], diagnostics: [Diagnostic]) {
        FeatureFile.isFeature(path) ? FeatureFile.parse(text, path: path) : StoriesParser.parse(text, path: path)
    }

    /// The text of a file, or the diagnostic that says why it has none.
    /// Only regular files are read: a FIFO, socket or device is refused
    /// before it is opened (see ``RegularFile``).
    static func readText(at path: String) -> Result<String, Diagnostic> {
        var failure: RegularFile.Failure?
        return readText(at: path, failure: &failure)
    }

    /// The text of a file, or the diagnostic that says why it has none
    /// (and in `failure`, why it could not be read, when it could not).
    private static func readText(at path: String, failure readFailure: inout RegularFile.Failure?) -> Result<String, Diagnostic> {
        let data: [UInt8]
        let stamp = FileStamps.stamp(of: path)
        switch RegularFile.read(at: path) {
        case .success(let bytes):
            data = bytes
            FileStamps.note(stamp, for: path)
        case .failure(let failure):
            readFailure = failure
            return .failure(Diagnostic(at: SourceLocation(file: path, line: 1), problem: failure.problem(path), help: failure.help))
        }
        if let encoding = utf16Encoding(data) {
            return .failure(Diagnostic(
                at: SourceLocation(file: path, line: 1, column: 1), problem: "the file is \(encoding) text, not UTF-8",
                help: "save the file as UTF-8 (e.g. iconv -f \(encoding) -t UTF-8)"))
        }
        guard let text = String(validating: data, as: UTF8.self) else { return .failure(notUTF8(data, path: path)) }
        return .success(text)
    }

    /// A regular file's bytes; nil when the file cannot be read or is not a
    /// regular file.
    static func readBytes(at path: String) -> [UInt8]? {
        try? RegularFile.read(at: path).get()
    }

    /// The story files under the paths, each once, with a diagnostic for
    /// each path that does not exist and a warning for what a folder walk
    /// passed over (see ``folderFiles(_:)``).
    static func files(at paths: [String]) -> (files: [String], diagnostics: [Diagnostic]) {
        let (files, _, diagnostics) = files(at: paths, lines: [:])
        return (files, diagnostics)
    }

    /// A problem for each two paths that are spelled with other bytes for
    /// the same text (é as one code point and as e with an accent, which
    /// Swift's `String` takes for equal): storyrun would take them for one
    /// file, run one of them and name the other in its reports.
    static func sameButForNormalization(_ files: [String]) -> [Diagnostic] {
        var seen: [String: String] = [:]
        var problems: [Diagnostic] = []
        for file in files {
            guard let other = seen[file] else {
                seen[file] = file
                continue
            }
            guard !other.utf8.elementsEqual(file.utf8) else { continue }
            problems.append(Diagnostic(
                at: nil,
                problem: "\(other) and \(file) are the same name in two Unicode forms (composed and decomposed accents); storyrun cannot tell them apart",
                help: "rename one of them, so that their names differ in more than how an accent is written"))
        }
        return problems
    }

    /// The story files one path names: itself, or the files under a folder.
    static func files(at path: String) -> (files: [String], isFolder: Bool, diagnostics: [Diagnostic]) {
        // One stat(2), as FileManager.fileExists(atPath:isDirectory:) makes,
        // without its overhead: a run may name files one by one.
        var status = stat()
        guard stat(path, &status) == 0 else {
            return ([], false, [Diagnostic(at: nil, problem: "no such file or folder: \(path)", help: "name .stories or .feature files, or folders that hold them")])
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return ([path], false, []) }
        let (files, diagnostics) = folderFiles(path)
        return (files, true, diagnostics)
    }

    /// `UTF-16LE` or `UTF-16BE` when the bytes look like UTF-16 text: a
    /// byte order mark, or a zero in every other byte of the start.
    static func utf16Encoding(_ data: [UInt8]) -> String? {
        if data.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
        if data.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
        let start = data.prefix(64)
        guard start.count >= 4 else { return nil }
        let even = stride(from: 0, to: start.count - 1, by: 2).map { start[$0] }
        let odd = stride(from: 1, to: start.count, by: 2).map { start[$0] }
        if odd.allSatisfy({ $0 == 0 }) && even.allSatisfy({ $0 != 0 }) { return "UTF-16LE" }
        if even.allSatisfy({ $0 == 0 }) && odd.allSatisfy({ $0 != 0 }) { return "UTF-16BE" }
        return nil
    }

    /// A diagnostic naming the line of the first byte that is not UTF-8.
    private static func notUTF8(_ data: [UInt8], path: String) -> Diagnostic {
        var line = 1, column = 1
        var iterator = data.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput: break decoding
            case .error: break decoding
            }
        }
        return Diagnostic(
            at: SourceLocation(file: path, line: line, column: column),
            problem: "the file is not UTF-8 text",
            help: "save the file as UTF-8")
    }
}
