import Foundation

/// Writes the stories that failed or were undefined as Cucumber's rerun
/// format does: one file a line, `path:line:line…`, files in the order
/// their first failure came. `storyrun @FILE` reads it back.
///
/// Every story whose verdict the run left open is there too, so that
/// `storyrun … --rerun r.txt || storyrun @r.txt` never turns a failed run
/// green: the stories that did not run (`--fail-fast`, an interrupt, a
/// worker that could not start or a before-run hook that failed), the
/// pending ones under `--strict`, and, when a before-run or after-run hook
/// failed, every story that ran (running them again runs the hooks again).
/// Before, such a run wrote an empty file, and `storyrun @r.txt` said
/// "nothing to rerun" and exited 0.
///
/// A story file the run rejected (a bad line, a file that cannot be read)
/// is listed whole, without lines: its stories that could run were run,
/// but the run exited 2, and a rerun must read the file again (and fail
/// again until it is fixed), not pass without it.
///
/// The whole line up to the lines is the path, so a path with spaces needs
/// no quoting: `my stories/a b.stories:3:9`. An outline's example is named
/// by its row's line, which selects just that example again.
public struct RerunReporter: Reporter {
    private let path: String
    private var files: [String] = []
    private var lines: [String: [Int]] = [:]
    private let isStrict: Bool
    /// The stories that ran and are not listed (yet): listed when a run
    /// hook failed. By file, a run of lines each, in the order they ran: a
    /// line is 8 bytes, where a whole location was 32 (3 MB held to the end
    /// of a run of 100,000 stories).
    private var others: [(file: String, lines: [Int])] = []

    /// Creates a reporter that writes to a path when the run is over.
    public init(path: String, isStrict: Bool = false) {
        self.path = path
        self.isStrict = isStrict
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyFinished(let result):
            if result.status == .failed || result.status == .undefined || isStrict && result.status == .pending {
                add(result.story.location)
            } else {
                let location = result.story.location
                if others.last?.file == location.file {
                    others[others.count - 1].lines.append(location.line)
                } else {
                    others.append((location.file, [location.line]))
                }
            }
        case .runFinished(let summary):
            for file in summary.rejectedFiles {
                list(file)
                rejected.insert(file)
            }
            for location in summary.notRunStories { add(location) }
            if summary.failedHooks > 0 {
                for (file, lines) in others {
                    for line in lines { add(SourceLocation(file: file, line: line)) }
                }
            }
            others = []
        default: break
        }
    }

    /// Puts a file on the list, once, in the order files come.
    private mutating func list(_ file: String) {
        guard lines[file] == nil else { return }
        files.append(file)
        lines[file] = []
    }

    private mutating func add(_ location: SourceLocation) {
        let file = location.displayPath
        list(file)
        // A set, not a search of the list: with a failed run hook every
        // story of a big run is listed.
        if listed[file, default: []].insert(location.line).inserted {
            lines[file, default: []].append(location.line)
        }
    }
    private var listed: [String: Set<Int>] = [:]
    /// Story files with an error: listed whole.
    private var rejected: Set<String> = []

    public mutating func finish() throws {
        try AtomicFile.write(text, to: path)
    }

    /// The file's text.
    var text: String {
        files.map { file in
            rejected.contains(file) ? file + "\n" : ([file] + lines[file, default: []].map(String.init)).joined(separator: ":") + "\n"
        }.joined()
    }

    /// The `PATH:LINE…` arguments in a rerun file's text: each line is one,
    /// whole (so paths may hold spaces). A line whose path is not there but
    /// whose words are (Cucumber-Ruby writes `a.feature:3 b.feature:9` on
    /// one line) gives its words.
    static func entries(in text: String, exists: (String) -> Bool) -> [String] {
        var entries: [String] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let entry = line.trimmingCharacters(in: .whitespaces)
            guard !entry.isEmpty else { continue }
            let words = entry.split(whereSeparator: \.isWhitespace).map(String.init)
            if words.count > 1, !exists(pathPart(of: entry)), words.allSatisfy({ exists(pathPart(of: $0)) }) {
                entries += words
            } else {
                entries.append(entry)
            }
        }
        return entries
    }

    /// `a b.stories` of `a b.stories:3:9`.
    private static func pathPart(of entry: String) -> String {
        var parts = entry.split(separator: ":", omittingEmptySubsequences: false)
        while parts.count > 1, Int(parts.last!) != nil { parts.removeLast() }
        return parts.joined(separator: ":")
    }
}
