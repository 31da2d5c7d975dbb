import Foundation

/// The text and syntax tree of the story files a run parsed last, kept for
/// its reports, which would otherwise read and parse each file again
/// (``StoryFileInfo``).
///
/// The feed (``StoryFeed``) keeps each file it parses here; a report takes
/// a file out when the file's first story finishes. Only the last few files
/// are kept, at most ``limit`` files and ``byteLimit`` bytes of text, the
/// oldest going first: a file the reports ask for after it went is read and
/// parsed again, so memory stays flat however far the reports lag.
///
/// Unchecked `Sendable`: the list is read and changed under a lock.
final class RecentParses: @unchecked Sendable {
    /// One file as the run read and parsed it.
    struct Parse: Sendable {
        /// The file's text.
        var text: String
        /// The syntax tree of a `.feature` file that parses; nil for
        /// `.stories` files and files with errors.
        var document: GherkinDocument?
        /// The first id the file's pickles take (see ``GherkinParser``).
        var nextID: Int
    }

    /// Whether only the files that hold an outline's rows are kept: when
    /// JUnit is the only report that reads story files, which it does only
    /// to name a row (``Story/isOutlineRow``). Other files' trees would
    /// wait here for a report that never takes them.
    let keepsOnlyRowFiles: Bool

    /// - Parameter keepsOnlyRowFiles: Whether to keep only the files that
    ///   hold an outline's rows (see ``keepsOnlyRowFiles``).
    init(keepsOnlyRowFiles: Bool = false) {
        self.keepsOnlyRowFiles = keepsOnlyRowFiles
    }

    /// Whether a feature file whose stories are these is worth keeping.
    func wants(_ stories: [Story]) -> Bool {
        !keepsOnlyRowFiles || stories.contains(where: \.isOutlineRow)
    }

    /// How many files are kept at most.
    static let limit = 64
    /// How much text the kept files may hold, in bytes.
    static let byteLimit = 8 << 20

    /// The files, oldest first.
    private var parses: [(path: String, parse: Parse)] = []
    /// The text the kept files hold, in bytes.
    private var keptBytes = 0
    private let lock = NSLock()

    /// Keeps a file's parse, in place of any kept before for the path.
    func keep(_ parse: Parse, for path: String) {
        // Foundation drops a byte order mark that the feed's text keeps: a
        // report reads such a file itself, as before.
        guard !parse.text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) else { return }
        let bytes = parse.text.utf8.count
        let dropped: [(path: String, parse: Parse)] = lock.withLock {
            var dropped: [(path: String, parse: Parse)] = []
            if let index = parses.firstIndex(where: { $0.path == path }) {
                keptBytes -= parses[index].parse.text.utf8.count
                dropped.append(parses.remove(at: index))
            }
            parses.append((path, parse))
            keptBytes += bytes
            while parses.count > Self.limit || (keptBytes > Self.byteLimit && parses.count > 1) {
                keptBytes -= parses[0].parse.text.utf8.count
                dropped.append(parses.removeFirst())
            }
            return dropped
        }
        // Freed here, outside the lock.
        _ = consume dropped
    }

    /// Takes the parse of a file out, if it is kept.
    func take(_ path: String) -> Parse? {
        lock.withLock {
            guard let index = parses.firstIndex(where: { $0.path == path }) else { return nil }
            keptBytes -= parses[index].parse.text.utf8.count
            return parses.remove(at: index).parse
        }
    }
}
