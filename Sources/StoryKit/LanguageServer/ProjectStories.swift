import Foundation

/// The story files of the workspace, read from disk and parsed once each
/// until a file changes: what completion and find references look through
/// besides the open documents.
struct ProjectStories {
    /// The workspace folder.
    var root: String {
        didSet { forget() }
    }
    /// The stories of each file, by path, with the file's modification time.
    private var parsed: [String: (modified: Date, stories: [Story])] = [:]
    /// The story files under the root, found on first use.
    private var files: [String]?

    /// The most files read: a huge workspace is not walked further.
    static let fileLimit = 2_000

    init(root: String) {
        self.root = root
    }

    /// Forgets the files found, after the workspace changed.
    mutating func forget() {
        files = nil
    }

    /// The stories of every story file under the root, by path; a file
    /// that is open is read from `open` instead.
    mutating func stories(replacing open: [String: StoryDocument]) -> [(path: String, stories: [Story])] {
        if files == nil {
            files = StoryLoader.folderFiles(root).files.filter { path in
                !path.contains("/.build/") && !path.contains("/.git/")
            }.prefix(Self.fileLimit).map { $0 }
        }
        let openByPath = Dictionary(open.values.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var out: [(String, [Story])] = []
        for path in files ?? [] where openByPath[path] == nil {
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
            if let cached = parsed[path], cached.modified == modified {
                out.append((path, cached.stories))
                continue
            }
            let stories = StoryLoader.parseFile(at: path).stories
            parsed[path] = (modified, stories)
            out.append((path, stories))
        }
        for document in open.values { out.append((document.path, document.stories)) }
        return out
    }
}
